// The rules of the board, with no page: cells, units and peers, the board as plain data, the
// changes a player can make, conflicts and the moves a change is recorded as (the undo history is
// undo.js's). Nothing here touches the DOM, so Node's test runner can load it as it is
// (tests/js/sudoku.test.mjs).
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
// { givens: number[81], digits: number[81], corner: string[81], centre: string[81], colours: string[81] }
// digits holds the player's own entries only (0 on givens); notes and colours are sorted digit
// strings (a colour is an index 1-9 into the page's palette). Givens take colours, never notes.

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
      colours: toNotes(raw.colours),
    },
    version: Number(raw.version) || 0,
    savedAt: raw.saved_at ?? null,
    checks: Number(raw.checks) || 0,
    hints: Number(raw.hints) || 0,
    elapsed: Number(raw.elapsed) || 0,
    solved: Boolean(raw.solved),
    solveSeconds: raw.solve_seconds ?? null,
    hintStage: Number(raw.hint_stage) || 0,
  };
}

/** Notes (or colours) as the wire wants them: unique digits 1-9, ascending ("51" -> "15"). */
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

/** How many of each digit 1-9 are still to place (index 0 unused), for the keypad. */
export function remaining(board) {
  return digitCounts(board).map((n, d) => (d === 0 ? 0 : Math.max(0, 9 - n)));
}

// ---- Changes: one cell, or a selection (an array of cells in the order picked) at once. ----

/** The board field each kind of mark lives in. */
const MARK_LAYERS = { corner: "corner", centre: "centre", colour: "colours" };

/** `list` with `change(x)` at each of `cells` (a Set). */
const changeAt = (list, cells, change) => list.map((x, j) => (cells.has(j) ? change(x) : x));
const without = (marks, d) => marks.replace(String(d), "");

function checkDigit(d) {
  if (!Number.isInteger(d) || d < 1 || d > 9) throw new RangeError(`A digit is 1 to 9, not ${d}.`);
}

function markLayer(kind) {
  const layer = MARK_LAYERS[kind];
  if (!layer) throw new RangeError(`Marks are "corner", "centre" or "colour", not ${JSON.stringify(kind)}.`);
  return layer;
}

/**
 * Digit d in every selected cell that is not a given, in one step. With removeNotes, d also leaves
 * the notes of each changed cell's peers (the selected cells keep theirs underneath). When every
 * such cell already holds d, d comes out of them instead (a toggle, as in SudokuPad).
 * Returns the same board when nothing changes (no cell but givens).
 */
export function applyDigit(board, cells, d, { removeNotes = true } = {}) {
  checkDigit(d);
  const own = new Set(cells.filter((i) => !board.givens[i]));
  if (!own.size) return board;
  if ([...own].every((i) => board.digits[i] === d)) {
    return { ...board, digits: changeAt(board.digits, own, () => 0) };
  }
  const placed = [...own].filter((i) => board.digits[i] !== d);
  const next = { ...board, digits: changeAt(board.digits, new Set(placed), () => d) };
  if (!removeNotes) return next;
  const peers = new Set(placed.flatMap((i) => PEERS[i]).filter((j) => !own.has(j)));
  const strip = (notes) => changeAt(notes, peers, (n) => without(n, d));
  return { ...next, corner: strip(board.corner), centre: strip(board.centre) };
}

/**
 * Mark d of `kind` ("corner", "centre" or "colour") on the selection, by SudokuPad's rule: if every
 * eligible cell already has d, d comes off them all, else it goes on them all. Notes are eligible
 * on cells showing no digit; colours on every cell, givens too. Same board when none is eligible.
 */
export function toggleMarks(board, cells, d, kind) {
  checkDigit(d);
  const layer = markLayer(kind);
  const eligible = new Set(cells.filter((i) => layer === "colours" || !valueAt(board, i)));
  if (!eligible.size) return board;
  const mark = String(d);
  const clear = [...eligible].every((i) => board[layer][i].includes(mark));
  const change = clear ? (marks) => without(marks, d) : (marks) => normaliseNotes(marks + mark);
  return { ...board, [layer]: changeAt(board[layer], eligible, change) };
}

/**
 * Erase on a selection, one layer a press: in "colour" mode the colours; otherwise the first layer
 * holding something among the selected cells, in the order digits, centre notes, corner notes,
 * colours (givens keep their digit, and only colours can be erased from them).
 * Returns the same board when there is nothing to erase.
 */
export function eraseCells(board, cells, mode) {
  const all = new Set(cells);
  const own = new Set(cells.filter((i) => !board.givens[i]));
  const layers = mode === "colour"
    ? [["colours", all]]
    : [["digits", own], ["centre", own], ["corner", own], ["colours", all]];
  for (const [layer, where] of layers) {
    const hit = new Set([...where].filter((i) => board[layer][i]));
    if (hit.size) return { ...board, [layer]: changeAt(board[layer], hit, () => (layer === "digits" ? 0 : "")) };
  }
  return board;
}

/** An entry on a selection: a digit in "normal" kind (applyDigit's options), else a mark of that kind. */
export function enterMany(board, cells, d, kind, options) {
  return kind === "normal" ? applyDigit(board, cells, d, options) : toggleMarks(board, cells, d, kind);
}

/** An entry in one cell: enterMany with a selection of one (so the same digit twice takes it out). */
export function enter(board, i, d, kind) {
  return enterMany(board, [i], d, kind);
}

/**
 * Every cell showing no digit gets, as centre notes, the digits none of its peers shows (given or
 * entered): the candidates the board itself allows, never the solution. Corner notes and colours
 * stay. One change (so one undo step); the same board when the notes already say exactly that.
 */
export function fillCandidates(board) {
  const centre = board.centre.map((notes, i) => {
    if (valueAt(board, i)) return notes;
    const seen = new Set(PEERS[i].map((j) => valueAt(board, j)));
    return [...DIGITS].filter((ch) => !seen.has(Number(ch))).join("");
  });
  return centre.every((n, i) => n === board.centre[i]) ? board : { ...board, centre };
}

/** The puzzle as it started (Restart): its givens, no digits, notes or colours. Same board if already so. */
export function clearedBoard(board) {
  const cleared = {
    givens: board.givens,
    digits: new Array(SIZE).fill(0),
    corner: new Array(SIZE).fill(""),
    centre: new Array(SIZE).fill(""),
    colours: new Array(SIZE).fill(""),
  };
  return sameEntries(cleared, board) ? board : cleared;
}

/** Cell i holds the same digit, notes and colours on both boards. */
export function sameCell(a, b, i) {
  return (
    a.digits[i] === b.digits[i] && a.corner[i] === b.corner[i] && a.centre[i] === b.centre[i] &&
    a.colours[i] === b.colours[i]
  );
}

/** Two boards hold the same entries (used to tell a real local change from the server's copy). */
export function sameEntries(a, b) {
  return CELLS.every((i) => sameCell(a, b, i));
}

/** The cells whose digit, notes or colours differ between two boards, ascending. */
export function changedCells(a, b) {
  return CELLS.filter((i) => !sameCell(a, b, i));
}

/**
 * The position a hint belongs to, as the server tells positions apart: digits and centre notes.
 * Corner notes mark where a digit may go in a box, not a cell's candidates, so they change no hint.
 */
export function positionKey(board) {
  return `${digitsString(board)}|${board.centre.join(",")}`;
}

// ---- Moves: a change as the record of play keeps it (the wire form in puzzles/record_of_play/moves.py). ----

/** The record's letter for each layer of the board, in the order a change's moves go. */
const MOVE_LAYERS = { d: "digits", c: "corner", n: "centre", k: "colours" };

/**
 * The change from `before` to `after` as moves, one a layer that changed: [layer, [[cell, value], ...]],
 * the value being what the cell holds on that layer afterwards (a digit, 0 for none; the notes or
 * colours as a string, "" for none). Only changed cells are listed; [] when nothing changed.
 */
export function movesBetween(before, after) {
  const moves = [];
  for (const [layer, field] of Object.entries(MOVE_LAYERS)) {
    const cells = CELLS.filter((i) => before[field][i] !== after[field][i]).map((i) => [i, after[field][i]]);
    if (cells.length) moves.push([layer, cells]);
  }
  return moves;
}

/** `board` with `moves` (movesBetween's shape) made on it, in order: what a replay does. */
export function applyMoves(board, moves) {
  const next = { ...board };
  for (const [layer, cells] of moves) {
    const field = MOVE_LAYERS[layer];
    next[field] = [...next[field]];
    for (const [i, value] of cells) next[field][i] = value;
  }
  return next;
}
