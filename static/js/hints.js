// Hints: the server finds the step; the page shows it a stage at a time and never applies it by
// itself. This module is what every board needs of them: asking (the request goes through the sync
// queue, which alone talks to the server), closing the panel and taking its marks off the board
// (view.js draws them from game.hint.marks, with the candidates a hint draws in cells that hold no
// notes). What shows a hint, and the action its last stage ends in, is hint-panel.js's, loaded with
// the first press: most boards never ask.

import { positionKey } from "./sudoku.js";
import { Transient } from "./sync.js";
import { render, renderKeypad, showNotice } from "./view.js";

/** The panel's module, asked for once: it loads while the server finds the hint. */
let panelModule = null;
export const hintPanel = () => (panelModule ??= import("./hint-panel.js"));

/**
 * Ask for the next stage of a hint on the board as it is now (the same position a save sends;
 * the server does not save it). The answer is only shown: the board never changes by itself.
 * Whatever goes wrong is said in the hint panel and the game carries on.
 */
export async function askHint(game) {
  const { hint } = game;
  if (!game.canPlay || game.solved || game.paused || hint.busy) return;
  const sent = game.board;
  const key = positionKey(sent);
  if (hint.shown?.final && hint.key === key) return; // All of it is on screen already.
  if (!hint.shown && hint.last && hint.key === key) {
    // Closed, on the same position: the button said "Hint", and shows what was closed again.
    (await hintPanel()).showHint(game, hint.last);
    render(game);
    return;
  }
  hint.busy = true;
  renderKeypad(game);
  // null: it could not load (offline); the next press tries again.
  const panel = hintPanel().catch(() => (panelModule = null));
  // The first hint of a solve that has had no help yet costs its rank: the player says yes first
  // (hint-panel.js asks), and Cancel asks the server nothing.
  if (!game.hints && !game.checks && !(await (await panel)?.confirmHint(game))) {
    hint.busy = false;
    render(game);
    if (!(await panel)) showNotice(game, NO_PANEL);
    return;
  }
  let reply = null;
  try {
    reply = await game.sync.hint(sent);
  } catch (error) {
    if (!(error instanceof Transient)) console.error(error);
  }
  const show = await panel;
  hint.busy = false;
  if (game.solved) return; // Solved meanwhile (another device): the results replace any hint.
  if (show) show.onHintReply(game, key, reply);
  else showNotice(game, NO_PANEL);
  render(game);
}

const NO_PANEL = "Could not show the hint. Check your connection and try again.";

/** True while the panel shows a hint or an error. */
export function hintOpen(game) {
  return Boolean(game.els.hintPanel?.dataset.state);
}

/** Empty the panel and take the marks off the board (the next press still goes on from there). */
export function clearHint(game) {
  const { els } = game;
  if (!els.hintPanel) return;
  game.hint.shown = null;
  game.hint.marks = new Map();
  // Emptying the panel or hiding its focused button (close, or the action just pressed) would
  // drop focus to the page: hand it to the grid first.
  if (els.hintPanel.contains(document.activeElement)) els.cells[game.cursor].focus();
  delete els.hintPanel.dataset.state;
  els.hintBody.replaceChildren();
  els.hintClose.hidden = true;
}

/** The player closes the panel (its button, or Escape). */
export function closeHint(game) {
  clearHint(game);
  render(game);
}

/** After the board changes: a hint for another position, or an error, no longer applies. */
export function dropStaleHint(game) {
  if (!hintOpen(game)) return;
  if (!game.hint.shown || positionKey(game.board) !== game.hint.key) clearHint(game);
}
