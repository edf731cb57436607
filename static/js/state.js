// The game's state: every field the board's modules read and write, declared here once with its
// default (as chessground's state.ts declares a board's). board.js makes one from the page;
// replay.js makes a read-only one, for view.js's render to draw a replay's boards. The modules
// that change it (play.js, hints.js and hint-panel.js, tools.js and tool-actions.js, sync.js's host)
// change only what is named here.

import { newHistory } from "./undo.js";

/**
 * The on-screen clock of play time. It only displays: the server measures (sync.js's beats).
 * `base` seconds counted before `since`, the performance.now() at which it last started (null
 * while stopped); `shown`, what the timer shows, which never goes down before the solve.
 */
export function newClock(base = 0) {
  return { base, since: null, shown: 0 };
}

/** The hint as the page keeps it between presses of the hint button (hints.js). */
function newHint() {
  return {
    key: null, // positionKey of the position the last answer was for
    stage: 0, // that answer's stage: what the next press asks for
    shown: null, // the answer on screen, null when the panel is closed (or shows an error)
    last: null, // the last answer, shown again when the panel is opened on the same position
    marks: new Map(), // cell -> {kind, digits}: what render draws on the board (hint-panel.js hintMarks)
    busy: false, // a request is in flight
  };
}

/**
 * A new game, before the player's position has arrived. `els`: the page's elements (view.js
 * elements); `board`: the board to show first (the page's givens; sudoku.js's shape); `settings`:
 * the player's (tools.js); `loginUrl`: where "Log in again" goes.
 */
export function newGame({ els = null, board = null, settings = {}, loginUrl = "" } = {}) {
  return {
    els,
    loginUrl,
    sync: null, // the SyncQueue (sync.js): board.js sets it; the only way to the server
    // The position.
    board,
    history: newHistory(), // undo and redo, as steps (undo.js)
    undoCopy: null, // the history kept on this device (undo.js UndoCopy): board.js opens it for the player
    removed: new Array(81).fill(""), // candidates the player took out of the always-on notes (candidates.js)
    candidates: null, // candidates.js, loaded while always-on candidates are on (tools.js candidatesReady)
    canPlay: false, // true once the player's position has arrived (a visitor's empty one too)
    solved: false,
    checks: 0, // checks used on this attempt (the server's count)
    hints: 0, // hints used on this attempt (the server's count): before the first, with no check, the board asks
    wrong: new Set(), // cells a check found wrong, until their digit changes
    // Where the player is.
    cursor: 0, // the focused cell: the grid's one Tab stop
    selection: new Set([0]), // the cells a digit, note, colour or Erase goes to (the cursor's among them)
    mode: "normal", // what a plain digit enters: "normal", "corner", "centre" or "colour"
    settings,
    paused: false, // the player paused: the grid is hidden and the clock stops
    clock: newClock(),
    hint: newHint(),
    // What is on screen beside the board.
    results: "none", // the results fragment: "none", "loading", "loaded" or "failed"
    noticeTimer: null, // the timeout that clears the notice line
  };
}
