// The Share and Copy buttons after a solve (templates/puzzles/_share.html). The results arrive
// after the page has loaded, so one listener on the document serves every share box there is or
// will be. Share opens the system's share sheet where the browser has one; Copy puts the text on
// the clipboard, and when the browser refuses, the text is selected for the player to copy.

/** What the status line says after each outcome of deliver(). */
export const MESSAGES = {
  shared: "Shared.",
  copied: "Copied: paste it wherever you like.",
  cancelled: "",
  refused: "Your browser would not copy it. The text is selected: press Ctrl+C (⌘C on a Mac) to copy it.",
};

/** Whether this browser has a share sheet to offer. */
export function hasShareSheet(nav) {
  return typeof nav?.share === "function";
}

/**
 * Send `data` ({title, text}) out: through the share sheet for `how` "sheet" where there is
 * one, else (or when the sheet is refused) to the clipboard. Resolves to "shared", "cancelled"
 * (the player closed the sheet), "copied" or "refused" (no clipboard, or it said no).
 */
export async function deliver(how, data, nav) {
  if (how === "sheet" && hasShareSheet(nav) && (typeof nav.canShare !== "function" || nav.canShare(data))) {
    try {
      await nav.share(data);
      return "shared";
    } catch (error) {
      if (error?.name === "AbortError") return "cancelled";
      // Refused (a policy, no user activation left): copying is the next best thing.
    }
  }
  try {
    await nav.clipboard.writeText(data.text);
    return "copied";
  } catch {
    return "refused";
  }
}

function selectText(element) {
  const range = document.createRange();
  range.selectNodeContents(element);
  const selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
}

async function onClick(event) {
  const button = event.target.closest?.("[data-share]");
  const box = button?.closest("[data-share-text]");
  if (!box) return;
  const status = box.querySelector("[role=status]");
  const data = { title: box.dataset.shareTitle, text: box.dataset.shareText };
  delete box.dataset.shareOutcome;
  const outcome = await deliver(button.dataset.share, data, navigator);
  box.dataset.shareOutcome = outcome; // what the last press came to (the tests wait for it)
  if (outcome === "refused") {
    const text = box.querySelector(".share-text");
    if (text) selectText(text);
  }
  if (status) {
    // Emptied first, so the same words said twice in a row are announced again.
    status.textContent = "";
    requestAnimationFrame(() => {
      status.textContent = MESSAGES[outcome];
    });
  }
}

if (typeof document !== "undefined") {
  // share.css shows the Share button only on a page marked so.
  if (hasShareSheet(navigator)) document.documentElement.dataset.webShare = "true";
  document.addEventListener("click", onClick);
}
