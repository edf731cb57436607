// The offline page's list of the puzzles this device keeps (static/js/offline.js).

import assert from "node:assert/strict";
import { test } from "node:test";

import { puzzleEntry, puzzleList } from "../../static/js/offline.js";

test("a kept puzzle page is named by its difficulty and its day", () => {
  assert.deepEqual(puzzleEntry("/daily/2026-11-26/easy/"), {
    path: "/daily/2026-11-26/easy/", day: "2026-11-26", tier: "easy", label: "Easy, Thursday 26 November 2026",
  });
  assert.equal(puzzleEntry("/offline/"), null);
  assert.equal(puzzleEntry("/daily/2026-11-26/easy/results/"), null);
});

test("the list is the newest day first, easiest first within a day, each page once", () => {
  const paths = ["/daily/2026-11-25/hard/", "/daily/2026-11-26/extreme/", "/daily/2026-11-26/easy/", "/daily/2026-11-26/easy/", "/stats/"];
  assert.deepEqual(puzzleList(paths).map((e) => e.path), ["/daily/2026-11-26/easy/", "/daily/2026-11-26/extreme/", "/daily/2026-11-25/hard/"]);
});
