// The record of play on this device: every change the player makes, kept as moves (sudoku.js
// movesBetween) with the time it was made, until a save or the submit that carries them is
// answered 200. A write carries the oldest MOVES_PER_WRITE with their ages (how long before the
// write each was made); the server stamps the write's arrival (puzzles/record_of_play/moves.py). When a merge
// changes the board, a move saying so follows this device's own, so the moves made on the
// server's board always end at the board sent. Once the server says the attempt's record is full
// (413), writes go on without moves.
//
// The sync queue (sync.js) owns one and decides when it is written; this module only keeps the
// moves. Times are passed in (epoch ms), so Node's test runner drives it (tests/js/sync.test.mjs).

import { applyMoves, movesBetween } from "./sudoku.js";

export const MOVES_PER_WRITE = 500; // the server's limit a write (puzzles/record_of_play/moves.py)
const MAX_AGE_MS = 24 * 3600 * 1000; // and a move's oldest age there: an older one is sent as that old

export class RecordOfPlay {
  constructor() {
    this.moves = []; // [epoch ms, layer, [[cell, value], ...]]: moves no write has carried yet, oldest first
    this.full = false; // the server's record of play for this attempt takes no more moves
  }

  /** Keep `moves` (movesBetween's shape) as made at `at` (epoch ms; never before the last kept). */
  add(moves, at) {
    if (this.full) return;
    const time = Math.max(at, this.moves.at(-1)?.[0] ?? 0);
    for (const [layer, cells] of moves) this.moves.push([time, layer, cells]);
  }

  /** Put the unsent moves back to `moves` (a copy kept on this device), or forget them all. */
  reset(moves = []) {
    this.moves = moves;
  }

  /**
   * The board became `board` by this device's unsaved moves made on the server's `serverBoard`,
   * merged: a move made at `at` takes those moves' end to `board` where the merge made it differ.
   */
  settle(serverBoard, board, at) {
    const end = applyMoves(serverBoard, this.moves.map(([, layer, cells]) => [layer, cells]));
    this.add(movesBetween(end, board), at);
  }

  /** The moves the next write carries (the oldest MOVES_PER_WRITE) and their wire form, ages as of `now`. */
  outgoing(now) {
    const batch = this.moves.slice(0, MOVES_PER_WRITE);
    const wired = batch.map(([at, layer, cells]) => [Math.min(MAX_AGE_MS, Math.max(0, now - at)), layer, cells]);
    return { batch, body: wired.length ? { moves: wired } : {} };
  }

  /** 413: the attempt's record is full; true if that is what `data` says (the write goes again without moves). */
  refusedAsFull(status, data) {
    if (status !== 413 || !data?.record_full) return false;
    this.full = true;
    this.moves = [];
    return true;
  }

  /** A write that carried `batch` was stored: those moves are on the record. */
  delivered(batch) {
    const sent = new Set(batch);
    this.moves = this.moves.filter((move) => !sent.has(move));
  }
}
