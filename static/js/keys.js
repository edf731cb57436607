// Keys: one table from a keyboard event to an action, and the entry modes. SudokuPad's
// conventions, since that is what sudoku players' hands know. Pure (an event is only read), so it
// is tested without a page (tests/js/keys.test.mjs). The keyboard reference the page shows is
// key-help.js's, loaded when it is opened.

import { colOf, rowOf } from "./sudoku.js";

/** The digit 1-9 a key stands for, or 0. The code comes first: Shift+5 is "%" as a key, Alt+1 "¡" on a Mac. */
function keyDigit(e) {
  const m = /^(?:Digit|Numpad)([1-9])$/.exec(e.code || "");
  if (m) return Number(m[1]);
  return /^[1-9]$/.test(e.key) ? Number(e.key) : 0;
}

/**
 * The letter a key stands for, lower case, or "". The key comes first, so Z is where the layout
 * puts it (QWERTZ, AZERTY); a layout without Latin letters falls back to the code, so Ctrl+Z
 * still undoes on a Cyrillic keyboard.
 */
function keyLetter(e) {
  if (/^[a-z]$/i.test(e.key || "")) return e.key.toLowerCase();
  const m = /^Key([A-Z])$/.exec(e.code || "");
  return m ? m[1].toLowerCase() : "";
}

const MOVES = {
  ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1],
};

/** The plain letters that pick an entry mode. */
const MODE_KEYS = { z: "normal", x: "corner", c: "centre", v: "colour" };

/**
 * What a keydown means, or null for keys we leave to the browser:
 * {type:"move", dr, dc, extend} | {type:"goto", row?, col?}
 * | {type:"digit", d, kind: "mode"|"corner"|"centre"|"colour"} | {type:"erase"} | {type:"undo"}
 * | {type:"redo"} | {type:"setMode", mode} | {type:"mode"} | {type:"selectAll"} | {type:"hint"}
 * | {type:"dismiss"}.
 * Shift adds nothing to a key it does not change (Shift+H is H), so Caps Lock and habit do no harm.
 */
export function keyAction(e) {
  const command = e.ctrlKey || e.metaKey;
  // AltGr arrives as Ctrl+Alt on Windows: it types a character, it is no command.
  if (command && e.altKey) return null;
  const d = keyDigit(e);
  if (d) {
    const kind = e.altKey ? "colour" : command ? "centre" : e.shiftKey ? "corner" : "mode";
    return { type: "digit", d, kind };
  }
  if (e.altKey) return null; // Alt+Left is the browser's Back.
  const move = MOVES[e.key];
  // SudokuPad: Shift or Ctrl with an arrow adds the cell moved to to the selection.
  if (move) return { type: "move", dr: move[0], dc: move[1], extend: Boolean(e.shiftKey || command) };
  const letter = keyLetter(e);
  if (command) {
    if (letter === "z") return { type: e.shiftKey ? "redo" : "undo" };
    if (letter === "y") return { type: "redo" };
    if (letter === "a") return { type: "selectAll" };
    if (e.key === "Home") return { type: "goto", row: 0, col: 0 };
    if (e.key === "End") return { type: "goto", row: 8, col: 8 };
    return null;
  }
  if (e.key === "Home") return { type: "goto", col: 0 };
  if (e.key === "End") return { type: "goto", col: 8 };
  if (e.key === "Backspace" || e.key === "Delete") return { type: "erase" };
  if (e.key === " " || letter === "n") return { type: "mode" };
  if (MODE_KEYS[letter]) return { type: "setMode", mode: MODE_KEYS[letter] };
  if (letter === "h") return { type: "hint" };
  if (e.key === "Escape") return { type: "dismiss" };
  return null;
}

/** One step along a row or column: edges hold, or with wrap it comes in at the other side. */
function step(x, dx, wrap) {
  return wrap ? (((x + dx) % 9) + 9) % 9 : Math.min(8, Math.max(0, x + dx));
}

/**
 * The cell an arrow or Home/End key leads to. Edges hold (the ARIA grid pattern), unless the
 * player turned on wrapping: then off one edge is in at the opposite edge of the same row or column.
 */
export function moveTarget(i, action, wrap = false) {
  let r = rowOf(i);
  let c = colOf(i);
  if (action.type === "move") {
    r = step(r, action.dr, wrap);
    c = step(c, action.dc, wrap);
  } else {
    r = action.row ?? r;
    c = action.col ?? c;
  }
  return r * 9 + c;
}

export const MODES = ["normal", "corner", "centre", "colour"];

/** Each mode as a key press announces it ("Entry: corner notes"). */
export const MODE_NAMES = { normal: "digits", corner: "corner notes", centre: "centre notes", colour: "colours" };

/** The entry mode after `mode` when the player cycles (N, Space). */
export function nextMode(mode) {
  return MODES[(MODES.indexOf(mode) + 1) % MODES.length];
}
