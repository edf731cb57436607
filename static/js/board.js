// The daily Sudoku board's entry point: read the page, build the game, load the player's
// position, and wire the page's events (pointer, keyboard, keypad, the page's lifecycle) to the
// modules that do the work, one job each:
//   state.js   the game's state: every field, with its default
//   sudoku.js  the rules, conflicts, a change's moves and the undo history (pure)
//   keys.js    a keyboard event to an action (pure)
//   view.js    the page's elements, looked up once, and everything drawn on them
//   wording.js what the board says: labels, notices, the timer's text (pure)
//   sync.js    the server: saves (with the moves of the record of play), beats, submit, state, hints and results
//              (the only module that talks to it); sync-rules.js which request goes next and when (pure),
//              sync-jobs.js the four requests and what their answers do
//   record-of-play.js  the moves no write has carried yet (sync.js's)
//   hints.js   asking for a hint, and closing it; hint-panel.js, loaded with the first press,
//              shows it and its marks on the board
//   play.js    what the player's moves and the server's answers do to the game
//   merge.js   this device's unsaved entries put on top of a newer board from the server (pure), loaded
//              with the first merge (device.js merging)
//   undo.js    the undo history as steps, fitted to a merged board, and its copy on this device
//   candidates.js  always-on candidates: notes the board keeps up to date (pure), loaded once they are on
//   device.js  the unsaved moves kept on this device (sync.js writes and takes them back)
//   tools.js   settings and the Tools panel; what their dialog and tools do (fill candidates, check,
//              restart, confirmations) is tool-actions.js's, loaded with the first press
//   results.js the results under the board, with their stylesheets and the Share and Copy buttons
//              (share.js): loaded with the solve (play.js)
//
// The page is the same for every player (so the server can cache it whole); a player's own
// position comes from the state API.

import { parseState, positionKey } from "./sudoku.js";
import { newGame } from "./state.js";
import { keyAction, moveTarget, nextMode } from "./keys.js";
import { SyncQueue } from "./sync.js";
import { browserStorage } from "./device.js";
import { UndoCopy } from "./undo.js";
import { askHint, closeHint, hintOpen, hintPanel } from "./hints.js";
import {
  adopt, change, clearSelection, enterDigit, eraseSelection, rebase, restoreHistory, running, select, selectAll,
  setElapsed, setMode, setPaused, showSolved, tickClock, travel, updateClock,
} from "./play.js";
import { candidatesReady, loadSettings, storedSettings, wireTools } from "./tools.js";
import {
  applySettings, csrfToken, elements, render, showAlert, showControls, showGuest, showNotice, showPlayer, showSaveState,
} from "./view.js";
import { entryNotice, hintActionNotice } from "./wording.js";

/** Build the game from the page, wire the grid, then load and show the player's position. */
async function start(els) {
  const page = parseState(JSON.parse(els.pageState.textContent));
  const data = els.root.dataset;
  const game = newGame({ els, board: page.board, settings: storedSettings(), loginUrl: data.loginUrl });
  game.sync = new SyncQueue({
    urls: {
      save: data.apiSave, beat: data.apiBeat, submit: data.apiSubmit, state: data.apiState,
      hint: data.apiHint, check: data.apiCheck, settings: data.apiSettings, results: data.resultsUrl,
    },
    host: syncHost(game),
    csrfToken: () => csrfToken(els),
    saveEveryMs: Number(data.saveEvery) || undefined, // the default's when the page names none
  });
  wireGrid(game);
  applySettings(game);
  render(game);

  // Always-on candidates, if this device last had them on: their module loads with the position.
  const candidates = candidatesReady(game, game.settings);
  const server = await game.sync.load();
  if (!server) return;
  if (!(await candidates)) game.settings = { ...game.settings, auto_candidates: "off" };
  // A visitor plays at once: their first move makes them a guest on the server (a guest is a
  // player the page shows as one, with the way to sign up).
  if (server.player && !server.player.guest) showPlayer(game, server.player, csrfToken(els));
  else showGuest(game, server.player);
  game.sync.begin(server.version, server.player?.id, data.puzzle, Boolean(server.player?.guest), server.board);
  Object.assign(game, { board: server.board, solved: server.solved, checks: server.checks, hints: server.hints });
  game.clock.base = server.elapsed;
  // Hints already shown for this very position: the next press goes on from there.
  if (server.hintStage) Object.assign(game.hint, { key: positionKey(game.board), stage: server.hintStage });
  const local = game.solved ? null : await game.sync.restore(server);
  if (local) game.board = local.board;
  game.canPlay = true; // after the restore, which may wait for merge.js: no move meanwhile
  // The undo history this device kept for the player's daily, fitted to the board as it is now.
  game.undoCopy = new UndoCopy(browserStorage);
  game.undoCopy.open(server.player?.id, data.puzzle, Boolean(server.player?.guest), server.player?.from_guest);
  const cut = game.solved ? "" : restoreHistory(game);
  if (local || cut) showNotice(game, [local && "Restored your unsaved moves.", local?.message, cut].filter(Boolean).join(" "));
  // What the server left to say (what a log-in merged from a guest, say): the page itself cannot.
  if (server.messages.length) showNotice(game, server.messages.join(" "));
  wirePlay(game);
  if (game.solved) showSolved(game, server.solveSeconds ?? server.elapsed);
  render(game);
  // The clock starts now, on screen and on the server (an "open": time counts from this moment,
  // never from when the puzzle was last closed). A visitor's starts with their first move.
  updateClock(game);
  if (server.player) loadSettings(game);
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
    rebase: (server, notice) => rebase(game, server, notice),
    finish: (seconds) => {
      showSolved(game, seconds, true);
      render(game);
    },
    alert: (text) => showAlert(game, text),
  };
}

// ---- Input: pointer, keyboard and keypad all end in the same few functions. ----

/**
 * Selection and navigation work for everyone, players or not. A click selects a cell; Shift and a
 * click adds to the selection, Ctrl or Cmd and a click adds or takes one away; a drag (mouse,
 * pen or finger) selects every cell it passes over.
 */
function wireGrid(game) {
  const { grid } = game.els;
  const cellAt = (x, y) => document.elementFromPoint(x, y)?.closest?.("[data-cell]");
  let drag = null; // {how, last}: a press on the grid that has not been let go
  grid.addEventListener("pointerdown", (e) => {
    const cell = e.target.closest("[data-cell]");
    if (!cell || e.button > 0) return;
    const i = Number(cell.dataset.cell);
    const how = e.ctrlKey || e.metaKey ? "toggle" : e.shiftKey ? "add" : "only";
    select(game, i, true, how);
    drag = { last: i };
    e.preventDefault(); // no text selection, and focus is placed by select
  });
  grid.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const cell = cellAt(e.clientX, e.clientY);
    if (!cell || !grid.contains(cell)) return;
    const i = Number(cell.dataset.cell);
    if (i === drag.last) return;
    drag.last = i;
    select(game, i, true, "add");
  });
  const endDrag = () => (drag = null);
  for (const type of ["pointerup", "pointercancel"]) document.addEventListener(type, endDrag);
  // Tab into the grid: the selection follows the focused cell.
  grid.addEventListener("focusin", (e) => {
    const cell = e.target.closest("[data-cell]");
    if (cell && !drag && Number(cell.dataset.cell) !== game.cursor) select(game, Number(cell.dataset.cell), false);
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
  if (e.target.closest?.("dialog")) return; // a dialog's own keys (Escape closes it)
  if (moving) {
    const to = moveTarget(game.cursor, action, game.settings.wrap_arrows);
    select(game, to, true, action.extend ? "add" : "only");
  } else if (action.type === "selectAll") {
    if (!inGrid) return; // Ctrl+A elsewhere selects the page's text, as usual
    selectAll(game);
  } else if (action.type === "dismiss" && !hintOpen(game)) {
    if (!clearSelection(game)) return; // Escape means nothing else here: leave it to the page.
  } else if (!game.canPlay || game.solved) {
    return; // Read-only: let the key do whatever it usually does.
  } else if (action.type === "digit") {
    enterDigit(game, action.d, action.kind === "mode" ? game.mode : action.kind);
  } else if (action.type === "erase") {
    eraseSelection(game);
  } else if (action.type === "setMode") {
    setMode(game, action.mode);
    showNotice(game, entryNotice(game.mode));
  } else if (action.type === "undo" || action.type === "redo") {
    travel(game, action.type);
  } else if (action.type === "hint") {
    askHint(game);
  } else if (action.type === "dismiss") {
    closeHint(game);
  } else if (action.type === "mode") {
    setMode(game, nextMode(game.mode));
    // Clicking a radio announces itself; a key press needs saying (and shows what N did).
    showNotice(game, entryNotice(game.mode));
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
  // A finger's key acts when it lifts, on the key it pressed: a tap straight after dragging over
  // the grid can lose its click to the browser's gesture detection (seen in Chromium), and a
  // player entering digits fast must not lose one. Mouse and keyboard keep the click.
  els.keypad.addEventListener("pointerup", (e) => {
    if (e.pointerType !== "touch" && e.pointerType !== "pen") return;
    const pressed = e.target.closest("button");
    const under = document.elementFromPoint(e.clientX, e.clientY)?.closest("button");
    if (pressed && pressed === under) onKeypad(game, e);
  });
  els.keypad.addEventListener("click", (e) => {
    if (e.pointerType !== "touch" && e.pointerType !== "pen") onKeypad(game, e);
  });
  els.keypad.addEventListener("change", (e) => {
    if (e.target.name === "sudoku-mode") setMode(game, e.target.value);
  });
  els.pause.addEventListener("click", () => setPaused(game, !game.paused));
  els.resume.addEventListener("click", () => setPaused(game, false));
  els.hintClose.addEventListener("click", () => closeHint(game));
  els.hintBody.addEventListener("click", (e) => {
    if (e.target.closest("[data-hint-action]")) actOnHint(game);
  });
  wireTools(game);

  document.addEventListener("visibilitychange", () => onVisibility(game));
  // Leaving the page: send what is unsaved and stop the server's clock, with keepalive so both
  // survive the unload. Coming back from the browser's back-forward cache is opening it again.
  window.addEventListener("pagehide", () => {
    sync.leave();
    game.clock.base = game.clock.shown;
    game.clock.since = null;
  });
  window.addEventListener("pageshow", (e) => {
    if (e.persisted) updateClock(game);
  });
  // A log-out ends the session: the entries waiting for their save go first.
  els.accountCsrf.form?.addEventListener("submit", async (e) => {
    if (!sync.dirty) return;
    e.preventDefault();
    await sync.saveBeforeLeaving();
    e.target.submit();
  });
  window.addEventListener("online", () => sync.retryNow());
  window.addEventListener("focus", () => sync.requestRefresh(true));
  setInterval(() => tickClock(game), 250);
  sync.startTicking(); // a tick after 10 s without a save or a beat, while time counts
  if (sync.dirty) sync.pump(); // A restored local copy goes to the server straight away.
}

/** A keypad press: a digit in the current mode, erase, undo or redo. */
function onKeypad(game, e) {
  const button = e.target.closest("button");
  if (!button || game.solved || game.paused) return;
  if (button.dataset.digit) {
    enterDigit(game, Number(button.dataset.digit));
  } else if (button.dataset.action === "erase") {
    eraseSelection(game);
  } else if (button.dataset.action === "undo" || button.dataset.action === "redo") {
    travel(game, button.dataset.action);
  } else if (button.dataset.action === "hint") {
    askHint(game);
  }
}

/**
 * The hint's action, pressed: a move of the player's own, through the board's move path (one undo
 * step, saved, in the record of play). The board changes, so the hint closes; the cell acted on
 * takes the focus.
 */
async function actOnHint(game) {
  const { hintActionBoard } = await hintPanel(); // loaded already: it showed the hint
  const action = game.hint.shown?.action;
  if (!action || !game.canPlay || game.solved || game.paused) return;
  if (positionKey(game.board) !== game.hint.key) return; // the hint is for a position that is gone
  const next = hintActionBoard(game.board, action, { removeNotes: game.settings.remove_notes });
  if (Number.isInteger(action.cell)) {
    game.cursor = action.cell;
    game.selection = new Set([action.cell]);
  }
  change(game, next);
  showNotice(game, hintActionNotice(action));
}

/** Hidden tab: unsaved work is sent and the clock stops. Visible again: it starts, and other devices are looked for. */
function onVisibility(game) {
  if (document.hidden) game.sync.flushNow();
  updateClock(game);
  if (!document.hidden) game.sync.requestRefresh();
}

const els = elements(document);
if (els) start(els);
