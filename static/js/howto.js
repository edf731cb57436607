// How to play on the board: a dialog that opens by itself on a player's first board, once, and
// whenever a "How to play" link is followed (the header's, the keyboard reference's); without
// this script those links lead to the page of its own. The dialog itself (howto-dialog.js) is
// loaded when it first opens: most boards never open it, and the page stays light for them.
//
// Once is remembered on the server for a player (a guest too: the "seen_howto" setting, carried
// into the account they sign up for) and on this device for a visitor, who is not a player until
// their first move. A device that saw it as a visitor tells the server when it next opens a board
// as a player.

const SEEN_KEY = "sudoku:howto"; // "seen": on this device; "saved": the player's setting says so too

const root = document.getElementById("sudoku");
const dialog = document.getElementById("howto");
if (root && dialog) wire(root, dialog);

function wire(board, howto) {
  const open = async (from) => (await import("./howto-dialog.js")).openHowto(board, howto, from, () => remember(board));
  document.addEventListener("click", (e) => {
    const link = e.target.closest?.("a[data-howto-open]");
    if (!link || e.defaultPrevented || e.button > 0 || e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault();
    open(link);
  });
  whenReady(board, async (ready) => {
    if (await firstTime(board, ready)) open(null);
  });
}

/** Call `then(ready)` once board.js has said who is here: "true" for a player, "visitor". */
function whenReady(board, then) {
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

function seenHere() {
  try {
    return localStorage.getItem(SEEN_KEY);
  } catch {
    return "saved"; // storage refused (a private window): never risk showing it on every board
  }
}

function keep(value) {
  try {
    localStorage.setItem(SEEN_KEY, value);
  } catch {
    // Private mode: a player's setting still holds it.
  }
}

/** Whether to open it by itself: a visitor who has not seen it here, a player who never has. */
async function firstTime(board, ready) {
  const here = seenHere();
  if (ready !== "true") return !here;
  if (here === "saved") return false;
  if (here === "seen") {
    await saveSeen(board); // seen as a visitor, before this player existed
    return false;
  }
  let settings = null;
  try {
    const response = await fetch(board.dataset.apiSettings, { headers: { Accept: "application/json" } });
    settings = response.ok ? (await response.json()).settings : null;
  } catch {
    // Offline: not now, rather than on every board.
  }
  if (settings?.seen_howto) keep("saved");
  return Boolean(settings) && !settings.seen_howto;
}

/** The dialog closed: remembered here, and for a player on the server. */
function remember(board) {
  if (seenHere() === "saved") return;
  keep("seen");
  if (board.dataset.ready === "true") saveSeen(board);
}

async function saveSeen(board) {
  const cookie = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
  try {
    const response = await fetch(board.dataset.apiSettings, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": decodeURIComponent(cookie?.slice(10) ?? "") },
      body: JSON.stringify({ settings: { seen_howto: true } }),
    });
    if (response.ok) keep("saved");
  } catch {
    // Offline: the next board as a player tries again.
  }
}
