// The how-to-play dialog on the board, loaded by howto.js when it may be needed: whether a first
// board opens it by itself, its words brought from the page of its own, the game paused while it
// is open on a running clock (reading is not solving), focus back where it was when it closes.
//
// Once is remembered on the server for a player (a guest too: the "seen_howto" setting, carried
// into the account they sign up for) and on this device for a visitor, who is not a player until
// their first move. A device that saw it as a visitor tells the server when it next opens a board
// as a player.
//
// It imports nothing back from howto.js: a second copy of that module would wire its links twice.

const SEEN_KEY = "sudoku:howto"; // howto.js's: "seen" on this device, "saved" the player's setting too

let opener = null; // where focus goes back to
let pausedHere = false; // the clock was running and this dialog paused it

/** A first board: a visitor who has not seen it here, or a player (`here` is this device's word). */
export async function firstBoard(board, howto, player, here) {
  if (!player) {
    openHowto(board, howto, null);
    return;
  }
  if (here === "seen") {
    saveSeen(board); // seen as a visitor, before this player existed
    return;
  }
  let settings = null;
  try {
    const response = await fetch(board.dataset.apiSettings, { headers: { Accept: "application/json" } });
    settings = response.ok ? (await response.json()).settings : null;
  } catch {
    // Offline: not now, rather than on every board.
  }
  if (settings?.seen_howto) keep("saved");
  else if (settings) openHowto(board, howto, null);
}

/** Open the dialog from `from` (a link; null when it opens by itself). */
export function openHowto(board, howto, from) {
  if (howto.open) return;
  if (!howto.dataset.wired) {
    howto.dataset.wired = "yes";
    document.head.append(Object.assign(document.createElement("link"), { rel: "stylesheet", href: howto.dataset.css }));
    howto.addEventListener("close", () => closed(board));
  }
  opener = from;
  const pause = document.getElementById("sudoku-pause");
  pausedHere = board.dataset.ready === "true" && !pause.hidden && document.getElementById("sudoku-paused").hidden;
  if (pausedHere) pause.click();
  howto.showModal();
  fill(howto);
}

function closed(board) {
  if (pausedHere) document.getElementById("sudoku-resume").click();
  pausedHere = false;
  // Back to the link, unless it has gone from view (a phone's Menu closed behind the dialog): the grid then.
  const back = opener?.getClientRects().length ? opener : document.querySelector('#sudoku-grid [tabindex="0"]');
  back?.focus();
  // Remembered here, and for a player on the server.
  if (seenHere() === "saved") return;
  keep("seen");
  if (board.dataset.ready === "true") saveSeen(board);
}

/** The words, brought once from the page of its own, its section headings a level down under the dialog's title. */
async function fill(howto) {
  const body = howto.querySelector("#howto-body");
  if (body.dataset.filled) return;
  body.dataset.filled = "loading";
  try {
    const response = await fetch(howto.dataset.url, { headers: { Accept: "text/html" } });
    if (!response.ok) throw new Error(`error ${response.status}`);
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const parts = [...page.querySelectorAll("#howto-body > .howto-part")];
    if (!parts.length) throw new Error("no parts");
    for (const heading of page.querySelectorAll("#howto-body h2")) {
      const lower = page.createElement("h3");
      lower.id = heading.id;
      lower.append(...heading.childNodes);
      heading.replaceWith(lower);
    }
    body.replaceChildren(...parts.map((part) => document.importNode(part, true)));
    body.dataset.filled = "yes";
  } catch {
    delete body.dataset.filled; // the next opening tries again
    const link = Object.assign(document.createElement("a"), { href: howto.dataset.url, textContent: "its own page" });
    const line = document.createElement("p");
    line.append("It could not be loaded just now: close this and try again, or read it on ", link, ".");
    body.replaceChildren(line);
  }
}

function seenHere() {
  try {
    return localStorage.getItem(SEEN_KEY);
  } catch {
    return "saved";
  }
}

function keep(value) {
  try {
    localStorage.setItem(SEEN_KEY, value);
  } catch {
    // Private mode: a player's setting still holds it.
  }
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
