// The board's tools beyond entering digits: the player's settings (a dialog, kept on the server
// for every player, a guest too, and on this device for the next page's first paint), the Tools
// panel (fill candidates, check, restart) and the confirmation those that cannot be taken back
// lightly ask for. Requests go through the sync queue, which alone talks to the server.

import { AUTO_LAYERS, fillAlways, noRemovals } from "./candidates.js";
import { clearedBoard, fillCandidates, sameEntries } from "./sudoku.js";
import { Transient, UPDATED_ELSEWHERE } from "./sync.js";
import { applySettings, render, showNotice } from "./view.js";
import { change } from "./play.js";

/** What a player who never chose gets (the server has the same defaults: puzzles/play/preferences.py). */
const DEFAULT_SETTINGS = Object.freeze({
  remove_notes: true,
  highlight_units: true,
  highlight_same: true,
  show_timer: true,
  theme: "system",
  wrap_arrows: false,
  auto_candidates: "off",
});

/** The settings that are a choice among words; the others are true or false. */
const CHOICES = Object.freeze({
  theme: ["system", "light", "dark"],
  auto_candidates: ["off", "centre", "corner"],
});

const SETTINGS_KEY = "sudoku:settings";

/** Only the known keys, each of the right type: what a stored or received copy may set. */
function cleanSettings(raw) {
  const clean = { ...DEFAULT_SETTINGS };
  for (const [key, value] of Object.entries(raw ?? {})) {
    if (!(key in DEFAULT_SETTINGS)) continue;
    if (key in CHOICES ? CHOICES[key].includes(value) : typeof value === "boolean") clean[key] = value;
  }
  return clean;
}

/** The settings this device last saw, for the first paint (the server's copy follows). */
export function storedSettings() {
  try {
    return cleanSettings(JSON.parse(localStorage.getItem(SETTINGS_KEY) || "null"));
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
}

function keepSettings(settings) {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    // Private mode: the server's copy still holds them.
  }
}

/** Put settings into effect: the board, the timer, the theme, and this device's copy. */
function useSettings(game, settings) {
  game.settings = settings;
  keepSettings(settings);
  applySettings(game);
  render(game);
}

/** The server's copy of the player's settings (a visitor's: the defaults) replaces this device's. */
export async function loadSettings(game) {
  try {
    const { status, data } = await game.sync.settings();
    if (status === 200 && data?.settings) useSettings(game, cleanSettings(data.settings));
  } catch (error) {
    if (!(error instanceof Transient)) console.error(error);
  }
}

/** The settings dialog and the Tools panel: wired once the player's game has loaded. */
export function wireTools(game) {
  const { els } = game;
  els.settingsOpen.addEventListener("click", () => openSettings(game));
  els.settingsForm.addEventListener("change", (e) => onSettingChanged(game, e.target));
  els.settingsDialog.addEventListener("close", () => els.settingsOpen.focus());

  els.moreKey.addEventListener("click", () => toggleMore(game, els.more.hidden));
  els.more.addEventListener("click", (e) => {
    const action = e.target.closest("button")?.dataset.action;
    if (!action) return;
    toggleMore(game, false, false);
    if (action === "fill") fill(game);
    else if (action === "check") check(game);
    else if (action === "restart") restart(game);
  });
  // The panel closes when the player goes elsewhere: Escape, or a press outside it.
  els.more.parentElement.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !els.more.hidden) {
      toggleMore(game, false);
      e.preventDefault();
      e.stopPropagation();
    }
  });
  document.addEventListener("pointerdown", (e) => {
    if (!els.more.hidden && !els.more.parentElement.contains(e.target)) toggleMore(game, false, false);
  });
}

/** Open or close the Tools panel; opening moves focus to its first tool, closing back to the button. */
function toggleMore(game, open, moveFocus = true) {
  const { more, moreKey } = game.els;
  more.hidden = !open;
  moreKey.setAttribute("aria-expanded", String(open));
  if (!moveFocus) return;
  if (open) more.querySelector("button").focus();
  else moreKey.focus();
}

// ---- Settings. ----

function openSettings(game) {
  const { settingsForm, settingsDialog, settingsStatus } = game.els;
  for (const input of settingsForm.elements) {
    if (input.type === "checkbox") input.checked = Boolean(game.settings[input.name]);
    else if (input.type === "radio") input.checked = game.settings[input.name] === input.value;
  }
  settingsStatus.textContent = "";
  settingsDialog.showModal();
}

/** One setting changed: in effect at once, then saved for the player. */
async function onSettingChanged(game, input) {
  if (!(input.name in DEFAULT_SETTINGS)) return;
  const value = input.type === "checkbox" ? input.checked : input.value;
  const drawnIn = AUTO_LAYERS[game.settings.auto_candidates];
  useSettings(game, { ...game.settings, [input.name]: value });
  if (input.name === "auto_candidates") alwaysOn(game, drawnIn);
  const status = game.els.settingsStatus;
  let reply = null;
  try {
    reply = await game.sync.settings({ [input.name]: value });
  } catch (error) {
    if (!(error instanceof Transient)) console.error(error);
  }
  if (reply?.status === 200) status.textContent = "Saved";
  else status.textContent = "Could not save this to your account; it holds on this device.";
}

/**
 * Always-on candidates turned on, or moved to the other layer (from `drawnIn`): every empty cell's
 * candidates are drawn at once, one undo step. Turned off, the notes stay as notes.
 */
function alwaysOn(game, drawnIn) {
  const layer = AUTO_LAYERS[game.settings.auto_candidates];
  if (!layer || !playable(game)) return;
  change(game, fillAlways(game.board, layer, drawnIn && drawnIn !== layer ? drawnIn : null, game.removed), { keep: false });
  showNotice(game, `Candidates now kept as ${layer} notes.`); // one line on a phone; Undo takes them back
}

// ---- Confirmations. ----

/** Ask before a tool that cannot lightly be taken back; resolves true if the player confirms. */
function confirmWith(game, { title, text, ok }) {
  const dialog = game.els.confirm;
  dialog.querySelector("#sudoku-confirm-title").textContent = title;
  dialog.querySelector("#sudoku-confirm-text").textContent = text;
  dialog.querySelector("#sudoku-confirm-ok").textContent = ok;
  const opener = document.activeElement;
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      // Back to where the player was: the grid's cursor if the opener has gone (the Tools panel closed).
      const back = opener?.isConnected && !opener.closest("[hidden]") ? opener : game.els.cells[game.cursor];
      back.focus();
      resolve(dialog.returnValue === "ok");
    }, { once: true });
  });
}

// ---- The tools. ----

/** Every empty cell's candidates by the rules, from the player's own digits, as centre notes: one undo step. */
function fill(game) {
  if (!playable(game)) return;
  change(game, fillCandidates(game.board));
  showNotice(game, "Candidates filled in as centre notes. Undo takes them back.");
}

/** Clear the board after a confirmation; the clock keeps running (an undo brings it all back). */
async function restart(game) {
  if (!playable(game)) return;
  if (sameEntries(startingBoard(game), game.board)) {
    showNotice(game, "Nothing to clear: the board has only the givens.");
    return;
  }
  const ok = await confirmWith(game, {
    title: "Restart this puzzle?",
    text: "Every digit, note and colour you entered is cleared. The clock keeps running.",
    ok: "Restart",
  });
  if (!ok || !playable(game)) return;
  game.removed = noRemovals();
  change(game, startingBoard(game), { keep: false });
  game.wrong.clear();
  render(game);
  showNotice(game, "Board cleared. Undo brings it back.");
}

/** The puzzle as it started; with always-on candidates, with all of them, and nothing taken out. */
function startingBoard(game) {
  const layer = AUTO_LAYERS[game.settings.auto_candidates];
  const cleared = clearedBoard(game.board);
  return layer ? fillAlways(cleared, layer) : cleared;
}

/**
 * Ask the server which of the player's digits are wrong, after saying what that costs: a check is
 * an assist, recorded like a hint, and the solve is not ranked. The wrong cells are marked until
 * their digit changes.
 */
async function check(game) {
  if (!playable(game)) return;
  const ok = await confirmWith(game, {
    title: "Check your digits?",
    text: game.checks
      ? "Wrong digits are marked. You have checked before, so this solve is already not ranked."
      : "Wrong digits are marked. Checking is an assist, like a hint: this solve will not be ranked on the leaderboard.",
    ok: "Check",
  });
  if (!ok || !playable(game)) return;
  let reply = null;
  try {
    reply = await game.sync.check(game.board);
  } catch (error) {
    if (!(error instanceof Transient)) console.error(error);
  }
  onCheckReply(game, reply);
}

function onCheckReply(game, reply) {
  if (!reply) {
    showNotice(game, "Could not reach the server to check. Try again in a moment.");
    return;
  }
  const { status, data } = reply;
  if (status === 200 && Array.isArray(data?.wrong)) {
    game.checks = data.checks ?? game.checks + 1;
    game.wrong = new Set(data.wrong);
    render(game);
    const n = data.wrong.length;
    showNotice(game, n ? `${n} wrong ${n === 1 ? "digit is" : "digits are"} marked.` : "No wrong digits so far.");
  } else if (status === 409 && data?.state) {
    game.sync.adopt(data.state, UPDATED_ELSEWHERE);
  } else if (status === 429) {
    showNotice(game, data?.error || `Too many checks: try again in ${data?.retry_after ?? 60} seconds.`);
  } else {
    showNotice(game, `Could not check: ${data?.error || `error ${status}`}.`);
  }
}

function playable(game) {
  return game.canPlay && !game.solved && !game.paused;
}
