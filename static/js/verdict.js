// A solve's standing while the server checks its time for the leaderboard (the fair-play judge
// runs just after the submit's answer: puzzles/fairplay/judge.py). The standing says so
// (templates/puzzles/_results.html, data-verdict=checking); this asks for the results again, with
// growing waits, and once the solve is judged puts its standing and the day's leaderboard in
// place. Loaded only then: by results.html's page, or by results.js when the fragment says so.

// Waits before each try, in ms: the judge usually answers within a second; about a minute in all.
export const WAITS = [800, 1200, 2000, 3000, 5000, 8000, 12000, 20000];

/** The results section of a fetched fragment, or null. */
function resultsOf(html) {
  const template = document.createElement("template");
  template.innerHTML = html; // our own server's fragment, parsed inert
  return template.content.querySelector("#sudoku-results");
}

/** Put the judged standing's words inside the one on the page (a live region, kept, so that a
 * screen reader reads out the change), and the fresh receipt and leaderboard (the day's median
 * and board, which a ranked solve moves) in place of the old. */
function settle(verdict, fresh) {
  const judged = fresh.querySelector("#sudoku-verdict");
  verdict.replaceChildren(...judged.childNodes);
  verdict.dataset.verdict = judged.dataset.verdict;
  delete verdict.dataset.resultsUrl;
  const parts = verdict.ownerDocument.getElementById("sudoku-results-parts");
  const freshParts = fresh.querySelector("#sudoku-results-parts");
  if (parts && freshParts) parts.replaceWith(freshParts);
}

/** Ask again until the solve is judged (then settle) or the tries run out (then say so). */
async function poll(verdict, sleep) {
  const url = verdict.dataset.resultsUrl;
  for (const wait of WAITS) {
    await sleep(wait);
    if (!verdict.isConnected) return;
    try {
      const response = await fetch(url, { headers: { Accept: "text/html" }, credentials: "same-origin" });
      if (!response.ok) continue;
      const fresh = resultsOf(await response.text());
      if (fresh?.querySelector("#sudoku-verdict[data-verdict=final]")) {
        settle(verdict, fresh);
        return;
      }
    } catch {
      // offline for a moment: the next try may do
    }
  }
  const line = verdict.querySelector(".results-standing");
  if (line) line.textContent = "Your time is taking longer than usual to check: reload the page in a while to see your rank.";
}

/** Watch every standing being checked under `root`, each once. */
export function watch(root, sleep = (ms) => new Promise((done) => setTimeout(done, ms))) {
  for (const verdict of root.querySelectorAll("[data-verdict=checking]")) {
    if (verdict.dataset.watched) continue;
    verdict.dataset.watched = "true";
    poll(verdict, sleep);
  }
}

if (globalThis.document) watch(document);
