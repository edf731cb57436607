// Always-on candidates (the setting auto_candidates: "off", "centre" or "corner"): the board keeps
// every empty cell's candidates as real notes of that layer, so they are saved and reach every
// device like notes the player wrote, and the hint engine reads centre ones as the player's own.
//
// The player's removals are the saved notes themselves: a candidate missing from an empty cell's
// notes, which no digit rules out, is one the player took out. Only what a digit rules out is not
// in the notes either way; so when a digit comes to rule out a candidate, whether the player had
// taken it out is remembered in `removed` (81 strings, kept on this device with the undo history,
// undo.js), and it stays out if that digit goes again. Pure: tests/js/candidates.test.mjs.

import { DIGITS, PEERS, SIZE, valueAt } from "./sudoku.js";

export const AUTO_LAYERS = { centre: "centre", corner: "corner" };

/** Nothing removed: the memory of a new board. */
export function noRemovals() {
  return new Array(SIZE).fill("");
}

/** The digits no peer of cell i shows: its candidates by the rules, as a sorted string. */
export function candidatesAt(board, i) {
  const seen = new Set(PEERS[i].map((j) => valueAt(board, j)));
  return [...DIGITS].filter((d) => !seen.has(Number(d))).join("");
}

const union = (a, b) => [...DIGITS].filter((d) => a.includes(d) || b.includes(d)).join("");
const minus = (a, b) => [...DIGITS].filter((d) => a.includes(d) && !b.includes(d)).join("");

/**
 * After the player's change from `before` to `next`, the notes of `layer` kept up to date:
 * {board, removed}. In each cell empty on both boards, a candidate a new digit rules out leaves the
 * notes (remembered in `removed` if the player had taken it out already), one a digit no longer
 * rules out comes back unless the player had taken it out, and the player's own note changes
 * stand (and are remembered), except that a note a digit rules out is never kept (one the other
 * device left, or one pressed on): the notes are candidates only. A cell whose digit went gets its
 * candidates, less what it had taken out. Cells holding a digit keep their notes under it.
 */
export function keepCandidates(before, next, layer, removed) {
  const notes = [...next[layer]];
  const memory = [...removed];
  for (let i = 0; i < SIZE; i += 1) {
    if (valueAt(next, i)) continue;
    const now = candidatesAt(next, i);
    if (valueAt(before, i)) {
      notes[i] = minus(now, memory[i]);
      continue;
    }
    const was = candidatesAt(before, i);
    const [had, has] = [before[layer][i], next[layer][i]];
    let kept = "";
    let out = memory[i];
    for (const d of DIGITS) {
      if (was.includes(d) && !now.includes(d)) {
        out = had.includes(d) ? minus(out, d) : union(out, d); // ruled out now: remember the player's say
      } else if (!was.includes(d) && now.includes(d)) {
        if (!out.includes(d)) kept += d; // ruled in again
      } else {
        if (had.includes(d) && !has.includes(d)) out = union(out, d); // the player took it out
        if (!had.includes(d) && has.includes(d)) out = minus(out, d); // or put it back
        if (has.includes(d) && now.includes(d)) kept += d; // a note a digit rules out is never kept
      }
    }
    notes[i] = [...DIGITS].filter((d) => kept.includes(d)).join("");
    memory[i] = out;
  }
  const changed = notes.some((n, i) => n !== next[layer][i]);
  return { board: changed ? { ...next, [layer]: notes } : next, removed: memory };
}

/**
 * Always-on candidates turned on in `layer` (or moved there from `from`, the layer they were
 * drawn in): every empty cell's notes become its candidates, less what the player took out where
 * they had notes already (in `from` when moving, else in `layer`). `from`'s notes are cleared.
 * Same board when nothing changes.
 */
export function fillAlways(board, layer, from = null, removed = noRemovals()) {
  const source = from ? board[from] : board[layer];
  const notes = board[layer].map((mine, i) => {
    if (valueAt(board, i)) return mine;
    const now = candidatesAt(board, i);
    return source[i] ? source[i].split("").filter((d) => now.includes(d)).join("") : minus(now, removed[i]);
  });
  const next = { ...board, [layer]: notes };
  if (from) next[from] = board[from].map((mine, i) => (valueAt(board, i) ? mine : ""));
  const same = notes.every((n, i) => n === board[layer][i]) && (!from || next[from].every((n, i) => n === board[from][i]));
  return same ? board : next;
}
