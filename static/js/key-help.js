// The keyboard reference under the board (the page's "Keyboard shortcuts"): every key the board
// understands and what it does. view.js loads this when the reference is first opened, so a
// player who never opens it (and every player on a touch screen, who never sees it) does not
// download it.

/**
 * The keyboard reference, as [keys, meaning] pairs for a <dl>: every key keys.js's keyAction
 * understands (tests/js/keys.test.mjs holds the two to each other). "Ctrl/Cmd" is Ctrl, or Cmd on a Mac.
 */
export const KEY_HELP = [
  ["Arrow keys", "Move to the next cell"],
  ["Shift+arrow keys, Ctrl/Cmd+arrow keys", "Move and add the cell to the selection"],
  ["Home, End", "Go to the first or last cell of the row"],
  ["Ctrl/Cmd+Home, Ctrl/Cmd+End", "Go to the first or last cell of the grid"],
  ["Ctrl/Cmd+A", "Select every cell"],
  ["Escape", "Close the hint, or keep only the focused cell selected"],
  ["1–9", "Enter the digit in the current mode"],
  ["Shift+1–9", "Corner note"],
  ["Ctrl/Cmd+1–9", "Centre note"],
  ["Alt/Option+1–9", "Colour"],
  ["Z", "Mode: digits"],
  ["X", "Mode: corner notes"],
  ["C", "Mode: centre notes"],
  ["V", "Mode: colours"],
  ["Space, N", "Next mode"],
  ["Backspace, Delete", "Erase"],
  ["Ctrl/Cmd+Z", "Undo"],
  ["Ctrl/Cmd+Y, Ctrl/Cmd+Shift+Z", "Redo"],
  ["H", "Hint"],
];

/** The reference in `list` (a <dl>), once: a term for each key, its meaning beside it. */
export function showKeyHelp(list) {
  if (list.childElementCount) return;
  for (const [keys, meaning] of KEY_HELP) {
    const dt = document.createElement("dt");
    dt.textContent = keys;
    const dd = document.createElement("dd");
    dd.textContent = meaning;
    list.append(dt, dd);
  }
}
