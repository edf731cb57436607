// The board's tools beyond entering digits: the player's settings (kept on the server for every
// player, a guest too, and on this device for the next page's first paint) and the Tools panel.
// This module is what every board needs of them: the settings in effect, and the buttons wired.
// What the settings dialog and the Tools panel's tools do (fill candidates, check, restart, and
// the confirmation those that cannot be taken back lightly ask for) is tool-actions.js's, loaded
// with the first press of either. Requests go through the sync queue, which alone talks to the
// server.

import { Transient } from "./sync.js";
import { applySettings, render, showNotice } from "./view.js";

/** What a player who never chose gets (the server has the same defaults: puzzles/play/preferences.py). */
const DEFAULT_SETTINGS = Object.freeze({
  remove_notes: true,
  positional_notes: false,
  highlight_units: true,
  highlight_same: true,
  show_timer: true,
  theme: "system",
  wrap_arrows: false,
  auto_candidates: "off",
  show_mistakes: false,
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

/**
 * candidates.js, with which play.js keeps the always-on candidates (game.candidates), loaded once
 * `settings` turn them on: most players never do. False if it could not be had (offline).
 */
export async function candidatesReady(game, settings) {
  if (settings.auto_candidates === "off" || game.candidates) return true;
  try {
    game.candidates = await import("./candidates.js");
    return true;
  } catch {
    return false;
  }
}

/**
 * Put settings into effect: the board, the timer, the theme, and this device's copy. Always-on
 * candidates take effect once their module is here; if it cannot be had they stay off, and this
 * returns false.
 */
export async function useSettings(game, settings) {
  const ready = await candidatesReady(game, settings);
  game.settings = ready ? settings : { ...settings, auto_candidates: "off" };
  keepSettings(game.settings);
  applySettings(game);
  render(game);
  return ready;
}

/** The server's copy of the player's settings (a visitor's: the defaults) replaces this device's. */
export async function loadSettings(game) {
  try {
    const { status, data } = await game.sync.settings();
    if (status === 200 && data?.settings) await useSettings(game, cleanSettings(data.settings));
  } catch (error) {
    if (!(error instanceof Transient)) console.error(error);
  }
  // Show mistakes on: mistakes.js says what it costs, or marks what a solve already helped gets wrong.
  if (game.settings.show_mistakes) import("./mistakes.js").then((m) => m.mistakesOn(game), () => {});
}

/**
 * tool-actions.js, asked for once: when the Tools panel opens (so its tools are here by the time
 * one is pressed), or a press of Settings is on its way. The panel says when it is here (the
 * tests wait for it).
 */
let actionsModule = null;
const actions = (game) =>
  (actionsModule ??= import("./tool-actions.js").then((module) => {
    game.els.more.dataset.loaded = "yes";
    return module;
  }, (error) => {
    actionsModule = null; // offline: the next press tries again
    throw error;
  }));

/** `then(tools)` once tool-actions.js is here; offline, a notice says so. */
function withActions(game, then) {
  actions(game).then(then, () => showNotice(game, "Could not load this tool: check your connection and try again."));
}

/** The settings dialog and the Tools panel: wired once the player's game has loaded. */
export function wireTools(game) {
  const { els } = game;
  els.settingsOpen.addEventListener("click", () => withActions(game, (tools) => tools.openSettings(game)));
  // A pointer over Settings, or focus on it, is a press on its way: its dialog's code loads then.
  for (const type of ["pointerenter", "focus"]) els.settingsOpen.addEventListener(type, () => actions(game).catch(() => {}));
  els.settingsForm.addEventListener("change", (e) => withActions(game, (tools) => tools.onSettingChanged(game, e.target, useSettings)));
  els.settingsDialog.addEventListener("close", () => els.settingsOpen.focus());

  els.moreKey.addEventListener("click", () => toggleMore(game, els.more.hidden));
  els.more.addEventListener("click", (e) => {
    const action = e.target.closest("button")?.dataset.action;
    if (!action) return;
    toggleMore(game, false, false);
    withActions(game, (tools) => tools.useTool(game, action));
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
  if (open) actions(game).catch(() => {}); // early, for the press to come (which says if it fails)
  more.hidden = !open;
  moreKey.setAttribute("aria-expanded", String(open));
  if (!moveFocus) return;
  if (open) more.querySelector("button").focus();
  else moreKey.focus();
}
