// Key events to actions (static/js/keys.js), and the keyboard reference (static/js/key-help.js)
// held to them: an event is a plain object here.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { KEY_HELP } from "../../static/js/key-help.js";
import { MODES, MODE_NAMES, keyAction, moveTarget, nextMode } from "../../static/js/keys.js";

const NO_MODIFIERS = { code: "", ctrlKey: false, metaKey: false, altKey: false, shiftKey: false };
const key = (k, extra = {}) => keyAction({ key: k, ...NO_MODIFIERS, ...extra });

describe("keyAction", () => {
  test("a digit enters in the current mode, by its code first (Shift+5 is '%' as a key)", () => {
    assert.deepEqual(key("4", { code: "Digit4" }), { type: "digit", d: 4, kind: "mode" });
    assert.deepEqual(key("7", { code: "Numpad7" }), { type: "digit", d: 7, kind: "mode" });
    assert.deepEqual(key("%", { code: "Digit5", shiftKey: true }), { type: "digit", d: 5, kind: "corner" });
    assert.deepEqual(key("3"), { type: "digit", d: 3, kind: "mode" });
    assert.equal(key("0", { code: "Digit0" }), null);
    assert.equal(key("%", { shiftKey: true }), null, "without a code, '%' is no digit");
  });

  test("Shift+digit is a corner note, Ctrl or Cmd+digit a centre note, Alt+digit a colour", () => {
    assert.deepEqual(key("!", { code: "Digit1", shiftKey: true }), { type: "digit", d: 1, kind: "corner" });
    assert.deepEqual(key("2", { code: "Digit2", ctrlKey: true }), { type: "digit", d: 2, kind: "centre" });
    assert.deepEqual(key("2", { code: "Digit2", metaKey: true }), { type: "digit", d: 2, kind: "centre" });
    assert.deepEqual(key("¡", { code: "Digit1", altKey: true }), { type: "digit", d: 1, kind: "colour" });
    assert.deepEqual(key("9", { code: "Numpad9", altKey: true }), { type: "digit", d: 9, kind: "colour" });
  });

  test("with two modifiers the stronger one wins: Alt over Ctrl/Cmd over Shift", () => {
    assert.deepEqual(key("@", { code: "Digit2", shiftKey: true, ctrlKey: true }), { type: "digit", d: 2, kind: "centre" });
    assert.deepEqual(key("⁄", { code: "Digit1", shiftKey: true, altKey: true }), { type: "digit", d: 1, kind: "colour" });
  });

  test("Ctrl+Alt is AltGr on Windows, typing a character: no command at all", () => {
    assert.equal(key("²", { code: "Digit2", ctrlKey: true, altKey: true }), null);
    assert.equal(key("z", { ctrlKey: true, altKey: true }), null);
    assert.equal(key("ArrowLeft", { ctrlKey: true, altKey: true }), null);
  });

  test("Ctrl/Cmd+Z undoes; Ctrl/Cmd+Shift+Z and Ctrl/Cmd+Y redo", () => {
    assert.deepEqual(key("z", { ctrlKey: true }), { type: "undo" });
    assert.deepEqual(key("Z", { ctrlKey: true, shiftKey: true }), { type: "redo" });
    assert.deepEqual(key("z", { metaKey: true }), { type: "undo" });
    assert.deepEqual(key("z", { metaKey: true, shiftKey: true }), { type: "redo" });
    assert.deepEqual(key("y", { ctrlKey: true }), { type: "redo" });
    assert.deepEqual(key("y", { metaKey: true }), { type: "redo" });
  });

  test("letters follow the layout's labels, and the code stands in where a layout has no Latin letters", () => {
    assert.deepEqual(key("", { code: "KeyZ", ctrlKey: true }), { type: "undo" });
    assert.deepEqual(key("я", { code: "KeyZ", ctrlKey: true }), { type: "undo" }, "Cyrillic Ctrl+Z");
    assert.deepEqual(key("z", { code: "KeyY", ctrlKey: true }), { type: "undo" }, "QWERTZ: Z is where Y is on QWERTY");
    assert.deepEqual(key("z", { code: "KeyW" }), { type: "setMode", mode: "normal" }, "AZERTY: Z is where W is");
    assert.deepEqual(key("ч", { code: "KeyX" }), { type: "setMode", mode: "corner" });
  });

  test("arrows move; with Shift or Ctrl/Cmd they also add the cell to the selection; Alt+arrow is the browser's", () => {
    assert.deepEqual(key("ArrowUp"), { type: "move", dr: -1, dc: 0, extend: false });
    assert.deepEqual(key("ArrowRight"), { type: "move", dr: 0, dc: 1, extend: false });
    assert.deepEqual(key("ArrowDown", { shiftKey: true }), { type: "move", dr: 1, dc: 0, extend: true });
    assert.deepEqual(key("ArrowLeft", { ctrlKey: true }), { type: "move", dr: 0, dc: -1, extend: true });
    assert.deepEqual(key("ArrowLeft", { metaKey: true }), { type: "move", dr: 0, dc: -1, extend: true });
    assert.equal(key("ArrowLeft", { altKey: true }), null);
  });

  test("Home and End go to the row's ends, with Ctrl/Cmd to the grid's corners", () => {
    assert.deepEqual(key("Home"), { type: "goto", col: 0 });
    assert.deepEqual(key("End"), { type: "goto", col: 8 });
    assert.deepEqual(key("Home", { ctrlKey: true }), { type: "goto", row: 0, col: 0 });
    assert.deepEqual(key("End", { metaKey: true }), { type: "goto", row: 8, col: 8 });
  });

  test("Z, X, C and V pick a mode, plain or shifted, never with Ctrl/Cmd or Alt", () => {
    assert.deepEqual(["z", "x", "c", "v"].map((k) => key(k)?.mode), ["normal", "corner", "centre", "colour"]);
    assert.deepEqual(key("V", { shiftKey: true }), { type: "setMode", mode: "colour" });
    assert.equal(key("x", { ctrlKey: true }), null, "Ctrl+X is the browser's cut");
    assert.equal(key("c", { metaKey: true }), null);
    assert.equal(key("v", { altKey: true }), null);
  });

  test("Ctrl/Cmd+A selects every cell", () => {
    assert.deepEqual(key("a", { ctrlKey: true }), { type: "selectAll" });
    assert.deepEqual(key("a", { metaKey: true }), { type: "selectAll" });
    assert.equal(key("a"), null);
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
    assert.equal(key("Enter"), null);
    assert.equal(key("h", { ctrlKey: true }), null);
    assert.equal(key("Backspace", { ctrlKey: true }), null);
  });
});

// ---- KEY_HELP against keyAction. ----
// A real check needs the keys from somewhere neither of them wrote: a whole keyboard, pressed with
// every combination of modifiers, in the forms browsers report (code and key; no code, as some
// virtual keyboards send; a Cyrillic layout, whose keys are not Latin letters). Every press that
// keyAction turns into an action must be documented by an entry of KEY_HELP that does the same thing.

const SHIFTED_DIGITS = ")!@#$%^&*(";
const CYRILLIC = Object.fromEntries([..."ФИСВУАПРШОЛДЬТЩЗЙКЫЕГМЦЧНЯ"].map((ch, k) => [String.fromCharCode(65 + k), ch.toLowerCase()]));
const PUNCTUATION = [
  ["Minus", "-", "_"], ["Equal", "=", "+"], ["BracketLeft", "[", "{"], ["BracketRight", "]", "}"],
  ["Backslash", "\\", "|"], ["Semicolon", ";", ":"], ["Quote", "'", '"'], ["Comma", ",", "<"],
  ["Period", ".", ">"], ["Slash", "/", "?"], ["Backquote", "`", "~"], ["NumpadAdd", "+", "+"],
  ["NumpadSubtract", "-", "-"], ["NumpadMultiply", "*", "*"], ["NumpadDivide", "/", "/"],
  ["NumpadDecimal", ".", "."], ["NumpadEnter", "Enter", "Enter"],
];
const NAMED = [
  "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown", "Insert",
  "Delete", "Backspace", "Tab", "Enter", "Escape", "ContextMenu", "CapsLock", "Shift", "Control",
  "Alt", "Meta", ...Array.from({ length: 12 }, (_, k) => `F${k + 1}`),
];

/** Every key of a keyboard: {name (as KEY_HELP writes it), code, key, shifted (the key with Shift)}. */
const KEYBOARD = [
  ...Object.entries(CYRILLIC).map(([name]) => ({ name, code: `Key${name}`, key: name.toLowerCase(), shifted: name })),
  ...[..."0123456789"].map((name) => ({ name, code: `Digit${name}`, key: name, shifted: SHIFTED_DIGITS[name] })),
  ...[..."0123456789"].map((name) => ({ name, code: `Numpad${name}`, key: name, shifted: name })),
  ...PUNCTUATION.map(([code, k, shifted]) => ({ name: code, code, key: k, shifted })),
  ...NAMED.map((name) => ({ name, code: name, key: name, shifted: name })),
  { name: "Space", code: "Space", key: " ", shifted: " " },
];

/**
 * Each key in the forms a browser may report it, with each of the 16 combinations of modifiers:
 * {name, event, unshifted (the same press without Shift)}.
 */
function* presses() {
  for (const k of KEYBOARD) {
    const forms = [
      (shift) => ({ key: shift ? k.shifted : k.key, code: k.code }),
      (shift) => ({ key: shift ? k.shifted : k.key, code: "" }),
    ];
    const cyrillic = CYRILLIC[k.name];
    if (cyrillic) forms.push((shift) => ({ key: shift ? cyrillic.toUpperCase() : cyrillic, code: k.code }));
    for (const form of forms) {
      for (let mask = 0; mask < 16; mask += 1) {
        const [shiftKey, ctrlKey, altKey, metaKey] = [1, 2, 4, 8].map((bit) => Boolean(mask & bit));
        const others = { ctrlKey, altKey, metaKey };
        yield {
          name: k.name,
          event: { ...form(shiftKey), shiftKey, ...others },
          unshifted: { ...form(false), shiftKey: false, ...others },
        };
      }
    }
  }
}

const KEY_NAMES = new Set(KEYBOARD.map((k) => k.name));
const ARROWS = ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"];

/** A KEY_HELP keys text as chords {shift, command, alt, names}; anything it cannot read fails the test. */
function parseKeys(text) {
  return text.split(", ").map((chord) => {
    const parts = chord.split("+");
    const last = parts.pop();
    const chordOf = { shift: false, command: false, alt: false };
    for (const part of parts) {
      const modifier = { Shift: "shift", "Ctrl/Cmd": "command", "Alt/Option": "alt" }[part];
      assert.ok(modifier, `KEY_HELP: unknown modifier "${part}" in "${text}"`);
      chordOf[modifier] = true;
    }
    let names;
    if (last === "1–9") names = [..."123456789"];
    else if (/^arrow keys$/i.test(last)) names = ARROWS;
    else names = [last];
    for (const name of names) assert.ok(KEY_NAMES.has(name), `KEY_HELP: unknown key "${last}" in "${text}"`);
    return { ...chordOf, names };
  });
}

const HELP = KEY_HELP.map(([keys, meaning]) => ({ keys, meaning, chords: parseKeys(keys) }));

/** What an action does, leaving out where it goes (one entry can say "first or last cell"). */
const doing = (action) => JSON.stringify([action.type, action.kind, action.mode, action.extend]);

const covers = (entry, name, e) => entry.chords.some((chord) =>
  chord.names.includes(name) && chord.shift === e.shiftKey && chord.alt === e.altKey &&
  chord.command === (e.ctrlKey || e.metaKey));

/** An event for one of KEY_HELP's chords, as a US keyboard reports it. */
function pressFor(name, chord, commandKey) {
  const k = KEYBOARD.find((board) => board.name === name);
  return {
    key: chord.shift ? k.shifted : k.key, code: k.code, shiftKey: chord.shift, altKey: chord.alt,
    ctrlKey: chord.command && commandKey === "ctrlKey", metaKey: chord.command && commandKey === "metaKey",
  };
}

describe("KEY_HELP", () => {
  test("every entry's keys do something, and the same thing (with Ctrl and with Cmd alike)", () => {
    for (const entry of HELP) {
      const done = new Set();
      for (const chord of entry.chords) {
        for (const name of chord.names) {
          for (const commandKey of ["ctrlKey", "metaKey"]) {
            const action = keyAction(pressFor(name, chord, commandKey));
            assert.ok(action, `"${entry.keys}" (${name}) does nothing`);
            done.add(doing(action));
          }
        }
      }
      assert.equal(done.size, 1, `"${entry.keys}" does several things: ${[...done].join(" ")}`);
    }
  });

  test("every key keyAction understands, with any modifiers, has an entry saying what it does", () => {
    const doesOf = new Map(HELP.map((entry) => {
      const chord = entry.chords[0];
      return [entry, doing(keyAction(pressFor(chord.names[0], chord, "ctrlKey")))];
    }));
    const missing = new Set();
    const seen = new Set();
    for (const { name, event, unshifted } of presses()) {
      const action = keyAction(event);
      if (!action) continue;
      seen.add(action.type);
      const entry = HELP.find((help) => covers(help, name, event));
      if (entry) {
        assert.equal(doing(action), doesOf.get(entry), `${name} ${JSON.stringify(event)} is under "${entry.keys}" but does ${doing(action)}`);
        continue;
      }
      // Shift that changes nothing needs no entry of its own (Shift+H is H, Caps Lock or not).
      const plain = event.shiftKey ? keyAction(unshifted) : null;
      if (plain && doing(plain) === doing(action) && HELP.some((help) => covers(help, name, unshifted))) continue;
      const mods = ["shiftKey", "ctrlKey", "altKey", "metaKey"].filter((m) => event[m]).map((m) => m.replace("Key", ""));
      missing.add(`${[...mods, name].join("+")} -> ${doing(action)}`);
    }
    assert.deepEqual([...missing], [], "keys keyAction understands that KEY_HELP does not mention");
    // The sweep must reach every kind of action, or it proves nothing about the ones it missed.
    assert.deepEqual([...seen].sort(), [
      "digit", "dismiss", "erase", "goto", "hint", "mode", "move", "redo", "selectAll", "setMode", "undo",
    ]);
  });

  test("the entries are pairs of plain text, ready for a <dl>", () => {
    for (const pair of KEY_HELP) {
      assert.equal(pair.length, 2);
      assert.ok(pair.every((text) => typeof text === "string" && text.trim() === text && text.length > 0));
    }
  });
});

describe("moveTarget", () => {
  const move = (dr, dc) => ({ type: "move", dr, dc, extend: false });
  const UP = move(-1, 0);
  const DOWN = move(1, 0);
  const LEFT = move(0, -1);
  const RIGHT = move(0, 1);

  test("arrows stop at the edges by default (the ARIA grid pattern does not wrap)", () => {
    assert.equal(moveTarget(0, UP), 0);
    assert.equal(moveTarget(0, LEFT), 0);
    assert.equal(moveTarget(0, DOWN), 9);
    assert.equal(moveTarget(8, RIGHT), 8);
    assert.equal(moveTarget(80, DOWN), 80);
    assert.equal(moveTarget(40, RIGHT), 41);
  });

  // [from, move, to]: off each of the four edges, in at the opposite edge of the same row or column.
  const WRAPS = [
    [4, UP, 76, "r1c5 up is r9c5"],
    [76, DOWN, 4, "r9c5 down is r1c5"],
    [36, LEFT, 44, "r5c1 left is r5c9"],
    [44, RIGHT, 36, "r5c9 right is r5c1"],
    [0, UP, 72, "the top left corner up is the bottom left"],
    [0, LEFT, 8, "the top left corner left is the top right"],
    [80, DOWN, 8, "the bottom right corner down is the top right"],
    [80, RIGHT, 72, "the bottom right corner right is the bottom left"],
    [40, UP, 31, "inside the grid it is an ordinary move"],
  ];
  for (const [from, action, to, what] of WRAPS) {
    test(`with wrap, ${what}`, () => {
      assert.equal(moveTarget(from, action, true), to);
    });
  }

  test("goto keeps the row or column it is not given, wrap or not", () => {
    assert.equal(moveTarget(40, { type: "goto", col: 0 }), 36);
    assert.equal(moveTarget(40, { type: "goto", col: 8 }), 44);
    assert.equal(moveTarget(40, { type: "goto", row: 8, col: 8 }), 80);
    assert.equal(moveTarget(40, { type: "goto", row: 0, col: 0 }, true), 0);
  });
});

test("the entry modes cycle digit, corner, centre, colour, and each has a name to announce", () => {
  assert.deepEqual(MODES.map(nextMode), ["corner", "centre", "colour", "normal"]);
  assert.deepEqual(MODES.map((mode) => MODE_NAMES[mode]), ["digits", "corner notes", "centre notes", "colours"]);
});
