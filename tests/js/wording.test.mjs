// The words the board says (static/js/wording.js): pure functions; nothing here needs a page.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { applyDigit, parseState, toggleMarks } from "../../static/js/sudoku.js";
import {
  cellLabel, colourKeyLabel, entryNotice, formatDuration, hintActionNotice, hintLabel, pauseLabel, solvedWords,
} from "../../static/js/wording.js";

const GIVENS = "003020600900305001001806400008102900700000008006708200002609500800203009005010300";

test("the timer shows m:ss, and h:mm:ss past an hour, as every page of the site does", () => {
  assert.equal(formatDuration(0), "0:00");
  assert.equal(formatDuration(59.9), "0:59");
  assert.equal(formatDuration(61), "1:01");
  assert.equal(formatDuration(600), "10:00");
  assert.equal(formatDuration(3600), "1:00:00");
  assert.equal(formatDuration(36_000 + 125), "10:02:05");
  assert.equal(formatDuration(-5), "0:00");
  assert.equal(formatDuration("nonsense"), "0:00");
});

describe("cellLabel", () => {
  const board = parseState({ givens: GIVENS }).board;

  test("it says the row, the column and what is in the cell", () => {
    assert.equal(cellLabel(board, 2, false), "Row 1, Column 3, given 3");
    assert.equal(cellLabel(board, 0, false), "Row 1, Column 1, empty");
    assert.equal(cellLabel(applyDigit(board, [10], 6), 10, false), "Row 2, Column 2, 6");
  });

  test("an empty cell reads out its notes, spaced, corner notes first", () => {
    let noted = toggleMarks(toggleMarks(board, [0], 2, "corner"), [0], 5, "corner");
    noted = toggleMarks(noted, [0], 7, "centre");
    assert.equal(cellLabel(noted, 0, false), "Row 1, Column 1, empty, corner notes 2 5, notes 7");
  });

  test("a conflict and a hint's mark are said after the content", () => {
    assert.equal(cellLabel(board, 0, true), "Row 1, Column 1, empty, conflict");
    assert.equal(cellLabel(board, 0, false, { kind: "area", digits: [] }), "Row 1, Column 1, empty, hint: look here");
    assert.equal(cellLabel(board, 0, false, { kind: "cell", digits: [] }), "Row 1, Column 1, empty, hint: this cell");
    assert.equal(cellLabel(board, 0, false, { kind: "place", digits: [4] }), "Row 1, Column 1, empty, hint: 4 goes here");
    assert.equal(cellLabel(board, 0, false, { kind: "remove", digits: [7, 2] }), "Row 1, Column 1, empty, hint: remove 2 7");
  });

  test("the candidates a hint draws are said as the hint's, with what the step removes", () => {
    const drawn = { kind: "cands", digits: [], cands: [1, 5, 7] };
    assert.equal(cellLabel(board, 0, false, drawn), "Row 1, Column 1, empty, hint: candidates 1 5 7");
    const struck = { kind: "remove", digits: [7, 1], cands: [1, 5, 7] };
    assert.equal(cellLabel(board, 0, false, struck), "Row 1, Column 1, empty, hint: candidates 1 5 7, remove 1 7");
  });
});

test("a hint's action pressed is said, with the way back", () => {
  assert.equal(hintActionNotice({ kind: "place", cell: 21, digit: 7 }), "Placed 7 in row 3, column 4. Undo takes it back.");
  assert.equal(hintActionNotice({ kind: "erase", cell: 0 }), "Erased row 1, column 1. Undo takes it back.");
  assert.equal(hintActionNotice({ kind: "notes", notes: [] }), "Notes written. Undo takes them back.");
});

test("the hint button offers the next stage for the same position and starts again for another", () => {
  assert.equal(hintLabel(null, "p"), "Hint");
  assert.equal(hintLabel({ key: null, stage: 0 }, "p"), "Hint");
  assert.equal(hintLabel({ key: "p", stage: 1 }, "p"), "More");
  assert.equal(hintLabel({ key: "p", stage: 2 }, "p"), "Show me");
  assert.equal(hintLabel({ key: "p", stage: 3 }, "p"), "Show me");
  assert.equal(hintLabel({ key: "q", stage: 2 }, "p"), "Hint");
});

test("with the hint panel closed the button says Hint, whatever was shown before", () => {
  assert.equal(hintLabel({ key: "p", stage: 1 }, "p", false), "Hint");
  assert.equal(hintLabel({ key: "p", stage: 2 }, "p", false), "Hint");
  assert.equal(hintLabel({ key: "p", stage: 2 }, "p", true), "Show me");
});

test("a cell's label says its colours by number and name, and a digit a check found wrong", () => {
  let board = parseState({ givens: GIVENS, colours: ["25"] }).board;
  assert.equal(cellLabel(board, 0, false), "Row 1, Column 1, empty, colours 2 red, 5 green");
  board = parseState({ givens: GIVENS, colours: ["", "", "7"] }).board;
  assert.equal(cellLabel(board, 2, false), "Row 1, Column 3, given 3, colour 7 blue");
  assert.equal(cellLabel(applyDigit(board, [0], 5), 0, true, null, true), "Row 1, Column 1, 5, wrong, conflict");
});

test("the solved line, a colour key, the pause button and a mode picked by key say what they show", () => {
  assert.equal(solvedWords(245), "Solved in 4:05");
  assert.equal(solvedWords(3723), "Solved in 1:02:03");
  assert.equal(colourKeyLabel(2), "Colour 2, red");
  assert.equal(colourKeyLabel(9), "Colour 9, pink");
  assert.equal(pauseLabel(false), "Pause");
  assert.equal(pauseLabel(true), "Resume");
  assert.equal(entryNotice("normal"), "Entry: digits");
  assert.equal(entryNotice("corner"), "Entry: corner notes");
});
