// Show mistakes (the setting show_mistakes, NYT's auto-check): a wrong digit is marked as it is
// placed. The page never has the solution, so each placement asks the server which of the
// board's digits are wrong (the check API, as an "auto" check): the server counts every answer as
// a check, so a solve with mistakes shown is not ranked. The marks are the ones a check leaves
// (game.wrong: view.js draws them struck through and ringed, and a cell's label says "wrong").
// One request at a time: digits placed while one is out go with the next.
//
// Loaded the first time it is needed (play.js with a digit placed, tools.js with the player's
// settings, tool-actions.js when the setting is turned on); it imports none of those.

import { confirmWith } from "./confirm.js";
import { Transient } from "./sync.js";
import { UPDATED_ELSEWHERE } from "./sync-jobs.js";
import { render, showNotice } from "./view.js";

let asking = false; // a request is out
let again = false; // a digit was placed meanwhile: ask again once it is answered
let waitUntil = 0; // Date.now() before which the server said to wait (429)

/** Turning the setting on: what it costs, said first. Resolves true if the player turns it on. */
export function confirmMistakes(game) {
  return confirmWith(game, {
    title: "Show mistakes?",
    text: "A wrong digit is marked as you place it. The server checks each digit you place, like Check: while this is on, your solves are not ranked on the leaderboard.",
    ok: "Show mistakes",
  });
}

/**
 * The board opened with the setting on (the player's settings have arrived): a solve that has
 * had help already gets its wrong digits marked at once; one that has not is told what the next
 * digit placed costs, and nothing is asked until then.
 */
export function mistakesOn(game) {
  if (!playable(game)) return;
  if (game.hints || game.checks) ask(game);
  else showNotice(game, "Show mistakes is on: the digits you place are checked, so this solve will not be ranked.");
}

/** After a change from `before`: ask when it put a digit in a cell (where there was none, or another). */
export function placed(game, before) {
  if (game.board.digits.some((d, i) => d && d !== before.digits[i])) ask(game);
}

/** Ask which of the board's digits are wrong, and mark them; nothing to ask on a board without the player's digits. */
export async function ask(game) {
  if (!playable(game) || !game.board.digits.some(Boolean)) return;
  if (asking || Date.now() < waitUntil) {
    again = true; // asked once the answer is in, or the wait is over
    return;
  }
  asking = true;
  again = false;
  const sent = game.board.digits;
  let reply = null;
  try {
    reply = await game.sync.check(game.board, true);
  } catch (error) {
    if (!(error instanceof Transient)) console.error(error);
  }
  asking = false;
  onReply(game, sent, reply);
  if (again) ask(game);
}

function onReply(game, sent, reply) {
  if (!game.settings.show_mistakes) return; // turned off meanwhile
  const { status, data } = reply ?? {};
  if (status === 200 && Array.isArray(data?.wrong)) {
    game.checks = data.checks ?? game.checks + 1;
    // A cell whose digit changed since is not the one the server judged: its mark waits for the next answer.
    game.wrong = new Set(data.wrong.filter((i) => game.board.digits[i] === sent[i]));
    render(game);
  } else if (status === 409 && data?.state) {
    game.sync.adopt(data.state, UPDATED_ELSEWHERE); // solved elsewhere
  } else if (status === 429) {
    const seconds = Number(data?.retry_after) || 60;
    waitUntil = Date.now() + seconds * 1000;
    setTimeout(() => ask(game), seconds * 1000);
    showNotice(game, `Too many digits checked in a minute: mistakes are shown again in ${seconds} seconds.`);
  } else {
    const why = reply ? data?.error || `error ${status}` : "the server could not be reached";
    showNotice(game, `Could not check for mistakes (${why}). The next digit you place asks again.`);
  }
}

function playable(game) {
  return game.canPlay && !game.solved && game.settings.show_mistakes;
}
