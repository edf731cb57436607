// The rules and the undo history (static/js/sudoku.js): pure, so no page is needed.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  PEERS, SIZE, UNITS, conflicts, digitCounts, digitsString, enter, eraseCell, isFull, newHistory,
  normaliseNotes, parseState, placeDigit, positionKey, record, redo, sameEntries, toggleNote, undo,
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
      givens: GIVENS, digits: "9".padEnd(81, "0"), corner: ["51", "x7"], centre: [], version: 3,
      elapsed: 12.5, solved: true, solve_seconds: 99, hint_stage: 2,
    });
    assert.equal(state.board.digits[0], 9);
    assert.equal(state.board.corner[0], "15");
    assert.equal(state.board.corner[1], "7");
    assert.equal(state.board.centre[80], "");
    assert.deepEqual([state.version, state.elapsed, state.solved, state.solveSeconds, state.hintStage], [3, 12.5, true, 99, 2]);
    const onGiven = parseState({ givens: GIVENS, digits: "005" }).board;
    assert.equal(onGiven.digits[2], 0);
    assert.equal(onGiven.givens[2], 3);
  });

  test("missing fields become an empty board at version 0", () => {
    const state = parseState({});
    assert.equal(state.board.givens.length, 81);
    assert.ok(state.board.givens.every((d) => d === 0));
    assert.deepEqual([state.version, state.elapsed, state.solved, state.solveSeconds, state.hintStage], [0, 0, false, null, 0]);
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
    const board = placeDigit(fresh(), 0, 3); // r1c3 is a given 3
    assert.deepEqual([...conflicts(board)].sort((a, b) => a - b), [0, 2]);
  });
});

describe("entries", () => {
  test("a digit takes itself out of its peers' notes, in one step, and leaves other cells' notes", () => {
    let board = fresh();
    board = toggleNote(board, 1, 4, "corner");
    board = toggleNote(board, 9 * 8 + 8, 4, "centre"); // r9c9: no peer of r1c1
    board = toggleNote(board, 0, 7, "centre");
    board = placeDigit(board, 0, 4);
    assert.equal(board.digits[0], 4);
    assert.equal(board.corner[1], "");
    assert.equal(board.centre[80], "4");
    assert.equal(board.centre[0], "7", "the cell keeps its own notes underneath");
    assert.equal(eraseCell(board, 0).centre[0], "7");
  });

  test("a given cannot change, and the same digit twice changes nothing", () => {
    const board = fresh();
    assert.equal(placeDigit(board, 2, 5), board);
    const once = placeDigit(board, 0, 4);
    assert.equal(placeDigit(once, 0, 4), once);
    assert.equal(eraseCell(board, 2), board);
  });

  test("notes toggle, stay sorted, and never go on a cell showing a digit", () => {
    let board = toggleNote(fresh(), 0, 9, "corner");
    board = toggleNote(board, 0, 1, "corner");
    assert.equal(board.corner[0], "19");
    assert.equal(toggleNote(board, 0, 9, "corner").corner[0], "1");
    const placed = placeDigit(board, 1, 8);
    assert.equal(toggleNote(placed, 1, 2, "corner"), placed);
    assert.equal(toggleNote(fresh(), 2, 2, "centre").centre[2], "", "a given takes no notes");
  });

  test("erase takes the digit first, then all the notes, and nothing when there is nothing", () => {
    let board = toggleNote(toggleNote(fresh(), 0, 1, "corner"), 0, 2, "centre");
    board = placeDigit(board, 0, 4);
    board = eraseCell(board, 0);
    assert.equal(board.digits[0], 0);
    assert.deepEqual([board.corner[0], board.centre[0]], ["1", "2"]);
    board = eraseCell(board, 0);
    assert.deepEqual([board.corner[0], board.centre[0]], ["", ""]);
    assert.equal(eraseCell(board, 0), board);
  });

  test("enter places a digit in normal mode and a note of the kind otherwise", () => {
    assert.equal(enter(fresh(), 0, 4, "normal").digits[0], 4);
    assert.equal(enter(fresh(), 0, 4, "corner").corner[0], "4");
    assert.equal(enter(fresh(), 0, 4, "centre").centre[0], "4");
  });

  test("a board is full with every cell filled; digits are counted givens and entries alike", () => {
    let board = fresh();
    assert.equal(digitCounts(board)[3], GIVENS.split("").filter((d) => d === "3").length);
    for (let i = 0; i < SIZE; i += 1) board = placeDigit(board, i, Number(SOLUTION[i]));
    assert.ok(isFull(board));
    assert.ok(!isFull(eraseCell(board, 0)));
    assert.deepEqual(digitCounts(board).slice(1), new Array(9).fill(9));
    assert.equal(digitsString(board), SOLUTION.split("").map((d, i) => (GIVENS[i] === "0" ? d : "0")).join(""));
  });

  test("sameEntries compares digits and both kinds of notes", () => {
    const board = fresh();
    assert.ok(sameEntries(board, fresh()));
    assert.ok(!sameEntries(board, placeDigit(board, 0, 4)));
    assert.ok(!sameEntries(board, toggleNote(board, 0, 4, "corner")));
    assert.ok(!sameEntries(board, toggleNote(board, 0, 4, "centre")));
  });

  test("a hint's position is the digits and the centre notes: corner notes change nothing", () => {
    const board = fresh();
    assert.equal(positionKey(toggleNote(board, 0, 4, "corner")), positionKey(board));
    assert.notEqual(positionKey(toggleNote(board, 0, 4, "centre")), positionKey(board));
    assert.notEqual(positionKey(placeDigit(board, 0, 4)), positionKey(board));
  });
});

describe("the undo history", () => {
  test("undo and redo walk back and forth; nothing to walk to is null", () => {
    const a = fresh();
    const b = placeDigit(a, 0, 4);
    const c = placeDigit(b, 1, 8);
    let history = record(record(newHistory(), a), b);
    assert.equal(redo(history, c), null);
    let board;
    [history, board] = undo(history, c);
    assert.equal(board, b);
    [history, board] = undo(history, board);
    assert.equal(board, a);
    assert.equal(undo(history, board), null);
    [history, board] = redo(history, board);
    assert.equal(board, b);
    [history, board] = redo(history, board);
    assert.equal(board, c);
  });

  test("a new change forgets the redo branch", () => {
    const a = fresh();
    const b = placeDigit(a, 0, 4);
    const [history] = undo(record(newHistory(), a), b);
    assert.equal(history.future.length, 1);
    assert.deepEqual(record(history, a).future, []);
  });

  test("it keeps the last 500 steps", () => {
    let history = newHistory();
    for (let k = 0; k < 600; k += 1) history = record(history, { step: k });
    assert.equal(history.past.length, 500);
    assert.deepEqual(history.past[0], { step: 100 });
  });
});
