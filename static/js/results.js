// The results under the board (receipt, leaderboard, standing, the share box), loaded with the
// solve: a board that is never solved never downloads them, their stylesheets or the share
// buttons. play.js imports this module when the puzzle is solved, or opens solved.

import "./share.js"; // the Share and Copy buttons, by delegation on the document
import { stylesheet } from "./view.js";

/**
 * The results, fetched once the solve is recorded and put in the page once their stylesheets are
 * in use (the slot's data-css), so they never show unstyled; on failure a line with a button to
 * try again. `focus`: move focus to them (a retry).
 */
export async function loadResults(game, focus = false) {
  const slot = game.els.resultsSlot;
  if (!slot || !game.sync.urls.results || game.results === "loading" || game.results === "loaded") return;
  game.results = "loading";
  slot.setAttribute("aria-busy", "true");
  const styled = Promise.all((slot.dataset.css ?? "").split(" ").filter(Boolean).map(stylesheet));
  const html = await game.sync.results();
  let section = null;
  if (html !== null) {
    // Our own server's fragment: parsed inert in a template, then moved into the page.
    const template = document.createElement("template");
    template.innerHTML = html;
    section = template.content.querySelector("#sudoku-results[data-solved=true]");
  }
  if (section) await styled;
  slot.removeAttribute("aria-busy");
  game.results = section ? "loaded" : "failed";
  if (section) {
    slot.replaceChildren(section);
    // A review still being prepared asks again by itself; its module comes only then.
    if (section.querySelector("[data-review-state=preparing]")) import("./review.js").then((m) => m.watch(section), () => {});
    // So does a time still being checked for the leaderboard (verdict.js).
    if (section.querySelector("[data-verdict=checking]")) import("./verdict.js").then((m) => m.watch(section), () => {});
    if (focus) {
      section.tabIndex = -1;
      section.focus();
    }
    return;
  }
  const line = document.createElement("p");
  line.className = "sudoku-results-failed";
  const retry = document.createElement("button");
  retry.type = "button";
  retry.className = "link";
  retry.textContent = "Try again";
  retry.addEventListener("click", () => loadResults(game, true));
  line.append("Could not load the results. ", retry);
  slot.replaceChildren(line);
  if (focus) retry.focus(); // The button pressed is gone: its successor takes the focus.
}
