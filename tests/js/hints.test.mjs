// Which cells a hint marks (static/js/hints.js), from answers shaped like the hint API's.

import assert from "node:assert/strict";
import { test } from "node:test";

import { hintMarks } from "../../static/js/hints.js";

const kinds = (marks) => Object.fromEntries([...marks].map(([cell, mark]) => [cell, mark.kind]));

test("the first two stages of a step mark the unit to look at", () => {
  for (const stage of [1, 2]) {
    const marks = hintMarks({ kind: "step", stage, highlight: [0, 1, 2] });
    assert.deepEqual(kinds(marks), { 0: "area", 1: "area", 2: "area" });
  }
});

test("the last stage marks the step's cells, where a digit goes and which candidates go", () => {
  const marks = hintMarks({
    kind: "step", stage: 3, highlight: [0, 1, 5],
    placements: [{ cell: 1, digit: 4 }],
    eliminations: [{ cell: 5, digit: 7 }, { cell: 5, digit: 2 }, { cell: 9, digit: 3 }, { cell: 1, digit: 6 }],
  });
  assert.deepEqual(kinds(marks), { 0: "cell", 1: "place", 5: "remove", 9: "remove" });
  assert.deepEqual(marks.get(1).digits, [4], "a placement is not also a removal");
  assert.deepEqual(marks.get(5).digits, [7, 2]);
});

test("a wrong digit marks its cell; a complete board marks none", () => {
  assert.deepEqual(kinds(hintMarks({ kind: "wrong-digit", stage: 2, highlight: [40] })), { 40: "cell" });
  assert.equal(hintMarks({ kind: "complete", stage: 1 }).size, 0);
});
