// Putting this device's unsaved entries on top of the server's newer board (static/js/merge.js).

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { cellName, conflictMessage, mergeBoards } from "../../static/js/merge.js";
import { PEERS, SIZE, applyDigit, changedCells, eraseCells, parseState, sameCell, sameEntries, toggleMarks } from "../../static/js/sudoku.js";

const GIVENS = "003020600900305001001806400008102900700000008006708200002609500800203009005010300";
const fresh = () => parseState({ givens: GIVENS }).board;

// Cells used below: r1c1 = 0, r1c2 = 1, r1c4 = 3, r2c2 = 10, r5c5 = 40 (all empty); r1c3 = 2 is a given.
const SAVED_AT = 1_700_000_000_000;
const BEFORE = SAVED_AT - 60_000; // an edit made offline, a minute before the other device saved
const AFTER = SAVED_AT + 60_000;

/** Local times for cells: {cell: ms}. */
const times = (entries) => new Map(Object.entries(entries).map(([cell, ms]) => [Number(cell), ms]));
const merge = (base, server, local, localTimes = new Map(), serverSavedAt = SAVED_AT) =>
  mergeBoards(base, server, local, { localTimes, serverSavedAt });

describe("mergeBoards: one device changed a cell", () => {
  test("what only this device changed is kept, what only the other changed is taken", () => {
    const base = fresh();
    const server = applyDigit(toggleMarks(base, [40], 2, "colour"), [80], 7, { removeNotes: false });
    const local = toggleMarks(applyDigit(base, [0], 4), [10], 1, "corner");
    const { board, conflicts } = merge(base, server, local);
    assert.deepEqual(conflicts, []);
    assert.deepEqual([board.digits[0], board.corner[10]], [4, "1"], "this device's");
    assert.deepEqual([board.digits[80], board.colours[40]], [7, "2"], "the other's");
    assert.deepEqual(changedCells(base, board), [0, 10, 40, 80]);
  });

  test("with nothing changed here, the server's board is the answer; with nothing changed there, this one", () => {
    const base = applyDigit(fresh(), [0], 4);
    const other = toggleMarks(eraseCells(base, [0], "normal"), [0, 1], 5, "centre");
    assert.ok(sameEntries(merge(base, other, base).board, other));
    assert.ok(sameEntries(merge(base, base, other).board, other));
    assert.ok(sameEntries(merge(base, base, base).board, base));
  });

  test("an erase counts as a change like any entry", () => {
    const base = applyDigit(fresh(), [0, 40], 4);
    const local = eraseCells(base, [0], "normal");
    const server = eraseCells(base, [40], "normal");
    const { board, conflicts } = merge(base, server, local);
    assert.deepEqual([board.digits[0], board.digits[40], conflicts.length], [0, 0, 0]);
  });
});

describe("mergeBoards: both devices changed a cell's digit", () => {
  const base = fresh();
  const server = applyDigit(base, [0], 5);
  const local = applyDigit(base, [0], 4);

  // [what, localTimes, serverSavedAt, digit kept, kept]
  const cases = [
    ["this device's later entry wins", { 0: AFTER }, SAVED_AT, 4, "this"],
    ["an offline edit older than the other device's save loses", { 0: BEFORE }, SAVED_AT, 5, "other"],
    ["the same moment is not later: the server's stays", { 0: SAVED_AT }, SAVED_AT, 5, "other"],
    ["no time for the cell: the server's", {}, SAVED_AT, 5, "other"],
    ["no time for the server's save: the server's", { 0: AFTER }, null, 5, "other"],
    ["the save's time as an ISO string is read as a time", { 0: AFTER }, new Date(SAVED_AT).toISOString(), 4, "this"],
    ["an unreadable save time counts as missing", { 0: AFTER }, "yesterday-ish", 5, "other"],
  ];
  for (const [what, localTimes, savedAt, digit, kept] of cases) {
    test(what, () => {
      const { board, conflicts } = merge(base, server, local, times(localTimes), savedAt);
      assert.equal(board.digits[0], digit);
      assert.deepEqual(conflicts, [{ cell: 0, kept }]);
    });
  }

  test("an erase here against a new digit there is a clash too", () => {
    const placed = applyDigit(base, [0], 4);
    const { board, conflicts } = merge(placed, applyDigit(placed, [0], 6), eraseCells(placed, [0], "normal"), times({ 0: AFTER }));
    assert.equal(board.digits[0], 0);
    assert.deepEqual(conflicts, [{ cell: 0, kept: "this" }]);
  });

  test("both devices entering the same digit is no clash", () => {
    const { board, conflicts } = merge(base, applyDigit(base, [0], 4), applyDigit(base, [0], 4));
    assert.equal(board.digits[0], 4);
    assert.deepEqual(conflicts, []);
  });

  test("offline edits older than the other device's save: clashes go to the server, the rest stays", () => {
    // This device was offline for a while: r1c1 = 4 and r1c2 = 8 and a colour, all before the
    // other device saved r1c1 = 5, r1c2 = 8 and r5c5 = 1.
    const there = applyDigit(applyDigit(applyDigit(base, [0], 5), [1], 8), [40], 1);
    const here = toggleMarks(applyDigit(applyDigit(base, [0], 4), [1], 8), [2], 3, "colour");
    const { board, conflicts } = merge(base, there, here, times({ 0: BEFORE, 1: BEFORE, 2: BEFORE }));
    assert.deepEqual([board.digits[0], board.digits[1], board.digits[40], board.colours[2]], [5, 8, 1, "3"]);
    assert.deepEqual(conflicts, [{ cell: 0, kept: "other" }]);
  });
});

describe("mergeBoards: notes and colours", () => {
  test("digits placed on both devices take their own digit out of peers' notes, without clashes", () => {
    // r1c4 has corner notes 1 and 5; this device places 1 in r1c1, the other 5 in r1c2: both are
    // r1c4's peers, so both devices changed its notes, differently, and neither touched it.
    const base = toggleMarks(toggleMarks(fresh(), [3, 40], 1, "corner"), [3, 40], 5, "corner");
    const local = applyDigit(base, [0], 1);
    const server = applyDigit(base, [1], 5);
    assert.ok(!sameCell(base, local, 3) && !sameCell(base, server, 3) && !sameCell(local, server, 3));
    const { board, conflicts } = merge(base, server, local);
    assert.deepEqual(conflicts, []);
    assert.deepEqual([board.digits[0], board.digits[1]], [1, 5]);
    assert.equal(board.corner[3], "", "both digits are out of r1c4's notes");
    assert.equal(board.corner[40], "15", "r5c5 sees neither");
  });

  test("a digit placed here is kept when the other device only took a note out of that cell", () => {
    // The other device places 3 in r1c4, which strips 3 from r1c1's centre notes; here, 7 goes in r1c1.
    const base = toggleMarks(fresh(), [0], 3, "centre");
    const server = applyDigit(base, [3], 3);
    const local = applyDigit(base, [0], 7);
    const { board, conflicts } = merge(base, server, local, times({ 0: BEFORE }));
    assert.deepEqual(conflicts, []);
    assert.deepEqual([board.digits[0], board.digits[3], board.centre[0]], [7, 3, ""]);
  });

  test("marks are merged one by one: each added or taken off on either device counts", () => {
    const base = toggleMarks(toggleMarks(fresh(), [40], 1, "centre"), [40], 2, "centre");
    const local = toggleMarks(toggleMarks(base, [40], 1, "centre"), [40], 7, "centre"); // -1 +7
    const server = toggleMarks(toggleMarks(base, [40], 2, "centre"), [40], 9, "centre"); // -2 +9
    const { board, conflicts } = merge(base, server, local);
    assert.equal(board.centre[40], "79");
    assert.deepEqual(conflicts, []);
  });

  test("colours on givens are merged like any other cell's", () => {
    const base = toggleMarks(fresh(), [2], 1, "colour");
    const local = toggleMarks(base, [2], 4, "colour");
    const server = toggleMarks(base, [2], 1, "colour");
    const { board } = merge(base, server, local);
    assert.equal(board.colours[2], "4");
  });

  test("the digit that lost a clash gives back the notes it took; the winner's stay taken", () => {
    // Both devices fill r1c1: 4 here (older), 5 there (newer). r1c2 had centre notes 4 and 5.
    const base = toggleMarks(toggleMarks(fresh(), [1, 40], 4, "centre"), [1], 5, "centre");
    const local = applyDigit(base, [0], 4);
    const server = applyDigit(base, [0], 5);
    const { board, conflicts } = merge(base, server, local, times({ 0: BEFORE }));
    assert.deepEqual(conflicts, [{ cell: 0, kept: "other" }]);
    assert.equal(board.digits[0], 5);
    assert.equal(board.centre[1], "4", "5 is placed next door, 4 no longer is");
    assert.equal(board.centre[40], "4", "r5c5 never lost anything");
    const mine = merge(base, server, local, times({ 0: AFTER }));
    assert.deepEqual([mine.board.digits[0], mine.board.centre[1]], [4, "5"], "and the other way round");
  });

  test("a lost digit's note stays out where another digit explains it", () => {
    // r1c2's note 4 is also gone because this device put 4 in r2c2, which is kept.
    const base = toggleMarks(fresh(), [1], 4, "centre");
    const local = applyDigit(applyDigit(base, [0], 4), [10], 4);
    const server = applyDigit(base, [0], 5);
    const { board } = merge(base, server, local, times({ 0: BEFORE, 10: BEFORE }));
    assert.deepEqual([board.digits[0], board.digits[10], board.centre[1]], [5, 4, ""]);
  });
});

describe("mergeBoards: givens and other puzzles", () => {
  test("a given never takes a digit, whatever a board says", () => {
    const base = fresh();
    const local = { ...base, digits: base.digits.map((d, i) => (i === 2 ? 9 : d)) };
    const { board, conflicts } = merge(base, base, local, times({ 2: AFTER }));
    assert.equal(board.digits[2], 0);
    assert.deepEqual(conflicts, []);
  });

  test("boards of another puzzle give nothing: the server's board comes back", () => {
    const server = fresh();
    const other = parseState({ givens: `1${GIVENS.slice(1)}` }).board;
    const { board, conflicts } = merge(other, server, applyDigit(other, [1], 4));
    assert.equal(board, server);
    assert.deepEqual(conflicts, []);
  });
});

describe("mergeBoards: properties over random play", () => {
  /** A small seeded generator (mulberry32), so a failure can be replayed. */
  function random(seed) {
    let a = seed >>> 0;
    return () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  const KINDS = ["normal", "corner", "centre", "colour", "erase"];
  function play(board, rng, moves, stamp) {
    for (let k = 0; k < moves; k += 1) {
      const cells = Array.from({ length: 1 + Math.floor(rng() * 3) }, () => Math.floor(rng() * 18)); // the top two rows
      const d = 1 + Math.floor(rng() * 9);
      const kind = KINDS[Math.floor(rng() * KINDS.length)];
      const next = kind === "erase" ? eraseCells(board, cells, "normal")
        : kind === "normal" ? applyDigit(board, cells, d) : toggleMarks(board, cells, d, kind);
      for (const i of changedCells(board, next)) stamp?.(i);
      board = next;
    }
    return board;
  }

  test("one-sided changes are kept, and a clash is reported exactly where both changed a digit differently", () => {
    const seen = { clashes: 0 };
    for (let seed = 1; seed <= 200; seed += 1) {
      const rng = random(seed);
      const base = play(fresh(), rng, 6);
      const server = play(base, rng, 6);
      const localTimes = new Map();
      const local = play(base, rng, 6, (i) => localTimes.set(i, rng() < 0.5 ? BEFORE : AFTER));
      const { board, conflicts } = merge(base, server, local, localTimes);
      const clashes = [];
      // A lost digit's peers may get notes back (tested above), so the whole-cell checks skip them.
      const nearClash = new Set(conflicts.flatMap(({ cell }) => PEERS[cell]));
      for (let i = 0; i < SIZE; i += 1) {
        const [b, s, l] = [base, server, local].map((x) => x.digits[i]);
        if (l !== b && s !== b && l !== s) clashes.push(i);
        else assert.equal(board.digits[i], l !== b ? l : s, `seed ${seed}, cell ${i}`);
        if (nearClash.has(i)) continue;
        if (sameCell(base, local, i)) assert.ok(sameCell(server, board, i), `seed ${seed}, cell ${i}`);
        if (sameCell(base, server, i)) assert.ok(sameCell(local, board, i), `seed ${seed}, cell ${i}`);
      }
      seen.clashes += clashes.length;
      assert.deepEqual(conflicts.map((c) => c.cell), clashes, `seed ${seed}`);
      for (const { cell, kept } of conflicts) {
        assert.equal(kept, localTimes.get(cell) > SAVED_AT ? "this" : "other");
        assert.equal(board.digits[cell], (kept === "this" ? local : server).digits[cell]);
      }
      assert.ok(board.givens.every((g, i) => !g || board.digits[i] === 0));
    }
    assert.ok(seen.clashes > 20, `the play must clash now and then to test anything (${seen.clashes})`);
  });
});

describe("the player's words", () => {
  const NAMES = [[0, "r1c1"], [8, "r1c9"], [9, "r2c1"], [21, "r3c4"], [72, "r9c1"], [80, "r9c9"]];
  for (const [cell, name] of NAMES) {
    test(`cell ${cell} is ${name}`, () => assert.equal(cellName(cell), name));
  }

  // [cells in conflict, message]
  const MESSAGES = [
    [[], ""],
    [[21], "r3c4 was changed on both devices; the newer entry was kept."],
    [[40, 0], "r1c1 and r5c5 were changed on both devices; the newer entries were kept."],
    [[0, 1, 2], "r1c1, r1c2 and r1c3 were changed on both devices; the newer entries were kept."],
    [[0, 1, 2, 3], "r1c1, r1c2, r1c3 and r1c4 were changed on both devices; the newer entries were kept."],
    [[0, 1, 2, 3, 4, 80], "r1c1, r1c2, r1c3 and 3 other cells were changed on both devices; the newer entries were kept."],
  ];
  for (const [cells, message] of MESSAGES) {
    test(`conflicts on ${JSON.stringify(cells)} read "${message}"`, () => {
      assert.equal(conflictMessage(cells.map((cell, k) => ({ cell, kept: k % 2 ? "this" : "other" }))), message);
    });
  }
});
