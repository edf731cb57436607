// The game's state (static/js/state.js): every field declared with its default.

import assert from "node:assert/strict";
import { test } from "node:test";

import { newClock, newGame } from "../../static/js/state.js";

test("a new game declares every field with its default, before the player's position arrives", () => {
  const board = { givens: [] };
  const game = newGame({ board, settings: { theme: "dark" }, loginUrl: "/login/" });
  assert.deepEqual(Object.keys(game).sort(), [
    "board", "canPlay", "candidates", "checks", "clock", "cursor", "els", "hint", "hints", "history", "loginUrl", "mode", "noticeTimer",
    "paused", "removed", "results", "selection", "settings", "solved", "sync", "undoCopy", "wrong",
  ]);
  assert.equal(game.board, board);
  assert.deepEqual(game.settings, { theme: "dark" });
  assert.equal(game.loginUrl, "/login/");
  assert.deepEqual([game.canPlay, game.solved, game.paused, game.checks, game.hints, game.mode], [false, false, false, 0, 0, "normal"]);
  assert.deepEqual([game.cursor, [...game.selection], game.wrong.size], [0, [0], 0]);
  assert.deepEqual(game.history, { past: [], future: [] });
  assert.deepEqual([game.undoCopy, game.removed.length, game.removed.join(""), game.candidates], [null, 81, "", null]);
  assert.deepEqual(game.clock, { base: 0, since: null, shown: 0 });
  assert.deepEqual(
    { ...game.hint, marks: game.hint.marks.size },
    { key: null, stage: 0, shown: null, last: null, marks: 0, busy: false },
  );
  assert.deepEqual([game.results, game.noticeTimer, game.sync, game.els], ["none", null, null, null]);
});

test("two games share no set, map or history", () => {
  const [a, b] = [newGame(), newGame()];
  a.selection.add(5);
  a.wrong.add(3);
  a.hint.marks.set(1, {});
  assert.deepEqual([[...b.selection], b.wrong.size, b.hint.marks.size], [[0], 0, 0]);
  assert.notEqual(a.history, b.history);
});

test("a clock starts stopped, at its base", () => {
  assert.deepEqual(newClock(42.5), { base: 42.5, since: null, shown: 0 });
});
