// Keys: one table from a keyboard event to an action, and the entry modes a key cycles through.
// Pure (an event is only read), so it is tested without a page.

import { colOf, rowOf } from "./sudoku.js";

/** The digit 1-9 a key stands for, or 0. The code comes first: Shift+5 is "%" as a key. */
function keyDigit(e) {
  const m = /^(?:Digit|Numpad)([1-9])$/.exec(e.code || "");
  if (m) return Number(m[1]);
  return /^[1-9]$/.test(e.key) ? Number(e.key) : 0;
}

const MOVES = {
  ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1],
};

/**
 * What a keydown means, or null for keys we leave to the browser:
 * {type:"move", dr, dc} | {type:"goto", row?, col?} | {type:"digit", d, kind: "mode"|"corner"|"centre"}
 * | {type:"erase"} | {type:"undo"} | {type:"redo"} | {type:"mode"} | {type:"hint"} | {type:"dismiss"}.
 * Shift+digit is a corner note, Ctrl+digit a centre note, and Alt+digit too (Ctrl+digit is taken by
 * the browser on some systems, and Mac users reach for Option).
 */
export function keyAction(e) {
  const command = e.ctrlKey || e.metaKey;
  const key = (e.key || "").toLowerCase();
  if (command && !e.altKey) {
    if (key === "z" || (!e.key && e.code === "KeyZ")) return { type: e.shiftKey ? "redo" : "undo" };
    if (key === "y" || (!e.key && e.code === "KeyY")) return { type: "redo" };
    if (e.key === "Home") return { type: "goto", row: 0, col: 0 };
    if (e.key === "End") return { type: "goto", row: 8, col: 8 };
  }
  const d = keyDigit(e);
  if (d) {
    if (e.metaKey) return null; // Cmd+digit switches tabs on a Mac: leave it alone.
    if (e.ctrlKey || e.altKey) return { type: "digit", d, kind: "centre" };
    if (e.shiftKey) return { type: "digit", d, kind: "corner" };
    return { type: "digit", d, kind: "mode" };
  }
  if (command || e.altKey) return null;
  if (MOVES[e.key]) return { type: "move", dr: MOVES[e.key][0], dc: MOVES[e.key][1] };
  if (e.key === "Home") return { type: "goto", col: 0 };
  if (e.key === "End") return { type: "goto", col: 8 };
  if (e.key === "Backspace" || e.key === "Delete") return { type: "erase" };
  if (key === "n" || e.key === " ") return { type: "mode" };
  if (key === "h") return { type: "hint" };
  if (e.key === "Escape") return { type: "dismiss" };
  return null;
}

/** The cell an arrow or Home/End key leads to; edges hold (the ARIA grid pattern does not wrap). */
export function moveTarget(i, action) {
  let r = rowOf(i);
  let c = colOf(i);
  if (action.type === "move") {
    r = Math.min(8, Math.max(0, r + action.dr));
    c = Math.min(8, Math.max(0, c + action.dc));
  } else {
    r = action.row ?? r;
    c = action.col ?? c;
  }
  return r * 9 + c;
}

export const MODES = ["normal", "corner", "centre"];

/** Each mode as a key press announces it ("Entry: corner notes"). */
export const MODE_NAMES = { normal: "digits", corner: "corner notes", centre: "centre notes" };

/** The entry mode after `mode` when the player cycles (N, Space). */
export function nextMode(mode) {
  return MODES[(MODES.indexOf(mode) + 1) % MODES.length];
}
