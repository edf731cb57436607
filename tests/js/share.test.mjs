// The share buttons' one decision (static/js/share.js deliver): the share sheet where there is
// one, the clipboard otherwise or when the sheet is refused; nothing here needs a page.

import assert from "node:assert/strict";
import { test } from "node:test";

import { MESSAGES, deliver, hasShareSheet } from "../../static/js/share.js";

const DATA = { title: "Daily Sudoku · Easy · 22 November 2026", text: "Daily Sudoku\n🟩\nhttps://example/" };

function fakeNavigator({ share, canShare, writeText } = {}) {
  const calls = { shared: [], copied: [] };
  const nav = {
    clipboard: {
      writeText: async (text) => {
        calls.copied.push(text);
        if (writeText) await writeText(text);
      },
    },
  };
  if (share) {
    nav.share = async (data) => {
      calls.shared.push(data);
      await share(data);
    };
  }
  if (canShare) nav.canShare = canShare;
  return { nav, calls };
}

function refusal(name) {
  return () => {
    const error = new Error("refused");
    error.name = name;
    throw error;
  };
}

test("Share uses the share sheet where there is one, and copies nothing", async () => {
  const { nav, calls } = fakeNavigator({ share: () => {} });
  assert.equal(await deliver("sheet", DATA, nav), "shared");
  assert.deepEqual(calls.shared, [DATA]);
  assert.deepEqual(calls.copied, []);
});

test("closing the sheet is no failure: nothing is copied and nothing said", async () => {
  const { nav, calls } = fakeNavigator({ share: refusal("AbortError") });
  assert.equal(await deliver("sheet", DATA, nav), "cancelled");
  assert.deepEqual(calls.copied, []);
  assert.equal(MESSAGES.cancelled, "");
});

test("a sheet that refuses, or cannot take the data, leaves the text copied instead", async () => {
  const refused = fakeNavigator({ share: refusal("NotAllowedError") });
  assert.equal(await deliver("sheet", DATA, refused.nav), "copied");
  assert.deepEqual(refused.calls.copied, [DATA.text]);
  const unable = fakeNavigator({ share: () => {}, canShare: () => false });
  assert.equal(await deliver("sheet", DATA, unable.nav), "copied");
  assert.deepEqual(unable.calls.shared, []);
});

test("Share without a share sheet copies", async () => {
  const { nav, calls } = fakeNavigator();
  assert.equal(hasShareSheet(nav), false);
  assert.equal(await deliver("sheet", DATA, nav), "copied");
  assert.deepEqual(calls.copied, [DATA.text]);
});

test("Copy copies even where there is a share sheet", async () => {
  const { nav, calls } = fakeNavigator({ share: () => {} });
  assert.equal(hasShareSheet(nav), true);
  assert.equal(await deliver("copy", DATA, nav), "copied");
  assert.deepEqual(calls.shared, []);
});

test("a clipboard that says no, or none at all, is refused, never thrown", async () => {
  const { nav } = fakeNavigator({ writeText: refusal("NotAllowedError") });
  assert.equal(await deliver("copy", DATA, nav), "refused");
  assert.equal(await deliver("copy", DATA, {}), "refused");
  assert.match(MESSAGES.refused, /selected/);
});
