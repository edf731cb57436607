// The service worker's code (static/js/sw.js), run in a context of its own with fake caches and a
// fake network: which requests it answers and how, what a session's kept position becomes after
// each write, that a position is only ever given to the session that fetched it, and that a
// reader's pages are shown offline to that reader only, with the time they were kept.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import vm from "node:vm";

const CODE = readFileSync(new URL("../../static/js/sw.js", import.meta.url), "utf8");
const ORIGIN = "https://sudoku.test";
const STATE = `${ORIGIN}/api/daily/2026-11-26/easy/state/`;
const SAVE = `${ORIGIN}/api/daily/2026-11-26/easy/save/`;

/** Cache Storage in memory (each answer's text and headers): caches.open makes a cache, as the browser's does. */
class FakeCaches {
  constructor() {
    this.stores = new Map();
  }
  key(request) {
    return typeof request === "string" ? request : request.url;
  }
  async open(name) {
    if (!this.stores.has(name)) this.stores.set(name, new Map());
    const store = this.stores.get(name);
    return {
      put: async (request, response) => void store.set(this.key(request), [await response.text(), [...response.headers]]),
      match: async (request) => (store.has(this.key(request)) ? answer(store.get(this.key(request))) : undefined),
      delete: async (request) => store.delete(this.key(request)),
      keys: async () => [...store.keys()].map((url) => new Request(url)),
    };
  }
  async has(name) {
    return this.stores.has(name);
  }
  async delete(name) {
    return this.stores.delete(name);
  }
  async keys() {
    return [...this.stores.keys()];
  }
  async match(request, { cacheName } = {}) {
    const names = cacheName ? [cacheName] : [...this.stores.keys()];
    for (const name of names) {
      const store = this.stores.get(name);
      if (store?.has(this.key(request))) return answer(store.get(this.key(request)));
    }
    return undefined;
  }
}

const answer = ([text, headers]) => new Response(text, { headers });

/** The worker's functions, with `network(request)` as its fetch ("offline" throws). */
function worker(network = () => "offline", setTimeout = globalThis.setTimeout) {
  const caches = new FakeCaches();
  const fetch = async (request) => {
    const answer = await network(request);
    if (answer === "offline") throw new TypeError("Failed to fetch");
    return answer;
  };
  const context = vm.createContext({
    self: {}, caches, fetch, crypto, Headers, Request, Response, URL, TextEncoder, console, Date, Math, JSON, Promise, setTimeout,
  });
  vm.runInContext(CODE, context);
  return { sw: context, caches };
}

const json = (data, status = 200) => new Response(JSON.stringify(data), { status, headers: { "Content-Type": "application/json" } });
const stateOf = (token) => new Request(STATE, { headers: { "X-CSRFToken": token } });
const player = { id: 7, name: "ada", guest: false };
const position = { givens: "0".repeat(81), digits: "4".padEnd(81, "0"), corner: [], centre: [], colours: [], version: 3, elapsed: 12, player, started: true };

describe("pages", () => {
  const PAGE = `${ORIGIN}/daily/2026-11-26/easy/`;
  const names = { static: "sudoku-static-1", pages: "sudoku-pages-1" };

  test("a kept puzzle page is shown when the network hangs, and the network's late answer updates it", async () => {
    let answer;
    const hanging = new Promise((resolve) => { answer = resolve; });
    const waits = [];
    const { sw, caches } = worker(() => hanging, (fn, ms) => { waits.push(ms); fn(); });
    await (await caches.open(names.pages)).put(PAGE, new Response("kept"));
    const later = [];
    const shown = await sw.page(new Request(PAGE), names, "puzzle-page", (work) => later.push(work));
    assert.equal(await shown.text(), "kept");
    assert.deepEqual(waits, [4_000]);
    answer(new Response("fresh"));
    await Promise.all(later);
    assert.equal(await (await caches.match(PAGE, { cacheName: names.pages })).text(), "fresh");
  });

  test("without a kept copy the network is awaited, and a failure shows the offline page", async () => {
    const { sw, caches } = worker(() => "offline", () => assert.fail("no wait without a copy"));
    sw.self.OFFLINE = { offline: `${ORIGIN}/offline/` };
    await (await caches.open(names.static)).put(`${ORIGIN}/offline/`, new Response("offline page"));
    const shown = await sw.page(new Request(PAGE), names, "puzzle-page");
    assert.equal(await shown.text(), "offline page");
  });
});

describe("routes", () => {
  test("the worker answers pages, the state, the board's writes and static files, and nothing else", () => {
    const { sw } = worker();
    const route = (method, path, mode = "cors") => sw.routeOf(method, path, mode, "/static/");
    assert.equal(route("GET", "/daily/2026-11-26/easy/", "navigate"), "puzzle-page");
    assert.equal(route("GET", "/archive/", "navigate"), "page");
    for (const path of ["/", "/stats/", "/learn/", "/learn/x-wing/"]) assert.equal(route("GET", path, "navigate"), "reader-page");
    for (const path of ["/learn/x-wing/practice/", "/account/", "/leagues/", "/daily/2026-11-26/easy/results/"]) {
      assert.equal(route("GET", path, "navigate"), "page", path);
    }
    assert.equal(route("GET", "/api/daily/2026-11-26/easy/state/"), "state");
    assert.equal(route("POST", "/api/daily/2026-11-26/easy/save/"), "write");
    assert.equal(route("POST", "/api/daily/2026-11-26/easy/hint/"), null); // a hint needs the server
    assert.equal(route("GET", "/static/js/board.js"), "static");
    assert.equal(route("GET", "/api/settings/"), null);
    assert.equal(route("POST", "/accounts/logout/", "navigate"), "accounts-post");
    assert.equal(route("POST", "/leagues/3/leave/", "navigate"), null);
    assert.equal(route("PUT", "/api/daily/2026-11-26/easy/save/"), null);
  });

  test("a new version deletes the old version's caches, not the positions, nor anybody else's", () => {
    const { sw } = worker();
    const names = sw.cacheNames("v2");
    const keep = [names.static, names.pages];
    assert.equal(sw.isStale("sudoku-static-v1", keep), true);
    assert.equal(sw.isStale("sudoku-pages-v1", keep), true);
    assert.equal(sw.isStale("sudoku-session-abc", keep), false);
    assert.equal(sw.isStale("sudoku-reader-abc", keep), true); // its pages name the old files: fetched again
    assert.equal(sw.isStale("sudoku-static-v2", keep), false);
    assert.equal(sw.isStale("someone-elses", keep), false);
  });
});

describe("the kept position", () => {
  test("is the player's answer without the messages, and a visitor's is not kept", () => {
    const { sw } = worker();
    // (Its objects are of the worker's own realm: compared as JSON.)
    assert.deepEqual(JSON.parse(JSON.stringify(sw.keptState({ ...position, messages: ["Merged"] }))), position);
    assert.equal(sw.keptState({ ...position, player: null }), null);
    assert.equal(sw.keptState(null), null);
  });

  test("follows a save to exactly the board it carried", () => {
    const { sw } = worker();
    const body = { version: 3, digits: "45".padEnd(81, "0"), corner: ["1"], centre: ["2"], colours: ["3"], moves: [] };
    const next = sw.stateAfterWrite(position, "save", body, 200, { version: 4, elapsed: 20 }, 1000);
    assert.equal(next.digits, body.digits);
    assert.deepEqual([next.corner, next.centre, next.colours], [["1"], ["2"], ["3"]]);
    assert.deepEqual([next.version, next.elapsed, next.saved_at, next.hint_stage], [4, 20, 1000, 0]);
    assert.equal(next.player, player);
  });

  test("takes the server's state from a conflict or a solve, and keeps the player", () => {
    const { sw } = worker();
    const server = { ...position, digits: "9".padEnd(81, "0"), version: 9, player: undefined };
    assert.equal(sw.stateAfterWrite(position, "save", {}, 409, { state: server }, 0).digits[0], "9");
    const solved = sw.stateAfterWrite(position, "submit", { digits: "1" }, 200, { solved: true, state: { ...server, solved: true } }, 0);
    assert.deepEqual([solved.solved, solved.player], [true, player]);
    const wrong = sw.stateAfterWrite(position, "submit", { digits: "2".repeat(81) }, 200, { solved: false, version: 4 }, 0);
    assert.deepEqual([wrong.digits, wrong.version], ["2".repeat(81), 4]);
  });

  test("counts checks and time, and is left alone by a refusal or nothing kept", () => {
    const { sw } = worker();
    assert.equal(sw.stateAfterWrite(position, "check", {}, 200, { wrong: [], checks: 2 }, 0).checks, 2);
    assert.equal(sw.stateAfterWrite(position, "beat", {}, 200, { elapsed: 30 }, 0).elapsed, 30);
    assert.equal(sw.stateAfterWrite(position, "save", {}, 403, { error: "x" }, 0), position);
    assert.equal(sw.stateAfterWrite(null, "save", {}, 200, { version: 4 }, 0), null);
  });
});

describe("sessions", () => {
  test("a position fetched online is given offline to the same session only", async () => {
    let online = true;
    const { sw } = worker(() => (online ? json(position) : "offline"));
    await sw.state(stateOf("token-a"));
    online = false;
    assert.equal((await (await sw.state(stateOf("token-a"))).json()).digits[0], "4");
    await assert.rejects(sw.state(stateOf("token-b")), TypeError); // another session: the network's failure
    await assert.rejects(sw.state(stateOf("")), TypeError); // no token: nobody's
  });

  test("a new session's answer deletes the previous session's positions, and a visitor's every one", async () => {
    let answer = position;
    const { sw, caches } = worker(() => json(answer));
    await sw.state(stateOf("token-a"));
    assert.equal((await caches.keys()).filter((n) => n.startsWith("sudoku-session-")).length, 1);
    await sw.state(stateOf("token-b"));
    const [only] = (await caches.keys()).filter((n) => n.startsWith("sudoku-session-"));
    assert.equal(only, sw.sessionCache(await sw.markOf("token-b")));
    answer = { ...position, player: null };
    await sw.state(stateOf("token-b"));
    assert.deepEqual((await caches.keys()).filter((n) => n.startsWith("sudoku-session-")), []);
  });

  test("a save brings the session's position up to date; after a log-out nothing is made again", async () => {
    const { sw, caches } = worker((request) => (request.url === STATE ? json(position) : json({ version: 4, elapsed: 15 })));
    await sw.state(stateOf("token-a"));
    const save = () => new Request(SAVE, {
      method: "POST", headers: { "X-CSRFToken": "token-a" }, body: JSON.stringify({ version: 3, digits: "48".padEnd(81, "0") }),
    });
    await sw.write(save());
    const name = sw.sessionCache(await sw.markOf("token-a"));
    const kept = await (await caches.match(STATE, { cacheName: name })).json();
    assert.deepEqual([kept.digits.slice(0, 2), kept.version], ["48", 4]);
    await sw.forgetSessions(); // the log-out
    await sw.write(save()); // the page's last save, answered after it
    assert.equal(await caches.has(name), false);
  });

  test("a write with no position kept fetches it once, for its own session", async () => {
    const asked = [];
    const { sw, caches } = worker((request) => {
      asked.push([request.method, new URL(request.url).pathname.split("/").at(-2), request.headers.get("X-CSRFToken")]);
      return request.url === STATE ? json(position) : json({ version: 4, elapsed: 15 });
    });
    const save = () => new Request(SAVE, {
      method: "POST", headers: { "X-CSRFToken": "guest-token" }, body: JSON.stringify({ version: 3, digits: "4".padEnd(81, "0") }),
    });
    const later = [];
    await sw.write(save(), (promise) => later.push(promise));
    await Promise.all(later);
    await sw.write(save(), (promise) => later.push(promise)); // kept now: brought up to date, not fetched
    await Promise.all(later);
    assert.deepEqual(asked, [["POST", "save", "guest-token"], ["GET", "state", "guest-token"], ["POST", "save", "guest-token"]]);
    const kept = await caches.match(STATE, { cacheName: sw.sessionCache(await sw.markOf("guest-token")) });
    assert.equal((await kept.json()).version, 4);
  });

  test("the mark is a hash of the token, never the token", async () => {
    const { sw } = worker();
    const mark = await sw.markOf("secret-token");
    assert.match(mark, /^[0-9a-f]{16}$/);
    assert.equal(await sw.markOf("secret-token"), mark);
    assert.notEqual(await sw.markOf("other-token"), mark);
    assert.equal(await sw.markOf(""), "");
  });
});

describe("a reader's pages", () => {
  const HOME = `${ORIGIN}/`;
  const STATS = `${ORIGIN}/stats/`;
  const names = { static: "sudoku-static-1", pages: "sudoku-pages-1" };
  const drawn = (reader, text = `stats of ${reader}`, headers = {}) =>
    new Response(`<body><main id="main" class="x"><h1>${text}</h1></main></body>`, {
      headers: { "Content-Type": "text/html", ...(reader === undefined ? {} : { "Sudoku-Reader": reader }), ...headers },
    });
  const readers = async (caches) => (await caches.keys()).filter((n) => n.startsWith("sudoku-reader-"));
  const offlinePage = async (sw, caches) => {
    sw.self.OFFLINE = { offline: `${ORIGIN}/offline/` };
    await (await caches.open(names.static)).put(`${ORIGIN}/offline/`, new Response("offline page"));
  };

  test("a page opened online is shown offline to its reader, with a notice of when it was kept", async () => {
    let network = () => drawn("ada1");
    const { sw, caches } = worker((request) => network(request));
    await offlinePage(sw, caches);
    const online = await sw.page(new Request(STATS), names, "reader-page");
    assert.equal(online.headers.get("Sudoku-Reader"), "ada1");
    assert.deepEqual(await readers(caches), ["sudoku-reader-ada1"]);
    network = () => "offline";
    const shown = await (await sw.page(new Request(STATS), names, "reader-page")).text();
    assert.match(shown, /<main id="main" class="x"><p class="notice notice-warning offline-copy" role="status">/);
    assert.match(shown, /<strong>Offline copy<\/strong> of this page as it was at \d\d:\d\d today\./);
    assert.match(shown, /<h1>stats of ada1<\/h1>/);
    // A page never opened here: the offline page.
    assert.equal(await (await sw.page(new Request(HOME), names, "reader-page")).text(), "offline page");
  });

  test("another reader's page deletes the first one's; nobody's deletes them and the positions", async () => {
    let reader = "ada1";
    const { sw, caches } = worker((request) => (request.url === STATE ? json(position) : drawn(reader)));
    await sw.page(new Request(STATS), names, "reader-page");
    reader = "bob1"; // another account logged in here (or ada again: a new session)
    await sw.page(new Request(HOME), names, "reader-page");
    assert.deepEqual(await readers(caches), ["sudoku-reader-bob1"]);
    assert.equal(await caches.match(STATS, { cacheName: "sudoku-reader-bob1" }), undefined);
    await sw.state(stateOf("token-b"));
    reader = ""; // logged out where this worker did not see it (another device ended the session)
    await sw.page(new Request(HOME), names, "reader-page");
    assert.deepEqual((await caches.keys()).filter((n) => n.startsWith("sudoku-session-") || n.startsWith("sudoku-reader-")), []);
  });

  test("a form posted to /accounts/ and a visitor's position forget every reader's pages", async () => {
    let visitor = false;
    const { sw, caches } = worker((request) => (request.url === STATE ? json({ ...position, player: visitor ? null : player }) : drawn("ada1")));
    await sw.page(new Request(STATS), names, "reader-page");
    await sw.forgetSessions(); // the log-out, log-in or sign-up
    assert.deepEqual(await readers(caches), []);
    await sw.page(new Request(STATS), names, "reader-page");
    visitor = true;
    await sw.state(stateOf("token-a")); // the server says nobody is logged in
    assert.deepEqual(await readers(caches), []);
  });

  test("an answer that left before a log-out is not kept after it", async () => {
    let arrive;
    const { sw, caches } = worker(() => new Promise((resolve) => { arrive = resolve; }));
    const shown = sw.page(new Request(STATS), names, "reader-page");
    await new Promise((resolve) => setImmediate(resolve));
    await sw.forgetSessions();
    arrive(drawn("ada1"));
    await shown;
    assert.deepEqual(await readers(caches), []);
  });

  test("a page shown once (no-store), a redirect and an answer naming no reader are not kept", async () => {
    let network = () => drawn("ada1", "signed in", { "Cache-Control": "no-store" });
    const { sw, caches } = worker(() => network());
    await sw.page(new Request(HOME), names, "reader-page");
    assert.equal(await caches.match(HOME, { cacheName: "sudoku-reader-ada1" }), undefined);
    network = () => drawn(undefined, "an error page");
    await sw.page(new Request(HOME), names, "reader-page");
    network = () => Response.redirect(`${ORIGIN}/accounts/login/`, 302);
    await sw.page(new Request(STATS), names, "reader-page");
    assert.deepEqual([await caches.match(HOME), await caches.match(STATS)], [undefined, undefined]);
  });

  test("offline, a copy is shown only while one reader's pages are kept", async () => {
    const { sw, caches } = worker();
    await (await caches.open("sudoku-reader-ada1")).put(STATS, drawn("ada1"));
    assert.ok(await sw.readerCopy(STATS));
    await (await caches.open("sudoku-reader-bob1")).put(STATS, drawn("bob1"));
    assert.equal(await sw.readerCopy(STATS), undefined); // whose? neither is shown
  });

  test("the whole guide is kept with the home page: the 50 newest pages", async () => {
    const { sw, caches } = worker((request) => drawn("ada1", request.url));
    await sw.page(new Request(HOME), names, "reader-page");
    for (let n = 0; n < 49; n += 1) await sw.page(new Request(`${ORIGIN}/learn/t${n}/`), names, "reader-page");
    assert.ok(await caches.match(HOME, { cacheName: "sudoku-reader-ada1" }));
    await sw.page(new Request(`${ORIGIN}/learn/t49/`), names, "reader-page");
    assert.equal(await caches.match(HOME, { cacheName: "sudoku-reader-ada1" }), undefined); // the oldest goes
    assert.equal((await (await caches.open("sudoku-reader-ada1")).keys()).length, 50);
  });

  test("the notice says when the copy was kept, in words", () => {
    const { sw } = worker();
    const now = new Date(2026, 10, 29, 18, 30).getTime();
    assert.equal(sw.keptWhen(new Date(2026, 10, 29, 9, 5).getTime(), now), "09:05 today");
    assert.equal(sw.keptWhen(new Date(2026, 10, 28, 23, 59).getTime(), now), "23:59 yesterday");
    assert.equal(sw.keptWhen(new Date(2026, 10, 20, 14, 0).getTime(), now), "Friday 20 November, 14:00");
  });
});
