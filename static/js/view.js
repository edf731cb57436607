// What the page shows. elements() is the one place the board's DOM elements are looked up, once;
// everything else here writes to them: the cells (one pass over the 81 after every change; cheap,
// and never out of step), the keypad, the timer, the messages and the solved screen. The results
// under it are results.js's; the settings dialog and the confirmations are tool-actions.js's.
// The words a cell or a button says are wording.js's, pure and tested with node.

import { PEERS, colOf, conflicts, positionKey, remaining, rowOf, valueAt } from "./sudoku.js";
import { cellLabel, colourKeyLabel, formatDuration, hintLabel, pauseLabel, solvedWords } from "./wording.js";

const NOTICE_MS = 8_000;

/** The board's elements, or null on a page without one. Optional parts a page may lack are null. */
export function elements(doc) {
  const root = doc.getElementById("sudoku");
  if (!root) return null;
  const one = (selector) => root.querySelector(selector);
  const cells = [...root.querySelectorAll("[data-cell]")];
  const keypad = one("#sudoku-keypad");
  return {
    root,
    grid: one("#sudoku-grid"),
    cells,
    parts: cellParts(cells),
    boardArea: one(".sudoku-board"), // the grid and what sits on it (the paused panel); game.board is the position
    pausedPanel: one("#sudoku-paused"),
    resume: one("#sudoku-resume"),
    pause: one("#sudoku-pause"),
    clock: one("#sudoku-clock"),
    timer: one("#sudoku-timer"),
    shortcuts: one("#sudoku-keys"),
    shortcutList: one("#sudoku-keys-list"),
    settingsOpen: one("#sudoku-settings-open"),
    settingsDialog: one("#sudoku-settings"),
    settingsForm: one("#sudoku-settings-form"),
    settingsStatus: one("#sudoku-settings-status"),
    confirm: one("#sudoku-confirm"),
    more: one("#sudoku-more"),
    moreKey: one("#key-more"),
    help: one("#sudoku-help"),
    guest: one("#sudoku-guest"),
    solved: one("#sudoku-solved"),
    alert: one("#sudoku-alert"),
    notice: one("#sudoku-notice"),
    saveStatus: one("#save-status"),
    hintPanel: one("#sudoku-hint-panel"),
    hintBody: one("#sudoku-hint"), // the panel's live region
    hintClose: one("#sudoku-hint-close"),
    resultsSlot: one("#sudoku-results-slot"),
    keypad,
    digitKeys: keypad ? [...keypad.querySelectorAll("[data-digit]")] : [],
    digitLeft: keypad ? [...keypad.querySelectorAll("[data-digit] .key-left-n")] : [],
    modeRadios: keypad ? [...keypad.querySelectorAll("input[name=sudoku-mode]")] : [],
    undoKey: keypad?.querySelector("#key-undo") ?? null,
    redoKey: keypad?.querySelector("#key-redo") ?? null,
    hintKey: keypad?.querySelector("#key-hint") ?? null,
    // Outside the board: the page's puzzle, and the site header's account links.
    pageState: doc.getElementById("puzzle-state"),
    accountVisitor: doc.getElementById("account-visitor"),
    accountPlayer: doc.getElementById("account-player"),
    accountStats: doc.getElementById("account-stats"),
    accountLeagues: doc.getElementById("account-leagues"), // for an account only, never a guest
    accountPages: doc.getElementById("account-pages"), // the phone menu's Password and Email, likewise
    accountName: doc.getElementById("account-name"),
    accountCsrf: doc.getElementById("account-csrf"),
    csrfInput: doc.querySelector("input[name=csrfmiddlewaretoken]"),
  };
}

/** Each cell's layers, where render writes: its colours, digit, corner and centre notes, and the candidates a hint draws. */
export function cellParts(cells) {
  return cells.map((cell) => ({
    colour: cell.querySelector(".cell-colour"),
    digit: cell.querySelector(".cell-digit"),
    corner: cell.querySelector(".cell-corner"),
    centre: cell.querySelector(".cell-centre"),
    hint: cell.querySelector(".cell-hint"),
  }));
}

/** Django's CSRF token: the cookie, or the hidden input the template renders. */
export function csrfToken(els) {
  const cookie = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
  if (cookie) return decodeURIComponent(cookie.slice("csrftoken=".length));
  return els.csrfInput?.value ?? "";
}

// ---- The board. ----

/**
 * Bring every cell, the keypad and the undo buttons in line with the game. Highlights (the
 * selection, its row, column and box, the same digit) follow the settings, and a board that
 * cannot be played (a visitor's before it loads, a solved one) shows none: only the focus ring.
 */
export function render(game) {
  const { board, cursor, settings } = game;
  const playing = game.canPlay && !game.solved;
  const bad = conflicts(board);
  const focusValue = playing && settings.highlight_same ? valueAt(board, cursor) : 0;
  const marks = game.hint.marks;
  const many = game.selection.size > 1;
  game.els.cells.forEach((cell, i) => {
    const value = valueAt(board, i);
    const chosen = playing && game.selection.has(i);
    const peer = playing && !many && settings.highlight_units && i !== cursor && PEERS[cursor].includes(i);
    const wrong = game.wrong.has(i) && value !== 0;
    cell.classList.toggle("is-entry", !board.givens[i] && value !== 0);
    cell.classList.toggle("is-selected", chosen);
    cell.classList.toggle("is-cursor", playing && many && i === cursor);
    cell.classList.toggle("is-peer", peer);
    cell.classList.toggle("is-same", focusValue !== 0 && value === focusValue && !chosen);
    cell.classList.toggle("is-conflict", bad.has(i));
    cell.classList.toggle("is-wrong", wrong);
    const ariaSelected = String(chosen);
    if (cell.getAttribute("aria-selected") !== ariaSelected) cell.setAttribute("aria-selected", ariaSelected);
    cell.tabIndex = i === cursor ? 0 : -1;
    const parts = game.els.parts[i];
    setText(parts.digit, value ? String(value) : "");
    renderNotes(parts.corner, value ? "" : board.corner[i], focusValue, settings.positional_notes && PLACES);
    renderNotes(parts.centre, value ? "" : board.centre[i], focusValue, false);
    renderColours(parts.colour, board.colours[i]);
    const mark = marks.get(i) ?? null;
    if (mark) cell.dataset.hint = mark.kind;
    else if (cell.dataset.hint) delete cell.dataset.hint;
    if (parts.hint) renderHintCandidates(parts.hint, value ? null : mark);
    const label = cellLabel(board, i, bad.has(i), mark, wrong);
    if (cell.getAttribute("aria-label") !== label) cell.setAttribute("aria-label", label);
  });
  renderKeypad(game);
}

/**
 * A cell's colours: equal slices of the cell (as in SudokuPad), each with its number in small
 * print along the bottom, so they are told apart without colour vision too. board.css has the
 * colours (--colour-1 .. --colour-9); the label says them in words.
 */
function renderColours(el, colours) {
  if (el.dataset.key === colours) return;
  el.dataset.key = colours;
  if (!colours) {
    el.style.removeProperty("background");
    el.replaceChildren();
    return;
  }
  const slice = 360 / colours.length;
  const stops = [...colours].map((c, k) => `var(--colour-${c}) ${k * slice}deg ${(k + 1) * slice}deg`);
  el.style.setProperty("background", `conic-gradient(from -45deg, ${stops.join(", ")})`);
  const index = document.createElement("span");
  index.className = "cell-colour-index";
  index.dataset.n = colours; // drawn by the stylesheet, as notes are (renderNotes)
  el.replaceChildren(index);
}

/** Set text only when it differs, so unchanged cells cost nothing. */
function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

// Positional pencil marks (a setting): digit 1 to 9's position class, its own place in the 3 by 3.
const PLACES = "041687253";

/**
 * Notes as one span per digit, with a position class: corner notes take the corners first, then
 * the edges (as in SudokuPad), or each digit its place (`places` PLACES); centre notes sit in one
 * or two rows whatever their class says (board.css, by data-count). Notes equal to the selected
 * cell's digit are highlighted, to help spot where it can go.
 *
 * The digits are drawn by the stylesheet from data-n, not written as text: the cell's label says
 * them in words ("corner notes 3 4, notes 5 7"), and text in the cell would be a second name that
 * differs from it (axe's label-content-name-mismatch: "3457" on screen). data-notes holds them all.
 */
function renderNotes(el, notes, focusValue, places) {
  const key = `${notes}|${focusValue}|${places}`;
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  el.dataset.notes = notes;
  el.replaceChildren(
    ...[...notes].map((n, k) => {
      const span = document.createElement("span");
      span.dataset.n = n;
      span.className = `pos-${places ? places[n - 1] : k}`;
      if (Number(n) === focusValue) span.classList.add("is-same");
      return span;
    }),
  );
  el.dataset.count = String(notes.length);
}

/**
 * The candidates a hint draws in a cell the player keeps no notes in: each digit in its own
 * place of a 3 by 3 (as printed pencil marks), in the hint's colour and italics, so they are told
 * from the player's own notes; the ones the step removes struck through. Drawn from data-n by the
 * stylesheet, as notes are; the cell's label says them (wording.js).
 */
function renderHintCandidates(el, mark) {
  const cands = mark?.cands ?? [];
  const removed = mark?.kind === "remove" ? mark.digits : [];
  const key = `${cands.join("")}|${removed.join("")}`;
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  el.replaceChildren(
    ...cands.map((d) => {
      const span = document.createElement("span");
      span.dataset.n = String(d);
      if (removed.includes(d)) span.className = "is-removed";
      return span;
    }),
  );
}

/**
 * The keypad: how many of each digit are left to place (dimmed at none), the colours in colour
 * mode; undo/redo greyed out with aria-disabled (focus stays put).
 */
export function renderKeypad(game) {
  const { keypad, digitKeys, digitLeft, undoKey, redoKey, modeRadios, hintKey } = game.els;
  if (!keypad) return;
  const left = remaining(game.board);
  keypad.dataset.mode = game.mode;
  digitKeys.forEach((button, k) => {
    const d = Number(button.dataset.digit);
    button.classList.toggle("is-done", left[d] === 0 && game.mode !== "colour");
    setText(digitLeft[k], String(left[d]));
    const label = game.mode === "colour" ? colourKeyLabel(d) : null;
    if (label) button.setAttribute("aria-label", label);
    else button.removeAttribute("aria-label");
  });
  undoKey.setAttribute("aria-disabled", String(!game.history.past.length));
  redoKey.setAttribute("aria-disabled", String(!game.history.future.length));
  for (const radio of modeRadios) radio.checked = radio.value === game.mode;
  if (!hintKey) return;
  const key = positionKey(game.board);
  setText(hintKey, hintLabel(game.hint, key, Boolean(game.hint.shown)));
  // The last stage on screen has nothing more to show for this position until it changes.
  const allShown = game.hint.shown?.final && game.hint.key === key;
  hintKey.setAttribute("aria-disabled", String(game.hint.busy || Boolean(allShown)));
}

/** Redraw the timer. */
export function showTime(game, seconds) {
  if (game.els.timer) setText(game.els.timer, formatDuration(seconds));
}

/** The settings that change what the board shows at once: the timer, and the theme (theme.js's key). */
export function applySettings(game) {
  const { els, settings } = game;
  els.clock?.classList.toggle("is-hidden-by-setting", !settings.show_timer);
  try {
    localStorage.setItem("sudoku:theme", settings.theme);
  } catch {
    // Private mode: the theme holds for this page only.
  }
  document.documentElement.dataset.theme = settings.theme; // as theme.js sets it on the next page
}

// ---- Who is here: the page is the same for everyone until the state API says. ----

/**
 * A visitor or a guest (`player`, null for a visitor): the grid opens, with a notice that they
 * play as a guest and the way to sign up or log in (and back); the header offers the same, and
 * names nobody.
 */
export function showGuest(game, player) {
  const { els } = game;
  els.guest.hidden = false;
  els.accountVisitor.hidden = false;
  els.accountStats.hidden = !player; // a guest has stats like any player; a visitor has none yet
  els.root.dataset.guest = "true";
  setText(els.help, els.help.dataset.playerHelp);
  els.grid.removeAttribute("aria-readonly");
}

/** Logged in: name the player in the site header, give its log-out form the CSRF token, open the grid. */
export function showPlayer(game, player, csrf) {
  const { els } = game;
  setText(els.accountName, player.name);
  els.accountCsrf.value = csrf;
  for (const el of [els.accountPlayer, els.accountStats, els.accountLeagues, els.accountPages]) el.hidden = false;
  setText(els.help, els.help.dataset.playerHelp);
  els.grid.removeAttribute("aria-readonly");
}

/** The keypad, the clock, pause and the shortcuts: shown only now, for a player whose game has loaded. */
export function showControls(game) {
  const { els } = game;
  els.keypad.hidden = game.solved;
  // Hidden in the page: without the script they would promise what the page cannot do. The
  // keyboard reference means nothing on a device with only a touch screen.
  const touchOnly = window.matchMedia?.("(hover: none) and (pointer: coarse)").matches ?? false;
  els.clock.hidden = false;
  els.settingsOpen.hidden = false;
  els.shortcuts.hidden = touchOnly;
  // Its list is written when it is first opened (key-help.js, the table the keys act on); offline,
  // at the next opening.
  els.shortcuts.addEventListener("toggle", () => import("./key-help.js").then((help) => help.showKeyHelp(els.shortcutList), () => {}));
  els.pause.hidden = game.solved;
}

/** Pausing hides the grid (no peeking); the button says what a press will do. */
export function showPaused(game, paused) {
  const { els } = game;
  els.boardArea.classList.toggle("is-paused", paused);
  els.grid.inert = paused;
  els.keypad.inert = paused;
  els.pausedPanel.hidden = !paused;
  els.pause.textContent = pauseLabel(paused);
}

/** The solved screen: the board turns read-only and the keypad gives way to the time. */
export function showSolvedBoard(game, seconds) {
  const { els } = game;
  els.grid.setAttribute("aria-readonly", "true");
  els.root.classList.add("is-solved");
  els.clock.classList.remove("is-hidden-by-setting"); // the time is the result now
  for (const el of [els.keypad, els.pause, els.shortcuts]) {
    if (!el) continue;
    // Hiding the focused control would drop focus to the page: hand it to the grid first.
    if (el.contains(document.activeElement)) els.cells[game.cursor].focus();
    el.hidden = true;
  }
  setText(els.solved, solvedWords(seconds)); // one line beside a wide grid
}

const CELEBRATION_MS = 1_600;

/**
 * The moment of the solve, on the board itself: a wave of colour across the grid from the top
 * left corner, once. Nothing moves for a player who asks for reduced motion (the solved line and
 * the results say it all the same).
 */
export function celebrate(game) {
  if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) return;
  const { cells, boardArea } = game.els;
  cells.forEach((cell, i) => cell.style.setProperty("--wave", String(rowOf(i) + colOf(i))));
  boardArea.classList.add("is-celebrating");
  setTimeout(() => boardArea.classList.remove("is-celebrating"), CELEBRATION_MS);
}

// ---- Messages. ----

/** A short notice that clears itself ("Updated from your other device"). */
export function showNotice(game, text) {
  const el = game.els.notice;
  el.textContent = text;
  clearTimeout(game.noticeTimer);
  if (text) game.noticeTimer = setTimeout(() => (el.textContent = ""), NOTICE_MS);
}

/** A wrong grid: stays until the board changes. */
export function showAlert(game, text) {
  setText(game.els.alert, text);
}

/** The save line: data-state for tests and styles; text only when the player should know. */
export function showSaveState(game, state, text = "") {
  const el = game.els.saveStatus;
  el.dataset.state = state;
  setText(el, text);
  if (state === "loggedout") {
    const link = document.createElement("a");
    link.href = game.loginUrl;
    link.textContent = "Log in again";
    el.append(" ", link);
  }
}

// ---- Stylesheets of what a first paint never shows, linked when it is about to. ----

const sheets = new Map(); // href -> a promise, settled once the sheet is in use (or could not be had)

/** Link the stylesheet at `href` once; resolves when it applies, so what it styles never shows bare. */
export function stylesheet(href) {
  if (!sheets.has(href)) {
    const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href });
    sheets.set(href, new Promise((resolve) => {
      link.addEventListener("load", resolve);
      link.addEventListener("error", resolve); // offline: shown plain, rather than never
    }));
    document.head.append(link);
  }
  return sheets.get(href);
}
