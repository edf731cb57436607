// The daily Sudoku board: selection, digits and notes, undo, highlighting, the timer, saving,
// hints, and the results after the solve.
//
// The server owns the truth (version, elapsed time, solved); it never sends the solution, so the
// page can only point out rule conflicts. Every change is saved through a queue that sends one
// request at a time, and whenever the server says another tab or device saved first (409) the
// page adopts the server's board instead of overwriting it.
//
// The first half of this file is pure (no DOM) and exported so it can be tested with node.

// ---- Vocabulary: cells are 0..80 row by row; units and peers are tables built once. ----

export const SIZE = 81;
export const DIGITS = "123456789";

const rowOf = (i) => Math.floor(i / 9);
const colOf = (i) => i % 9;
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

// ---- Keys: one table from a keyboard event to an action, so it can be tested without a page. ----

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
const MODE_NAMES = { normal: "digits", corner: "corner notes", centre: "centre notes" };

/** The entry mode after `mode` when the player cycles (N, Space). */
export function nextMode(mode) {
  return MODES[(MODES.indexOf(mode) + 1) % MODES.length];
}

/** Seconds as the timer shows them: mm:ss, or h:mm:ss past an hour. */
export function formatTime(seconds) {
  const s = Math.max(0, Math.floor(Number(seconds) || 0));
  const pad = (n) => String(n).padStart(2, "0");
  const h = Math.floor(s / 3600);
  const mmss = `${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
  return h ? `${h}:${mmss}` : mmss;
}

/** What a screen reader hears for a cell, e.g. "Row 2, Column 3, empty, notes 2 5, hint: look here". */
export function cellLabel(board, i, conflicted, mark = null) {
  const parts = [`Row ${rowOf(i) + 1}`, `Column ${colOf(i) + 1}`];
  const spaced = (notes) => notes.split("").join(" ");
  if (board.givens[i]) parts.push(`given ${board.givens[i]}`);
  else if (board.digits[i]) parts.push(String(board.digits[i]));
  else {
    parts.push("empty");
    if (board.corner[i]) parts.push(`corner notes ${spaced(board.corner[i])}`);
    if (board.centre[i]) parts.push(`notes ${spaced(board.centre[i])}`);
  }
  if (conflicted) parts.push("conflict");
  if (mark) parts.push(hintWords(mark));
  return parts.join(", ");
}

// ---- Hints: the server finds the step; the page shows it a stage at a time and never applies it. ----

/**
 * The position a hint belongs to, as the server tells positions apart: digits and centre notes.
 * Corner notes mark where a digit may go in a box, not a cell's candidates, so they change no hint.
 */
export function positionKey(board) {
  return `${digitsString(board)}|${board.centre.join(",")}`;
}

/**
 * What the hint button's next press shows, from the last hint answered ({key, stage}) and the
 * position now: the same position goes on to the next stage, any other starts again.
 */
export function hintLabel(last, key) {
  if (!last || last.key !== key || !last.stage) return "Hint";
  return last.stage === 1 ? "More" : "Show me";
}

/**
 * The cells a hint answer marks: Map cell -> {kind, digits}. kind is "area" (the unit to look
 * at, stages 1 and 2 of a step), "cell" (a cell of the step, or the cell with the mistake),
 * "place" (a digit goes there) or "remove" (those candidates go).
 */
export function hintMarks(hint) {
  const marks = new Map();
  const area = hint.kind === "step" && hint.stage < 3;
  for (const i of hint.highlight ?? []) marks.set(i, { kind: area ? "area" : "cell", digits: [] });
  for (const { cell, digit } of hint.placements ?? []) marks.set(cell, { kind: "place", digits: [digit] });
  for (const { cell, digit } of hint.eliminations ?? []) {
    const mark = marks.get(cell);
    if (mark?.kind === "remove") mark.digits.push(digit);
    else if (mark?.kind !== "place") marks.set(cell, { kind: "remove", digits: [digit] });
  }
  return marks;
}

/** A mark in words, for the cell's label: the outline says it on screen, this says it aloud. */
function hintWords(mark) {
  const digits = [...mark.digits].sort().join(" ");
  if (mark.kind === "place") return `hint: ${digits} goes here`;
  if (mark.kind === "remove") return `hint: remove ${digits}`;
  return mark.kind === "cell" ? "hint: this cell" : "hint: look here";
}

// ---- The page. Everything below touches the DOM. ----

const SAVE_DELAY_MS = 600; // Debounce: a burst of entries becomes one save.
const SAVE_MAX_WAIT_MS = 3_000;
const BEAT_MS = 10_000; // The server counts gaps between beats up to 30 s as play time.
const RETRY_MAX_MS = 30_000;
const NOTICE_MS = 8_000;

/**
 * Read the page, build the game object and wire every control. The page is the same for every
 * player (so the server can cache it whole); a player's own position comes from the state API.
 */
async function start(root) {
  const page = parseState(JSON.parse(document.getElementById("puzzle-state").textContent));
  const data = root.dataset;
  const game = {
    root,
    grid: root.querySelector("#sudoku-grid"),
    cells: [...root.querySelectorAll("[data-cell]")],
    parts: [], // per cell: its digit, corner and centre elements, looked up once
    canPlay: false, // true once the player's position has arrived (a visitor never may)
    api: { save: data.apiSave, beat: data.apiBeat, submit: data.apiSubmit, state: data.apiState, hint: data.apiHint },
    resultsUrl: data.resultsUrl,
    results: "none", // the results fragment: "none", "loading", "loaded" or "failed"
    loginUrl: data.loginUrl,
    puzzleKey: data.puzzle,
    storeKey: null, // where this device keeps unsaved moves: per player, once the server says who
    board: page.board,
    version: 0,
    solved: false,
    history: newHistory(),
    selected: 0,
    mode: "normal",
    paused: false,
    clock: { base: 0, since: null }, // since: performance.now() while running
    sync: {
      dirty: false, // unsaved changes exist
      due: false, // the debounce has passed (or a submit needs the save now)
      submit: false, beat: false, refresh: false,
      busy: false, // one request in flight
      debounce: null, retry: null, retryMs: 0, offline: false,
      stopped: false, // the server refused (logged out, bad input): no more requests
      dirtySince: 0, lastRefresh: 0,
    },
    noticeTimer: null,
    hint: {
      key: null, stage: 0, // the last answer's position and stage: what the next press asks for
      shown: null, // the answer on screen, null when the panel is closed (or shows an error)
      marks: new Map(), // its cells, see hintMarks
      busy: false,
    },
  };

  game.parts = game.cells.map((cell) => ({
    digit: cell.querySelector(".cell-digit"),
    corner: cell.querySelector(".cell-corner"),
    centre: cell.querySelector(".cell-centre"),
  }));
  wireGrid(game);
  render(game);

  const server = await loadState(game);
  if (!server) return;
  if (!server.player) {
    showVisitor(game);
    return;
  }
  showPlayer(game, server.player);
  Object.assign(game, { canPlay: true, board: server.board, version: server.version, solved: server.solved });
  game.clock.base = server.elapsed;
  // Hints already shown for this very position: the next press goes on from there.
  if (server.hintStage) Object.assign(game.hint, { key: positionKey(game.board), stage: server.hintStage });
  if (!game.solved) restoreLocalCopy(game, server);
  wirePlay(game);
  if (game.solved) showSolved(game, server.solveSeconds ?? server.elapsed);
  render(game);
  updateClock(game);
  root.dataset.ready = "true"; // for tests: the player's position is on the board
}

/**
 * The player's position and who they are, retried while the network is away. A visitor (401)
 * gets a state without a player; null if the server refused otherwise.
 */
async function loadState(game) {
  showSaveState(game, "loading", "Loading your game…");
  for (let wait = 1000; ; wait = Math.min(RETRY_MAX_MS, wait * 2)) {
    try {
      const { status, data } = await api(game.api.state);
      if (status === 200 && data?.player) {
        showSaveState(game, "idle");
        return { ...parseState(data), player: data.player };
      }
      if (status === 401) {
        showSaveState(game, "idle");
        return { player: null };
      }
      if (status === 403) refused(game, status, data);
      else showSaveState(game, "error", `Could not load your game: ${data?.error || `error ${status}`}. Reload the page to try again.`);
      return null;
    } catch (error) {
      if (!(error instanceof Transient)) throw error;
      showSaveState(game, "offline", "Offline — will retry");
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** Not logged in: the board stays read-only, with the way to log in (the page says nobody's name). */
function showVisitor(game) {
  game.root.querySelector("#sudoku-login").hidden = false;
  document.getElementById("account-visitor").hidden = false;
  game.root.dataset.ready = "visitor"; // for tests: the page knows it has a visitor
}

/** Logged in: name the player in the site header, give its log-out form the CSRF token, open the grid. */
function showPlayer(game, player) {
  game.storeKey = `sudoku:${player.id}:${game.puzzleKey}`;
  setText(document.getElementById("account-name"), player.name);
  document.getElementById("account-csrf").value = csrfToken();
  for (const id of ["account-player", "account-stats"]) document.getElementById(id).hidden = false;
  const help = game.root.querySelector("#sudoku-help");
  setText(help, help.dataset.playerHelp);
  game.grid.removeAttribute("aria-readonly");
}

// ---- Rendering: one pass over the 81 cells after every change; cheap, and never out of step. ----

/** Bring every cell, the keypad and the undo buttons in line with the game. */
function render(game) {
  const { board, selected } = game;
  const bad = conflicts(board);
  const focusValue = valueAt(board, selected);
  const marks = game.hint.marks;
  game.cells.forEach((cell, i) => {
    const value = valueAt(board, i);
    const peer = i !== selected && PEERS[selected].includes(i);
    cell.classList.toggle("is-entry", !board.givens[i] && value !== 0);
    cell.classList.toggle("is-selected", i === selected);
    cell.classList.toggle("is-peer", peer);
    cell.classList.toggle("is-same", focusValue !== 0 && value === focusValue && i !== selected);
    cell.classList.toggle("is-conflict", bad.has(i));
    cell.tabIndex = i === selected ? 0 : -1;
    const parts = game.parts[i];
    setText(parts.digit, value ? String(value) : "");
    renderNotes(parts.corner, value ? "" : board.corner[i], focusValue, true);
    renderNotes(parts.centre, value ? "" : board.centre[i], focusValue, false);
    const mark = marks.get(i) ?? null;
    if (mark) cell.dataset.hint = mark.kind;
    else if (cell.dataset.hint) delete cell.dataset.hint;
    const label = cellLabel(board, i, bad.has(i), mark);
    if (cell.getAttribute("aria-label") !== label) cell.setAttribute("aria-label", label);
  });
  renderKeypad(game);
}

/** Set text only when it differs, so unchanged cells cost nothing. */
function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/**
 * Notes as one span per digit. Corner notes take the corners first, then the edges (as in
 * SudokuPad), by a position class; centre notes sit in a row and shrink when there are many.
 * Notes equal to the selected cell's digit are highlighted, to help spot where it can go.
 */
function renderNotes(el, notes, focusValue, corner) {
  const key = `${notes}|${focusValue}`;
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  el.replaceChildren(
    ...[...notes].map((n, k) => {
      const span = document.createElement("span");
      span.textContent = n;
      if (corner) span.className = `pos-${k}`;
      if (Number(n) === focusValue) span.classList.add("is-same");
      return span;
    }),
  );
  if (!corner) el.dataset.count = String(notes.length);
}

/** Dim digits that are all placed; grey out undo/redo with aria-disabled (focus stays put). */
function renderKeypad(game) {
  const keypad = game.root.querySelector("#sudoku-keypad");
  if (!keypad) return;
  const counts = digitCounts(game.board);
  for (const button of keypad.querySelectorAll("[data-digit]")) {
    button.classList.toggle("is-done", counts[Number(button.dataset.digit)] >= 9);
  }
  keypad.querySelector("#key-undo").setAttribute("aria-disabled", String(!game.history.past.length));
  keypad.querySelector("#key-redo").setAttribute("aria-disabled", String(!game.history.future.length));
  for (const radio of keypad.querySelectorAll("input[name=sudoku-mode]")) radio.checked = radio.value === game.mode;
  const hintKey = keypad.querySelector("#key-hint");
  if (!hintKey) return;
  const key = positionKey(game.board);
  setText(hintKey, hintLabel(game.hint, key));
  // The last stage on screen has nothing more to show for this position until it changes.
  const allShown = game.hint.shown?.final && game.hint.key === key;
  hintKey.setAttribute("aria-disabled", String(game.hint.busy || Boolean(allShown)));
}

// ---- Input: pointer, keyboard and keypad all end in the same few functions. ----

/** Selection and navigation work for everyone, players or not. */
function wireGrid(game) {
  game.grid.addEventListener("click", (e) => {
    const cell = e.target.closest("[data-cell]");
    // Usually focusin has already selected it; a click on the selected cell still takes focus.
    if (cell) select(game, Number(cell.dataset.cell), true);
  });
  // Tab into the grid, or a click that focuses a cell: keep the selection on the focused cell.
  game.grid.addEventListener("focusin", (e) => {
    const cell = e.target.closest("[data-cell]");
    if (cell && Number(cell.dataset.cell) !== game.selected) select(game, Number(cell.dataset.cell), false);
  });
  document.addEventListener("keydown", (e) => onKey(game, e));
}

/** Select cell i (the roving tabindex follows) and optionally move focus there. */
function select(game, i, focus) {
  if (game.selected !== i) {
    game.selected = i;
    render(game);
  }
  if (focus && document.activeElement !== game.cells[i]) game.cells[i].focus();
}

/** True when the keyboard belongs to a text field (there is none on this page today; the site's may grow). */
function typingElsewhere(target) {
  return target.closest?.("input:not([type=radio]), textarea, select, [contenteditable]") != null;
}

/**
 * Keys act on the selected cell. Inside the grid every key counts; elsewhere on the page digits,
 * erase and undo still reach the board (after pressing a keypad button, say), but arrows and Space
 * stay with the focused control.
 */
function onKey(game, e) {
  if (e.defaultPrevented || game.paused || typingElsewhere(e.target)) return;
  const action = keyAction(e);
  if (!action) return;
  const inGrid = game.grid.contains(e.target);
  const moving = action.type === "move" || action.type === "goto";
  if (!inGrid && (moving || e.key === " ")) return;
  if (!inGrid && !game.root.contains(e.target) && e.target !== document.body) return;
  if (moving) {
    select(game, moveTarget(game.selected, action), true);
  } else if (!game.canPlay || game.solved) {
    return; // Read-only: let the key do whatever it usually does.
  } else if (action.type === "digit") {
    const kind = action.kind === "mode" ? game.mode : action.kind;
    change(game, enter(game.board, game.selected, action.d, kind));
  } else if (action.type === "erase") {
    change(game, eraseCell(game.board, game.selected));
  } else if (action.type === "undo" || action.type === "redo") {
    travel(game, action.type);
  } else if (action.type === "hint") {
    askHint(game);
  } else if (action.type === "dismiss") {
    if (!hintOpen(game)) return; // Escape means nothing else here: leave it to the page.
    closeHint(game);
  } else if (action.type === "mode") {
    setMode(game, nextMode(game.mode));
    // Clicking a radio announces itself; a key press needs saying (and shows what N did).
    showNotice(game, `Entry: ${MODE_NAMES[game.mode]}`);
  }
  e.preventDefault();
}

/** The keypad, the mode radios, pause, and the page's lifecycle: only for players. */
function wirePlay(game) {
  const keypad = game.root.querySelector("#sudoku-keypad");
  keypad.hidden = game.solved;
  // A mouse press on the keypad must not take focus from the grid, so typing keeps working.
  keypad.addEventListener("mousedown", (e) => {
    if (e.target.closest("button, label")) e.preventDefault();
  });
  keypad.addEventListener("click", (e) => onKeypad(game, e));
  keypad.addEventListener("change", (e) => {
    if (e.target.name === "sudoku-mode") setMode(game, e.target.value);
  });

  // Shown only now: without this module they would promise what the page cannot do.
  for (const id of ["#sudoku-clock", "#sudoku-keys"]) {
    const el = game.root.querySelector(id);
    if (el) el.hidden = false;
  }
  const pause = game.root.querySelector("#sudoku-pause");
  pause.hidden = game.solved;
  pause.addEventListener("click", () => setPaused(game, !game.paused));
  game.root.querySelector("#sudoku-resume").addEventListener("click", () => setPaused(game, false));
  game.root.querySelector("#sudoku-hint-close").addEventListener("click", () => closeHint(game));

  document.addEventListener("visibilitychange", () => onVisibility(game));
  // Leaving the page: send what is unsaved now, with keepalive so it survives the unload.
  window.addEventListener("pagehide", () => flushNow(game));
  window.addEventListener("online", () => retryNow(game));
  window.addEventListener("focus", () => requestRefresh(game, true));
  setInterval(() => tickClock(game), 500);
  setInterval(() => requestBeat(game), BEAT_MS);
  if (game.sync.dirty) pump(game); // A restored local copy goes to the server straight away.
}

/** A keypad press: a digit in the current mode, erase, undo or redo. */
function onKeypad(game, e) {
  const button = e.target.closest("button");
  if (!button || game.solved || game.paused) return;
  if (button.dataset.digit) {
    change(game, enter(game.board, game.selected, Number(button.dataset.digit), game.mode));
  } else if (button.dataset.action === "erase") {
    change(game, eraseCell(game.board, game.selected));
  } else if (button.dataset.action === "undo" || button.dataset.action === "redo") {
    travel(game, button.dataset.action);
  } else if (button.dataset.action === "hint") {
    askHint(game);
  }
}

/** Digit, corner or centre: what a plain digit key or keypad digit does. */
function setMode(game, mode) {
  game.mode = mode;
  renderKeypad(game);
}

/** Make `next` the board: one undo step, a redraw, a save, and a submit when the grid is full. */
function change(game, next) {
  if (next === game.board) return;
  game.history = record(game.history, game.board);
  game.board = next;
  afterChange(game);
}

/** Undo or redo one step. */
function travel(game, direction) {
  const step = (direction === "undo" ? undo : redo)(game.history, game.board);
  if (!step) return;
  [game.history, game.board] = step;
  afterChange(game);
}

/** What every change of the board sets off. */
function afterChange(game) {
  showAlert(game, "");
  dropStaleHint(game);
  render(game);
  writeLocalCopy(game);
  scheduleSave(game);
  // A full grid is always submitted: the server is the judge, and a wrong grid gets its
  // "Not quite" message from there (the conflicts are already marked on the board).
  if (isFull(game.board)) {
    game.sync.submit = true;
    game.sync.due = true; // The submit goes after a save of the same grid, without waiting.
    pump(game);
  }
}

// ---- Pause, visibility and the clock. The clock only displays; the server measures. ----

/** True while time counts: playing, not paused, tab visible. */
function running(game) {
  return game.canPlay && !game.solved && !game.paused && !document.hidden;
}

/** Fold the running time into the base and start or stop the clock to match `running`. */
function updateClock(game) {
  const now = performance.now();
  const { clock } = game;
  if (clock.since !== null) clock.base += (now - clock.since) / 1000;
  clock.since = running(game) ? now : null;
  tickClock(game);
}

/** The server's elapsed time wins whenever it tells us. */
function setElapsed(game, seconds) {
  if (typeof seconds !== "number" || game.solved) return;
  game.clock.base = seconds;
  game.clock.since = running(game) ? performance.now() : null;
  tickClock(game);
}

/** Redraw the timer. */
function tickClock(game) {
  const el = game.root.querySelector("#sudoku-timer");
  if (!el) return;
  const { base, since } = game.clock;
  const seconds = base + (since === null ? 0 : (performance.now() - since) / 1000);
  setText(el, formatTime(seconds));
}

/** Pausing hides the grid (no peeking), stops the clock and the beats. */
function setPaused(game, paused) {
  if (game.solved) return;
  game.paused = paused;
  const play = game.root.querySelector(".sudoku-board");
  const keypad = game.root.querySelector("#sudoku-keypad");
  const pause = game.root.querySelector("#sudoku-pause");
  play.classList.toggle("is-paused", paused);
  game.grid.inert = paused;
  keypad.inert = paused;
  game.root.querySelector("#sudoku-paused").hidden = !paused;
  pause.textContent = paused ? "Resume" : "Pause"; // The label says what a press will do.
  updateClock(game);
  if (paused) game.root.querySelector("#sudoku-resume").focus();
  else {
    game.cells[game.selected].focus();
    requestBeat(game); // Restart the server's count now rather than in up to 10 s.
  }
}

/** Hidden tab: the clock stops and unsaved work is sent. Visible again: check for other devices. */
function onVisibility(game) {
  updateClock(game);
  if (document.hidden) flushNow(game);
  else {
    requestBeat(game);
    requestRefresh(game);
  }
}

// ---- Messages. ----

/** A short notice that clears itself ("Updated from your other device"). */
function showNotice(game, text) {
  const el = game.root.querySelector("#sudoku-notice");
  el.textContent = text;
  clearTimeout(game.noticeTimer);
  if (text) game.noticeTimer = setTimeout(() => (el.textContent = ""), NOTICE_MS);
}

/** A wrong grid: stays until the board changes. */
function showAlert(game, text) {
  setText(game.root.querySelector("#sudoku-alert"), text);
}

/** The save line: data-state for tests and styles; text only when the player should know. */
function showSaveState(game, state, text = "") {
  const el = game.root.querySelector("#save-status");
  el.dataset.state = state;
  setText(el, text);
  if (state === "loggedout") {
    const link = document.createElement("a");
    link.href = game.loginUrl;
    link.textContent = "Log in again";
    el.append(" ", link);
  }
}

/** The solved screen: the board turns read-only and the keypad gives way to the time. */
function showSolved(game, seconds) {
  game.solved = true;
  game.sync.submit = false;
  game.clock = { base: Number(seconds) || 0, since: null };
  tickClock(game);
  game.grid.setAttribute("aria-readonly", "true");
  game.root.classList.add("is-solved");
  for (const id of ["#sudoku-keypad", "#sudoku-pause"]) {
    const el = game.root.querySelector(id);
    if (!el) continue;
    // Hiding the focused control would drop focus to the page: hand it to the grid first.
    if (el.contains(document.activeElement)) game.cells[game.selected].focus();
    el.hidden = true;
  }
  clearLocalCopy(game);
  clearHint(game);
  setText(game.root.querySelector("#sudoku-solved"), `Solved! Your time: ${formatTime(seconds)}`);
  loadResults(game);
}

// ---- Hints and results: the two things the page fetches on the player's behalf besides the game. ----

/**
 * Ask for the next stage of a hint on the board as it is now (the same position a save sends;
 * the server does not save it). The answer is only shown: the board never changes by itself.
 * Whatever goes wrong is said in the hint panel and the game carries on.
 */
async function askHint(game) {
  const { hint } = game;
  if (!game.canPlay || game.solved || game.paused || hint.busy) return;
  const sent = game.board;
  const key = positionKey(sent);
  if (hint.shown?.final && hint.key === key) return; // All of it is on screen already.
  hint.busy = true;
  renderKeypad(game);
  let reply = null;
  try {
    reply = await api(game.api.hint, { digits: digitsString(sent), corner: sent.corner, centre: sent.centre });
  } catch (error) {
    if (!(error instanceof Transient)) console.error(error);
  }
  hint.busy = false;
  if (game.solved) return; // Solved meanwhile (another device): the results replace any hint.
  onHintReply(game, key, reply);
  render(game);
}

/** Show a hint's answer, or say why there is none. */
function onHintReply(game, key, reply) {
  if (!reply) {
    showHintError(game, "Could not reach the server for a hint. Check your connection and try again.");
    return;
  }
  const { status, data } = reply;
  if (status === 200 && data) {
    Object.assign(game.hint, { key, stage: data.stage });
    // The board moved on while we asked: this answer is for a position that is gone.
    if (positionKey(game.board) === key) showHint(game, data);
  } else if (status === 409 && data?.state) {
    adopt(game, data.state, "Updated from your other device"); // solved elsewhere
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
function showHint(game, data) {
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
  } else if (data.stage === 2 && technique) {
    // The server's message ("Look for a naked single in box 5.") in fewer words, to fit a phone.
    parts.push(paragraph("hint-text", strong(`${technique.title} in ${data.unit.name}.`), " ", technique.about));
  } else {
    parts.push(paragraph("hint-text", data.message));
  }
  if (data.stage === 1 && data.hints_used === 1) {
    parts.push(paragraph("hint-note", "A solve with hints is not ranked on the leaderboard."));
  }
  game.hint.shown = data;
  game.hint.marks = data.kind === "complete" ? new Map() : hintMarks(data);
  openHintPanel(game, data.kind === "complete" ? "done" : `stage-${data.stage}`, parts);
}

/** A hint that could not be had: the message in the panel, no marks on the board. */
function showHintError(game, text, login = false) {
  game.hint.shown = null;
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
  const panel = game.root.querySelector("#sudoku-hint-panel");
  panel.dataset.state = state;
  game.root.querySelector("#sudoku-hint").replaceChildren(...content);
  game.root.querySelector("#sudoku-hint-close").hidden = false;
}

/** True while the panel shows a hint or an error. */
function hintOpen(game) {
  return Boolean(game.root.querySelector("#sudoku-hint-panel")?.dataset.state);
}

/** Empty the panel and take the marks off the board (the next press still goes on from there). */
function clearHint(game) {
  const panel = game.root.querySelector("#sudoku-hint-panel");
  if (!panel) return;
  game.hint.shown = null;
  game.hint.marks = new Map();
  delete panel.dataset.state;
  game.root.querySelector("#sudoku-hint").replaceChildren();
  const close = game.root.querySelector("#sudoku-hint-close");
  // Hiding the focused close button would drop focus to the page: hand it to the grid first.
  if (close.contains(document.activeElement)) game.cells[game.selected].focus();
  close.hidden = true;
}

/** The player closes the panel (its button, or Escape). */
function closeHint(game) {
  clearHint(game);
  render(game);
}

/** After the board changes: a hint for another position, or an error, no longer applies. */
function dropStaleHint(game) {
  if (!hintOpen(game)) return;
  if (!game.hint.shown || positionKey(game.board) !== game.hint.key) clearHint(game);
}

/**
 * The results under the board (receipt, leaderboard, standing), fetched once the solve is
 * recorded; on failure a line with a button to try again. `focus`: move focus to them (a retry).
 */
async function loadResults(game, focus = false) {
  const slot = game.root.querySelector("#sudoku-results-slot");
  if (!slot || !game.resultsUrl || game.results === "loading" || game.results === "loaded") return;
  game.results = "loading";
  slot.setAttribute("aria-busy", "true");
  let section = null;
  try {
    const response = await fetch(game.resultsUrl, { credentials: "same-origin", headers: { Accept: "text/html" } });
    if (response.ok && !response.redirected) {
      // Our own server's fragment: parsed inert in a template, then moved into the page.
      const template = document.createElement("template");
      template.innerHTML = await response.text();
      section = template.content.querySelector("#sudoku-results[data-solved=true]");
    }
  } catch {
    section = null; // Offline: the button below tries again.
  }
  slot.removeAttribute("aria-busy");
  game.results = section ? "loaded" : "failed";
  if (section) {
    slot.replaceChildren(section);
    if (focus) {
      section.tabIndex = -1;
      section.focus();
    }
    return;
  }
  const line = document.createElement("p");
  line.className = "sudoku-results-failed";
  const retry = document.createElement("button");
  retry.type = "button";
  retry.className = "link";
  retry.textContent = "Try again";
  retry.addEventListener("click", () => loadResults(game, true));
  line.append("Could not load the results. ", retry);
  slot.replaceChildren(line);
  if (focus) retry.focus(); // The button pressed is gone: its successor takes the focus.
}

// ---- The local copy: unsaved work survives a closed tab or a long time offline. ----

/** Keep the unsaved board with the server version it was built on. */
function writeLocalCopy(game) {
  try {
    localStorage.setItem(game.storeKey, JSON.stringify({
      version: game.version,
      givens: game.board.givens.join(""),
      digits: digitsString(game.board),
      corner: game.board.corner,
      centre: game.board.centre,
    }));
  } catch {
    // Private mode or a full store: the server copy still works.
  }
}

/** Forget the local copy once the server has everything. */
function clearLocalCopy(game) {
  try {
    localStorage.removeItem(game.storeKey);
  } catch {
    // Nothing to do.
  }
}

/**
 * Use the local copy only if it was built on the version the server still has: then it holds
 * moves the server never got. If the server has moved on, the server wins (as for a 409).
 */
function restoreLocalCopy(game, server) {
  let copy = null;
  try {
    copy = JSON.parse(localStorage.getItem(game.storeKey) || "null");
  } catch {
    copy = null;
  }
  if (!copy) return;
  const givens = game.board.givens.join("");
  if (copy.version !== server.version || copy.givens !== givens) {
    clearLocalCopy(game);
    return;
  }
  const local = parseState({ ...copy, givens }).board;
  if (sameEntries(local, game.board)) {
    clearLocalCopy(game);
    return;
  }
  game.board = local;
  game.sync.dirty = true;
  game.sync.due = true;
  showNotice(game, "Restored your unsaved moves");
}

// ---- Talking to the server: one request at a time, in order of what matters most. ----

/**
 * Ask for a save after a quiet moment, so a burst of entries is one request; but a fast player who
 * never pauses still gets a save every SAVE_MAX_WAIT_MS.
 */
function scheduleSave(game) {
  const { sync } = game;
  if (!sync.dirty) sync.dirtySince = performance.now();
  sync.dirty = true;
  clearTimeout(sync.debounce);
  const waited = performance.now() - sync.dirtySince;
  sync.debounce = setTimeout(() => {
    sync.due = true;
    pump(game);
  }, waited >= SAVE_MAX_WAIT_MS ? 0 : SAVE_DELAY_MS);
}

/** Beats keep the server's clock going while the page is visible and not paused. */
function requestBeat(game) {
  if (!running(game)) return;
  game.sync.beat = true;
  pump(game);
}

/**
 * Fetch the server's state when coming back (another device may have played meanwhile). Coming
 * back to the tab always looks; window focus, which fires far more often, at most every 5 s.
 */
function requestRefresh(game, throttle = false) {
  const { sync } = game;
  if (!game.canPlay || game.solved || sync.dirty) return;
  if (throttle && performance.now() - sync.lastRefresh < 5000) return;
  sync.lastRefresh = performance.now();
  sync.refresh = true;
  pump(game);
}

/** Save immediately, with keepalive: the page may be going away. */
function flushNow(game) {
  if (!game.sync.dirty || game.sync.stopped) return;
  clearTimeout(game.sync.debounce);
  game.sync.due = true;
  pump(game, true);
}

/** The browser says we are back online: stop waiting for the backoff. */
function retryNow(game) {
  if (!game.sync.retry) return;
  clearTimeout(game.sync.retry);
  game.sync.retry = null;
  game.sync.due = true;
  pump(game);
}

/** The most urgent job waiting: saving first, because submit and beat carry its version. */
function nextJob(sync) {
  if (sync.dirty && sync.due) return "save";
  if (sync.submit && !sync.dirty) return "submit";
  if (sync.beat) return "beat";
  if (sync.refresh && !sync.dirty) return "refresh";
  return null;
}

/** Send the next job unless a request is in flight or a retry is waiting; repeat until idle. */
async function pump(game, keepalive = false) {
  const { sync } = game;
  if (sync.busy || sync.retry || sync.stopped || !game.canPlay) return;
  const job = nextJob(sync);
  if (!job) return;
  sync.busy = true;
  try {
    await JOBS[job](game, keepalive);
    if (sync.offline) backOnline(game);
  } catch (error) {
    if (!(error instanceof Transient)) console.error(error);
    goOffline(game, job);
  } finally {
    sync.busy = false;
  }
  pump(game);
}

/** A failure worth retrying: no network, or the server briefly unwell (5xx). */
class Transient extends Error {}

/** POST (or GET without a body) to the API; resolves to {status, data}. */
async function api(url, body, keepalive = false) {
  const init = { method: body === undefined ? "GET" : "POST", credentials: "same-origin", keepalive, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.headers["X-CSRFToken"] = csrfToken();
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    throw new Transient(error.message);
  }
  if (response.status >= 500) throw new Transient(`HTTP ${response.status}`);
  // login_required answers a logged-out API call with a redirect to the login page, which fetch
  // follows to a 200 HTML page: that means logged out, not success.
  if (response.redirected) return { status: 401, data: null };
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null; // 403 from Django's CSRF check is HTML, for one.
  }
  return { status: response.status, data };
}

/** Django's CSRF token: the cookie, or the hidden input the template renders. */
function csrfToken() {
  const cookie = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
  if (cookie) return decodeURIComponent(cookie.slice("csrftoken=".length));
  return document.querySelector("input[name=csrfmiddlewaretoken]")?.value ?? "";
}

/** The four requests and what their answers do. Each returns once the answer is applied. */
const JOBS = {
  async save(game, keepalive) {
    const { sync } = game;
    const sent = game.board;
    sync.dirty = false;
    sync.due = false;
    if (!sync.offline) showSaveState(game, "saving");
    let reply;
    try {
      reply = await api(game.api.save, {
        version: game.version, digits: digitsString(sent), corner: sent.corner, centre: sent.centre,
      }, keepalive);
    } catch (error) {
      sync.dirty = true; // Nothing was saved: the same (or newer) board goes next time.
      throw error;
    }
    const { status, data } = reply;
    if (status === 200) {
      game.version = data.version;
      setElapsed(game, data.elapsed);
      if (sync.dirty) writeLocalCopy(game); // Newer moves: their copy now builds on this version.
      else clearLocalCopy(game);
      showSaveState(game, "saved");
    } else if (status === 409) {
      adopt(game, data?.state, "Updated from your other device");
    } else {
      refused(game, status, data);
    }
  },

  async submit(game) {
    game.sync.submit = false;
    const { status, data } = await api(game.api.submit, { version: game.version, digits: digitsString(game.board) });
    if (status === 200 && data.solved) {
      if (data.state) adopt(game, data?.state, "");
      showSolved(game, data.seconds ?? data.state?.solve_seconds);
      render(game);
    } else if (status === 200) {
      if (typeof data.version === "number") game.version = data.version;
      showAlert(game, data.message || "Not quite: some digits are wrong.");
    } else if (status === 409) {
      adopt(game, data?.state, "Updated from your other device");
    } else {
      refused(game, status, data);
    }
  },

  async beat(game) {
    game.sync.beat = false;
    if (!running(game)) return; // Paused or hidden while the beat waited in the queue.
    const { status, data } = await api(game.api.beat, { version: game.version });
    if (status === 200) setElapsed(game, data.elapsed);
    else if (status === 409 && data?.state) adopt(game, data?.state, "Updated from your other device");
    else if (status === 401 || status === 403) refused(game, status, data);
  },

  async refresh(game) {
    game.sync.refresh = false;
    const { status, data } = await api(game.api.state);
    // Only a newer version replaces the board; local moves made meanwhile go through save and 409.
    if (status === 200 && !game.sync.dirty && data.version !== game.version) {
      adopt(game, data, "Updated from your other device");
    } else if (status === 200) {
      setElapsed(game, data.elapsed);
    }
  },
};

/** 400: a bug, not the network; 401/403: logged out. Either way stop sending, keep the local copy. */
function refused(game, status, data) {
  game.sync.stopped = true;
  if (status === 401 || status === 403) showSaveState(game, "loggedout", "You are logged out, so moves are not saved.");
  else showSaveState(game, "error", `Could not save: ${data?.error || `error ${status}`}. Your moves are kept on this device.`);
}

/** Replace the board with the server's (another tab or device saved first). */
function adopt(game, raw, notice) {
  const { sync } = game;
  if (!raw) {
    // A conflict without the state attached: drop our copy and fetch the server's.
    Object.assign(sync, { dirty: false, due: false, submit: false, refresh: true, lastRefresh: 0 });
    return;
  }
  const server = parseState(raw);
  clearTimeout(sync.debounce);
  Object.assign(sync, { dirty: false, due: false, submit: false });
  game.version = server.version;
  const changed = !sameEntries(server.board, game.board);
  game.board = server.board;
  game.history = newHistory(); // The old steps belong to a board that no longer exists.
  clearLocalCopy(game);
  if (server.solved) showSolved(game, server.solveSeconds ?? server.elapsed);
  else setElapsed(game, server.elapsed);
  dropStaleHint(game);
  render(game);
  if (notice && changed) showNotice(game, notice);
}

/** No answer: say so quietly, keep everything, and try again later and later. */
function goOffline(game, job) {
  const { sync } = game;
  if (job === "beat" || job === "refresh") sync[job] = false; // Stale by the time we are back.
  if (job === "submit") sync.submit = true;
  sync.offline = true;
  sync.retryMs = Math.min(RETRY_MAX_MS, sync.retryMs ? sync.retryMs * 2 : 1000);
  showSaveState(game, "offline", "Offline — will retry");
  sync.retry = setTimeout(() => {
    sync.retry = null;
    sync.due = true;
    pump(game);
  }, sync.retryMs);
}

/** The first answer after a failure. */
function backOnline(game) {
  game.sync.offline = false;
  game.sync.retryMs = 0;
  if (game.sync.stopped) return; // The server answered, but with a refusal: that message stays.
  showSaveState(game, "saved", "Back online — saved");
  setTimeout(() => {
    if (!game.sync.offline && game.root.querySelector("#save-status").dataset.state === "saved") showSaveState(game, "saved");
  }, 3000);
}

// ---- Entry point, last: everything above (classes and constants too) is defined by now. ----

// Node imports this file for tests, without a document.
if (typeof document !== "undefined") {
  const root = document.getElementById("sudoku");
  if (root) start(root);
}
