// The print page's Print button (templates/puzzles/print.html): the browser's print dialog, with
// print.css laying out the sheets. Hidden until this runs, as it does nothing without scripts.
const button = document.getElementById("print-button");
if (button) {
  button.hidden = false;
  button.addEventListener("click", () => window.print());
}
