// The service worker's push reminders (static/js/sw.js): a push shows the notification the server
// sent, and a click on it focuses a tab of the site or opens today's puzzles. The worker runs in a
// context of its own with its listeners caught, a fake registration and fake window clients.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import vm from "node:vm";

const CODE = readFileSync(new URL("../../static/js/sw.js", import.meta.url), "utf8");
const ORIGIN = "https://sudoku.test";

/** A window client: a tab at `url`, which records being focused and navigated. */
function tab(url) {
  const client = { url, focused: 0, went: [] };
  client.focus = async () => {
    client.focused += 1;
    return client;
  };
  client.navigate = async (to) => {
    client.went.push(to);
    client.url = to;
    return client;
  };
  return client;
}

/** The worker with its listeners, the notifications it showed and the windows it opened. */
function worker(tabs = []) {
  const listeners = {};
  const shown = [];
  const opened = [];
  const self = {
    OFFLINE: { version: "v1", precache: [], offline: "/offline/", static: "/static/" },
    location: new URL(`${ORIGIN}/sw.js`),
    addEventListener: (type, listener) => void (listeners[type] = listener),
    registration: { showNotification: async (title, options) => void shown.push({ title, options }) },
    clients: {
      matchAll: async (query) => {
        assert.deepEqual({ ...query }, { type: "window", includeUncontrolled: true });
        return tabs;
      },
      openWindow: async (url) => void opened.push(url),
    },
  };
  const context = vm.createContext({ self, caches: {}, fetch: () => {}, Request, Response, URL, JSON, Promise, console });
  vm.runInContext(CODE, context);
  /** Dispatch an event of `type` with `fields`; resolves when its waitUntil promise has. */
  const dispatch = async (type, fields) => {
    let waited = Promise.resolve();
    listeners[type]({ ...fields, waitUntil: (promise) => void (waited = promise) });
    await waited;
  };
  return { dispatch, shown, opened, listeners };
}

const pushOf = (text) => ({ data: text === null ? null : { text: () => text } });
const clickOf = (data) => {
  const notification = { data, closed: false, close: () => void (notification.closed = true) };
  return { notification };
};

describe("push", () => {
  test("shows the server's title, line, icon and tag, and keeps the url for the click", async () => {
    const w = worker();
    const payload = { title: "Today's sudoku", body: "Today's puzzles: Easy, Hard. Your streak: 3 days.", icon: "/static/icons/icon-192.abc.png", url: "/", tag: "daily-reminder" };
    await w.dispatch("push", pushOf(JSON.stringify(payload)));
    assert.equal(w.shown.length, 1);
    const { title, options } = w.shown[0];
    assert.equal(title, "Today's sudoku");
    assert.equal(options.body, payload.body);
    assert.equal(options.icon, payload.icon);
    assert.equal(options.tag, "daily-reminder");
    assert.equal(options.data.url, `${ORIGIN}/`);
  });

  test("still shows a plain reminder for an empty or garbled message, with the site's icon", async () => {
    for (const text of [null, "", "not json", "null", JSON.stringify({ title: 7, url: ["x"] })]) {
      const w = worker();
      await w.dispatch("push", pushOf(text));
      assert.equal(w.shown.length, 1, String(text));
      assert.equal(w.shown[0].title, "Today's sudoku");
      assert.equal(w.shown[0].options.icon, "/static/icons/icon-192.png");
      assert.equal(w.shown[0].options.data.url, `${ORIGIN}/`);
    }
  });

  test("never keeps a url of another origin", async () => {
    const w = worker();
    await w.dispatch("push", pushOf(JSON.stringify({ title: "x", url: "https://evil.test/phish" })));
    assert.equal(w.shown[0].options.data.url, `${ORIGIN}/`);
  });
});

describe("notificationclick", () => {
  test("opens today's puzzles when no tab of the site is open", async () => {
    const other = tab("https://elsewhere.test/");
    const w = worker([other]);
    const click = clickOf({ url: `${ORIGIN}/` });
    await w.dispatch("notificationclick", click);
    assert.equal(click.notification.closed, true);
    assert.deepEqual(w.opened, [`${ORIGIN}/`]);
    assert.equal(other.focused, 0);
  });

  test("focuses an open tab of the site and takes it to today's puzzles, opening none", async () => {
    const stats = tab(`${ORIGIN}/stats/`);
    const w = worker([tab("https://elsewhere.test/"), stats]);
    await w.dispatch("notificationclick", clickOf({ url: `${ORIGIN}/` }));
    assert.equal(stats.focused, 1);
    assert.deepEqual(stats.went, [`${ORIGIN}/`]);
    assert.deepEqual(w.opened, []);
  });

  test("a tab already at the url is only focused", async () => {
    const home = tab(`${ORIGIN}/`);
    const w = worker([home]);
    await w.dispatch("notificationclick", clickOf({ url: `${ORIGIN}/` }));
    assert.deepEqual([home.focused, home.went.length, w.opened.length], [1, 0, 0]);
  });

  test("a notification without data opens the site's front page", async () => {
    const w = worker();
    await w.dispatch("notificationclick", clickOf(undefined));
    assert.deepEqual(w.opened, [`${ORIGIN}/`]);
  });
});
