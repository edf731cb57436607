// The words the board says, built from the game's state: a cell's label, the hint button, the
// timer's text, the notices a key press or a hint's action gives. Pure (no page), so every
// sentence is tested with node (tests/js/wording.test.mjs); view.js puts them on screen. The
// replay's own words are replay-words.js's, so the puzzle page does not download them.

import { MODE_NAMES } from "./keys.js";
import { colOf, rowOf } from "./sudoku.js";

// ---- Time. ----

/** Seconds as the site writes a duration everywhere (puzzles' format_duration): m:ss, or h:mm:ss past an hour. */
export function formatDuration(seconds) {
  const s = Math.max(0, Math.floor(Number(seconds) || 0));
  const pad = (n) => String(n).padStart(2, "0");
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

/** The solved line beside the grid: "Solved in 4:05". */
export function solvedWords(seconds) {
  return `Solved in ${formatDuration(seconds)}`;
}

// ---- The board. ----

/** A cell as people say it: "row 3, column 4". */
export const cellWords = (i) => `row ${rowOf(i) + 1}, column ${colOf(i) + 1}`;

/** The nine colours by the number each keeps on the keypad and in the cells (board.css draws them). */
const COLOUR_NAMES = ["", "grey", "red", "orange", "yellow", "green", "teal", "blue", "purple", "pink"];

/**
 * What a screen reader hears for a cell, e.g. "Row 2, Column 3, empty, notes 2 5, colours 2 red,
 * hint: look here". `wrong`: a check found its digit wrong.
 */
export function cellLabel(board, i, conflicted, mark = null, wrong = false) {
  const parts = [`Row ${rowOf(i) + 1}`, `Column ${colOf(i) + 1}`];
  const spaced = (notes) => notes.split("").join(" ");
  if (board.givens[i]) parts.push(`given ${board.givens[i]}`);
  else if (board.digits[i]) parts.push(String(board.digits[i]));
  else {
    parts.push("empty");
    if (board.corner[i]) parts.push(`corner notes ${spaced(board.corner[i])}`);
    if (board.centre[i]) parts.push(`notes ${spaced(board.centre[i])}`);
  }
  const colours = board.colours?.[i] ?? "";
  if (colours) parts.push(`${colours.length > 1 ? "colours" : "colour"} ${[...colours].map((c) => `${c} ${COLOUR_NAMES[c]}`).join(", ")}`);
  if (wrong) parts.push("wrong");
  if (conflicted) parts.push("conflict");
  if (mark) parts.push(hintWords(mark));
  return parts.join(", ");
}

/**
 * A hint's mark in words, for the cell's label: the outline and the drawn candidates say it on
 * screen, this says it aloud ("hint: candidates 1 2 5 6, remove 1 2").
 */
function hintWords(mark) {
  const digits = [...mark.digits].sort().join(" ");
  const cands = mark.cands?.length ? `hint: candidates ${mark.cands.join(" ")}` : "";
  if (mark.kind === "place") return `hint: ${digits} goes here`;
  if (mark.kind === "remove") return cands ? `${cands}, remove ${digits}` : `hint: remove ${digits}`;
  if (cands) return cands;
  return mark.kind === "cell" ? "hint: this cell" : "hint: look here";
}

/** What the board says once a hint's action is pressed: "Placed 7 in row 3, column 4. Undo takes it back." */
export function hintActionNotice(action) {
  if (action.kind === "place") return `Placed ${action.digit} in ${cellWords(action.cell)}. Undo takes it back.`;
  if (action.kind === "erase") return `Erased ${cellWords(action.cell)}. Undo takes it back.`;
  return "Notes written. Undo takes them back.";
}

/** A digit key's name in colour mode: "Colour 2, red". */
export function colourKeyLabel(d) {
  return `Colour ${d}, ${COLOUR_NAMES[d]}`;
}

/**
 * What the hint button's next press shows, from the last hint answered ({key, stage}) and the
 * position now: the same position goes on to the next stage, any other starts again. With the
 * panel closed (`open` false) it says "Hint": a press shows the last answer again first.
 */
export function hintLabel(last, key, open = true) {
  if (!open || !last || last.key !== key || !last.stage) return "Hint";
  return last.stage === 1 ? "More" : "Show me";
}

/** The pause button says what a press will do. */
export function pauseLabel(paused) {
  return paused ? "Resume" : "Pause";
}

/** What a key press that picks the entry mode announces: "Entry: corner notes". */
export function entryNotice(mode) {
  return `Entry: ${MODE_NAMES[mode]}`;
}
