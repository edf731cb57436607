// The undo history, as steps: each step is what one change did, cell by cell and layer by layer
// (what a cell held before it and after it), not a copy of the whole board. So the history still
// undoes the player's own moves after the board took moves from another device (merge.js): a
// step's notes and colours are taken back mark by mark, whatever else came into those cells
// meanwhile; a step's digit is taken back only from a cell that still shows it. Where a step can
// no longer apply (the other device changed that digit), the history is cut there: that step
// and the older ones go, the newer ones stay.
//
// The history is kept on this device (UndoCopy), one entry per player and daily, so a reload
// keeps it; with it, the candidates the player took out of the always-on notes (candidates.js).
// Pure apart from the storage, which is passed in: tests/js/undo.test.mjs runs it on Node.
//
// The history also says which notes a digit took from its peers when it was placed (the step
// that placed it), so erasing that digit can put exactly those back (notesBack).

import { DIGITS, PEERS, valueAt } from "./sudoku.js";

/** The board's four layers: a digit is a number, notes and colours are sorted digit strings. */
const LAYERS = ["digits", "corner", "centre", "colours"];
export const HISTORY_LIMIT = 500; // steps kept in memory
const STORED_STEPS = 200; // steps kept on the device, the newest
const STORED_CHARS = 200_000; // and at most this much of the device's storage for one daily
const BOARDS_KEPT = 10; // histories kept on the device, the most recently written

// ---- Steps. ----

/** A step: [layer, cell, before, after] for each cell and layer the change from `before` to `after` touched. */
export function stepBetween(before, after) {
  const step = [];
  for (const layer of LAYERS) {
    before[layer].forEach((was, i) => {
      if (was !== after[layer][i]) step.push([layer, i, was, after[layer][i]]);
    });
  }
  return step;
}

/** Marks `now` with what went from `from` to `to` done again on top: taken-off marks off, added ones on. */
function moveMarks(now, from, to) {
  return [...DIGITS].filter((d) => (to.includes(d) ? !from.includes(d) || now.includes(d) : !from.includes(d) && now.includes(d)))
    .join("");
}

/**
 * `board` with `step` taken back (`back`) or made again, or null when it cannot be: a digit it
 * changed no longer shows what the step left there. Notes and colours always can, mark by mark.
 */
export function applyStep(board, step, back) {
  const next = { ...board };
  const copied = new Set();
  for (const [layer, i, before, after] of step) {
    const [from, to] = back ? [after, before] : [before, after];
    const now = next[layer][i];
    if (layer === "digits" && now !== from) return null;
    if (!copied.has(layer)) {
      next[layer] = [...next[layer]];
      copied.add(layer);
    }
    next[layer][i] = layer === "digits" ? to : moveMarks(now, from, to);
  }
  return next;
}

// ---- The history: the steps behind the board and the ones undone, ahead of it. ----

/** An empty history. */
export function newHistory() {
  return { past: [], future: [] };
}

/** The change from `before` to `after` becomes the newest step; a new change forgets the redo branch. */
export function pushHistory(history, before, after) {
  const step = stepBetween(before, after);
  if (!step.length) return history;
  return { past: [...history.past, step].slice(-HISTORY_LIMIT), future: [] };
}

/** Step back: [history, board to show], or null when there is nothing to undo (or it cannot apply). */
export function undo(history, board) {
  const step = history.past.at(-1);
  const previous = step && applyStep(board, step, true);
  if (!previous) return null;
  return [{ past: history.past.slice(0, -1), future: [step, ...history.future] }, previous];
}

/** Step forward again: [history, board to show], or null when there is nothing to redo (or it cannot apply). */
export function redo(history, board) {
  const [step, ...rest] = history.future;
  const next = step && applyStep(board, step, false);
  if (!next) return null;
  return [{ past: [...history.past, step], future: rest }, next];
}

/**
 * `next`, a change from `before` that took digits out of cells (Erase, the same digit again or
 * another over it, a hint's erase), with the notes each of those digits took from its peers when it was placed put
 * back: the notes of that digit the newest step changing the cell's digit took out, if that step
 * placed it. Not where another digit the same now sees the peer (it would have taken the note
 * too), nor notes the placement did not take. `next` itself when there is nothing to put back.
 */
export function notesBack(history, before, next) {
  let board = next;
  before.digits.forEach((d, i) => {
    if (!d || next.digits[i] === d) return;
    const step = history.past.findLast((s) => s.some(([layer, j]) => layer === "digits" && j === i));
    if (!step?.some(([layer, j, , after]) => layer === "digits" && j === i && after === d)) return;
    for (const [layer, j, was, now] of step) {
      const mark = String(d);
      if (layer === "digits" || layer === "colours" || !PEERS[i].includes(j)) continue;
      if (!was.includes(mark) || now.includes(mark) || board[layer][j].includes(mark)) continue;
      if (PEERS[j].some((k) => valueAt(board, k) === d)) continue;
      board = { ...board, [layer]: board[layer].map((notes, k) => (k === j ? moveMarks(notes, "", mark) : notes)) };
    }
  });
  return board;
}

/**
 * The history fitted to `board`, a board that took moves from elsewhere (another device, a merge,
 * a reload): {history, cut}. Undo is tried from the newest step back, redo from the next one on;
 * each is cut at the first step that can no longer apply, which goes with everything beyond it.
 * `cut`: how many steps went.
 */
export function fitHistory(history, board) {
  let past = history.past;
  for (let k = past.length - 1, at = board; k >= 0; k -= 1) {
    at = applyStep(at, past[k], true);
    if (!at) {
      past = past.slice(k + 1);
      break;
    }
  }
  let future = history.future;
  for (let k = 0, at = board; k < future.length; k += 1) {
    at = applyStep(at, future[k], false);
    if (!at) {
      future = future.slice(0, k);
      break;
    }
  }
  const cut = history.past.length - past.length + history.future.length - future.length;
  return { history: cut ? { past, future } : history, cut };
}

/** What the player reads when a merge cut the history, or "" when it cut nothing. */
export function cutNotice(cut) {
  if (!cut) return "";
  return "Undo now stops where your other device changed the same digits.";
}

// ---- The copy on this device. ----

const isMarks = (v) => typeof v === "string" && /^[1-9]{0,9}$/.test(v);
const isDigit = (v) => Number.isInteger(v) && v >= 0 && v <= 9;

/** A step as stored, checked: every entry a known layer, a cell and two values of that layer's kind. */
function validStep(step) {
  return Array.isArray(step) && step.length > 0 && step.every((entry) => {
    if (!Array.isArray(entry) || entry.length !== 4) return false;
    const [layer, i, before, after] = entry;
    const valid = layer === "digits" ? isDigit : isMarks;
    return LAYERS.includes(layer) && Number.isInteger(i) && i >= 0 && i < 81 && valid(before) && valid(after);
  });
}

/** The newest of `past` and the nearest of `future` that fit STORED_STEPS and STORED_CHARS. */
function bounded(history) {
  let past = history.past.slice(-STORED_STEPS);
  let future = history.future.slice(0, STORED_STEPS);
  while (past.length + future.length && JSON.stringify([past, future]).length > STORED_CHARS) {
    if (past.length >= future.length) past = past.slice(Math.ceil(past.length / 4));
    else future = future.slice(0, Math.floor((future.length * 3) / 4));
  }
  return { past, future };
}

/**
 * The undo history and the removed candidates of one player's daily, kept on this device. One
 * entry per player and daily (a visitor's under "visitor", taken over by the guest their first
 * move made, as DeviceCopy's; a guest's by the account it became or moved its board to), and at
 * most BOARDS_KEPT of them: writing one forgets the oldest.
 */
export class UndoCopy {
  constructor(storage, now = () => Date.now()) {
    this.storage = storage;
    this.now = now;
    this.key = null;
    this.pruned = false; // the other dailies are looked over once a page, not at every move
  }

  /**
   * Whose history this is: `playerId` (null for a visitor) at `puzzle`. A guest takes the
   * visitor's; an account whose board came from guest `fromGuest` (a sign-up or a log-in, the
   * state API says) takes that guest's, or its visitor's when the page left before it knew the guest.
   */
  open(playerId, puzzle, guest = false, fromGuest = null) {
    const key = (who) => `sudoku:undo:${who}:${puzzle}`;
    this.key = key(playerId ?? "visitor");
    const before = guest ? ["visitor"] : fromGuest != null ? [fromGuest, "visitor"] : [];
    try {
      for (const from of before.map(key).filter((k) => k !== this.key)) {
        const kept = this.storage.getItem(from);
        if (kept === null) continue;
        if (this.storage.getItem(this.key) === null) this.storage.setItem(this.key, kept);
        this.storage.removeItem(from);
      }
    } catch {
      // Private mode: nothing was kept.
    }
  }

  /** Keep `history` and `removed` (81 strings, candidates.js), bounded, and forget the oldest other dailies. */
  write(history, removed) {
    if (!this.key) return;
    try {
      this.storage.setItem(this.key, JSON.stringify({ at: this.now(), ...bounded(history), removed }));
      if (!this.pruned) this.prune();
      this.pruned = true;
    } catch {
      // Private mode or a full store: the history holds for this page.
    }
  }

  /** {history, removed} as last kept, or null: nothing kept, or not a copy this page wrote. */
  read() {
    let kept;
    try {
      kept = JSON.parse(this.storage.getItem(this.key) || "null");
    } catch {
      kept = null;
    }
    const steps = (list) => Array.isArray(list) && list.every(validStep);
    if (!kept || !steps(kept.past) || !steps(kept.future)) return null;
    const removed = Array.isArray(kept.removed) && kept.removed.length === 81 && kept.removed.every(isMarks)
      ? kept.removed
      : null;
    return { history: { past: kept.past, future: kept.future }, removed };
  }

  /** Forget this daily's history: the puzzle is solved. */
  clear() {
    try {
      this.storage.removeItem(this.key);
    } catch {
      // Nothing to do.
    }
  }

  /** Keep the BOARDS_KEPT most recently written histories and forget the others. */
  prune() {
    const keys = this.storage.keys().filter((key) => key.startsWith("sudoku:undo:"));
    if (keys.length <= BOARDS_KEPT) return;
    const when = (key) => {
      try {
        return Number(JSON.parse(this.storage.getItem(key)).at) || 0;
      } catch {
        return 0;
      }
    };
    const oldest = keys.map((key) => [when(key), key]).sort((a, b) => a[0] - b[0]).slice(0, keys.length - BOARDS_KEPT);
    for (const [, key] of oldest) this.storage.removeItem(key);
  }
}
