// What the player's moves and the server's answers do to the game: selection, entries, undo and
// redo, the entry mode, pause and the clock, the server's board taking over, and the solve. Each
// change is drawn by view.js and goes to the server through the sync queue (game.sync).

import { isFull, newHistory, record, redo, sameEntries, undo } from "./sudoku.js";
import { clearHint, dropStaleHint } from "./hints.js";
import { loadResults, render, renderKeypad, showAlert, showNotice, showPaused, showSolvedBoard, showTime } from "./view.js";

/** Select cell i (the roving tabindex follows) and optionally move focus there. */
export function select(game, i, focus) {
  if (game.selected !== i) {
    game.selected = i;
    render(game);
  }
  if (focus && document.activeElement !== game.els.cells[i]) game.els.cells[i].focus();
}

/** Make `next` the board: one undo step, a redraw, a save, and a submit when the grid is full. */
export function change(game, next) {
  if (next === game.board) return;
  game.history = record(game.history, game.board);
  game.board = next;
  afterChange(game);
}

/** Undo or redo one step. */
export function travel(game, direction) {
  const step = (direction === "undo" ? undo : redo)(game.history, game.board);
  if (!step) return;
  [game.history, game.board] = step;
  afterChange(game);
}

/** What every change of the board sets off. */
function afterChange(game) {
  showAlert(game, "");
  dropStaleHint(game);
  render(game);
  game.sync.changed(isFull(game.board));
  if (game.clock.since === null) updateClock(game); // a visitor's first move starts the clock
}

/** Digit, corner or centre: what a plain digit key or keypad digit does. */
export function setMode(game, mode) {
  game.mode = mode;
  renderKeypad(game);
}

// ---- Pause, visibility and the clock. The clock only displays; the server measures. ----

/** True while time counts: playing, not paused, tab visible. */
export function running(game) {
  return game.canPlay && !game.solved && !game.paused && !document.hidden && !game.sync.awaitingFirstMove;
}

/** Fold the running time into the base and start or stop the clock to match `running`. */
export function updateClock(game) {
  const now = performance.now();
  const { clock } = game;
  if (clock.since !== null) clock.base += (now - clock.since) / 1000;
  clock.since = running(game) ? now : null;
  tickClock(game);
}

/** The server's elapsed time wins whenever it tells us. */
export function setElapsed(game, seconds) {
  if (typeof seconds !== "number" || game.solved) return;
  game.clock.base = seconds;
  game.clock.since = running(game) ? performance.now() : null;
  tickClock(game);
}

/** Redraw the timer. */
export function tickClock(game) {
  const { base, since } = game.clock;
  showTime(game, base + (since === null ? 0 : (performance.now() - since) / 1000));
}

/** Pausing hides the grid (no peeking), stops the clock and the beats. */
export function setPaused(game, paused) {
  if (game.solved) return;
  game.paused = paused;
  showPaused(game, paused);
  updateClock(game);
  if (paused) game.els.resume.focus();
  else {
    game.els.cells[game.selected].focus();
    game.sync.requestBeat(); // Restart the server's count now rather than in up to 10 s.
  }
}

// ---- The server's word. ----

/** Put the server's position on the board (another tab or device saved first). */
export function adopt(game, server, notice) {
  const changed = !sameEntries(server.board, game.board);
  game.board = server.board;
  game.history = newHistory(); // The old steps belong to a board that no longer exists.
  if (server.solved) showSolved(game, server.solveSeconds ?? server.elapsed);
  else setElapsed(game, server.elapsed);
  dropStaleHint(game);
  render(game);
  if (notice && changed) showNotice(game, notice);
}

/** Solved: the board turns read-only, the clock shows the recorded time, the results load. */
export function showSolved(game, seconds) {
  game.solved = true;
  game.sync.finished();
  game.clock = { base: Number(seconds) || 0, since: null };
  tickClock(game);
  showSolvedBoard(game, seconds);
  clearHint(game);
  loadResults(game);
}
