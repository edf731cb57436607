// A hint on screen: the panel's words for each stage, and the marks it puts on cells. The last
// stage ends in an action (place the digit the step leads to, write or trim notes, erase a wrong
// digit) that the player may press: board.js carries it out through the board's normal move path
// (undoable, saved, in the record of play), from hintActionBoard's board. Loaded by hints.js with
// the first Hint press, with its stylesheet.

import { applyDigit, eraseCells, normaliseNotes, positionKey, valueAt } from "./sudoku.js";
import { UPDATED_ELSEWHERE } from "./sync-jobs.js";
import { stylesheet } from "./view.js";
import { confirmWith } from "./confirm.js";

// The panel's and the marks' style (css/hint.css, named by the panel's data-css): this module is
// ready once it applies, so no hint shows unstyled.
const panel = typeof document === "undefined" ? null : document.getElementById("sudoku-hint-panel");
if (panel?.dataset.css) await stylesheet(panel.dataset.css);

/**
 * The cells a hint answer marks: Map cell -> {kind, digits, cands}. kind is "area" (the unit to
 * look at, stages 1 and 2 of a step), "cell" (a cell of the step, or the cell with the mistake),
 * "place" (a digit goes there), "remove" (those candidates go) or "cands" (a cell whose
 * candidates the hint draws, and nothing more). `cands`: the candidates the hint draws in a cell
 * where the player keeps no notes (null where it draws none).
 */
export function hintMarks(hint) {
  const marks = new Map();
  const area = hint.kind === "step" && hint.stage < 3;
  const mark = (cell, kind, digits = []) => marks.set(cell, { kind, digits, cands: null });
  for (const i of hint.highlight ?? []) mark(i, area ? "area" : "cell");
  for (const { cell, digit } of hint.placements ?? []) mark(cell, "place", [digit]);
  for (const { cell, digit } of hint.eliminations ?? []) {
    const had = marks.get(cell);
    if (had?.kind === "remove") had.digits.push(digit);
    else if (had?.kind !== "place") mark(cell, "remove", [digit]);
  }
  for (const { cell, digits } of hint.candidates ?? []) {
    if (!marks.has(cell)) mark(cell, "cands");
    marks.get(cell).cands = digits;
  }
  return marks;
}

/**
 * The board after the player presses a hint's action (the last stage's one button): `action` as
 * the hint API gives it. "place": the digit in its cell; "notes": those cells' centre notes
 * become the digits given; "erase": the cell's digit goes. The same board when there is nothing
 * to do (the cell already holds the digit, say). Pure: board.js makes it the game's move.
 */
export function hintActionBoard(board, action, options = {}) {
  if (action.kind === "place") {
    if (board.givens[action.cell] || board.digits[action.cell] === action.digit) return board;
    return applyDigit(board, [action.cell], action.digit, options);
  }
  if (action.kind === "erase") return board.digits[action.cell] ? eraseCells(board, [action.cell], "normal") : board;
  if (action.kind === "notes") {
    const centre = [...board.centre];
    for (const { cell, digits } of action.notes) if (!valueAt(board, cell)) centre[cell] = normaliseNotes(digits);
    return centre.every((n, i) => n === board.centre[i]) ? board : { ...board, centre };
  }
  return board;
}

/**
 * Before the first hint of a solve that has had no help yet (hints.js asks only then): what the
 * hint costs, in the board's confirmation. Resolves true if the player takes the hint.
 */
export function confirmHint(game) {
  return confirmWith(game, {
    title: "Take a hint?",
    text: "A hint shows the next step from your position, a stage a press. It is an assist: this solve will not be ranked on the leaderboard.",
    ok: "Take a hint",
  });
}

/** Show a hint's answer, or say why there is none. */
export function onHintReply(game, key, reply) {
  if (!reply) {
    showHintError(game, "Could not reach the server for a hint. Check your connection and try again.");
    return;
  }
  const { status, data } = reply;
  if (status === 200 && data) {
    Object.assign(game.hint, { key, stage: data.stage, last: null });
    game.hints = data.hints_used ?? game.hints;
    // The board moved on while we asked: this answer is for a position that is gone.
    if (positionKey(game.board) === key) showHint(game, data);
  } else if (status === 409 && data?.state) {
    game.sync.adopt(data.state, UPDATED_ELSEWHERE); // solved elsewhere
  } else if (status === 429) {
    showHintError(game, data?.error || `That's a lot of hints: try again in ${data?.retry_after ?? 60} seconds.`);
  } else if (status === 401) {
    showHintError(game, "You are logged out, so there are no hints.", true);
  } else if (status === 403) {
    showHintError(game, data?.error || "Your session has expired: please reload the page.");
  } else {
    showHintError(game, `Could not get a hint: ${data?.error || `error ${status}`}.`);
  }
}

/** Put an answer in the hint panel and mark its cells (render draws the marks). */
export function showHint(game, data) {
  const paragraph = (className, ...content) => {
    const p = document.createElement("p");
    p.className = className;
    p.append(...content);
    return p;
  };
  const strong = (text) => {
    const b = document.createElement("strong");
    b.textContent = text;
    return b;
  };
  const parts = [];
  const technique = data.kind === "step" && data.technique;
  if (data.stage >= 3) {
    parts.push(technique ? paragraph("hint-text", strong(`${technique.title}.`), " ", data.explanation) : paragraph("hint-text", data.explanation));
    if (data.then) parts.push(paragraph("hint-text", data.then));
  } else if (data.stage === 2 && technique) {
    // The server's message ("Look for a naked single in box 5.") in fewer words, to fit a phone.
    parts.push(paragraph("hint-text", strong(`${technique.title} in ${data.unit.name}.`), " ", technique.about));
  } else {
    parts.push(paragraph("hint-text", data.message));
  }
  const links = [];
  if (data.action) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "hint-action";
    button.dataset.hintAction = "";
    button.textContent = data.action.label;
    links.push(button);
  }
  // Beside the action, short enough to share its row on a phone; the panel names the technique.
  if (technique?.guide) {
    const guide = document.createElement("a");
    guide.href = technique.guide;
    guide.className = "hint-guide";
    guide.textContent = "How it works";
    links.push(guide);
  }
  if (data.candidates?.length) {
    const note = document.createElement("span");
    note.className = "hint-note";
    note.textContent = "Orange digits are the candidates.";
    links.push(note);
  }
  if (links.length) parts.push(paragraph("hint-links", ...links));
  if (data.stage === 1 && data.hints_used === 1) {
    parts.push(paragraph("hint-note", "A solve with hints is not ranked on the leaderboard."));
  }
  game.hint.shown = data;
  game.hint.last = data;
  game.hint.marks = data.kind === "complete" ? new Map() : hintMarks(data);
  openHintPanel(game, data.kind === "complete" ? "done" : `stage-${data.stage}`, parts);
}

/** A hint that could not be had: the message in the panel, no marks on the board. */
function showHintError(game, text, login = false) {
  game.hint.shown = null;
  game.hint.last = null; // the next press asks again (a retry), rather than showing an older answer
  game.hint.marks = new Map();
  const p = document.createElement("p");
  p.className = "hint-text";
  p.textContent = text;
  if (login) {
    const link = document.createElement("a");
    link.href = game.loginUrl;
    link.textContent = "Log in again";
    p.append(" ", link);
  }
  openHintPanel(game, "error", [p]);
}

/** Fill the panel; its body is the live region, so screen readers read the new content. */
function openHintPanel(game, state, content) {
  const { els } = game;
  els.hintPanel.dataset.state = state;
  els.hintBody.replaceChildren(...content);
  els.hintClose.hidden = false;
  bringIntoView(els);
}

// A tall phone (hint.css) lays the hint under the keypad, like a sheet.
const SHEET = "(max-width: 47.99rem) and (orientation: portrait) and (min-height: 50rem)";

/**
 * A sheet that runs past the foot of the screen (a long step, the guide's link) is scrolled up
 * into view, by no more than keeps the grid's top row on screen: the hint, the candidates it
 * draws and the keys show together.
 */
function bringIntoView(els) {
  if (!window.matchMedia?.(SHEET).matches) return;
  const over = els.hintPanel.getBoundingClientRect().bottom + 8 - window.innerHeight;
  const room = els.grid.getBoundingClientRect().top;
  if (over > 0 && room > 0) window.scrollBy({ top: Math.min(over, room), behavior: "instant" });
}
