// What the settings dialog and the Tools panel's tools do: a setting changed (in effect at once,
// then saved for the player; show mistakes, mistakes.js, asks first), fill candidates, check and
// restart, each asking first where it cannot be taken back lightly (confirm.js). Loaded by
// tools.js with the first press of either; it imports nothing back from tools.js (production's
// hashed names would name each other in a cycle).

import * as candidates from "./candidates.js";
import { clearedBoard, fillCandidates, sameEntries } from "./sudoku.js";
import { Transient } from "./sync.js";
import { UPDATED_ELSEWHERE } from "./sync-jobs.js";
import { render, showNotice } from "./view.js";
import { change } from "./play.js";
import { confirmWith } from "./confirm.js";
import * as mistakes from "./mistakes.js";

const { AUTO_LAYERS, fillAlways, noRemovals } = candidates;

/** One of the Tools panel's tools, by its button's data-action. */
export function useTool(game, action) {
  if (action === "fill") fill(game);
  else if (action === "check") check(game);
  else if (action === "restart") restart(game);
}

// ---- Settings. ----

export function openSettings(game) {
  const { settingsForm, settingsDialog, settingsStatus } = game.els;
  for (const input of settingsForm.elements) {
    if (input.type === "checkbox") input.checked = Boolean(game.settings[input.name]);
    else if (input.type === "radio") input.checked = game.settings[input.name] === input.value;
  }
  settingsStatus.textContent = "";
  settingsDialog.showModal();
}

/**
 * One setting changed: in effect at once (tools.js's `useSettings`), then saved for the player.
 * Show mistakes asks first, since no solve is ranked while it is on; Cancel leaves it off.
 */
export async function onSettingChanged(game, input, useSettings) {
  if (!(input.name in game.settings)) return;
  const value = input.type === "checkbox" ? input.checked : input.value;
  const showing = input.name === "show_mistakes";
  if (showing && value && !(await mistakes.confirmMistakes(game))) {
    input.checked = false;
    return;
  }
  const drawnIn = AUTO_LAYERS[game.settings.auto_candidates];
  game.candidates = candidates; // here already: no wait for always-on candidates
  if (showing && !value) game.wrong.clear(); // its marks go with it
  await useSettings(game, { ...game.settings, [input.name]: value });
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
  // Shown from now: the digits on the board already are marked at once (after the save, one write at a time).
  if (showing && value) mistakes.ask(game);
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
