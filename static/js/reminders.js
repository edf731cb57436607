// The reminder settings page, for a player who never saved a choice: offer the browser's own time
// zone instead of the site's, when the list has it, and say so beside the field.
const select = document.getElementById("id_time_zone");
const note = document.querySelector("[data-guess-zone]");
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
if (select && zone && select.value !== zone && [...select.options].some((option) => option.value === zone)) {
  select.value = zone;
  if (note) note.hidden = false;
}
