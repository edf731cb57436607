// How to play on the board: a dialog that opens by itself on a player's first board, once, and
// whenever a "How to play" link is followed (the header's, the keyboard reference's); without
// this script those links lead to the page of its own. This module only decides whether it may
// be needed: the dialog and the rest (howto-dialog.js) load when it is, so the board stays light
// for the many who saw it long ago.

// "seen": on this device; "saved": the player's setting says so too.
const SEEN_KEY = "sudoku:howto";

const board = document.getElementById("sudoku");
const howto = document.getElementById("howto");
const rest = () => import("./howto-dialog.js");

if (board && howto) {
  document.addEventListener("click", async (e) => {
    const link = e.target.closest?.("a[data-howto-open]");
    if (!link || e.defaultPrevented || e.button > 0 || e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault();
    (await rest()).openHowto(board, howto, link);
  });
  whenReady(async (ready) => {
    // A board already solved (on another device, say) shows its time: how to play waits for one to play.
    if (board.classList.contains("is-solved")) return;
    // Storage refused (a private window): never risk showing it on every board.
    let here = "saved";
    try {
      here = localStorage.getItem(SEEN_KEY);
    } catch {
      // "saved", as above
    }
    // A visitor who saw it here, or a player whose setting says so: nothing more to load.
    if (here === "saved" || (here && ready !== "true")) return;
    (await rest()).firstBoard(board, howto, ready === "true", here);
  });
}

/** Call `then(ready)` once board.js has said who is here: "true" for a player, "visitor". */
function whenReady(then) {
  if (board.dataset.ready) {
    then(board.dataset.ready);
    return;
  }
  const watcher = new MutationObserver(() => {
    if (!board.dataset.ready) return;
    watcher.disconnect();
    then(board.dataset.ready);
  });
  watcher.observe(board, { attributes: true, attributeFilter: ["data-ready"] });
}
