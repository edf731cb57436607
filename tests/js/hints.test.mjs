// Which cells a hint marks (static/js/hint-panel.js), from answers shaped like the hint API's.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { hintActionBoard, hintMarks } from "../../static/js/hint-panel.js";
import { parseState, toggleMarks } from "../../static/js/sudoku.js";

const GIVENS = "003020600900305001001806400008102900700000008006708200002609500800203009005010300";
const fresh = () => parseState({ givens: GIVENS }).board;

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

test("the candidates a hint draws go on their cells, marked or not", () => {
  const marks = hintMarks({
    kind: "step", stage: 3, highlight: [0],
    eliminations: [{ cell: 1, digit: 7 }],
    candidates: [{ cell: 0, digits: [4, 5] }, { cell: 1, digits: [1, 7, 8] }, { cell: 9, digits: [2, 6] }],
  });
  assert.deepEqual(kinds(marks), { 0: "cell", 1: "remove", 9: "cands" });
  assert.deepEqual(marks.get(0).cands, [4, 5]);
  assert.deepEqual(marks.get(1).cands, [1, 7, 8]);
  assert.equal(hintMarks({ kind: "step", stage: 3, highlight: [3] }).get(3).cands, null, "none drawn without candidates");
});

describe("hintActionBoard", () => {
  test("a placement puts the digit in its cell, and only there", () => {
    const next = hintActionBoard(fresh(), { kind: "place", cell: 0, digit: 4 });
    assert.equal(next.digits[0], 4);
    assert.equal(next.digits.filter(Boolean).length, 1);
    assert.equal(hintActionBoard(next, { kind: "place", cell: 0, digit: 4 }), next, "pressed twice, it takes nothing out");
    assert.equal(hintActionBoard(fresh(), { kind: "place", cell: 2, digit: 4 }).digits[2], 0, "never on a given");
  });

  test("notes become exactly the digits given, on empty cells only", () => {
    const start = toggleMarks(fresh(), [1], 9, "centre");
    const next = hintActionBoard(start, { kind: "notes", notes: [{ cell: 1, digits: "87" }, { cell: 0, digits: "45" }] });
    assert.equal(next.centre[1], "78");
    assert.equal(next.centre[0], "45");
    assert.equal(next.centre.filter(Boolean).length, 2);
    const same = hintActionBoard(next, { kind: "notes", notes: [{ cell: 1, digits: "78" }] });
    assert.equal(same, next, "nothing to change: the same board");
  });

  test("erase takes the digit out of its cell", () => {
    const wrong = hintActionBoard(fresh(), { kind: "place", cell: 0, digit: 1 });
    assert.equal(hintActionBoard(wrong, { kind: "erase", cell: 0 }).digits[0], 0);
  });
});
