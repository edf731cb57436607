// The review of a solve, while it is being prepared (templates/puzzles/_review.html): asks its
// address again, a few times with growing waits, and puts the review in place once it is there.
// Loaded only then: by results.html's page, or by results.js when the fragment it brought says so.

// Waits before each try, in ms: about two minutes in all, then the page says to come back later.
export const WAITS = [1500, 2500, 4000, 6000, 10000, 15000, 25000, 40000];

/** The fresh section from the fragment's HTML, or null. */
function sectionOf(html) {
  const template = document.createElement("template");
  template.innerHTML = html; // our own server's fragment, parsed inert
  return template.content.querySelector("#sudoku-review");
}

/** Ask again until the review is ready (then swap it in) or the tries run out (then say so). */
async function poll(section, sleep) {
  const url = section.dataset.reviewUrl;
  for (const wait of WAITS) {
    await sleep(wait);
    if (!section.isConnected) return;
    try {
      const response = await fetch(url, { headers: { Accept: "text/html" }, credentials: "same-origin" });
      if (!response.ok) continue;
      const fresh = sectionOf(await response.text());
      if (fresh?.dataset.reviewState === "ready") {
        section.replaceWith(fresh);
        return;
      }
    } catch {
      // offline for a moment: the next try may do
    }
  }
  const line = section.querySelector(".review-preparing");
  if (line) line.textContent = "Your review is taking longer than usual: reload the page in a while to see it.";
}

/** Watch every review being prepared under `root`, each once. */
export function watch(root, sleep = (ms) => new Promise((done) => setTimeout(done, ms))) {
  for (const section of root.querySelectorAll("[data-review-state=preparing]")) {
    if (section.dataset.watched) continue;
    section.dataset.watched = "true";
    poll(section, sleep);
  }
}

if (globalThis.document) watch(document);
