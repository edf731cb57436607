// The board's confirmation: one dialog (the page's #sudoku-confirm), asked before what cannot
// lightly be taken back (a restart) or what costs the solve its rank (a hint, a check, showing
// mistakes). Loaded with the modules that ask (tool-actions.js, hint-panel.js, mistakes.js); it
// imports nothing, so each may import it.

/**
 * Ask, in the dialog, with its `title`, `text` and the `ok` button's word; resolves true if the
 * player confirms, false for Cancel or Escape. A native modal dialog: focus goes into it, stays
 * there, and comes back to where it was (the grid's cursor if that has gone meanwhile).
 */
export function confirmWith(game, { title, text, ok }) {
  const dialog = game.els.confirm;
  dialog.querySelector("#sudoku-confirm-title").textContent = title;
  dialog.querySelector("#sudoku-confirm-text").textContent = text;
  dialog.querySelector("#sudoku-confirm-ok").textContent = ok;
  const opener = document.activeElement;
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      // Back to where the player was: the grid's cursor if the opener has gone (the Tools panel closed).
      const back = opener?.isConnected && !opener.closest("[hidden]") ? opener : game.els.cells[game.cursor];
      back.focus();
      resolve(dialog.returnValue === "ok");
    }, { once: true });
  });
}
