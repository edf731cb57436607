// The rules (static/js/sudoku.js): pure, so no page is needed.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  PEERS, SIZE, UNITS, applyDigit, applyMoves, changedCells, clearedBoard, conflicts, digitCounts, digitsString, enter,
  enterMany, eraseCells, fillCandidates, isFull, movesBetween, normaliseNotes, parseState,
  positionKey, remaining, sameCell, sameEntries, toggleMarks, valueAt,
} from "../../static/js/sudoku.js";

// The easy puzzle the Python tests use (tests/conftest.py), and its solution.
const GIVENS = "003020600900305001001806400008102900700000008006708200002609500800203009005010300";
const SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382";

const fresh = () => parseState({ givens: GIVENS }).board;

describe("the vocabulary", () => {
  test("there are 27 units of 9 cells and every cell is in three of them", () => {
    assert.equal(UNITS.length, 27);
    assert.ok(UNITS.every((unit) => unit.length === 9));
    for (let i = 0; i < SIZE; i += 1) assert.equal(UNITS.filter((unit) => unit.includes(i)).length, 3);
  });

  test("every cell has 20 peers and peers are mutual", () => {
    for (let i = 0; i < SIZE; i += 1) {
      assert.equal(PEERS[i].length, 20);
      assert.ok(!PEERS[i].includes(i));
      for (const j of PEERS[i]) assert.ok(PEERS[j].includes(i));
    }
    assert.deepEqual(PEERS[0].slice(0, 8), [1, 2, 3, 4, 5, 6, 7, 8]);
  });
});

describe("parseState", () => {
  test("it reads the server's state, with the given winning over a digit sent for its cell", () => {
    const state = parseState({
      givens: GIVENS, digits: "9".padEnd(81, "0"), corner: ["51", "x7"], centre: [], colours: ["", "", "93"],
      version: 3, elapsed: 12.5, solved: true, solve_seconds: 99, hint_stage: 2,
      saved_at: 1_700_000_000_000, checks: "2", hints: 3,
    });
    assert.equal(state.board.digits[0], 9);
    assert.equal(state.board.corner[0], "15");
    assert.equal(state.board.corner[1], "7");
    assert.equal(state.board.centre[80], "");
    assert.equal(state.board.colours[2], "39", "a given takes colours, sorted like notes");
    assert.equal(state.board.colours[3], "");
    assert.deepEqual([state.version, state.elapsed, state.solved, state.solveSeconds, state.hintStage], [3, 12.5, true, 99, 2]);
    assert.deepEqual([state.savedAt, state.checks, state.hints], [1_700_000_000_000, 2, 3]);
    const onGiven = parseState({ givens: GIVENS, digits: "005" }).board;
    assert.equal(onGiven.digits[2], 0);
    assert.equal(onGiven.givens[2], 3);
  });

  test("missing fields become an empty board at version 0", () => {
    const state = parseState({});
    assert.equal(state.board.givens.length, 81);
    assert.ok(state.board.givens.every((d) => d === 0));
    assert.deepEqual([state.version, state.elapsed, state.solved, state.solveSeconds, state.hintStage], [0, 0, false, null, 0]);
    assert.deepEqual([state.savedAt, state.checks, state.hints], [null, 0, 0]);
    assert.deepEqual(state.board.colours, new Array(81).fill(""));
  });

  test("notes are unique digits 1-9 in ascending order", () => {
    assert.equal(normaliseNotes("5a105"), "15");
    assert.equal(normaliseNotes(""), "");
  });
});

describe("conflicts", () => {
  test("an untouched puzzle has none", () => {
    assert.equal(conflicts(fresh()).size, 0);
  });

  test("a repeated digit marks both cells, the given too", () => {
    const board = applyDigit(fresh(), [0], 3); // r1c3 is a given 3
    assert.deepEqual([...conflicts(board)].sort((a, b) => a - b), [0, 2]);
  });
});

describe("entries", () => {
  test("a digit takes itself out of its peers' notes, in one step, and leaves other cells' notes", () => {
    let board = fresh();
    board = toggleMarks(board, [1], 4, "corner");
    board = toggleMarks(board, [9 * 8 + 8], 4, "centre"); // r9c9: no peer of r1c1
    board = toggleMarks(board, [0], 7, "centre");
    board = applyDigit(board, [0], 4);
    assert.equal(board.digits[0], 4);
    assert.equal(board.corner[1], "");
    assert.equal(board.centre[80], "4");
    assert.equal(board.centre[0], "7", "the cell keeps its own notes underneath");
    assert.equal(eraseCells(board, [0], "normal").centre[0], "7");
  });

  test("a given cannot change", () => {
    const board = fresh();
    assert.equal(applyDigit(board, [2], 5), board);
    assert.equal(eraseCells(board, [2], "normal"), board);
  });

  test("notes toggle, stay sorted, and never go on a cell showing a digit", () => {
    let board = toggleMarks(fresh(), [0], 9, "corner");
    board = toggleMarks(board, [0], 1, "corner");
    assert.equal(board.corner[0], "19");
    assert.equal(toggleMarks(board, [0], 9, "corner").corner[0], "1");
    const placed = applyDigit(board, [1], 8);
    assert.equal(toggleMarks(placed, [1], 2, "corner"), placed);
    assert.equal(toggleMarks(fresh(), [2], 2, "centre").centre[2], "", "a given takes no notes");
  });

  test("erase takes the digit first, then all the notes, and nothing when there is nothing", () => {
    let board = toggleMarks(toggleMarks(fresh(), [0], 1, "corner"), [0], 2, "centre");
    board = applyDigit(board, [0], 4);
    board = eraseCells(board, [0], "normal");
    assert.equal(board.digits[0], 0);
    assert.deepEqual([board.corner[0], board.centre[0]], ["1", "2"]);
    board = eraseCells(eraseCells(board, [0], "normal"), [0], "normal"); // one layer of notes a press
    assert.deepEqual([board.corner[0], board.centre[0]], ["", ""]);
    assert.equal(eraseCells(board, [0], "normal"), board);
  });

  test("enter places a digit in normal mode and a mark of the kind otherwise", () => {
    assert.equal(enter(fresh(), 0, 4, "normal").digits[0], 4);
    assert.equal(enter(fresh(), 0, 4, "corner").corner[0], "4");
    assert.equal(enter(fresh(), 0, 4, "centre").centre[0], "4");
    assert.equal(enter(fresh(), 0, 4, "colour").colours[0], "4");
  });

  test("enter is a selection of one: the same digit twice takes it out again", () => {
    const once = enter(fresh(), 0, 4, "normal");
    assert.equal(enter(once, 0, 4, "normal").digits[0], 0);
    assert.equal(enter(once, 0, 5, "normal").digits[0], 5);
  });

  test("a board is full with every cell filled; digits are counted givens and entries alike", () => {
    let board = fresh();
    assert.equal(digitCounts(board)[3], GIVENS.split("").filter((d) => d === "3").length);
    for (let i = 0; i < SIZE; i += 1) board = applyDigit(board, [i], Number(SOLUTION[i]));
    assert.ok(isFull(board));
    assert.ok(!isFull(eraseCells(board, [0], "normal")));
    assert.deepEqual(digitCounts(board).slice(1), new Array(9).fill(9));
    assert.equal(digitsString(board), SOLUTION.split("").map((d, i) => (GIVENS[i] === "0" ? d : "0")).join(""));
  });

  test("sameEntries compares digits, both kinds of notes and colours", () => {
    const board = fresh();
    assert.ok(sameEntries(board, fresh()));
    assert.ok(!sameEntries(board, applyDigit(board, [0], 4)));
    assert.ok(!sameEntries(board, toggleMarks(board, [0], 4, "corner")));
    assert.ok(!sameEntries(board, toggleMarks(board, [0], 4, "centre")));
    assert.ok(!sameEntries(board, toggleMarks(board, [2], 4, "colour")));
  });

  test("changedCells lists the cells two boards differ in, whatever the layer", () => {
    const board = fresh();
    assert.deepEqual(changedCells(board, board), []);
    let next = toggleMarks(board, [80], 1, "colour");
    next = toggleMarks(next, [40], 1, "corner");
    next = applyDigit(next, [0], 4);
    assert.deepEqual(changedCells(board, next), [0, 40, 80]);
    assert.ok(sameCell(board, next, 1) && !sameCell(board, next, 80));
  });

  test("a hint's position is the digits and the centre notes: corner notes and colours change nothing", () => {
    const board = fresh();
    assert.equal(positionKey(toggleMarks(board, [0], 4, "corner")), positionKey(board));
    assert.equal(positionKey(toggleMarks(board, [0], 4, "colour")), positionKey(board));
    assert.notEqual(positionKey(toggleMarks(board, [0], 4, "centre")), positionKey(board));
    assert.notEqual(positionKey(applyDigit(board, [0], 4)), positionKey(board));
  });
});

// ---- A selection at once. Cells: r1c1 = 0, r1c2 = 1 (empty), r1c3 = 2 (given 3), r2c1 = 9 (given 9). ----

describe("applyDigit", () => {
  test("it puts the digit in every selected cell but the givens, in one step", () => {
    const board = applyDigit(fresh(), [0, 1, 2], 4, { removeNotes: false });
    assert.deepEqual([board.digits[0], board.digits[1], board.digits[2]], [4, 4, 0]);
    assert.equal(valueAt(board, 2), 3);
  });

  test("when every selected cell already holds the digit it comes out of them all (givens aside)", () => {
    const both = applyDigit(fresh(), [0, 1], 4);
    const cleared = applyDigit(both, [1, 0, 2], 4);
    assert.deepEqual([cleared.digits[0], cleared.digits[1]], [0, 0]);
    assert.equal(cleared.givens[2], 3);
  });

  test("when only some hold it, it goes in the rest and the ones holding it keep it", () => {
    const one = applyDigit(fresh(), [0], 4);
    const both = applyDigit(one, [0, 1], 4);
    assert.deepEqual([both.digits[0], both.digits[1]], [4, 4]);
  });

  test("it takes the digit out of the changed cells' peers' notes, not out of the selection's own", () => {
    let board = fresh();
    board = toggleMarks(board, [0, 1, 10, 80], 4, "corner");
    board = toggleMarks(board, [3, 40, 80], 4, "centre");
    board = toggleMarks(board, [3], 4, "colour");
    const placed = applyDigit(board, [0, 1], 4);
    assert.equal(placed.corner[10], "", "r2c2 sees both");
    assert.equal(placed.centre[3], "", "r1c4 shares the row");
    assert.equal(placed.colours[3], "4", "colours are not notes");
    assert.equal(placed.centre[40], "4", "r5c5 sees neither");
    assert.equal(placed.centre[80], "4");
    assert.deepEqual([placed.corner[0], placed.corner[1]], ["4", "4"], "the selection keeps its notes underneath");
    const kept = applyDigit(board, [0, 1], 4, { removeNotes: false });
    assert.deepEqual([kept.corner[10], kept.centre[3]], ["4", "4"]);
  });

  test("a selection of givens only, or no selection, is the same board", () => {
    const board = fresh();
    assert.equal(applyDigit(board, [2, 9], 5), board);
    assert.equal(applyDigit(board, [], 5), board);
  });

  test("a cell listed twice counts once", () => {
    const board = applyDigit(fresh(), [0, 0], 4);
    assert.equal(board.digits[0], 4);
    assert.equal(applyDigit(board, [0, 0], 4).digits[0], 0);
  });

  test("a digit outside 1-9 is a mistake, said plainly", () => {
    assert.throws(() => applyDigit(fresh(), [0], 0), /A digit is 1 to 9/);
    assert.throws(() => toggleMarks(fresh(), [0], 10, "corner"), /A digit is 1 to 9/);
    assert.throws(() => toggleMarks(fresh(), [0], 1, "normal"), /Marks are "corner", "centre" or "colour"/);
  });
});

describe("toggleMarks", () => {
  const cases = [
    // [kind, layer, what the cells hold before (cell: marks), selection, d, after (cell: marks)]
    ["corner", "corner", {}, [0, 1], 5, { 0: "5", 1: "5" }],
    ["corner", "corner", { 0: "5" }, [0, 1], 5, { 0: "5", 1: "5" }],
    ["corner", "corner", { 0: "15", 1: "5" }, [0, 1], 5, { 0: "1", 1: "" }],
    ["centre", "centre", { 0: "19" }, [0], 5, { 0: "159" }],
    ["centre", "centre", { 0: "5", 1: "5" }, [1, 0], 5, { 0: "", 1: "" }],
    ["colour", "colours", {}, [0, 2], 7, { 0: "7", 2: "7" }],
    ["colour", "colours", { 0: "7", 2: "17" }, [0, 2], 7, { 0: "", 2: "1" }],
    ["colour", "colours", { 2: "7" }, [0, 2], 7, { 0: "7", 2: "7" }],
  ];
  for (const [kind, layer, before, cells, d, after] of cases) {
    test(`${kind} ${d} on ${JSON.stringify(before)} selecting ${cells} gives ${JSON.stringify(after)}`, () => {
      let board = fresh();
      board = { ...board, [layer]: board[layer].map((m, i) => before[i] ?? m) };
      const next = toggleMarks(board, cells, d, kind);
      for (const [i, marks] of Object.entries(after)) assert.equal(next[layer][i], marks, `cell ${i}`);
    });
  }

  test("notes go only on cells showing no digit: givens and entered digits are not eligible", () => {
    const board = applyDigit(fresh(), [1], 8);
    const next = toggleMarks(board, [0, 1, 2], 5, "corner");
    assert.deepEqual([next.corner[0], next.corner[1], next.corner[2]], ["5", "", ""]);
    // The ineligible cells do not count for the rule: r1c1 having 5 is "every one has it".
    assert.equal(toggleMarks(next, [0, 1, 2], 5, "corner").corner[0], "");
  });

  test("with nothing eligible, or nothing selected, the board stays the same object", () => {
    const board = applyDigit(fresh(), [1], 8);
    assert.equal(toggleMarks(board, [1, 2], 5, "centre"), board);
    assert.equal(toggleMarks(board, [], 5, "colour"), board);
  });

  test("a given takes colours", () => {
    assert.equal(toggleMarks(fresh(), [2], 3, "colour").colours[2], "3");
  });
});

describe("eraseCells", () => {
  const marked = () => {
    let board = fresh();
    board = toggleMarks(board, [0, 1], 1, "corner");
    board = toggleMarks(board, [0], 2, "centre");
    board = toggleMarks(board, [0, 2], 3, "colour");
    return applyDigit(board, [0], 4);
  };

  test("it takes one layer a press: digits, then centre notes, then corner notes, then colours", () => {
    let board = marked();
    const layers = () => [board.digits[0], board.centre[0], board.corner[0], board.corner[1], board.colours[0], board.colours[2]];
    assert.deepEqual(layers(), [4, "2", "1", "1", "3", "3"]);
    board = eraseCells(board, [0, 1, 2], "normal");
    assert.deepEqual(layers(), [0, "2", "1", "1", "3", "3"]);
    board = eraseCells(board, [0, 1, 2], "normal");
    assert.deepEqual(layers(), [0, "", "1", "1", "3", "3"]);
    board = eraseCells(board, [0, 1, 2], "corner");
    assert.deepEqual(layers(), [0, "", "", "", "3", "3"]);
    board = eraseCells(board, [0, 1, 2], "centre");
    assert.deepEqual(layers(), [0, "", "", "", "", ""]);
    assert.equal(eraseCells(board, [0, 1, 2], "normal"), board);
  });

  test("in colour mode it takes the colours first, a given's too, and leaves the rest", () => {
    const board = eraseCells(marked(), [0, 2], "colour");
    assert.deepEqual([board.colours[0], board.colours[2]], ["", ""]);
    assert.deepEqual([board.digits[0], board.centre[0], board.corner[0]], [4, "2", "1"]);
    assert.equal(eraseCells(board, [0, 2], "colour"), board);
  });

  test("a given keeps its digit and only loses its colours", () => {
    const board = toggleMarks(fresh(), [2], 5, "colour");
    const erased = eraseCells(board, [2], "normal");
    assert.equal(erased.colours[2], "");
    assert.equal(valueAt(erased, 2), 3);
  });

  test("nothing selected, or nothing to erase, is the same board", () => {
    const board = marked();
    assert.equal(eraseCells(board, [], "normal"), board);
    assert.equal(eraseCells(board, [40], "normal"), board);
    const plain = fresh();
    assert.equal(eraseCells(plain, [2, 9], "normal"), plain);
  });

  test("erasing one cell takes the digit and then both kinds of notes, a layer a press", () => {
    const erase = (board) => eraseCells(board, [0], "normal");
    const board = erase(erase(erase(marked())));
    assert.deepEqual([board.digits[0], board.centre[0], board.corner[0], board.colours[0]], [0, "", "", "3"]);
  });
});

describe("enterMany", () => {
  test("it places digits in normal kind and toggles marks of the other kinds", () => {
    const cells = [0, 1];
    assert.deepEqual(enterMany(fresh(), cells, 4, "normal").digits.slice(0, 2), [4, 4]);
    assert.deepEqual(enterMany(fresh(), cells, 4, "corner").corner.slice(0, 2), ["4", "4"]);
    assert.deepEqual(enterMany(fresh(), cells, 4, "centre").centre.slice(0, 2), ["4", "4"]);
    assert.deepEqual(enterMany(fresh(), cells, 4, "colour").colours.slice(0, 2), ["4", "4"]);
  });

  test("the options reach applyDigit", () => {
    const noted = toggleMarks(fresh(), [1], 4, "corner");
    assert.equal(enterMany(noted, [0], 4, "normal", { removeNotes: false }).corner[1], "4");
    assert.equal(enterMany(noted, [0], 4, "normal").corner[1], "");
  });
});

describe("fillCandidates", () => {
  test("every cell showing no digit gets the digits its peers do not show, givens and entries alike", () => {
    const board = applyDigit(fresh(), [1], 8);
    const filled = fillCandidates(board);
    // r1c1 sees 3, 2, 6 and the entered 8 in its row, 9, 7, 8 in its column, and 3, 9, 1 in its box.
    assert.equal(filled.centre[0], "45");
    assert.equal(filled.centre[1], "", "a cell with a digit gets none");
    assert.equal(filled.centre[2], "", "nor does a given");
    for (let i = 0; i < SIZE; i += 1) {
      if (valueAt(board, i)) continue;
      for (const ch of filled.centre[i]) {
        assert.ok(PEERS[i].every((j) => valueAt(board, j) !== Number(ch)), `cell ${i} note ${ch}`);
      }
    }
  });

  test("the candidates always include the solution's digit (they come from the board, never the solution)", () => {
    const filled = fillCandidates(fresh());
    for (let i = 0; i < SIZE; i += 1) {
      if (GIVENS[i] === "0") assert.ok(filled.centre[i].includes(SOLUTION[i]), `cell ${i}`);
    }
  });

  test("it replaces centre notes and leaves corner notes and colours", () => {
    let board = toggleMarks(fresh(), [0], 1, "centre"); // 1 is not a candidate there
    board = toggleMarks(board, [0], 7, "corner");
    board = toggleMarks(board, [0], 2, "colour");
    const filled = fillCandidates(board);
    assert.deepEqual([filled.centre[0], filled.corner[0], filled.colours[0]], ["45", "7", "2"]);
  });

  test("filling a filled board changes nothing", () => {
    const filled = fillCandidates(fresh());
    assert.notEqual(filled, fresh());
    assert.equal(fillCandidates(filled), filled);
  });
});

describe("remaining and clearedBoard", () => {
  test("remaining counts what is left of each digit, never below zero", () => {
    let board = fresh();
    const counts = digitCounts(board);
    assert.deepEqual(remaining(board).slice(1), counts.slice(1).map((n) => 9 - n));
    assert.equal(remaining(board)[0], 0);
    board = applyDigit(board, [0, 1, 4 * 9 + 4, 60, 70, 71, 72, 73, 74, 78, 79], 9);
    assert.equal(remaining(board)[9], 0, "more than nine nines is still none left");
  });

  test("a full board has nothing left", () => {
    let board = fresh();
    for (let i = 0; i < SIZE; i += 1) board = applyDigit(board, [i], Number(SOLUTION[i]));
    assert.deepEqual(remaining(board), new Array(10).fill(0));
  });

  test("restart keeps the givens and drops digits, notes and colours, a given's colours too", () => {
    let board = toggleMarks(fresh(), [2, 0], 6, "colour");
    board = toggleMarks(board, [40], 6, "corner");
    board = toggleMarks(board, [41], 6, "centre");
    board = applyDigit(board, [0], 4);
    const cleared = clearedBoard(board);
    assert.ok(sameEntries(cleared, fresh()));
    assert.deepEqual(cleared.givens, board.givens);
    assert.equal(clearedBoard(cleared), cleared);
  });
});

describe("movesBetween: a change as the record of play keeps it", () => {
  // r1c1, r1c2 and r1c4 are empty; r1c3 holds the given 3; r2c2 (10) and r3c1 (18) are r1c1's peers.
  const b = fresh();
  const moves = (before, after) => movesBetween(before, after);

  test("a change that changes nothing records nothing", () => {
    assert.deepEqual(moves(b, b), []);
    assert.deepEqual(moves(b, applyDigit(b, [2], 5)), [], "a digit on a given");
    assert.deepEqual(moves(b, toggleMarks(b, [2], 5, "corner")), [], "a note on a given");
  });

  test("a digit typed in several selected cells is one move listing the cells it changed", () => {
    const one = applyDigit(b, [0], 4);
    assert.deepEqual(moves(b, one), [["d", [[0, 4]]]]);
    const more = applyDigit(one, [0, 1, 2, 3], 4, { removeNotes: false });
    assert.deepEqual(moves(one, more), [["d", [[1, 4], [3, 4]]]], "not the given, nor the cell already holding 4");
    assert.deepEqual(moves(more, applyDigit(more, [0, 1, 3], 4)), [["d", [[0, 0], [1, 0], [3, 0]]]], "a toggle off: 0");
  });

  test("the peers' notes a digit cleans up are a move of each notes layer, after the digit", () => {
    let board = toggleMarks(b, [10, 18], 4, "corner");
    board = toggleMarks(board, [18], 4, "centre");
    board = toggleMarks(board, [18], 7, "centre");
    assert.deepEqual(moves(board, applyDigit(board, [0], 4)), [
      ["d", [[0, 4]]], ["c", [[10, ""], [18, ""]]], ["n", [[18, "7"]]],
    ]);
  });

  test("a note added or taken off records each cell's whole set after it (SudokuPad's all-or-add rule)", () => {
    const some = toggleMarks(b, [0], 1, "corner");
    const all = toggleMarks(some, [0, 1], 2, "corner");
    assert.deepEqual(moves(some, all), [["c", [[0, "12"], [1, "2"]]]]);
    const added = toggleMarks(all, [0, 1], 1, "corner");
    assert.deepEqual(moves(all, added), [["c", [[1, "12"]]]], "r1c1 had 1 already: only r1c2 changed");
    assert.deepEqual(moves(added, toggleMarks(added, [0, 1], 1, "corner")), [["c", [[0, "2"], [1, "2"]]]]);
    assert.deepEqual(moves(b, toggleMarks(b, [0, 3], 9, "centre")), [["n", [[0, "9"], [3, "9"]]]]);
  });

  test("a colour is a move on layer k, givens too, with the cell's colours after it", () => {
    const red = toggleMarks(b, [2], 1, "colour");
    assert.deepEqual(moves(b, red), [["k", [[2, "1"]]]]);
    assert.deepEqual(moves(red, toggleMarks(red, [2], 4, "colour")), [["k", [[2, "14"]]]]);
  });

  test("erase records each layer it clears", () => {
    let board = applyDigit(b, [0], 4);
    board = toggleMarks(toggleMarks(board, [1], 5, "corner"), [1], 6, "centre");
    board = toggleMarks(board, [1], 3, "colour");
    assert.deepEqual(moves(board, eraseCells(board, [0, 1], "normal")), [["d", [[0, 0]]]]);
    assert.deepEqual(moves(board, eraseCells(board, [1], "colour")), [["k", [[1, ""]]]]);
    const bothNotes = eraseCells(eraseCells(board, [1], "normal"), [1], "normal");
    assert.deepEqual(moves(board, bothNotes), [["c", [[1, ""]]], ["n", [[1, ""]]]]);
  });

  test("Fill candidates is one move of centre notes in every cell it changed", () => {
    const filled = fillCandidates(b);
    const [[layer, cells]] = moves(b, filled);
    assert.equal(layer, "n");
    assert.deepEqual(cells.map(([i]) => i), changedCells(b, filled));
    assert.deepEqual(cells[0], [0, filled.centre[0]]);
  });

  test("Restart clears every layer that held something, and undo records the way back", () => {
    let board = applyDigit(b, [0], 4);
    board = toggleMarks(board, [1], 5, "corner");
    board = toggleMarks(board, [3], 6, "centre");
    board = toggleMarks(board, [2], 2, "colour");
    const cleared = clearedBoard(board);
    assert.deepEqual(moves(board, cleared), [["d", [[0, 0]]], ["c", [[1, ""]]], ["n", [[3, ""]]], ["k", [[2, ""]]]]);
    assert.deepEqual(moves(cleared, board), [["d", [[0, 4]]], ["c", [[1, "5"]]], ["n", [[3, "6"]]], ["k", [[2, "2"]]]]);
  });

  test("the moves made on the board before give the board after (applyMoves, what a replay does)", () => {
    const steps = [
      (x) => applyDigit(x, [0, 1], 4), (x) => toggleMarks(x, [3, 4, 5], 7, "corner"), (x) => fillCandidates(x),
      (x) => toggleMarks(x, [2, 3], 8, "colour"), (x) => eraseCells(x, [3], "normal"), (x) => applyDigit(x, [3], 7),
      (x) => clearedBoard(x),
    ];
    let board = b;
    for (const step of steps) {
      const next = step(board);
      const replayed = applyMoves(board, moves(board, next));
      assert.ok(sameEntries(replayed, next));
      assert.ok(sameEntries(board, applyMoves(next, moves(next, board))), "and back, as undo does");
      board = next;
    }
    assert.deepEqual(b, fresh(), "applyMoves changes no board it is given");
  });
});
