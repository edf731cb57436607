// The push option's flows (static/js/push.js) with a fake Notification, push manager and fetch:
// the permission is asked, a refusal is said plainly and nothing is subscribed or sent; a grant
// subscribes with the site's key and sends the subscription with the CSRF token.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { deviceNote, keyBytes, pushSupported, subscribeDevice, unsubscribeDevice } from "../../static/js/push.js";

const KEY = "BPcMbnWQL5GOYX_5LKZXT6sLmHiMsJSiEvIFvfcDvX7IZ9qqtq68onpTPEYmyxSQNiH7UD_98AUcQ12kBoxz_0s";

/** A subscription as the browser's: toJSON(), endpoint, unsubscribe(). */
function subscription() {
  const s = { endpoint: "https://push.example/abc", unsubscribed: false };
  s.toJSON = () => ({ endpoint: s.endpoint, expirationTime: null, keys: { p256dh: "p", auth: "a" } });
  s.unsubscribe = async () => void (s.unsubscribed = true);
  return s;
}

function fakes({ permission = "granted", status = 201, answer = { devices: 1 }, subscribeFails = false } = {}) {
  const calls = { asked: 0, subscribed: [], sent: [] };
  const current = subscription();
  const pushManager = {
    subscribe: async (options) => {
      calls.subscribed.push(options);
      if (subscribeFails) throw new Error("AbortError");
      return current;
    },
    getSubscription: async () => current,
  };
  return {
    calls,
    current,
    notification: { requestPermission: async () => ((calls.asked += 1), permission) },
    registration: async () => ({ pushManager }),
    fetcher: async (url, init) => {
      calls.sent.push({ url, ...init, body: JSON.parse(init.body) });
      return new Response(JSON.stringify(answer), { status });
    },
    key: KEY,
    url: "/account/reminders/push/",
    token: "tok",
  };
}

describe("the push option", () => {
  test("the key is the 65 bytes of an uncompressed P-256 point", () => {
    const bytes = keyBytes(KEY);
    assert.equal(bytes.length, 65);
    assert.equal(bytes[0], 4);
  });

  test("is offered only where the browser has a worker, PushManager and Notification", () => {
    const full = { navigator: { serviceWorker: {} }, PushManager: class {}, Notification: class {} };
    assert.equal(pushSupported(full), true);
    assert.equal(pushSupported({ ...full, PushManager: undefined, navigator: full.navigator }), true); // "in", not truthiness
    assert.equal(pushSupported({ navigator: full.navigator, Notification: full.Notification }), false);
    assert.equal(pushSupported({ ...full, navigator: {} }), false);
  });

  test("a refusal says so plainly and subscribes nothing, sends nothing", async () => {
    for (const permission of ["denied", "default"]) {
      const f = fakes({ permission });
      const result = await subscribeDevice(f);
      assert.equal(result.ok, false);
      assert.match(result.message, /blocked for this site/);
      assert.equal(f.calls.asked, 1);
      assert.deepEqual([f.calls.subscribed.length, f.calls.sent.length], [0, 0]);
    }
  });

  test("a grant subscribes with the site's key and sends the subscription with the CSRF token", async () => {
    const f = fakes();
    const result = await subscribeDevice(f);
    assert.equal(result.ok, true);
    assert.equal(f.calls.subscribed[0].userVisibleOnly, true);
    assert.deepEqual([...f.calls.subscribed[0].applicationServerKey], [...keyBytes(KEY)]);
    const [sent] = f.calls.sent;
    assert.equal(sent.url, "/account/reminders/push/");
    assert.equal(sent.method, "POST");
    assert.equal(sent.headers["X-CSRFToken"], "tok");
    assert.equal(sent.headers["Content-Type"], "application/json");
    assert.deepEqual(sent.body.keys, { p256dh: "p", auth: "a" });
    assert.equal(f.current.unsubscribed, false);
  });

  test("a subscription the server refuses is undone, and its reason shown", async () => {
    const f = fakes({ status: 409, answer: { error: "Notifications go to at most 5 devices." } });
    const result = await subscribeDevice(f);
    assert.deepEqual([result.ok, result.message], [false, "Notifications go to at most 5 devices."]);
    assert.equal(f.current.unsubscribed, true);
  });

  test("a browser that cannot subscribe says so, and nothing is sent", async () => {
    const f = fakes({ subscribeFails: true });
    const result = await subscribeDevice(f);
    assert.equal(result.ok, false);
    assert.match(result.message, /could not subscribe/);
    assert.equal(f.calls.sent.length, 0);
  });

  test("on load, says whether this browser is one that gets the notifications, asking nothing", () => {
    assert.equal(deviceNote({ checked: false, permission: "default", subscribed: false }), "");
    assert.match(deviceNote({ checked: true, permission: "denied", subscribed: true }), /blocked/);
    assert.match(deviceNote({ checked: true, permission: "default", subscribed: false }), /no notifications yet/);
    assert.match(deviceNote({ checked: true, permission: "granted", subscribed: false }), /no notifications yet/);
    assert.equal(deviceNote({ checked: true, permission: "granted", subscribed: true }), "This browser gets the notifications.");
  });

  test("unticking forgets this browser on the server and unsubscribes it", async () => {
    const f = fakes({ status: 200, answer: { removed: true } });
    const result = await unsubscribeDevice({ ...f, url: "/account/reminders/push/remove/" });
    assert.equal(result.ok, true);
    assert.deepEqual(f.calls.sent.map((s) => [s.url, s.body]), [["/account/reminders/push/remove/", { endpoint: "https://push.example/abc" }]]);
    assert.equal(f.current.unsubscribed, true);
  });
});
