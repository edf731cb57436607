// The game's state (static/js/state.js): every field declared with its default.

import assert from "node:assert/strict";
import { test } from "node:test";

import { clockLeft, clockStart, newClock, newGame } from "../../static/js/state.js";

test("a new game declares every field with its default, before the player's position arrives", () => {
  const board = { givens: [] };
  const game = newGame({ board, settings: { theme: "dark" }, loginUrl: "/login/" });
  assert.deepEqual(Object.keys(game).sort(), [
    "board", "canPlay", "candidates", "checks", "clock", "cursor", "els", "hint", "history", "loginUrl", "mode", "noticeTimer",
    "paused", "removed", "results", "selection", "settings", "solved", "sync", "undoCopy", "wrong",
  ]);
  assert.equal(game.board, board);
  assert.deepEqual(game.settings, { theme: "dark" });
  assert.equal(game.loginUrl, "/login/");
  assert.deepEqual([game.canPlay, game.solved, game.paused, game.checks, game.mode], [false, false, false, 0, "normal"]);
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

/** A tab's storage, as sessionStorage behaves, or one that refuses every call. */
function tab({ refuses = false } = {}) {
  const items = new Map();
  const refuse = () => {
    throw new Error("SecurityError");
  };
  return {
    items,
    getItem: refuses ? refuse : (key) => items.get(key) ?? null,
    setItem: refuses ? refuse : (key, value) => items.set(key, String(value)),
    removeItem: refuses ? refuse : (key) => items.delete(key),
  };
}

test("a reload starts the clock where the page left it while the closing beat is still on its way", () => {
  const storage = tab();
  clockLeft(storage, "sudoku:7:41", 25, 1_000);
  // The new page's state read came first: the server has 20 s, the last 5 still in the close.
  assert.equal(clockStart(storage, "sudoku:7:41", 20, 1_800), 25);
  // Read once: a second page of the tab starts from the server.
  assert.equal(clockStart(storage, "sudoku:7:41", 20, 1_900), 20);
});

test("the server's count stands when it is the larger, and for anything but this tab's reload", () => {
  const cases = [
    ["sudoku:7:41", 31, 1_800, 31], // the close arrived (another device played, too)
    ["sudoku:7:42", 20, 1_800, 20], // another puzzle
    ["sudoku:8:41", 20, 1_800, 20], // another player on the tab
    ["sudoku:7:41", 20, 12_000, 20], // left more than a reload ago: the close has long arrived
    ["sudoku:7:41", 20, 500, 20], // left "later" than now: a clock that moved back
  ];
  for (const [whose, server, now, expected] of cases) {
    const storage = tab();
    clockLeft(storage, "sudoku:7:41", 25, 1_000);
    assert.equal(clockStart(storage, whose, server, now), expected, `${whose} ${server} at ${now}`);
  }
  assert.equal(clockStart(tab(), "sudoku:7:41", 20, 1_800), 20); // nothing kept
  const ahead = tab();
  clockLeft(ahead, "sudoku:7:41", 60, 1_000); // more than a closing beat can count (30 s)
  assert.equal(clockStart(ahead, "sudoku:7:41", 20, 1_800), 20);
  const storage = tab();
  storage.setItem("sudoku:clock-left", "{not json");
  assert.equal(clockStart(storage, "sudoku:7:41", 20, 1_800), 20);
});

test("a tab whose storage refuses starts from the server's count and never throws", () => {
  const storage = tab({ refuses: true });
  clockLeft(storage, "sudoku:7:41", 25, 1_000);
  assert.equal(clockStart(storage, "sudoku:7:41", 20, 1_800), 20);
});
