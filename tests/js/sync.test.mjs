// The sync queue (static/js/sync.js, with its rules, sync-rules.js, and its requests, sync-jobs.js)
// against a fake server: fetch, timers, time and storage are the test's own, so every decision
// (when to save, what a 409, 401, 4xx or 5xx does, retries and their backoff, one request at a
// time) is checked without a browser.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { applyDigit, applyMoves, digitsString, isFull, movesBetween, parseState, toggleMarks } from "../../static/js/sudoku.js";
import { MOVES_PER_WRITE } from "../../static/js/record-of-play.js";
// The queue loads merge.js at its first merge; loaded here first, a merge waits on no file.
import "../../static/js/merge.js";
import { SyncQueue } from "../../static/js/sync.js";
import {
  BEAT_MS, SAVE_EVERY_MS, combinePhases, nextJob, nextRetryMs, saveDelay, shouldBeat, tickDueIn,
} from "../../static/js/sync-rules.js";
import { FakeTime, settle } from "./fake-time.mjs";

const GIVENS = "003020600900305001001806400008102900700000008006708200002609500800203009005010300";
const SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
const EMPTY = [...GIVENS].flatMap((d, i) => (d === "0" ? [i] : []));
const URLS = {
  save: "/api/save/", beat: "/api/beat/", submit: "/api/submit/", state: "/api/state/",
  hint: "/api/hint/", results: "/results/",
};
const KEY = "sudoku:7:2026-01-01-easy"; // player 7's copy of that puzzle

/**
 * A queue for player 7 at version 1, with a fake server: `answer(request)` gives each request's
 * reply as [status, data, redirected?], "offline" to fail it, or nothing to leave it waiting
 * until the test calls request.reply(...). `said` is what the queue told the page, in order.
 */
function setUp({ answer = () => [200, { version: 2, elapsed: 0 }], running = true, saveEveryMs } = {}) {
  const time = new FakeTime();
  const game = { board: parseState({ givens: GIVENS }).board, canPlay: true, solved: false, running };
  const said = [];
  const host = {
    board: () => game.board,
    canPlay: () => game.canPlay,
    solved: () => game.solved,
    running: () => game.running,
    status: (state, text) => said.push(["status", state, text]),
    elapsed: (seconds) => said.push(["elapsed", seconds]),
    adopt: (server, notice) => {
      game.board = server.board;
      said.push(["adopt", server.version, notice]);
    },
    rebase: (server, notice) => {
      game.board = server.board;
      said.push(["rebase", server.version, notice]);
    },
    finish: (seconds) => said.push(["finish", seconds]),
    alert: (text) => said.push(["alert", text]),
  };
  const requests = [];
  const fetch = (url, init) => new Promise((resolve, reject) => {
    const request = {
      url, at: time.now, method: init.method, headers: init.headers ?? {}, keepalive: init.keepalive,
      body: init.body === undefined ? undefined : JSON.parse(init.body),
      reply: (status, data = null, redirected = false) => resolve({
        status, redirected, ok: status >= 200 && status < 300,
        json: async () => {
          if (data === null) throw new SyntaxError("Unexpected token '<'"); // an HTML page
          return data;
        },
        text: async () => String(data),
      }),
      fail: () => reject(new TypeError("Failed to fetch")),
    };
    requests.push(request);
    const reply = answer(request);
    if (reply === "offline") request.fail();
    else if (reply) request.reply(...reply);
  });
  const stored = new Map();
  const storage = {
    getItem: (key) => stored.get(key) ?? null,
    setItem: (key, value) => stored.set(key, value),
    removeItem: (key) => stored.delete(key),
  };
  // The date (epoch ms) moves with the fake time, from the real time the test started.
  const T0 = Date.now();
  const sync = new SyncQueue({
    urls: URLS, host, fetch, timers: time, now: () => time.now, dateNow: () => T0 + time.now, storage, csrfToken: () => "token", saveEveryMs,
  });
  sync.begin(1, 7, "2026-01-01-easy", false, game.board);
  /** The player puts the next right digit in the next empty cell, as the page does. */
  let entries = 0;
  const play = () => {
    const i = EMPTY[entries++];
    change(applyDigit(game.board, [i], Number(SOLUTION[i])));
  };
  /** Any change the page makes, as play.js reports it. */
  const change = (next) => {
    const before = game.board;
    game.board = next;
    sync.changed(isFull(next), [], movesBetween(before, next));
  };
  return { sync, game, time, requests, said, stored, play, change, T0 };
}

/** The server's position as restore() takes it (parseState's shape, what it reads of it). */
const server = (board, savedAt = null) => ({ board, savedAt });

/** A server state for the puzzle at `version`, with r1c1 filled in. */
const serverState = (version, extra = {}) => ({
  givens: GIVENS, digits: "4".padEnd(81, "0"), corner: [], centre: [], version, elapsed: 50, solved: false, ...extra,
});

describe("the decisions", () => {
  test("saving comes first; a submit waits for the save; a refresh never runs over unsaved moves", () => {
    const idle = { dirty: false, due: false, submit: false, beat: false, refresh: false };
    assert.equal(nextJob(idle), null);
    assert.equal(nextJob({ ...idle, dirty: true }), null, "a save waits for its moment");
    assert.equal(nextJob({ ...idle, dirty: true, due: true, submit: true, beat: true, refresh: true }), "save");
    assert.equal(nextJob({ ...idle, dirty: true, submit: true, beat: true }), "beat");
    assert.equal(nextJob({ ...idle, submit: true, beat: true }), "submit");
    assert.equal(nextJob({ ...idle, beat: true, refresh: true }), "beat");
    assert.equal(nextJob({ ...idle, refresh: true }), "refresh");
    assert.equal(nextJob({ ...idle, dirty: true, refresh: true }), null);
  });

  test("a save waits 600 ms after the last change, no sooner than 10 s after the last save, and at most 10 s", () => {
    assert.equal(SAVE_EVERY_MS, 10_000);
    assert.equal(saveDelay(0, 0, -Infinity), 600, "the first change after a quiet spell");
    assert.equal(saveDelay(5_000, 5_000, 0), 5_000, "a change 5 s after a save waits for the next one");
    assert.equal(saveDelay(12_000, 12_000, 0), 600, "10 s after the last save: a quiet moment only");
    assert.equal(saveDelay(9_800, 0, -Infinity), 200, "changes never stopping: 10 s after the first");
    assert.equal(saveDelay(20_000, 0, -Infinity), 0);
    assert.equal(saveDelay(1_000, 1_000, 0, 2_000), 1_000, "the page's own pace, when it asks for one");
  });

  test("retries wait 1 s, then twice as long each time, up to 30 s", () => {
    const waits = [];
    for (let ms = 0, k = 0; k < 7; k += 1) waits.push((ms = nextRetryMs(ms)));
    assert.deepEqual(waits, [1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});

describe("saving", () => {
  test("a burst of entries becomes one save after a quiet moment", async () => {
    const { sync, game, time, requests, said, stored, play } = setUp({ answer: () => [200, { version: 2, elapsed: 40 }] });
    for (let k = 0; k < 3; k += 1) {
      play();
      await time.advance(200);
    }
    assert.equal(requests.length, 0);
    assert.ok(stored.has(KEY), "meanwhile the moves are kept on this device");
    await time.advance(400);
    assert.equal(requests.length, 1);
    const [save] = requests;
    assert.equal(save.url, URLS.save);
    assert.equal(save.method, "POST");
    assert.deepEqual(save.body, {
      version: 1, digits: digitsString(game.board), corner: game.board.corner, centre: game.board.centre, colours: game.board.colours,
      moves: [[1000, "d", [[0, 4]]], [800, "d", [[1, 8]]], [600, "d", [[3, 9]]]], // made 200 ms apart, sent 600 ms after the last
    });
    assert.equal(sync.version, 2);
    assert.deepEqual(said, [["status", "saving", ""], ["elapsed", 40], ["status", "saved", ""]]);
    assert.ok(!stored.has(KEY), "the server has everything");
  });

  test("a player who never pauses still gets a save every 10 s", async () => {
    const { time, requests, play } = setUp();
    for (let k = 0; k < 30; k += 1) {
      play();
      await time.advance(500);
    }
    await time.advance(SAVE_EVERY_MS);
    assert.deepEqual(requests.map((r) => r.at), [10_000, 20_000]);
  });

  test("the page may ask for another pace: a player who never pauses gets a save every 2 s", async () => {
    const { time, requests, play } = setUp({ saveEveryMs: 2_000 });
    for (let k = 0; k < 10; k += 1) {
      play();
      await time.advance(500);
    }
    assert.deepEqual(requests.map((r) => r.at), [2_000, 4_000]);
  });

  test("one request at a time: moves made during a save go next, on the version it returned", async () => {
    const { game, time, requests, stored, play } = setUp({ answer: () => undefined });
    play();
    await time.advance(600);
    play();
    await time.advance(SAVE_EVERY_MS);
    assert.equal(requests.length, 1, "the second save waits for the first answer");
    requests[0].reply(200, { version: 2, elapsed: 5 });
    await settle();
    assert.equal(JSON.parse(stored.get(KEY)).version, 2, "the unsaved moves' copy now builds on version 2");
    assert.equal(requests.length, 2);
    assert.equal(requests[1].body.version, 2);
    assert.equal(requests[1].body.digits, digitsString(game.board));
  });

  test("the page's own requests wait until the player's position has loaded", async () => {
    const { game, time, requests, play } = setUp();
    game.canPlay = false;
    play();
    await time.advance(10_000);
    assert.equal(requests.length, 0);
  });

  test("leaving the page sends unsaved moves at once, with keepalive", async () => {
    const { sync, time, requests, play } = setUp();
    sync.flushNow();
    assert.equal(requests.length, 0, "nothing unsaved, nothing sent");
    play();
    sync.flushNow();
    await settle();
    assert.deepEqual(requests.map((r) => [r.url, r.keepalive]), [[URLS.save, true]]);
    await time.advance(1000);
    assert.equal(requests.length, 1, "and nothing is sent twice");
  });
});

describe("when another tab or device saved first", () => {
  test("a 409 puts the server's board on screen when this device has nothing of its own left", async () => {
    const { sync, game, time, requests, said, stored, play } = setUp({ answer: () => [409, { error: "stale", state: serverState(7) }] });
    play(); // r1c1 = 4: the very entry the other device saved
    await time.advance(600);
    assert.equal(said.at(-1)[0], "rebase");
    assert.equal(sync.version, 7);
    assert.equal(game.board.digits[0], 4);
    assert.ok(!sync.dirty && !stored.has(KEY), "nothing is left to save: our copy is dropped");
    await time.advance(10_000);
    assert.equal(requests.length, 1);
  });

  test("a 409 keeps this device's entries in other cells on top of the newer board, and saves them on its version", async () => {
    let saves = 0;
    const { sync, game, time, requests, said, play } = setUp({
      answer: (r) => (r.url === URLS.save && saves++ === 0 ? [409, { error: "stale", state: serverState(7) }] : [200, { version: 8, elapsed: 51 }]),
    });
    play(); // r1c1 = 4, as the other device did
    play(); // r1c2 = 8: only this device
    await time.advance(600);
    assert.deepEqual(said.find((x) => x[0] === "rebase"), ["rebase", 7, "Updated from your other device"]);
    assert.equal(game.board.digits[1], 8, "this device's entry is still on the board");
    await time.advance(600);
    assert.equal(requests.length, 2);
    assert.equal(requests[1].body.version, 7, "saved on the version that won");
    assert.equal(requests[1].body.digits.slice(0, 2), "48");
    assert.equal(sync.version, 8);
  });

  test("where both devices changed one cell, the newer entry wins and the player is told which cell", async () => {
    const later = Date.now() + 60_000; // the other device's save came after this device's entry
    const { sync, game, time, said, play } = setUp({
      answer: () => (said.some((x) => x[0] === "rebase")
        ? undefined // the merged board's save: left unanswered here
        : [409, { error: "stale", state: serverState(7, { digits: "0" + "2".padEnd(80, "0"), saved_at: later }) }]),
    });
    play(); // r1c1 = 4
    play(); // r1c2 = 8, which the other device made a 2 later on
    await time.advance(600);
    assert.equal(game.board.digits[0], 4, "this device's own cell stays");
    assert.equal(game.board.digits[1], 2, "the newer entry wins");
    const [, , notice] = said.find((x) => x[0] === "rebase");
    assert.match(notice, /r1c2/);
    assert.equal(sync.version, 7);
    assert.equal(sync.busy, true, "r1c1 goes to the server on the newer version at once");
  });

  test("a 409 without the server's state fetches it, and a newer version replaces the board", async () => {
    const { sync, time, requests, said, play } = setUp({
      answer: (r) => (r.url === URLS.save ? [409, { error: "stale" }] : [200, serverState(8)]),
    });
    play();
    await time.advance(600);
    assert.deepEqual(requests.map((r) => [r.method, r.url]), [["POST", URLS.save], ["GET", URLS.state]]);
    assert.deepEqual(said.at(-1), ["adopt", 8, "Updated from your other device"]);
    assert.equal(sync.version, 8);
  });

  test("coming back looks again: on focus at most every 5 s, and only a newer version replaces the board", async () => {
    let version = 1;
    const { sync, time, requests, said, play } = setUp({ answer: () => [200, serverState(version, { elapsed: 70 })] });
    await time.advance(60_000);
    sync.requestRefresh(true);
    await settle();
    assert.deepEqual(said, [["elapsed", 70]], "the same version only sets the clock");
    await time.advance(1000);
    sync.requestRefresh(true);
    await settle();
    assert.equal(requests.length, 1, "focus again within 5 s does not ask");
    version = 4;
    sync.requestRefresh(); // the tab is visible again: always ask
    await settle();
    assert.deepEqual(said.at(-1), ["adopt", 4, "Updated from your other device"]);
    play();
    sync.requestRefresh();
    await settle();
    assert.equal(requests.length, 2, "unsaved moves go through save (and its 409), not a refresh");
  });
});

describe("refusals", () => {
  for (const [what, reply] of [["a 401", [401, { error: "Log in" }]], ["a redirect to the log-in page", [200, null, true]], ["a 403 page", [403, null]]]) {
    test(`${what} means logged out: every request stops and the moves stay on this device`, async () => {
      const { sync, time, requests, said, stored, play } = setUp({ answer: () => reply });
      play();
      await time.advance(600);
      assert.deepEqual(said.at(-1), ["status", "loggedout", "You are logged out, so moves are not saved."]);
      assert.ok(stored.has(KEY));
      play();
      sync.flushNow();
      sync.requestBeat();
      await time.advance(60_000);
      assert.equal(requests.length, 1);
    });
  }

  test("a 400 stops saving with the server's reason, and the moves stay on this device", async () => {
    const { sync, time, said, stored, play } = setUp({ answer: () => [400, { error: "bad digits" }] });
    play();
    await time.advance(600);
    assert.deepEqual(said.at(-1), ["status", "error", "Could not save: bad digits. Your moves are kept on this device."]);
    assert.ok(sync.stopped && stored.has(KEY));
  });
});

describe("without the network", () => {
  test("it says so, keeps the moves, retries after 1, 2 and 4 s, and says when it is back", async () => {
    let online = false;
    const { sync, time, requests, said, stored, play } = setUp({ answer: () => (online ? [200, { version: 2, elapsed: 9 }] : "offline") });
    play();
    await time.advance(600);
    assert.deepEqual(said.at(-1), ["status", "offline", "Offline — will retry"]);
    assert.ok(sync.dirty && stored.has(KEY));
    await time.advance(3000);
    online = true;
    await time.advance(4000);
    assert.deepEqual(requests.map((r) => r.at), [600, 1600, 3600, 7600]);
    assert.deepEqual(said.slice(-2), [["status", "saved", ""], ["status", "saved", "Back online — saved"]]);
    await time.advance(3000);
    assert.deepEqual(said.at(-1), ["status", "saved", ""], "the news clears itself");
    assert.ok(!stored.has(KEY));
  });

  test("a 5xx is waited out like a lost connection", async () => {
    const { sync, time, said, play } = setUp({ answer: () => [503, null] });
    play();
    await time.advance(600);
    assert.deepEqual(said.at(-1), ["status", "offline", "Offline — will retry"]);
    assert.equal(sync.retryMs, 1000);
  });

  test("back online, a waiting retry goes at once", async () => {
    let online = false;
    const { sync, time, requests, play } = setUp({ answer: () => (online ? [200, { version: 2 }] : "offline") });
    play();
    await time.advance(600);
    online = true;
    sync.retryNow();
    await settle();
    assert.deepEqual(requests.map((r) => r.at), [600, 600]);
    assert.ok(!sync.dirty && !sync.offline);
  });

  test("back online after a long outage, a request that still fails is tried again in a second", async () => {
    let failures = 6; // 1, 2, 4, 8 and 16 s of waits grown while away, and one failure just after "online"
    const { sync, time, requests, play } = setUp({ answer: () => (failures-- > 0 ? "offline" : [200, { version: 2 }]) });
    play();
    await time.advance(600 + 1_000 + 2_000 + 4_000 + 8_000);
    assert.equal(requests.length, 5);
    assert.equal(sync.retryMs, 16_000);
    sync.retryNow();
    await settle();
    assert.equal(requests.length, 6, "the retry the browser's online event asked for");
    await time.advance(1_000);
    assert.equal(requests.length, 7, "a second later, not 32 s");
    assert.ok(!sync.dirty && !sync.offline);
  });

  test("beats lost to the network are dropped, not retried: the next one counts the time", async () => {
    const { sync, time, requests } = setUp({ answer: () => undefined });
    sync.requestBeat();
    sync.requestBeat(); // another falls due while the first is away
    requests[0].fail();
    await settle();
    await time.advance(60_000);
    assert.deepEqual(requests.map((r) => r.url), [URLS.beat]);
  });
});

describe("the solve", () => {
  test("a full board is saved, then submitted on the version the save returned", async () => {
    const { game, time, requests, said, play } = setUp({
      answer: (r) => (r.url === URLS.save ? [200, { version: 5, elapsed: 60 }] : [200, { solved: true, seconds: 95 }]),
    });
    while (EMPTY.some((i) => !game.board.digits[i])) play();
    await settle();
    assert.deepEqual(requests.map((r) => r.url), [URLS.save, URLS.submit], "at once, without waiting for a quiet moment");
    assert.deepEqual(requests[1].body, { version: 5, digits: digitsString(game.board) }, "the save carried every move");
    assert.deepEqual(said.at(-1), ["finish", 95]);
    await time.advance(10_000);
    assert.equal(requests.length, 2);
  });

  test("a wrong grid gets the server's message and its new version", async () => {
    const message = "Not quite: 2 digits are wrong.";
    const { sync, game, requests, said, play } = setUp({
      answer: (r) => (r.url === URLS.save ? [200, { version: 5 }] : [200, { solved: false, version: 6, message }]),
    });
    while (EMPTY.some((i) => !game.board.digits[i])) play();
    await settle();
    assert.equal(requests.length, 2);
    assert.deepEqual(said.at(-1), ["alert", message]);
    assert.equal(sync.version, 6);
  });

  test("once solved nothing is left to submit, nor kept on this device", () => {
    const { sync, stored, play } = setUp({ answer: () => undefined });
    play();
    sync.submit = true;
    sync.finished();
    assert.ok(!sync.submit && !stored.has(KEY));
  });
});

describe("beats", () => {
  test("a beat goes only while time counts, and never from a visitor who has not moved", () => {
    assert.equal(shouldBeat({ awaitingFirstMove: false }, true), true);
    assert.equal(shouldBeat({ awaitingFirstMove: false }, false), false);
    assert.equal(shouldBeat({ awaitingFirstMove: true }, true), false);
    assert.equal(shouldBeat({ awaitingFirstMove: false, counting: true }, false, "close"), true, "a close goes when time stops");
    assert.equal(shouldBeat({ awaitingFirstMove: false, counting: false }, false, "close"), false, "nothing to close");
  });

  test("an open and a close that meet in the queue become a tick; a close is never lost to a tick", () => {
    assert.equal(combinePhases(null, "open"), "open");
    assert.equal(combinePhases("open", "close"), "tick");
    assert.equal(combinePhases("close", "open"), "tick");
    assert.equal(combinePhases("close", "tick"), "close");
    assert.equal(combinePhases("tick", "close"), "close");
  });

  test("the server hears when time starts and stops counting: open, ticks, close", async () => {
    const { sync, game, requests, time } = setUp({ answer: () => [200, { elapsed: 3 }] });
    sync.requestBeat("open");
    await settle();
    await time.advance(BEAT_MS);
    sync.requestBeat("tick");
    await settle();
    game.running = false; // hidden or paused
    sync.requestBeat("close");
    await settle();
    sync.requestBeat("close");
    await settle();
    assert.deepEqual(requests.map((r) => r.body.phase), ["open", "tick", "close"], "one close, not two");
  });

  test("leaving the page stops the clock at once, with keepalive, beside the unsaved moves", async () => {
    const { sync, requests, play } = setUp({ answer: () => undefined });
    sync.requestBeat("open");
    await settle();
    requests[0].reply(200, { elapsed: 0 });
    await settle();
    play();
    sync.leave();
    await settle();
    assert.deepEqual(requests.slice(1).map((r) => [r.url, r.body.phase, r.keepalive]), [
      [URLS.save, undefined, true],
      [URLS.beat, "close", true],
    ]);
  });

  test("a visitor sends nothing until their first move, then saves and beats", async () => {
    const { sync, requests, play, time } = setUp({ answer: (r) => [200, r.url === URLS.save ? { version: 1, elapsed: 0 } : { elapsed: 1 }] });
    sync.begin(0, null, "2026-01-01-easy");
    sync.requestBeat();
    await settle();
    assert.equal(requests.length, 0);
    play();
    await time.advance(600 + BEAT_MS);
    sync.requestBeat();
    await settle();
    assert.deepEqual(requests.map((r) => r.url), [URLS.save, URLS.beat]);
  });

  test("beats go only while time counts, and bring back the server's time", async () => {
    const { sync, game, requests, said } = setUp({ answer: () => [200, { elapsed: 33 }], running: false });
    sync.requestBeat();
    await settle();
    assert.equal(requests.length, 0);
    game.running = true;
    sync.requestBeat();
    await settle();
    assert.deepEqual(requests.map((r) => [r.url, r.body]), [[URLS.beat, { version: 1, phase: "tick" }]]);
    assert.deepEqual(said, [["elapsed", 33]]);
  });
});

describe("ticks folded into writes", () => {
  /** A page that has opened and keeps time: its open beat has gone, its ticker runs. */
  const playing = async (options) => {
    const setup = setUp(options);
    setup.sync.startTicking();
    setup.sync.requestBeat("open");
    await settle();
    return setup;
  };
  const writes = (requests) => requests.filter((r) => r.method === "POST");
  const ticks = (requests) => requests.filter((r) => r.url === URLS.beat && r.body.phase === "tick");

  test("a tick is due ten seconds after the last write, and at once when none has gone", () => {
    assert.equal(tickDueIn(0, -Infinity), 0);
    assert.equal(tickDueIn(1_000, 0), BEAT_MS - 1_000);
    assert.equal(tickDueIn(BEAT_MS, 0), 0);
    assert.equal(tickDueIn(BEAT_MS + 5, 0), 0);
  });

  test("while the player keeps moving their saves keep the clock going, and no tick is sent", async () => {
    const { requests, time, play } = await playing();
    for (let k = 0; k < 15; k += 1) {
      play();
      await time.advance(4_000);
    }
    assert.deepEqual(ticks(requests), [], "fifteen moves, four seconds apart, and not one tick");
    const saves = writes(requests).filter((r) => r.url === URLS.save);
    assert.deepEqual(saves.map((r) => r.at - saves[0].at), [0, 10_000, 20_000, 30_000, 40_000, 50_000], "a save every 10 s carries them");
  });

  test("once the player stops, a tick goes ten seconds after the last write, and every ten seconds on", async () => {
    const { requests, time, play } = await playing();
    await time.advance(3_000);
    play(); // saved 600 ms later, at 3.6 s
    await time.advance(31_000);
    assert.deepEqual(ticks(requests).map((r) => r.at), [3_600 + BEAT_MS, 3_600 + 2 * BEAT_MS, 3_600 + 3 * BEAT_MS]);
  });

  test("entries waiting when a tick falls due go as the save instead of the tick: one request", async () => {
    const { requests, time, play } = await playing();
    const before = writes(requests).length;
    play(); // saved at once: the first entry after a quiet spell
    await time.advance(9_000);
    play(); // waits for the next save, due when the tick is, 10 s after the first save
    await time.advance(2_000);
    const sent = writes(requests).slice(before);
    assert.deepEqual(sent.map((r) => r.url), [URLS.save, URLS.save]);
    assert.equal(sent[1].at - sent[0].at, BEAT_MS);
    assert.deepEqual(ticks(requests), []);
  });

  test("entries waiting for the next save go at once when the page is hidden", async () => {
    const { requests, time, play, sync } = await playing();
    play();
    await time.advance(1_000);
    play();
    await time.advance(1_000);
    const before = requests.length;
    sync.flushNow();
    await settle();
    assert.deepEqual(requests.slice(before).map((r) => [r.url, r.keepalive]), [[URLS.save, true]]);
  });

  test("before a log-out, the entries waiting for their save go and are answered first", async () => {
    const { requests, time, play, sync } = await playing({ answer: () => undefined });
    requests.forEach((r) => r.reply?.(200, { version: 1, elapsed: 0 }));
    await settle();
    play();
    await time.advance(1_000);
    requests.at(-1).reply(200, { version: 2, elapsed: 1 });
    await settle();
    play(); // waits for the next save, 10 s on
    let done = false;
    const leaving = sync.saveBeforeLeaving().then(() => { done = true; });
    await settle();
    assert.equal(requests.at(-1).url, URLS.save, "sent at once");
    await time.advance(100);
    assert.ok(!done, "it waits for the answer");
    requests.at(-1).reply(200, { version: 3, elapsed: 2 });
    await time.advance(100);
    await leaving;
    assert.ok(!sync.dirty);
  });

  test("a tick that waited behind a save does not follow it: the save told the server", async () => {
    // A refresh (a read, not a sign of life) is in flight when the tick falls due, so the tick waits.
    const { sync, requests, time, play } = setUp({ answer: (r) => (r.url === URLS.state ? undefined : [200, { version: 2, elapsed: 9 }]) });
    sync.startTicking();
    sync.requestRefresh();
    await time.advance(BEAT_MS);
    assert.equal(sync.beat, "tick");
    play();
    await time.advance(600); // the save is due too, and goes first
    requests[0].reply(200, serverState(1));
    await time.advance(1_000);
    assert.deepEqual(requests.map((r) => r.url), [URLS.state, URLS.save]);
  });

  test("hidden or paused, no tick goes; the close and the open say when time stopped and started again", async () => {
    const { sync, game, requests, time } = await playing();
    game.running = false;
    sync.requestBeat("close");
    await time.advance(60_000);
    game.running = true;
    sync.requestBeat("open");
    await time.advance(BEAT_MS);
    assert.deepEqual(writes(requests).map((r) => [r.at, r.body.phase]), [[0, "open"], [0, "close"], [60_000, "open"], [60_000 + BEAT_MS, "tick"]]);
  });

  test("a tab hidden and then closed sends one close, not one for each event", async () => {
    const { sync, game, requests, time } = await playing();
    game.running = false;
    sync.requestBeat("close"); // visibilitychange, hidden
    sync.leave(); // pagehide
    await time.advance(BEAT_MS);
    assert.deepEqual(writes(requests).map((r) => r.body.phase), ["open", "close"]);
  });

  test("over a five-minute solve the server never waits more than ten seconds for a sign of life while time counts", async () => {
    const { sync, game, requests, time, play } = await playing({
      answer: (r) => [200, r.url === URLS.submit ? { solved: true, seconds: 300 } : { version: 2, elapsed: 0 }],
    });
    let seed = 7;
    const think = () => { // 1 to 12 s, from a fixed seed (a linear congruential generator)
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return 1_000 + (seed % 11_000);
    };
    const counting = []; // [from, to]: the stretches in which time counts
    let from = 0;
    for (let k = 0; EMPTY.some((i) => !game.board.digits[i]); k += 1) {
      await time.advance(think());
      if (k === 20) { // the tab is hidden for half a minute
        counting.push([from, time.now]);
        game.running = false;
        sync.requestBeat("close");
        await time.advance(30_000);
        game.running = true;
        from = time.now;
        sync.requestBeat("open");
      }
      play();
    }
    await time.advance(1_000);
    counting.push([from, requests.at(-1).at]);
    assert.equal(requests.at(-1).url, URLS.submit);
    const moments = writes(requests).map((r) => r.at);
    for (const [start, end] of counting) {
      const inside = [start, ...moments.filter((t) => t > start && t <= end)];
      const longest = Math.max(...inside.slice(1).map((t, k) => t - inside[k]));
      assert.ok(longest <= BEAT_MS, `a silence of ${longest} ms between ${start} and ${end}`);
    }
    const counted = counting.reduce((sum, [start, end]) => sum + end - start, 0);
    const everyTenSeconds = Math.floor(counted / BEAT_MS);
    assert.ok(ticks(requests).length < everyTenSeconds / 2, `${ticks(requests).length} ticks, against ${everyTenSeconds} a tick every 10 s would send`);
  });
});

describe("the local copy", () => {
  const keep = (stored, board, version, base = null, times = []) => stored.set(KEY, JSON.stringify({
    version, givens: GIVENS, digits: digitsString(board), corner: board.corner, centre: board.centre,
    colours: board.colours, base: base && { digits: digitsString(base), corner: base.corner, centre: base.centre, colours: base.colours },
    times,
  }));

  test("moves kept on this device come back onto the version they were built on, and go to the server", async () => {
    const { sync, game, requests, stored } = setUp();
    keep(stored, applyDigit(game.board, [0], 4), 1);
    const restored = (await sync.restore(server(game.board))).board;
    assert.equal(restored.digits[0], 4);
    game.board = restored;
    sync.pump();
    await settle();
    assert.equal(requests[0].body.digits, digitsString(restored));
  });

  test("a copy without its base that the server has moved on from is dropped, and so is one with nothing new", async () => {
    const { sync, game, stored } = setUp();
    keep(stored, applyDigit(game.board, [0], 4), 0);
    assert.equal(await sync.restore(server(game.board)), null);
    assert.ok(!stored.has(KEY) && !sync.dirty);
    keep(stored, game.board, 1);
    assert.equal(await sync.restore(server(game.board)), null);
    assert.ok(!stored.has(KEY));
    stored.set(KEY, "{not json");
    assert.equal(await sync.restore(server(game.board)), null);
  });

  test("moves kept offline go on top of what another device saved since, the newer entry winning a shared cell", async () => {
    const { sync, game, stored } = setUp();
    const base = game.board;
    const mine = applyDigit(applyDigit(base, [0], 4), [1], 8); // r1c1 and r1c2, an hour ago
    const anHourAgo = Date.now() - 3_600_000;
    keep(stored, mine, 0, base, [[0, anHourAgo], [1, anHourAgo]]);
    const theirs = applyDigit(base, [1], 2); // r1c2, saved a minute ago on the other device
    const restored = await sync.restore(server(theirs, Date.now() - 60_000));
    assert.equal(restored.board.digits[0], 4, "a cell only this device changed is kept");
    assert.equal(restored.board.digits[1], 2, "the newer entry wins the shared cell");
    assert.match(restored.message, /r1c2/);
    assert.ok(sync.dirty, "and the result goes to the server");
  });
});

describe("a guest's moves from before the page knew them", () => {
  const VISITOR = "sudoku:visitor:2026-01-01-easy";
  const copyOf = (board, version) => JSON.stringify({
    version, givens: GIVENS, digits: digitsString(board), corner: board.corner, centre: board.centre,
  });

  test("a guest takes the moves this device kept for them as a visitor", async () => {
    const { sync, game, stored } = setUp();
    stored.set(VISITOR, copyOf(applyDigit(game.board, [0], 4), 1));
    sync.begin(1, 7, "2026-01-01-easy", true);
    assert.ok(!stored.has(VISITOR));
    assert.equal((await sync.restore(server(game.board))).board.digits[0], 4);
  });

  test("a signed-up player never takes a visitor's moves", async () => {
    const { sync, game, stored } = setUp();
    stored.set(VISITOR, copyOf(applyDigit(game.board, [0], 4), 1));
    sync.begin(1, 7, "2026-01-01-easy", false);
    assert.ok(stored.has(VISITOR));
    assert.equal(await sync.restore(server(game.board)), null);
  });
});

describe("requests", () => {
  test("writes are JSON with the CSRF token; reading the state is a GET with the token (the worker's session mark)", async () => {
    const { sync, requests } = setUp();
    await sync.send(URLS.save, { version: 1 });
    await sync.send(URLS.state);
    assert.equal(requests[0].method, "POST");
    assert.equal(requests[0].headers["X-CSRFToken"], "token");
    assert.equal(requests[0].headers["Content-Type"], "application/json");
    assert.equal(requests[1].method, "GET");
    assert.equal(requests[1].body, undefined);
    assert.equal(requests[1].headers["X-CSRFToken"], "token");
  });

  test("loading waits out the network, then gives the player's position", async () => {
    let online = false;
    const { sync, time, said } = setUp({ answer: () => (online ? [200, { ...serverState(3), player: { id: 7, name: "ada" } }] : "offline") });
    const loading = sync.load();
    await settle();
    assert.deepEqual(said, [["status", "loading", "Loading your game…"], ["status", "offline", "Offline — will retry"]]);
    online = true;
    await time.advance(1000);
    const state = await loading;
    assert.equal(state.player.name, "ada");
    assert.equal(state.version, 3);
    assert.equal(state.started, true);
    assert.deepEqual(said.at(-1), ["status", "idle", ""]);
  });

  test("loading says whether the player has started this puzzle", async () => {
    const fresh = setUp({ answer: () => [200, { ...serverState(0), started: false, player: { id: 7, name: "ada" } }] });
    assert.equal((await fresh.sync.load()).started, false);
  });

  test("loading tells a visitor from a refusal", async () => {
    const visitor = await setUp({ answer: () => [200, { ...serverState(0), started: false, player: null }] }).sync.load();
    assert.equal(visitor.player, null);
    assert.equal(visitor.version, 0);
    assert.equal(visitor.started, false);
    assert.deepEqual(visitor.messages, []);
    const told = await setUp({ answer: () => [200, { ...serverState(0), player: { id: 7, name: "ada" }, messages: ["Moved 1 puzzle"] }] }).sync.load();
    assert.deepEqual(told.messages, ["Moved 1 puzzle"]);
    const refused = setUp({ answer: () => [403, null] });
    assert.equal(await refused.sync.load(), null);
    assert.ok(refused.sync.stopped);
  });

  test("hints and the results go through the queue's own requests", async () => {
    let reply = (r) => (r.url === URLS.hint ? [200, { stage: 1 }] : [200, "<section></section>"]);
    const { sync, game, requests } = setUp({ answer: (r) => reply(r) });
    const hint = await sync.hint(game.board);
    assert.deepEqual(hint, { status: 200, data: { stage: 1 } });
    assert.deepEqual(requests[0].body, { digits: digitsString(game.board), corner: game.board.corner, centre: game.board.centre });
    assert.equal(await sync.results(), "<section></section>");
    assert.equal(requests[1].headers.Accept, "text/html");
    reply = () => [200, "<login page>", true];
    assert.equal(await sync.results(), null, "logged out");
    reply = () => "offline";
    assert.equal(await sync.results(), null);
  });
});

describe("the record of play", () => {
  const wireOf = (moves) => moves.map(([, layer, cells]) => [layer, cells]);

  test("a save carries the moves made since the last, oldest first, with their ages as it goes; none, no key", async () => {
    const { time, requests, change, game } = setUp();
    change(toggleMarks(game.board, [0, 1], 5, "corner"));
    await time.advance(250);
    change(toggleMarks(game.board, [0], 5, "corner"));
    change(game.board); // nothing changed: nothing recorded
    await time.advance(600);
    assert.deepEqual(requests[0].body.moves, [[850, "c", [[0, "5"], [1, "5"]]], [600, "c", [[0, ""]]]]);
    const other = setUp();
    other.sync.changed(false, [0], []);
    other.sync.flushNow();
    await settle();
    assert.ok(!("moves" in other.requests[0].body));
  });

  test("moves go only once a write carrying them is answered 200; a failed one's go again, aged", async () => {
    let online = false;
    const { sync, time, requests, stored, play } = setUp({ answer: () => (online ? [200, { version: 2 }] : "offline") });
    play();
    await time.advance(600);
    assert.deepEqual(requests[0].body.moves, [[600, "d", [[0, 4]]]]);
    assert.equal(sync.record.moves.length, 1, "kept for the retry");
    assert.deepEqual(JSON.parse(stored.get(KEY)).moves.map((m) => m.slice(1)), [["d", [[0, 4]]]], "and on this device");
    online = true;
    await time.advance(1000);
    assert.deepEqual(requests[1].body.moves, [[1600, "d", [[0, 4]]]]);
    assert.deepEqual(sync.record.moves, []);
    assert.ok(!stored.has(KEY));
  });

  test("moves made while a save is away stay for the next, and a refused write keeps them all", async () => {
    const { sync, time, requests, play } = setUp({ answer: () => undefined });
    play();
    await time.advance(600);
    play();
    requests[0].reply(200, { version: 2 });
    await settle();
    assert.deepEqual(wireOf(sync.record.moves), [["d", [[1, 8]]]]);
    await time.advance(SAVE_EVERY_MS);
    requests[1].reply(400, { error: "bad moves" });
    await settle();
    assert.deepEqual(wireOf(sync.record.moves), [["d", [[1, 8]]]]);
  });

  test("on a 409 the moves go with the rebased save, with one more where the merge changed the board", async () => {
    const later = Date.now() + 60_000;
    let saves = 0;
    const { sync, time, requests, game, play } = setUp({
      answer: () => (saves++ === 0 ? [409, { error: "stale", state: serverState(7, { digits: "0" + "2".padEnd(80, "0"), saved_at: later }) }] : undefined),
    });
    play(); // r1c1 = 4
    play(); // r1c2 = 8, which the other device made a 2 later on: the 2 stays
    await time.advance(600);
    assert.equal(requests[1].body.version, 7);
    assert.deepEqual(requests[1].body.moves.map((m) => m.slice(1)), [["d", [[0, 4]]], ["d", [[1, 8]]], ["d", [[1, 2]]]]);
    const server = parseState(serverState(7, { digits: "0" + "2".padEnd(80, "0") })).board;
    const replayed = applyMoves(server, requests[1].body.moves.map((m) => m.slice(1)));
    assert.deepEqual(digitsString(replayed), digitsString(game.board), "the moves take the server's board to the one sent");
    assert.ok(sync.record.moves.length === 3);
  });

  test("a write carries at most 500 moves; the rest go in the next, at once", async () => {
    const { sync, time, requests, game, change } = setUp();
    const made = [];
    for (let k = 0; k < MOVES_PER_WRITE + 20; k += 1) {
      const next = toggleMarks(game.board, [0], 1 + (k % 9), "centre");
      made.push(...movesBetween(game.board, next));
      change(next);
    }
    await time.advance(600);
    assert.deepEqual(requests.map((r) => r.body.moves.length), [500, 20]);
    assert.deepEqual(wireOf(requests.flatMap((r) => r.body.moves)), made, "every move once, in order");
    assert.deepEqual(sync.record.moves, []);
    assert.equal(requests[1].body.digits, requests[0].body.digits);
  });

  test("a move kept offline for more than a day goes as a day old, the limit the server takes", async () => {
    const { sync, requests, T0 } = setUp();
    sync.record.add([["d", [[0, 4]]]], T0 - 3 * 86_400_000);
    sync.record.add([["d", [[1, 8]]]], T0 - 1000);
    sync.dirty = sync.due = true;
    sync.pump();
    await settle();
    assert.deepEqual(requests[0].body.moves.map((m) => m[0]), [86_400_000, 1000]);
  });

  test("the submit carries any moves no save has, and a 200 forgets them", async () => {
    const { sync, requests, game, play, T0 } = setUp({
      answer: (r) => (r.url === URLS.save ? [200, { version: 5 }] : [200, { solved: false, version: 6, message: "Not quite" }]),
    });
    while (EMPTY.some((i) => !game.board.digits[i])) play();
    await settle();
    assert.deepEqual(requests.map((r) => r.url), [URLS.save, URLS.submit]);
    assert.ok(!("moves" in requests[1].body), "the save carried them all");
    sync.record.add([["k", [[2, "1"]]]], T0);
    sync.submit = true;
    sync.pump();
    await settle();
    assert.deepEqual(requests[2].body.moves, [[0, "k", [[2, "1"]]]]);
    assert.deepEqual(sync.record.moves, []);
  });

  test("the device's copy keeps the unsent moves with their times, and a reload sends them", async () => {
    const first = setUp({ answer: () => "offline" });
    first.play();
    first.play();
    await first.time.advance(600);
    const kept = first.stored.get(KEY);
    const { sync, game, requests, stored, time } = setUp();
    stored.set(KEY, kept);
    await time.advance(5000);
    game.board = (await sync.restore(server(game.board))).board;
    assert.deepEqual(wireOf(sync.record.moves), [["d", [[0, 4]]], ["d", [[1, 8]]]]);
    sync.pump();
    await settle();
    const ages = requests[0].body.moves.map((m) => m[0]);
    assert.ok(ages[0] >= 5000 && ages[0] === ages[1], `made together, a while before this write: ${ages}`);
  });

  test("a copy kept before moves were recorded comes back as one move a layer", async () => {
    const { sync, game, stored } = setUp();
    const board = toggleMarks(applyDigit(game.board, [0], 4), [1], 3, "colour");
    stored.set(KEY, JSON.stringify({
      version: 1, givens: GIVENS, digits: digitsString(board), corner: board.corner, centre: board.centre, colours: board.colours,
    }));
    await sync.restore(server(game.board));
    assert.deepEqual(wireOf(sync.record.moves), [["d", [[0, 4]]], ["k", [[1, "3"]]]]);
  });

  test("when the server says the attempt's record is full, the write goes again without moves, and so do the next", async () => {
    const { sync, time, requests, said, play } = setUp({
      answer: (r) => (r.body.moves ? [413, { error: "The record of play for this puzzle is full", record_full: true }] : [200, { version: 2 }]),
    });
    play();
    await time.advance(600);
    assert.deepEqual(requests.map((r) => "moves" in r.body), [true, false]);
    assert.equal(sync.version, 2);
    assert.ok(!said.some(([, state]) => state === "error"));
    play();
    await time.advance(SAVE_EVERY_MS);
    assert.deepEqual(requests.map((r) => "moves" in r.body), [true, false, false]);
    assert.deepEqual(sync.record.moves, []);
  });

  test("the server's board taking over forgets moves made on the one it replaced, and so does the solve", async () => {
    const { sync, play } = setUp({ answer: () => undefined });
    play();
    sync.adopt(serverState(9), "");
    assert.deepEqual(sync.record.moves, []);
    play();
    sync.finished();
    assert.deepEqual(sync.record.moves, []);
  });
});
