// A replay's pure part (static/js/replay.js): the timeline as steps, the board after each, the clock.
// Its words are replay-words.js's (tests/js/replay-words.test.mjs).

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { boardAt, clockAt, replayOf, stepAt, stepOfMove } from "../../static/js/replay.js";

const GIVENS = "003020600900305001001806400008102900700000008006708200002609500800203009005010300";
const digitsWith = (entries) => {
  const digits = Array(81).fill("0");
  for (const [i, d] of Object.entries(entries)) digits[i] = String(d);
  return digits.join("");
};

describe("replayOf", () => {
  const timeline = {
    givens: GIVENS,
    moves: [
      [1_000, "c", [[0, "45"]]],
      [2_500, "d", [[0, 4]]],
      [2_500, "c", [[0, ""]]], // the same action: the digit cleared the cell's notes
      [4_000, "k", [[1, "27"]]],
      [6_000, "d", [[0, 0]]],
    ],
    writes: [
      [3, 3_000, digitsWith({ 0: 4 })],
      [5, 7_000, digitsWith({})],
    ],
    end_ms: 7_000,
    seconds: 7.2,
  };
  const { steps, boards, end } = replayOf(timeline);

  test("it makes one step of each moment, the moves of one action together", () => {
    assert.deepEqual(
      steps.map((s) => [s.ms, s.moves.length]),
      [
        [1_000, 1],
        [2_500, 2],
        [4_000, 1],
        [6_000, 1],
      ],
    );
    assert.equal(boards.length, steps.length + 1);
    assert.equal(end, 7_000);
  });

  test("the review's move n opens on the step after the timeline's first n moves", () => {
    assert.deepEqual(
      steps.map((s) => s.made),
      [1, 3, 4, 5],
    );
    assert.equal(stepOfMove(steps, 0), 0);
    assert.equal(stepOfMove(steps, 2), 2); // the digit, whose step also clears its notes
    assert.equal(stepOfMove(steps, 3), 2);
    assert.equal(stepOfMove(steps, 5), 4);
    assert.equal(stepOfMove(steps, 99), 4);
    assert.equal(stepOfMove(steps, Number.NaN), 0);
  });

  test("board k is the board after k steps, starting from the givens", () => {
    assert.equal(boardAt(timeline, 0).digits[0], 0);
    assert.equal(boardAt(timeline, 0).givens[2], 3);
    assert.equal(boardAt(timeline, 1).corner[0], "45");
    assert.equal(boardAt(timeline, 2).digits[0], 4);
    assert.equal(boardAt(timeline, 2).corner[0], "");
    assert.equal(boardAt(timeline, 3).colours[1], "27");
    assert.equal(boardAt(timeline, 4).digits[0], 0);
    assert.deepEqual(boardAt(timeline, 99), boardAt(timeline, 4));
    assert.deepEqual(boardAt(timeline, -1), boardAt(timeline, 0));
  });

  test("a write that agrees with the moves adds no step", () => {
    assert.ok(steps.every((s) => !s.fromServer));
  });

  test("a move the board never sent is put right by the digits after its write", () => {
    const lost = {
      givens: GIVENS,
      moves: [
        [1_000, "d", [[0, 4]]],
        // [1_500, "d", [[1, 8]]] was lost; the save after it recorded both digits.
        [5_000, "d", [[3, 9]]],
      ],
      writes: [
        [1, 2_000, digitsWith({ 0: 4, 1: 8 })],
        [2, 5_500, digitsWith({ 0: 4, 1: 8, 3: 9 })],
      ],
      end_ms: 5_500,
    };
    const replay = replayOf(lost);
    assert.deepEqual(
      replay.steps.map((s) => [s.ms, s.fromServer]),
      [
        [1_000, false],
        [2_000, true],
        [5_000, false],
      ],
    );
    assert.deepEqual(replay.steps[1].moves, [["d", [[1, 8]]]]);
    assert.equal(replay.boards[1].digits[1], 0);
    assert.equal(replay.boards[2].digits[1], 8);
    assert.equal(replay.boards.at(-1).digits.slice(0, 4).join(""), "4809");
  });

  test("a solve without moves shows its givens, then its solved grid at its time", () => {
    const solved = digitsWith({ 0: 4, 1: 8 });
    const replay = replayOf({ givens: GIVENS, moves: [], writes: [[0, 90_000, solved]], end_ms: 90_000 });
    assert.equal(replay.steps.length, 1);
    assert.equal(clockAt(replay.steps, 1), 90_000);
    assert.equal(replay.boards[0].digits[0], 0);
    assert.equal(replay.boards[1].digits[0], 4);
  });

  test("the digits of a write never go on a given", () => {
    const replay = replayOf({ givens: GIVENS, moves: [], writes: [[0, 1_000, "9".repeat(81)]], end_ms: 1_000 });
    const board = replay.boards.at(-1);
    assert.equal(board.digits[2], 0); // a given's cell
    assert.equal(board.digits[0], 9);
  });
});

describe("the clock", () => {
  const steps = [{ ms: 1_000 }, { ms: 2_500 }, { ms: 2_500 }, { ms: 6_000 }];

  test("step k happens at its own moment, the givens at 0", () => {
    assert.equal(clockAt(steps, 0), 0);
    assert.equal(clockAt(steps, 1), 1_000);
    assert.equal(clockAt(steps, 4), 6_000);
  });

  test("by a time on the clock, every step at or before it has been made", () => {
    assert.equal(stepAt(steps, 0), 0);
    assert.equal(stepAt(steps, 999), 0);
    assert.equal(stepAt(steps, 1_000), 1);
    assert.equal(stepAt(steps, 2_500), 3);
    assert.equal(stepAt(steps, 5_999), 3);
    assert.equal(stepAt(steps, 60_000), 4);
  });
});
