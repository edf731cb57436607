// The rules of the board, with no page: cells, units and peers, the board as plain data, the
// changes a player can make, conflicts, and the undo history. Nothing here touches the DOM, so
// Node's test runner can load it as it is (tests/js/sudoku.test.mjs).
//
// The server owns the truth and never sends the solution, so rule conflicts are all the page
// can point out.

// ---- Vocabulary: cells are 0..80 row by row; units and peers are tables built once. ----

export const SIZE = 81;
export const DIGITS = "123456789";

export const rowOf = (i) => Math.floor(i / 9);
export const colOf = (i) => i % 9;
const boxOf = (i) => 3 * Math.floor(rowOf(i) / 3) + Math.floor(colOf(i) / 3);
const CELLS = Array.from({ length: SIZE }, (_, i) => i);

/** The 27 units: 9 rows, 9 columns, 9 boxes, each a list of 9 cells. */
export const UNITS = [
  ...Array.from({ length: 9 }, (_, r) => CELLS.filter((i) => rowOf(i) === r)),
  ...Array.from({ length: 9 }, (_, c) => CELLS.filter((i) => colOf(i) === c)),
  ...Array.from({ length: 9 }, (_, b) => CELLS.filter((i) => boxOf(i) === b)),
];

/** PEERS[i]: the 20 other cells that share a row, column or box with i. */
export const PEERS = CELLS.map((i) =>
  CELLS.filter((j) => j !== i && (rowOf(j) === rowOf(i) || colOf(j) === colOf(i) || boxOf(j) === boxOf(i))),
);

// ---- The board: plain objects, never mutated, so undo is just keeping the old ones. ----
// { givens: number[81], digits: number[81], corner: string[81], centre: string[81] }
// digits holds the player's own entries only (0 on givens); notes are sorted digit strings.

/** The board and server metadata from a puzzle_state dict as the server sends it. */
export function parseState(raw) {
  const toDigits = (s) => Array.from(String(s ?? "").padEnd(SIZE, "0").slice(0, SIZE), (ch) => Number(ch) || 0);
  const toNotes = (list) => CELLS.map((i) => normaliseNotes(list?.[i] ?? ""));
  const givens = toDigits(raw.givens);
  return {
    board: {
      givens,
      // A digit can never sit on a given: the given wins whatever the server says.
      digits: toDigits(raw.digits).map((d, i) => (givens[i] ? 0 : d)),
      corner: toNotes(raw.corner),
      centre: toNotes(raw.centre),
    },
    version: Number(raw.version) || 0,
    elapsed: Number(raw.elapsed) || 0,
    solved: Boolean(raw.solved),
    solveSeconds: raw.solve_seconds ?? null,
    hintStage: Number(raw.hint_stage) || 0,
  };
}

/** Notes as the wire wants them: unique digits 1-9, ascending ("51" -> "15"). */
export function normaliseNotes(s) {
  return [...new Set(String(s).replace(/[^1-9]/g, ""))].sort().join("");
}

/** The digits string the API takes: the player's entries, "0" for empty and given cells. */
export function digitsString(board) {
  return board.digits.join("");
}

/** The digit shown in a cell (given or entered), 0 when empty. */
export function valueAt(board, i) {
  return board.givens[i] || board.digits[i];
}

/** Cells whose digit repeats in one of their units (givens included): the only check we can make. */
export function conflicts(board) {
  const bad = new Set();
  for (const unit of UNITS) {
    const seen = new Map();
    for (const i of unit) {
      const v = valueAt(board, i);
      if (!v) continue;
      if (seen.has(v)) {
        bad.add(i);
        bad.add(seen.get(v));
      } else {
        seen.set(v, i);
      }
    }
  }
  return bad;
}

/** True when every cell holds a digit. */
export function isFull(board) {
  return CELLS.every((i) => valueAt(board, i) !== 0);
}

/** How many times each digit 1-9 is on the board (index 0 unused), for the keypad. */
export function digitCounts(board) {
  const counts = new Array(10).fill(0);
  for (const i of CELLS) counts[valueAt(board, i)] += 1;
  return counts;
}

const replaceAt = (list, i, value) => list.map((x, j) => (j === i ? value : x));

/**
 * Put digit d in cell i and take d out of the notes of its peers, as players expect, in one step
 * (so one undo takes both back). The cell keeps its own notes underneath: erasing brings them back.
 * Returns the same board when nothing changes (givens, or the digit is already there).
 */
export function placeDigit(board, i, d) {
  if (board.givens[i] || board.digits[i] === d) return board;
  const strip = (notes) => notes.map((n, j) => (PEERS[i].includes(j) ? n.replace(String(d), "") : n));
  return {
    ...board,
    digits: replaceAt(board.digits, i, d),
    corner: strip(board.corner),
    centre: strip(board.centre),
  };
}

/** Toggle note d ("corner" or "centre") in cell i; cells showing a digit take no notes. */
export function toggleNote(board, i, d, kind) {
  if (valueAt(board, i)) return board;
  const notes = board[kind][i];
  const next = notes.includes(String(d)) ? notes.replace(String(d), "") : normaliseNotes(notes + d);
  return { ...board, [kind]: replaceAt(board[kind], i, next) };
}

/** Erase: the digit if there is one, else all the cell's notes. Givens stay. */
export function eraseCell(board, i) {
  if (board.givens[i]) return board;
  if (board.digits[i]) return { ...board, digits: replaceAt(board.digits, i, 0) };
  if (!board.corner[i] && !board.centre[i]) return board;
  return { ...board, corner: replaceAt(board.corner, i, ""), centre: replaceAt(board.centre, i, "") };
}

/** Apply an entry: a digit in "normal" kind, otherwise a note of that kind. */
export function enter(board, i, d, kind) {
  return kind === "normal" ? placeDigit(board, i, d) : toggleNote(board, i, d, kind);
}

/** Two boards hold the same entries (used to tell a real local change from the server's copy). */
export function sameEntries(a, b) {
  return (
    digitsString(a) === digitsString(b) &&
    a.corner.every((n, i) => n === b.corner[i]) &&
    a.centre.every((n, i) => n === b.centre[i])
  );
}

/**
 * The position a hint belongs to, as the server tells positions apart: digits and centre notes.
 * Corner notes mark where a digit may go in a box, not a cell's candidates, so they change no hint.
 */
export function positionKey(board) {
  return `${digitsString(board)}|${board.centre.join(",")}`;
}

// ---- Undo history: past and future boards around the current one. ----

const HISTORY_LIMIT = 500;

/** An empty history. */
export function newHistory() {
  return { past: [], future: [] };
}

/** Record that `board` is being replaced by a new one; a new change forgets the redo branch. */
export function record(history, board) {
  const past = [...history.past, board].slice(-HISTORY_LIMIT);
  return { past, future: [] };
}

/** Step back: [history, board to show], or null when there is nothing to undo. */
export function undo(history, board) {
  if (!history.past.length) return null;
  const previous = history.past[history.past.length - 1];
  return [{ past: history.past.slice(0, -1), future: [board, ...history.future] }, previous];
}

/** Step forward again: [history, board to show], or null when there is nothing to redo. */
export function redo(history, board) {
  if (!history.future.length) return null;
  const [next, ...rest] = history.future;
  return [{ past: [...history.past, board], future: rest }, next];
}
