// Requests per player: the board's sync queue (static/js/sync.js) driven through a simulated solve
// on a fake clock, with the page's own wiring (board.js: the ticker, visibility, focus), every
// request it sends counted by kind. Prints a table; the figures are in docs/performance.md.
//
//     node bench/requests.mjs [path/to/sync.js]
//
// The path runs another version of the queue against the same players: the "before" figures come
// from the previous commit's static/js (`git archive <commit> static/js | tar -x -C /tmp/old`).
// A queue without startTicking() is driven as board.js drove it then: a tick every 10 s.

import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

import { FakeTime } from "../tests/js/fake-time.mjs";

const here = new URL("../static/js/", import.meta.url);
const syncPath = process.argv[2] ? pathToFileURL(resolve(process.argv[2])) : new URL("sync.js", here);
const queue = await import(syncPath.href);
const { SyncQueue } = queue;
// Versions before the split exported BEAT_MS from sync.js; now its rules are sync-rules.js's.
const BEAT_MS = queue.BEAT_MS ?? (await import(new URL("sync-rules.js", syncPath).href)).BEAT_MS;
const { applyDigit, isFull, movesBetween, parseState, toggleMarks } = await import(new URL("sudoku.js", syncPath).href);

const GIVENS = "003020600900305001001806400008102900700000008006708200002609500800203009005010300";
const SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
const EMPTY = [...GIVENS].flatMap((d, i) => (d === "0" ? [i] : []));
const URLS = { save: "save", beat: "beat", submit: "submit", state: "state", hint: "hint", results: "results" };
const LATENCY_MS = 40; // each answer arrives this long after its request

/** Random numbers from a seed (a linear congruential generator), so every run counts the same. */
function randoms(seed) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

/** A page of the puzzle with a fake server; `counts` holds the requests sent, by kind. */
function page() {
  const time = new FakeTime();
  const counts = { state: 0, open: 0, tick: 0, close: 0, save: 0, submit: 0 };
  const game = { board: parseState({ givens: GIVENS }).board, running: true, solved: false };
  let version = 1;
  const answer = (url, body) => {
    if (url === URLS.state) return { givens: GIVENS, digits: "", version, elapsed: 0, solved: false };
    if (url === URLS.save) return { version: ++version, elapsed: 0 };
    if (url === URLS.submit) return { solved: true, seconds: 1 };
    return { elapsed: 0, body };
  };
  const fetch = (url, init) => {
    const body = init.body === undefined ? undefined : JSON.parse(init.body);
    counts[url === URLS.beat ? body.phase : url] += 1;
    return new Promise((done) => time.setTimeout(() => done({
      status: 200, ok: true, redirected: false, json: async () => answer(url, body),
    }), LATENCY_MS));
  };
  const host = {
    board: () => game.board, canPlay: () => true, solved: () => game.solved, running: () => game.running && !game.solved,
    status: () => {}, elapsed: () => {}, adopt: () => {}, rebase: () => {}, alert: () => {},
    finish: () => {
      game.solved = true;
    },
  };
  const stored = new Map();
  const storage = { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => stored.set(k, v), removeItem: (k) => stored.delete(k) };
  const sync = new SyncQueue({ urls: URLS, host, fetch, timers: time, now: () => time.now, dateNow: () => time.now, storage });

  /** What board.js does as the page opens: the state, then the clock starts (an open). */
  const open = async () => {
    const loading = sync.load();
    await time.advance(LATENCY_MS);
    await loading;
    sync.begin(version, 7, "2026-01-01-easy", false, game.board);
    if (sync.startTicking) sync.startTicking();
    else {
      const every = () => {
        sync.requestBeat("tick");
        time.setTimeout(every, BEAT_MS);
      };
      time.setTimeout(every, BEAT_MS);
    }
    sync.requestBeat("open");
  };
  const change = (next) => {
    const before = game.board;
    game.board = next;
    sync.changed(isFull(next), [], movesBetween(before, next));
  };
  /** board.js's visibilitychange: unsaved moves go and the clock stops; shown again, it starts and looks for other devices. */
  const hide = () => {
    game.running = false;
    sync.flushNow();
    sync.requestBeat("close");
  };
  const show = () => {
    game.running = true;
    sync.requestBeat("open");
    sync.requestRefresh();
  };
  return { time, counts, game, sync, open, change, hide, show };
}

/**
 * A player who solves with notes: before each digit a pause to think (`thinkMs()`), and now and
 * then a note or two first; at `hiddenAt` entries the tab is hidden for `hiddenMs`, and at
 * `focusAt` the window takes the focus back (a click from another window).
 */
async function solve({ thinkMs, notes, hiddenAt = -1, hiddenMs = 0, focusAt = -1 }) {
  const p = page();
  await p.open();
  const random = randoms(11);
  for (const [k, i] of EMPTY.entries()) {
    if (k === hiddenAt) {
      p.hide();
      await p.time.advance(hiddenMs);
      p.show();
    }
    if (k === focusAt) {
      await p.time.advance(1_000); // the last digit's save has gone
      p.sync.requestRefresh(true);
    }
    for (let n = 0; n < notes(random); n += 1) {
      await p.time.advance(1_000 + 1_000 * random());
      p.change(toggleMarks(p.game.board, [i], 1 + Math.floor(9 * random()), "centre"));
    }
    await p.time.advance(thinkMs(random));
    p.change(applyDigit(p.game.board, [i], Number(SOLUTION[i])));
  }
  await p.time.advance(1_000);
  return { counts: p.counts, minutes: (p.time.now - hiddenMs) / 60_000 };
}

/** The page left open and visible, no move made, for `minutes`. */
async function idle(minutes) {
  const p = page();
  await p.open();
  await p.time.advance(minutes * 60_000);
  return { counts: p.counts, minutes };
}

const players = [
  ["typical solve (notes, a tab away 30 s)", () => solve({
    thinkMs: (r) => 2_000 + 8_000 * r() ** 2 + (r() < 0.1 ? 10_000 : 0),
    notes: (r) => (r() < 0.4 ? 1 + Math.floor(2 * r()) : 0),
    hiddenAt: 25, hiddenMs: 30_000, focusAt: 35,
  })],
  ["fast solve (a digit every 2 s)", () => solve({ thinkMs: () => 2_000, notes: () => 0 })],
  ["slow solve (a digit every 15 s)", () => solve({ thinkMs: () => 15_000, notes: () => 0 })],
  ["page open, no move (5 min)", () => idle(5)],
];

const kinds = ["state", "open", "save", "tick", "close", "submit"];
console.log(`Requests per player, simulated: bench/requests.mjs on ${process.argv[2] ?? "static/js/sync.js"}, ${new Date().toISOString().slice(0, 10)}`);
const rows = [["player", "minutes played", ...kinds, "all", "a minute"]];
for (const [name, run] of players) {
  const { counts, minutes } = await run();
  const all = kinds.reduce((sum, k) => sum + counts[k], 0);
  rows.push([name, minutes.toFixed(1), ...kinds.map((k) => String(counts[k])), String(all), (all / minutes).toFixed(1)]);
}
const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
for (const row of rows) console.log(row.map((cell, c) => (c ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join("  "));
