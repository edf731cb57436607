// Key events to actions (static/js/keys.js): an event is a plain object here.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { MODES, MODE_NAMES, keyAction, moveTarget, nextMode } from "../../static/js/keys.js";

const key = (k, extra = {}) => keyAction({ key: k, code: "", ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...extra });

describe("keyAction", () => {
  test("a digit enters in the current mode, by its code first (Shift+5 is '%' as a key)", () => {
    assert.deepEqual(key("4", { code: "Digit4" }), { type: "digit", d: 4, kind: "mode" });
    assert.deepEqual(key("7", { code: "Numpad7" }), { type: "digit", d: 7, kind: "mode" });
    assert.deepEqual(key("%", { code: "Digit5", shiftKey: true }), { type: "digit", d: 5, kind: "corner" });
    assert.deepEqual(key("3"), { type: "digit", d: 3, kind: "mode" });
    assert.equal(key("0", { code: "Digit0" }), null);
  });

  test("Ctrl and Alt with a digit make a centre note; Cmd with a digit is left to the browser", () => {
    assert.deepEqual(key("2", { code: "Digit2", ctrlKey: true }), { type: "digit", d: 2, kind: "centre" });
    assert.deepEqual(key("¡", { code: "Digit1", altKey: true }), { type: "digit", d: 1, kind: "centre" });
    assert.equal(key("1", { code: "Digit1", metaKey: true }), null);
  });

  test("Ctrl+Z undoes; Ctrl+Shift+Z and Ctrl+Y redo, by the code when there is no key", () => {
    assert.deepEqual(key("z", { ctrlKey: true }), { type: "undo" });
    assert.deepEqual(key("Z", { ctrlKey: true, shiftKey: true }), { type: "redo" });
    assert.deepEqual(key("z", { metaKey: true }), { type: "undo" });
    assert.deepEqual(key("y", { ctrlKey: true }), { type: "redo" });
    assert.deepEqual(key("", { code: "KeyZ", ctrlKey: true }), { type: "undo" });
    assert.deepEqual(key("", { code: "KeyY", ctrlKey: true }), { type: "redo" });
    assert.equal(key("z", { ctrlKey: true, altKey: true }), null);
  });

  test("arrows move, Home and End go to the row's ends, with Ctrl to the grid's corners", () => {
    assert.deepEqual(key("ArrowUp"), { type: "move", dr: -1, dc: 0 });
    assert.deepEqual(key("ArrowRight"), { type: "move", dr: 0, dc: 1 });
    assert.deepEqual(key("Home"), { type: "goto", col: 0 });
    assert.deepEqual(key("End"), { type: "goto", col: 8 });
    assert.deepEqual(key("Home", { ctrlKey: true }), { type: "goto", row: 0, col: 0 });
    assert.deepEqual(key("End", { ctrlKey: true }), { type: "goto", row: 8, col: 8 });
    assert.equal(key("ArrowUp", { altKey: true }), null);
  });

  test("erase, mode, hint and dismiss have their keys; anything else is the browser's", () => {
    assert.deepEqual(key("Backspace"), { type: "erase" });
    assert.deepEqual(key("Delete"), { type: "erase" });
    assert.deepEqual(key("n"), { type: "mode" });
    assert.deepEqual(key("N", { shiftKey: true }), { type: "mode" });
    assert.deepEqual(key(" "), { type: "mode" });
    assert.deepEqual(key("h"), { type: "hint" });
    assert.deepEqual(key("Escape"), { type: "dismiss" });
    assert.equal(key("Tab"), null);
    assert.equal(key("a"), null);
    assert.equal(key("h", { ctrlKey: true }), null);
  });
});

describe("moveTarget", () => {
  test("arrows stop at the edges (the ARIA grid pattern does not wrap)", () => {
    assert.equal(moveTarget(0, { type: "move", dr: -1, dc: 0 }), 0);
    assert.equal(moveTarget(0, { type: "move", dr: 0, dc: -1 }), 0);
    assert.equal(moveTarget(0, { type: "move", dr: 1, dc: 0 }), 9);
    assert.equal(moveTarget(8, { type: "move", dr: 0, dc: 1 }), 8);
    assert.equal(moveTarget(80, { type: "move", dr: 1, dc: 0 }), 80);
  });

  test("goto keeps the row or column it is not given", () => {
    assert.equal(moveTarget(40, { type: "goto", col: 0 }), 36);
    assert.equal(moveTarget(40, { type: "goto", col: 8 }), 44);
    assert.equal(moveTarget(40, { type: "goto", row: 8, col: 8 }), 80);
  });
});

test("the entry modes cycle digit, corner, centre, and each has a name to announce", () => {
  assert.deepEqual(MODES.map(nextMode), ["corner", "centre", "normal"]);
  assert.deepEqual(MODES.map((mode) => MODE_NAMES[mode]), ["digits", "corner notes", "centre notes"]);
});
