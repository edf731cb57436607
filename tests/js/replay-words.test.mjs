// What a solve's replay says (static/js/replay-words.js): pure functions; nothing here needs a page.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  endWords, loadedWords, pausedWords, playingWords, positionWords, steppedWords, stepWords,
} from "../../static/js/replay-words.js";

describe("words", () => {
  test("the scrubber says the clock and the move", () => {
    assert.equal(positionWords(0, 0, 12), "0:00, the givens");
    assert.equal(positionWords(83_400, 7, 12), "1:23, move 7 of 12");
  });

  test("a step says what it did and where", () => {
    assert.equal(stepWords({ moves: [["d", [[20, 5]]]] }), "5 in row 3, column 3");
    assert.equal(stepWords({ moves: [["d", [[0, 0]]]] }), "erased row 1, column 1");
    assert.equal(
      stepWords({
        moves: [
          ["d", [[0, 4]]],
          ["c", [[1, "5"], [2, "5"]]],
        ],
      }),
      "4 in row 1, column 1; corner notes in 2 cells",
    );
    assert.equal(stepWords({ moves: [["k", [[80, "3"]]]] }), "colours in row 9, column 9");
    assert.equal(stepWords({ fromServer: true, moves: [] }), "the digits as the server recorded them");
  });
});

test("the replay's status line says the moves and their time, the speed, a pause, the end and a step", () => {
  assert.equal(loadedWords(12, 245_000), "12 moves over 4:05. Press Play.");
  assert.equal(loadedWords(1, 3_000), "1 move over 0:03. Press Play.");
  assert.equal(playingWords(5), "Playing at 5×.");
  assert.equal(pausedWords(83_400, 7, 12), "Paused at 1:23, move 7 of 12.");
  assert.equal(endWords(245_000), "The end: solved at 4:05.");
  const steps = [{ ms: 1_000, moves: [["d", [[20, 5]]]] }];
  assert.equal(steppedWords(1_000, 1, steps), "0:01, move 1 of 1: 5 in row 3, column 3.");
  assert.equal(steppedWords(0, 0, steps), "0:00, the givens.");
});
