// The undo history as steps (static/js/undo.js): undo and redo, fitted to a board that took
// another device's moves, and the copy kept on this device.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { mergeBoards } from "../../static/js/merge.js";
import { applyDigit, eraseCells, parseState, sameEntries, toggleMarks } from "../../static/js/sudoku.js";
import {
  HISTORY_LIMIT, UndoCopy, applyStep, cutNotice, fitHistory, newHistory, notesBack, pushHistory, redo, stepBetween, undo,
} from "../../static/js/undo.js";

const GIVENS = "003020600900305001001806400008102900700000008006708200002609500800203009005010300";
const fresh = () => parseState({ givens: GIVENS }).board;

/** The history of playing `changes` (board -> board) from `board`: [history, board]. */
function play(board, ...changes) {
  let history = newHistory();
  for (const change of changes) {
    const next = change(board);
    history = pushHistory(history, board, next);
    board = next;
  }
  return [history, board];
}

/** A storage like the browser's, in memory. */
function memoryStorage() {
  const items = new Map();
  return {
    items,
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem: (key, value) => items.set(key, String(value)),
    removeItem: (key) => items.delete(key),
    keys: () => [...items.keys()],
  };
}

describe("undo and redo", () => {
  test("they walk back and forth; nothing to walk to is null", () => {
    const a = fresh();
    const [history0, c] = play(a, (b) => applyDigit(b, [0], 4), (b) => applyDigit(b, [1], 8));
    let history = history0;
    assert.equal(redo(history, c), null);
    let board;
    [history, board] = undo(history, c);
    assert.deepEqual([board.digits[0], board.digits[1]], [4, 0]);
    [history, board] = undo(history, board);
    assert.ok(sameEntries(board, a));
    assert.equal(undo(history, board), null);
    [history, board] = redo(history, board);
    [, board] = redo(history, board);
    assert.ok(sameEntries(board, c));
  });

  test("a step is only what changed, and undoing a digit brings back the notes it took from its peers", () => {
    const noted = toggleMarks(fresh(), [1, 10], 4, "centre");
    const placed = applyDigit(noted, [0], 4);
    const step = stepBetween(noted, placed);
    assert.deepEqual(step, [["digits", 0, 0, 4], ["centre", 1, "4", ""], ["centre", 10, "4", ""]]);
    const [, back] = undo(pushHistory(newHistory(), noted, placed), placed);
    assert.ok(sameEntries(back, noted));
  });

  test("it brings colours back with the rest of the board", () => {
    const a = toggleMarks(fresh(), [2], 5, "colour");
    const b = eraseCells(a, [2], "colour");
    const [, back] = undo(pushHistory(newHistory(), a, b), b);
    assert.equal(back.colours[2], "5");
  });

  test("a new change forgets the redo branch, and no change is no step", () => {
    const a = fresh();
    const b = applyDigit(a, [0], 4);
    const [history] = undo(pushHistory(newHistory(), a, b), b);
    assert.equal(history.future.length, 1);
    assert.deepEqual(pushHistory(history, a, applyDigit(a, [1], 8)).future, []);
    assert.equal(pushHistory(history, a, a), history);
  });

  test(`it keeps the last ${HISTORY_LIMIT} steps`, () => {
    let history = newHistory();
    const a = fresh();
    for (let k = 0; k < HISTORY_LIMIT + 100; k += 1) history = pushHistory(history, a, applyDigit(a, [0], (k % 9) + 1));
    assert.equal(history.past.length, HISTORY_LIMIT);
    assert.deepEqual(history.past[0], [["digits", 0, 0, (100 % 9) + 1]]);
  });
});

describe("erasing a digit puts back the notes it took from its peers", () => {
  // r1c1 (cell 0) takes a 4: its peers r1c2 (1, centre) and r4c1 (27, corner) have a 4 to lose;
  // r5c5 (40, no peer) keeps its 4, and r2c2 (10, a peer) had none.
  const noted = () => toggleMarks(toggleMarks(toggleMarks(toggleMarks(fresh(), [1, 40], 4, "centre"), [27], 4, "corner"), [10], 5, "centre"), [1], 7, "centre");

  /** The player's changes from `board`, each made as the page makes it (notesBack, then one undo step). */
  function playing(board, ...changes) {
    let history = newHistory();
    for (const change of changes) {
      const next = notesBack(history, board, change(board));
      history = pushHistory(history, board, next);
      board = next;
    }
    return [history, board];
  }

  test("erase brings back exactly the notes the digit took, in their layers, and no others", () => {
    const before = noted();
    const place = (b) => applyDigit(b, [0], 4);
    const note = (b) => toggleMarks(b, [10], 8, "centre");
    const [, placed] = playing(before, place, note);
    assert.deepEqual([placed.centre[1], placed.corner[27], placed.centre[40]], ["7", "", "4"]);
    const [history, erased] = playing(before, place, note, (b) => eraseCells(b, [0], "normal"));
    assert.ok(sameEntries(erased, note(before)), "the notes as they were, with the player's own change since");
    assert.equal(erased.centre[10], "58", "a peer that had no 4 gets none");
    // Undo takes the digit back with the notes again; redo erases it and puts them back once more.
    const [undone, back] = undo(history, erased);
    assert.ok(sameEntries(back, placed));
    const [, again] = redo(undone, back);
    assert.ok(sameEntries(again, erased));
  });

  test("pressing the same digit again, or another digit over it, counts as erasing it", () => {
    const [, toggled] = playing(noted(), (b) => applyDigit(b, [0], 4), (b) => applyDigit(b, [0], 4));
    assert.ok(sameEntries(toggled, noted()));
    const [, replaced] = playing(noted(), (b) => applyDigit(b, [0], 4), (b) => applyDigit(b, [0], 5));
    assert.deepEqual([replaced.digits[0], replaced.centre[1], replaced.corner[27], replaced.centre[10]], [5, "47", "4", ""]);
  });

  test("a note another 4 sees is not put back, nor one the player took out before the digit", () => {
    // r4c5 (31) takes a 4 too: it sees r4c1 (27), whose 4 stays out when r1c1's goes; r1c2 (1)
    // takes its 4 back, which the player then presses off, and r1c1's 4 again and erased keeps it off.
    const place = (b) => applyDigit(b, [0], 4);
    const erase = (b) => eraseCells(b, [0], "normal");
    const [, board] = playing(noted(), place, (b) => applyDigit(b, [31], 4), erase);
    assert.deepEqual([board.centre[1], board.corner[27]], ["47", ""]);
    const [, again] = playing(noted(), place, erase, (b) => toggleMarks(b, [1], 4, "centre"), place, erase);
    assert.deepEqual([again.centre[1], again.corner[27]], ["7", "4"]);
  });

  test("a digit that no step of the history placed (another device's, or one from before a reload without its history) brings back nothing", () => {
    const placed = applyDigit(noted(), [0], 4);
    const erased = eraseCells(placed, [0], "normal");
    assert.equal(notesBack(newHistory(), placed, erased), erased);
    // Placed here, erased and placed again by the other device: the steps here are not its.
    const [history] = playing(noted(), (b) => applyDigit(b, [0], 4), (b) => eraseCells(b, [0], "normal"));
    assert.equal(notesBack(history, placed, erased), erased);
  });
});

describe("after another device's moves", () => {
  test("notes and colours are undone mark by mark, keeping what the other device added", () => {
    const base = toggleMarks(fresh(), [1], 5, "centre"); // r1c2 notes 5
    const [history, local] = play(base, (b) => applyDigit(b, [0], 5)); // r1c1 = 5 takes 5 from r1c2
    // The other device added 1 to r1c2's notes and a colour to r1c1; merged, 5 stays out of r1c2.
    const server = toggleMarks(toggleMarks(base, [1], 1, "centre"), [0], 3, "colour");
    const { board } = mergeBoards(base, server, local);
    assert.deepEqual([board.digits[0], board.centre[1], board.colours[0]], [5, "1", "3"]);
    const fitted = fitHistory(history, board);
    assert.equal(fitted.cut, 0);
    const [, back] = undo(fitted.history, board);
    assert.deepEqual([back.digits[0], back.centre[1], back.colours[0]], [0, "15", "3"], "the player's own move, and only it");
  });

  test("the history is cut at the first step whose digit the other device changed, and the newer steps stay", () => {
    const a = fresh();
    const [history, mine] = play(a, (b) => applyDigit(b, [0], 4), (b) => applyDigit(b, [1], 8), (b) => applyDigit(b, [3], 7));
    // The other device put 6 in r1c2 (cell 1), and its entry won.
    const server = { ...mine, digits: mine.digits.map((d, i) => (i === 1 ? 6 : d)) };
    const { history: fitted, cut } = fitHistory(history, server);
    assert.equal(cut, 2, "the step at r1c2 and the older one before it");
    assert.equal(fitted.past.length, 1);
    const [after, back] = undo(fitted, server);
    assert.deepEqual([back.digits[0], back.digits[1], back.digits[3]], [4, 6, 0]);
    assert.equal(undo(after, back), null);
    assert.match(cutNotice(cut), /other device/);
    assert.equal(cutNotice(0), "");
  });

  test("steps undone are cut from the first one that can no longer be redone", () => {
    const a = fresh();
    let [history, board] = play(a, (b) => applyDigit(b, [0], 4), (b) => applyDigit(b, [1], 8));
    [history, board] = undo(history, board);
    [history, board] = undo(history, board);
    const server = { ...board, digits: board.digits.map((d, i) => (i === 1 ? 2 : d)) };
    const { history: fitted, cut } = fitHistory(history, server);
    assert.deepEqual([cut, fitted.future.length, fitted.past.length], [1, 1, 0]);
    assert.equal(redo(fitted, server)[1].digits[0], 4);
  });

  test("a step whose digit is gone cannot be applied", () => {
    const a = fresh();
    const b = applyDigit(a, [0], 4);
    assert.equal(applyStep(a, stepBetween(a, b), true), null);
    assert.equal(applyStep(b, stepBetween(a, b), false), null);
  });
});

describe("the copy on this device", () => {
  test("it keeps the history and the removed candidates per player and daily, and gives them back", () => {
    const storage = memoryStorage();
    const [history] = play(fresh(), (b) => applyDigit(b, [0], 4), (b) => toggleMarks(b, [1], 2, "corner"));
    const removed = new Array(81).fill("");
    removed[1] = "5";
    const copy = new UndoCopy(storage);
    copy.open(7, "2026-11-25-easy");
    copy.write(history, removed);
    const other = new UndoCopy(storage);
    other.open(8, "2026-11-25-easy");
    assert.equal(other.read(), null, "another player's is not this one's");
    const again = new UndoCopy(storage);
    again.open(7, "2026-11-25-easy");
    assert.deepEqual(again.read(), { history, removed });
    again.clear();
    assert.equal(again.read(), null);
  });

  test("a guest takes over the history they made as a visitor", () => {
    const storage = memoryStorage();
    const [history] = play(fresh(), (b) => applyDigit(b, [0], 4));
    const visitor = new UndoCopy(storage);
    visitor.open(null, "p");
    visitor.write(history, new Array(81).fill(""));
    const guest = new UndoCopy(storage);
    guest.open(3, "p", true);
    assert.deepEqual(guest.read().history, history);
    assert.equal(storage.getItem("sudoku:undo:visitor:p"), null);
  });

  test("an account takes over the history of the guest whose board it took, or of that guest's visitor", () => {
    const [history] = play(fresh(), (b) => applyDigit(b, [0], 4));
    const keep = (storage, who) => {
      const copy = new UndoCopy(storage);
      copy.open(who, "p");
      copy.write(history, new Array(81).fill(""));
    };
    // Logged in to account 9 from guest 3's session: the board went from 3 to 9.
    const merged = memoryStorage();
    keep(merged, 3);
    const account = new UndoCopy(merged);
    account.open(9, "p", false, 3);
    assert.deepEqual(account.read().history, history);
    assert.equal(merged.getItem("sudoku:undo:3:p"), null);
    // Signed up before a reload told the page who the guest was: the guest is the account, 3.
    const signedUp = memoryStorage();
    keep(signedUp, null);
    const converted = new UndoCopy(signedUp);
    converted.open(3, "p", false, 3);
    assert.deepEqual(converted.read().history, history);
    assert.equal(signedUp.getItem("sudoku:undo:visitor:p"), null);
    // Without the state API's word, an account takes nobody's, and its own stays its own.
    const other = memoryStorage();
    keep(other, null);
    keep(other, 3);
    const stranger = new UndoCopy(other);
    stranger.open(9, "p");
    assert.equal(stranger.read(), null);
    assert.ok(other.getItem("sudoku:undo:visitor:p") && other.getItem("sudoku:undo:3:p"));
    const own = new UndoCopy(other);
    own.open(3, "p", false, 3);
    assert.deepEqual(own.read().history, history, "its own history, not replaced by the visitor's");
  });

  test("it is bounded: the newest 200 steps, and the 10 dailies written last", () => {
    const storage = memoryStorage();
    let now = 0;
    const a = fresh();
    let history = newHistory();
    for (let k = 0; k < 300; k += 1) history = pushHistory(history, a, applyDigit(a, [0], (k % 9) + 1));
    for (let day = 1; day <= 12; day += 1) {
      const copy = new UndoCopy(storage, () => (now += 1));
      copy.open(1, `day-${day}`);
      copy.write(history, new Array(81).fill(""));
    }
    const keys = storage.keys().sort();
    assert.equal(keys.length, 10);
    assert.ok(!keys.includes("sudoku:undo:1:day-1") && !keys.includes("sudoku:undo:1:day-2"));
    const last = new UndoCopy(storage);
    last.open(1, "day-12");
    assert.deepEqual(last.read().history.past, history.past.slice(-200));
  });

  test("a copy that is not one it wrote is ignored", () => {
    const storage = memoryStorage();
    const copy = new UndoCopy(storage);
    copy.open(1, "p");
    for (const junk of ["{", "[]", JSON.stringify({ past: [[["digits", 99, 0, 4]]], future: [] }),
      JSON.stringify({ past: [[["sounds", 1, 0, 4]]], future: [] }), JSON.stringify({ past: [], future: [[["centre", 1, 4, ""]]] })]) {
      storage.setItem("sudoku:undo:1:p", junk);
      assert.equal(copy.read(), null, junk);
    }
    storage.setItem("sudoku:undo:1:p", JSON.stringify({ past: [], future: [], removed: ["x"] }));
    assert.deepEqual(copy.read(), { history: newHistory(), removed: null });
  });
});
