// The daily Sudoku board's entry point: read the page, build the game, load the player's
// position, and wire the page's events (pointer, keyboard, keypad, the page's lifecycle) to the
// modules that do the work, one job each:
//   sudoku.js  the rules, conflicts and the undo history (pure)
//   keys.js    a keyboard event to an action (pure)
//   view.js    the page's elements, looked up once, and everything drawn on them
//   sync.js    the server: saves, beats, submit, state, hints and results (the only module that talks to it)
//   hints.js   the hint panel and the marks on the board
//   play.js    what the player's moves and the server's answers do to the game
//
// The page is the same for every player (so the server can cache it whole); a player's own
// position comes from the state API.

import { enter, eraseCell, newHistory, parseState, positionKey } from "./sudoku.js";
import { MODE_NAMES, keyAction, moveTarget, nextMode } from "./keys.js";
import { BEAT_MS, SyncQueue } from "./sync.js";
import { askHint, closeHint, hintOpen } from "./hints.js";
import { adopt, change, running, select, setElapsed, setMode, setPaused, showSolved, tickClock, travel, updateClock } from "./play.js";
import { csrfToken, elements, render, showAlert, showControls, showGuest, showNotice, showPlayer, showSaveState } from "./view.js";

/** Build the game from the page, wire the grid, then load and show the player's position. */
async function start(els) {
  const page = parseState(JSON.parse(els.pageState.textContent));
  const data = els.root.dataset;
  const game = {
    els,
    loginUrl: data.loginUrl,
    canPlay: false, // true once the player's position has arrived (a visitor's empty one too)
    results: "none", // the results fragment: "none", "loading", "loaded" or "failed"
    board: page.board,
    solved: false,
    history: newHistory(),
    selected: 0,
    mode: "normal",
    paused: false,
    clock: { base: 0, since: null }, // since: performance.now() while running
    noticeTimer: null,
    hint: {
      key: null, stage: 0, // the last answer's position and stage: what the next press asks for
      shown: null, // the answer on screen, null when the panel is closed (or shows an error)
      marks: new Map(), // its cells, see hintMarks
      busy: false,
    },
  };
  game.sync = new SyncQueue({
    urls: {
      save: data.apiSave, beat: data.apiBeat, submit: data.apiSubmit, state: data.apiState,
      hint: data.apiHint, results: data.resultsUrl,
    },
    host: syncHost(game),
    csrfToken: () => csrfToken(els),
  });
  wireGrid(game);
  render(game);

  const server = await game.sync.load();
  if (!server) return;
  // A visitor plays at once: their first move makes them a guest on the server (a guest is a
  // player the page shows as one, with the way to sign up).
  if (server.player && !server.player.guest) showPlayer(game, server.player, csrfToken(els));
  else showGuest(game, server.player);
  game.sync.begin(server.version, server.player?.id, data.puzzle, Boolean(server.player?.guest));
  Object.assign(game, { canPlay: true, board: server.board, solved: server.solved });
  game.clock.base = server.elapsed;
  // Hints already shown for this very position: the next press goes on from there.
  if (server.hintStage) Object.assign(game.hint, { key: positionKey(game.board), stage: server.hintStage });
  const local = game.solved ? null : game.sync.restore(game.board);
  if (local) {
    game.board = local;
    showNotice(game, "Restored your unsaved moves");
  }
  // What the server left to say (what a log-in merged from a guest, say): the page itself cannot.
  if (server.messages.length) showNotice(game, server.messages.join(" "));
  wirePlay(game);
  if (game.solved) showSolved(game, server.solveSeconds ?? server.elapsed);
  render(game);
  updateClock(game);
  // Reading the state starts nothing on the server; the first write does. Beat now rather than
  // in BEAT_MS, so the server's clock starts when the board does, as the one on screen does.
  if (!server.started) game.sync.requestBeat();
  // For tests: the position is on the board, a visitor's ("visitor") or a player's ("true").
  els.root.dataset.ready = server.player ? "true" : "visitor";
}

/** The game as the sync queue sees it: what it reads, and where its answers go. */
function syncHost(game) {
  return {
    board: () => game.board,
    canPlay: () => game.canPlay,
    solved: () => game.solved,
    running: () => running(game),
    status: (state, text) => showSaveState(game, state, text),
    elapsed: (seconds) => setElapsed(game, seconds),
    adopt: (server, notice) => adopt(game, server, notice),
    finish: (seconds) => {
      showSolved(game, seconds);
      render(game);
    },
    alert: (text) => showAlert(game, text),
  };
}

// ---- Input: pointer, keyboard and keypad all end in the same few functions. ----

/** Selection and navigation work for everyone, players or not. */
function wireGrid(game) {
  const { grid } = game.els;
  grid.addEventListener("click", (e) => {
    const cell = e.target.closest("[data-cell]");
    // Usually focusin has already selected it; a click on the selected cell still takes focus.
    if (cell) select(game, Number(cell.dataset.cell), true);
  });
  // Tab into the grid, or a click that focuses a cell: keep the selection on the focused cell.
  grid.addEventListener("focusin", (e) => {
    const cell = e.target.closest("[data-cell]");
    if (cell && Number(cell.dataset.cell) !== game.selected) select(game, Number(cell.dataset.cell), false);
  });
  document.addEventListener("keydown", (e) => onKey(game, e));
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
  const inGrid = game.els.grid.contains(e.target);
  const moving = action.type === "move" || action.type === "goto";
  if (!inGrid && (moving || e.key === " ")) return;
  if (!inGrid && !game.els.root.contains(e.target) && e.target !== document.body) return;
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
  const { els, sync } = game;
  showControls(game);
  // A mouse press on the keypad must not take focus from the grid, so typing keeps working.
  els.keypad.addEventListener("mousedown", (e) => {
    if (e.target.closest("button, label")) e.preventDefault();
  });
  els.keypad.addEventListener("click", (e) => onKeypad(game, e));
  els.keypad.addEventListener("change", (e) => {
    if (e.target.name === "sudoku-mode") setMode(game, e.target.value);
  });
  els.pause.addEventListener("click", () => setPaused(game, !game.paused));
  els.resume.addEventListener("click", () => setPaused(game, false));
  els.hintClose.addEventListener("click", () => closeHint(game));

  document.addEventListener("visibilitychange", () => onVisibility(game));
  // Leaving the page: send what is unsaved now, with keepalive so it survives the unload.
  window.addEventListener("pagehide", () => sync.flushNow());
  window.addEventListener("online", () => sync.retryNow());
  window.addEventListener("focus", () => sync.requestRefresh(true));
  setInterval(() => tickClock(game), 500);
  setInterval(() => sync.requestBeat(), BEAT_MS);
  if (sync.dirty) sync.pump(); // A restored local copy goes to the server straight away.
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

/** Hidden tab: the clock stops and unsaved work is sent. Visible again: check for other devices. */
function onVisibility(game) {
  updateClock(game);
  if (document.hidden) game.sync.flushNow();
  else {
    game.sync.requestBeat();
    game.sync.requestRefresh();
  }
}

const els = elements(document);
if (els) start(els);
