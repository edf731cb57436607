// The practice page's pure parts (static/js/practice.js): names of cells, arrow keys, the answer sent.

import assert from "node:assert/strict";
import { test } from "node:test";

import { answerOf, moved, spoken } from "../../static/js/practice.js";

test("a cell is named as a person reads it", () => {
  assert.equal(spoken(0), "row 1, column 1");
  assert.equal(spoken(80), "row 9, column 9");
  assert.equal(spoken(11), "row 2, column 3");
});

test("arrow keys move one cell and wrap at the edges", () => {
  assert.equal(moved(0, "ArrowRight"), 1);
  assert.equal(moved(8, "ArrowRight"), 0);
  assert.equal(moved(0, "ArrowUp"), 72);
  assert.equal(moved(72, "ArrowDown"), 0);
  assert.equal(moved(9, "ArrowLeft"), 17);
  assert.equal(moved(40, "Enter"), 40);
});

test("the answer is the marked removals, or the one placement", () => {
  assert.deepEqual(answerOf(false, new Set(["3:5", "12:9"])), { eliminations: [[3, 5], [12, 9]] });
  assert.deepEqual(answerOf(true, new Set(["40:7"])), { placement: [40, 7] });
  assert.deepEqual(answerOf(true, new Set()), { placement: null });
});
