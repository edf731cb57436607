// What the player's moves and the server's answers do to the game: the selection, entries, undo
// and redo (kept on this device, and fitted to a board that took another device's moves), the
// always-on candidates, the entry mode, pause and the clock, the server's board taking over (or
// this device's entries put back on top of it), and the solve. Each change is drawn by view.js
// and goes to the server through the sync queue (game.sync).

import { SIZE, changedCells, enterMany, eraseCells, isFull, movesBetween, sameEntries } from "./sudoku.js";
import { cutNotice, fitHistory, notesBack, pushHistory, redo, undo } from "./undo.js";
import { clearHint, dropStaleHint } from "./hints.js";
import { newClock } from "./state.js";
import {
  celebrate, render, renderKeypad, showAlert, showNotice, showPaused, showSolvedBoard, showTime,
} from "./view.js";

// ---- The selection: a cursor (the focused cell) and the cells selected with it. ----

/**
 * Select cell i and make it the cursor (the roving tabindex follows); optionally move focus there.
 * `how`: "only" (a plain click or arrow), "add" (Shift, a drag), "toggle" (Ctrl or Cmd and a click).
 */
export function select(game, i, focus, how = "only") {
  const selection = new Set(how === "only" ? [] : game.selection);
  if (how === "toggle" && selection.has(i) && selection.size > 1) {
    selection.delete(i);
  } else {
    selection.add(i);
  }
  game.selection = selection;
  game.cursor = i;
  render(game);
  if (focus && document.activeElement !== game.els.cells[i]) game.els.cells[i].focus();
}

/** Every cell (Ctrl+A); the cursor stays where it is. */
export function selectAll(game) {
  game.selection = new Set(Array.from({ length: SIZE }, (_, i) => i));
  render(game);
}

/** Back to the cursor alone (Escape). True if there was more to clear. */
export function clearSelection(game) {
  if (game.selection.size <= 1) return false;
  game.selection = new Set([game.cursor]);
  render(game);
  return true;
}

/** The selected cells, the cursor's first when it is one of them (Ctrl+click can take it out). */
function selectedCells(game) {
  const others = [...game.selection].filter((i) => i !== game.cursor);
  return game.selection.has(game.cursor) ? [game.cursor, ...others] : others;
}

// ---- Entries. ----

/** A digit, a note or a colour (`kind`: a mode) in every selected cell. */
export function enterDigit(game, d, kind = game.mode) {
  change(game, enterMany(game.board, selectedCells(game), d, kind, { removeNotes: game.settings.remove_notes }));
}

/** Erase in every selected cell (in colour mode, their colours). */
export function eraseSelection(game) {
  change(game, eraseCells(game.board, selectedCells(game), game.mode));
}

/**
 * Make `next` the board: one undo step, a redraw, a save, and a submit when the grid is full.
 * The notes follow the change in the same step: with always-on candidates the candidates, else
 * a digit taken out gives its peers back the notes it took (undo.js notesBack). `keep` false:
 * the change has set the notes itself (Restart, turning the candidates on).
 */
export function change(game, next, { keep = true } = {}) {
  // candidates.js: here whenever the setting is on (tools.js candidatesReady).
  const always = game.candidates;
  const layer = always?.AUTO_LAYERS[game.settings.auto_candidates];
  if (layer && keep) ({ board: next, removed: game.removed } = always.keepCandidates(game.board, next, layer, game.removed));
  else if (keep) next = notesBack(game.history, game.board, next);
  if (next === game.board || sameEntries(next, game.board)) return;
  game.history = pushHistory(game.history, game.board, next);
  const before = game.board;
  game.board = next;
  afterChange(game, before);
}

/** Undo or redo one step. */
export function travel(game, direction) {
  const step = (direction === "undo" ? undo : redo)(game.history, game.board);
  if (!step) return;
  const before = game.board;
  [game.history, game.board] = step;
  afterChange(game, before);
}

/**
 * What every change of the board sets off. Every change the player makes comes through here, so
 * this is where it becomes moves for the record of play: the difference from the board `before`.
 */
function afterChange(game, before) {
  const cells = changedCells(before, game.board);
  showAlert(game, "");
  // A checked cell's mark goes once its digit changes: the check said nothing of the new one.
  for (const i of cells) game.wrong.delete(i);
  dropStaleHint(game);
  render(game);
  keepHistory(game);
  game.sync.changed(isFull(game.board), cells, movesBetween(before, game.board));
  // Show mistakes: a digit placed is checked by the server (mistakes.js, loaded with the first).
  if (game.settings.show_mistakes) import("./mistakes.js").then((m) => m.placed(game, before), () => {});
  if (game.clock.since === null) updateClock(game); // a visitor's first move starts the clock
}

/** Keep the undo history (and the removed candidates) on this device, for a reload. */
export function keepHistory(game) {
  game.undoCopy?.write(game.history, game.removed);
}

/**
 * The history this device kept for the board now on screen (a reload), fitted to it: cut where
 * another device changed a digit since. Returns what the player should read about a cut, or "".
 */
export function restoreHistory(game) {
  const kept = game.undoCopy?.read();
  if (!kept) return "";
  const { history, cut } = fitHistory(kept.history, game.board);
  game.history = history;
  if (kept.removed) game.removed = kept.removed;
  if (cut) keepHistory(game);
  return cutNotice(cut);
}

/** `board` took moves from elsewhere: the history is fitted to it; the notice, with a word on any cut. */
function fitTo(game, board, notice) {
  const { history, cut } = fitHistory(game.history, board);
  game.history = history;
  keepHistory(game);
  const more = cutNotice(cut);
  if (!more || !notice) return notice || more;
  return `${notice.replace(/\.?$/, ".")} ${more}`;
}

/** Digit, corner, centre or colour: what a plain digit key or keypad digit does. */
export function setMode(game, mode) {
  game.mode = mode;
  renderKeypad(game);
}

// ---- Pause, visibility and the clock. The clock only displays; the server measures. ----

/** True while time counts: playing, not paused, tab visible. */
export function running(game) {
  return game.canPlay && !game.solved && !game.paused && !document.hidden && !game.sync.awaitingFirstMove;
}

/** The time on screen now (seconds), before the never-backwards rule. */
function clockNow(game) {
  const { base, since } = game.clock;
  return base + (since === null ? 0 : (performance.now() - since) / 1000);
}

/**
 * Start or stop the clock to match `running`, and tell the server when time starts or stops
 * counting (an "open" or a "close" beat), so both count the same stretches of time.
 */
export function updateClock(game) {
  const was = game.clock.since !== null;
  game.clock.base = clockNow(game);
  const now = running(game);
  game.clock.since = now ? performance.now() : null;
  tickClock(game);
  if (now !== was && game.canPlay && !game.solved) game.sync.requestBeat(now ? "open" : "close");
}

/**
 * The server's count. Both count the same stretches, so they differ by the network's delay at
 * most, and the screen keeps its own (smooth) count; only when the server is clearly ahead (time
 * counted on another device meanwhile) does the screen catch up. Never backwards.
 */
export function setElapsed(game, seconds) {
  if (typeof seconds !== "number" || game.solved) return;
  if (seconds > clockNow(game) + 2) {
    game.clock.base = seconds;
    if (game.clock.since !== null) game.clock.since = performance.now();
  }
  tickClock(game);
}

/** Redraw the timer; what it shows never goes down while the puzzle is unsolved. */
export function tickClock(game) {
  const seconds = clockNow(game);
  game.clock.shown = game.solved ? seconds : Math.max(game.clock.shown ?? 0, seconds);
  showTime(game, game.clock.shown);
}

/** Pausing hides the grid (no peeking) and stops the clock; the server hears when it stops and starts. */
export function setPaused(game, paused) {
  if (game.solved) return;
  game.paused = paused;
  showPaused(game, paused);
  updateClock(game);
  if (paused) game.els.resume.focus();
  else game.els.cells[game.cursor].focus();
}

// ---- The server's word. ----

/** Put the server's position on the board (another tab or device saved first). */
export function adopt(game, server, notice) {
  const changed = !sameEntries(server.board, game.board);
  // The player's steps still undo on the server's board, up to one whose digit it changed.
  const said = fitTo(game, server.board, notice);
  game.board = server.board;
  game.wrong.clear();
  if (server.solved) showSolved(game, server.solveSeconds ?? server.elapsed);
  else setElapsed(game, server.elapsed);
  dropStaleHint(game);
  render(game);
  if (said && changed) showNotice(game, said);
  markAgain(game);
}

/**
 * The server's newer position with this device's unsaved entries on top (sync.rebase): the undo
 * steps stay, fitted to the merged board, and the player hears what changed.
 */
export function rebase(game, server, notice) {
  const said = fitTo(game, server.board, notice);
  game.board = server.board;
  game.wrong.clear();
  setElapsed(game, server.elapsed);
  dropStaleHint(game);
  render(game);
  if (said) showNotice(game, said);
  markAgain(game);
}

/** Show mistakes on: a board that took another position has its marks asked for again. */
function markAgain(game) {
  if (game.settings.show_mistakes) import("./mistakes.js").then((m) => m.ask(game), () => {});
}

/**
 * Solved: the board turns read-only, the clock shows the recorded time, the results load.
 * `justNow`: solved on this page a moment ago (not opened solved), so the board celebrates.
 */
export function showSolved(game, seconds, justNow = false) {
  game.solved = true;
  game.sync.finished();
  game.undoCopy?.clear(); // nothing is left to undo
  game.clock = newClock(Number(seconds) || 0);
  tickClock(game);
  game.selection = new Set([game.cursor]);
  showSolvedBoard(game, seconds);
  if (justNow) celebrate(game);
  clearHint(game);
  import("./results.js").then(
    (results) => results.loadResults(game),
    () => showAlert(game, "Could not load the results: reload the page to see them."), // offline
  );
}
