// A Copy button for a read-only field (a league's invite link): the page marks the button with
// data-copy="<the field's id>" and leaves it hidden, for without this script it could do nothing.
// The text goes to the clipboard; when the browser refuses, the field's text is selected for the
// player to copy, and the status line (data-status="<its id>") says which happened.

for (const button of document.querySelectorAll("button[data-copy]")) {
  const field = document.getElementById(button.dataset.copy);
  const status = document.getElementById(button.dataset.status);
  if (!field) continue;
  button.hidden = false;
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(field.value);
      if (status) status.textContent = "Copied: send it to your friends.";
    } catch {
      field.focus();
      field.select();
      if (status) status.textContent = "Selected: press Ctrl+C (or ⌘C) to copy it.";
    }
  });
}
