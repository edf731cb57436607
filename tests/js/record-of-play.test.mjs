// The record of play's buffer on this device (static/js/record-of-play.js). The queue's use of it,
// what a save or a submit carries and when, is tested with the queue (tests/js/sync.test.mjs).

import assert from "node:assert/strict";
import { test } from "node:test";

import { MOVES_PER_WRITE, RecordOfPlay } from "../../static/js/record-of-play.js";
import { applyDigit, parseState } from "../../static/js/sudoku.js";

const GIVENS = "003020600900305001001806400008102900700000008006708200002609500800203009005010300";

test("moves are kept in order, each never earlier than the one before", () => {
  const record = new RecordOfPlay();
  record.add([["d", [[0, 4]]], ["c", [[1, ""]]]], 5_000);
  record.add([["d", [[1, 8]]]], 4_000); // a clock set back: kept as made at 5 s
  assert.deepEqual(record.moves, [[5_000, "d", [[0, 4]]], [5_000, "c", [[1, ""]]], [5_000, "d", [[1, 8]]]]);
});

test("a write carries the oldest moves with their ages, at most a day old and never negative", () => {
  const record = new RecordOfPlay();
  record.add([["d", [[0, 4]]]], 0);
  record.add([["d", [[1, 8]]]], 10_000);
  const { batch, body } = record.outgoing(2 * 86_400_000);
  assert.equal(batch.length, 2);
  assert.deepEqual(body.moves.map((m) => m[0]), [86_400_000, 86_400_000]);
  assert.deepEqual(record.outgoing(5_000).body.moves.map((m) => m[0]), [5_000, 0]);
  assert.deepEqual(new RecordOfPlay().outgoing(0), { batch: [], body: {} });
});

test("a write carries at most MOVES_PER_WRITE; what it delivered is dropped, the rest kept", () => {
  const record = new RecordOfPlay();
  for (let k = 0; k < MOVES_PER_WRITE + 3; k += 1) record.add([["d", [[k % 81, 1]]]], k);
  const { batch } = record.outgoing(0);
  assert.equal(batch.length, MOVES_PER_WRITE);
  record.delivered(batch);
  assert.deepEqual(record.moves.map((m) => m[0]), [MOVES_PER_WRITE, MOVES_PER_WRITE + 1, MOVES_PER_WRITE + 2]);
});

test("a 413 saying the record is full drops the moves and keeps no more; any other answer is not that", () => {
  const record = new RecordOfPlay();
  record.add([["d", [[0, 4]]]], 0);
  assert.equal(record.refusedAsFull(413, { error: "too big" }), false);
  assert.equal(record.refusedAsFull(400, { record_full: true }), false);
  assert.equal(record.moves.length, 1);
  assert.equal(record.refusedAsFull(413, { record_full: true }), true);
  record.add([["d", [[1, 8]]]], 1);
  assert.deepEqual(record.moves, []);
});

test("after a merge, one move takes the moves' end to the merged board", () => {
  const server = parseState({ givens: GIVENS }).board;
  const record = new RecordOfPlay();
  record.add([["d", [[0, 4]]]], 1_000);
  const merged = applyDigit(applyDigit(server, [0], 4), [1], 8); // the other device's 8 came in
  record.settle(server, merged, 2_000);
  assert.deepEqual(record.moves, [[1_000, "d", [[0, 4]]], [2_000, "d", [[1, 8]]]]);
  record.reset();
  assert.deepEqual(record.moves, []);
});
