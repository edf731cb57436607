// Always-on candidates (static/js/candidates.js): notes the board keeps up to date from the digits
// and the player's own removals.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { candidatesAt, fillAlways, keepCandidates, noRemovals } from "../../static/js/candidates.js";
import { PEERS, applyDigit, eraseCells, fillCandidates, parseState, toggleMarks, valueAt } from "../../static/js/sudoku.js";

// Row 1 is _ _ 3 _ 2 _ 6 _ _: r1c1 (0), r1c2 (1) and r1c4 (3) are empty; r2c2 (10) shares r1c1's box.
const GIVENS = "003020600900305001001806400008102900700000008006708200002609500800203009005010300";
const fresh = () => parseState({ givens: GIVENS }).board;

/** The player's change from `board` with the candidates kept in `layer`: [board, removed]. */
function keep(board, change, removed = noRemovals(), layer = "centre") {
  const next = keepCandidates(board, change(board), layer, removed);
  return [next.board, next.removed];
}

describe("turning them on", () => {
  test("every empty cell gets its candidates by the rules, the same as Fill candidates", () => {
    const board = fillAlways(fresh(), "centre");
    assert.deepEqual(board.centre, fillCandidates(fresh()).centre);
    assert.equal(board.centre[0], candidatesAt(fresh(), 0));
    assert.equal(board.centre[2], "", "a given takes no notes");
  });

  test("notes the player had are kept, less what the rules rule out; corner is the other layer", () => {
    const noted = toggleMarks(toggleMarks(fresh(), [0], 4, "corner"), [0], 3, "corner"); // 3 is ruled out in r1c1
    const board = fillAlways(noted, "corner");
    assert.equal(board.corner[0], "4");
    assert.equal(board.corner[1], candidatesAt(noted, 1));
    assert.ok(board.centre.every((n) => n === ""));
  });

  test("moved from centre to corner, the centre notes go and the player's removals move with them", () => {
    const centre = toggleMarks(fillAlways(fresh(), "centre"), [1], 4, "centre");
    const moved = fillAlways(centre, "corner", "centre");
    assert.equal(moved.corner[1], centre.centre[1]);
    assert.ok(!moved.corner[1].includes("4"));
    assert.ok(moved.centre.every((n) => n === ""));
  });

  test("nothing to change is the same board", () => {
    const board = fillAlways(fresh(), "centre");
    assert.equal(fillAlways(board, "centre"), board);
  });
});

describe("kept up to date", () => {
  test("a digit placed leaves its peers' notes at once, even with remove_notes off", () => {
    const board = fillAlways(fresh(), "centre");
    const [after] = keep(board, (b) => applyDigit(b, [0], 4, { removeNotes: false }));
    for (const j of PEERS[0]) if (!valueAt(after, j)) assert.ok(!after.centre[j].includes("4"), `r${j}`);
    assert.equal(after.centre[0], board.centre[0], "the cell keeps its notes under its digit");
  });

  test("a candidate the player took out stays out when a digit rules it out and then goes again", () => {
    let board = fillAlways(fresh(), "centre");
    let removed = noRemovals();
    assert.ok(board.centre[1].includes("4") && board.centre[3].includes("4"));
    [board, removed] = keep(board, (b) => toggleMarks(b, [1], 4, "centre"), removed); // the player takes 4 out of r1c2
    assert.ok(!board.centre[1].includes("4"));
    [board, removed] = keep(board, (b) => applyDigit(b, [0], 4), removed); // 4 in r1c1 rules it out in the row
    assert.ok(!board.centre[3].includes("4"));
    assert.equal(removed[1], "4", "remembered: the player had taken it out");
    [board] = keep(board, (b) => eraseCells(b, [0], "normal"), removed); // and the 4 goes again
    assert.ok(board.centre[3].includes("4"), "ruled in again where the player never took it out");
    assert.ok(!board.centre[1].includes("4"), "and still out where they did");
    assert.equal(board.centre[0], candidatesAt(board, 0), "the emptied cell gets its candidates");
  });

  test("putting a candidate back forgets its removal", () => {
    let board = fillAlways(fresh(), "centre");
    let removed = noRemovals();
    [board, removed] = keep(board, (b) => toggleMarks(b, [1], 4, "centre"), removed);
    assert.equal(removed[1], "4");
    [board, removed] = keep(board, (b) => toggleMarks(b, [1], 4, "centre"), removed);
    assert.equal(removed[1], "");
    [board, removed] = keep(board, (b) => applyDigit(b, [0], 4), removed);
    [board] = keep(board, (b) => eraseCells(b, [0], "normal"), removed);
    assert.ok(board.centre[1].includes("4"));
  });

  test("the player's own notes in the other layer are theirs alone", () => {
    const board = toggleMarks(fillAlways(fresh(), "corner"), [1], 9, "centre");
    const [after] = keep(board, (b) => applyDigit(b, [0], 9, { removeNotes: false }), noRemovals(), "corner");
    assert.equal(after.centre[1], "9", "centre notes are not the kept layer");
    assert.ok(!after.corner[1].includes("9"));
  });

  test("a note a digit rules out is never kept: one left from elsewhere goes, one pressed on does not stay", () => {
    const stale = toggleMarks(fillAlways(fresh(), "centre"), [1], 3, "centre"); // r1c3 is a given 3
    assert.ok(stale.centre[1].includes("3"));
    const [after, removed] = keep(stale, (b) => toggleMarks(b, [80], 2, "colour"));
    assert.ok(!after.centre[1].includes("3"));
    assert.equal(removed[1], "");
    const [pressed] = keep(after, (b) => toggleMarks(b, [1], 3, "centre"));
    assert.equal(pressed.centre[1], after.centre[1]);
  });

  test("a change that leaves every candidate as it was changes nothing more", () => {
    const board = fillAlways(fresh(), "centre");
    const coloured = toggleMarks(board, [0], 2, "colour");
    const { board: after } = keepCandidates(board, coloured, "centre", noRemovals());
    assert.equal(after, coloured);
  });
});
