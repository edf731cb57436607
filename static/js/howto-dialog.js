// The how-to-play dialog on the board, loaded when it first opens (howto.js): its words brought
// from the page of its own, the game paused while it is open on a running clock (reading is not
// solving), and focus back where it was when it closes.

// It imports nothing: howto.js loads it by a dynamic import, which production's hashed names
// (sudokusite/storage.py) leave as it is, so an import back would load a second howto.js.

let opener = null; // where focus goes back to
let pausedHere = false; // the clock was running and this dialog paused it

/** Open the dialog from `from` (a link; null when it opens by itself); `remember()` when it closes. */
export function openHowto(board, howto, from, remember) {
  if (howto.open) return;
  if (!howto.dataset.wired) {
    howto.dataset.wired = "yes";
    document.head.append(Object.assign(document.createElement("link"), { rel: "stylesheet", href: howto.dataset.css }));
    howto.addEventListener("close", () => closed(remember));
  }
  opener = from;
  const pause = document.getElementById("sudoku-pause");
  pausedHere = board.dataset.ready === "true" && !pause.hidden && document.getElementById("sudoku-paused").hidden;
  if (pausedHere) pause.click();
  howto.showModal();
  fill(howto);
}

function closed(remember) {
  if (pausedHere) document.getElementById("sudoku-resume").click();
  pausedHere = false;
  const back = opener?.isConnected && !opener.closest("[hidden]") ? opener : document.querySelector('#sudoku-grid [tabindex="0"]');
  back?.focus();
  remember();
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
