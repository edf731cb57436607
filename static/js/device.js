// The copy of a player's unsaved moves kept on this device, so they survive a closed tab or a long
// time offline. One entry a player and puzzle in the browser's storage (a visitor's under
// "visitor"), written by the sync queue (sync.js) after every change and cleared once the server
// has everything. It holds the board, the server version it was built on, that version's board
// and when each cell was last changed here: enough to put the moves back on top of a newer board
// the server got from another device meanwhile (merge.js); and the record of play's moves no write
// has carried yet (sync.js). Storage is passed in, so Node's test runner drives it without a
// browser (tests/js/sync.test.mjs).

import { digitsString, parseState, sameEntries } from "./sudoku.js";

// merge.js loads with the first merge (a 409, or a copy built on a version the server has moved
// on from): rare, so the page does not download it up front.
export const merging = () => import("./merge.js");

// The browser's storage, reached only when used: a private window may refuse even that.
export const browserStorage = {
  getItem: (key) => localStorage.getItem(key),
  setItem: (key, value) => localStorage.setItem(key, value),
  removeItem: (key) => localStorage.removeItem(key),
  keys: () => Object.keys(localStorage),
};

/** A board as the server's save API and the stored copy both take it. */
export function wire(board) {
  return { digits: digitsString(board), corner: board.corner, centre: board.centre, colours: board.colours };
}

export class DeviceCopy {
  constructor(storage = browserStorage) {
    this.storage = storage;
    this.key = null; // per player and puzzle, once the server has said who is playing
  }

  /**
   * Whose copy this is: `playerId` (null for a visitor) at `puzzle`. A guest was this device's
   * visitor until their first write made them one, and the page kept their later unsaved moves
   * under the visitor's key: those are the guest's. A signed-up player adopts nothing.
   */
  open(playerId, puzzle, guest = false) {
    this.key = `sudoku:${playerId ?? "visitor"}:${puzzle}`;
    if (!guest) return;
    const visitorKey = `sudoku:visitor:${puzzle}`;
    try {
      const copy = this.storage.getItem(visitorKey);
      if (copy === null) return;
      if (this.storage.getItem(this.key) === null) this.storage.setItem(this.key, copy);
      this.storage.removeItem(visitorKey);
    } catch {
      // Private mode: nothing was kept.
    }
  }

  /**
   * Keep `board` with the server `version` it builds on, that version's board (`base`), the edits'
   * `times` and the unsent `moves`.
   */
  write(board, version, base, times, moves = []) {
    try {
      this.storage.setItem(this.key, JSON.stringify({
        version, givens: board.givens.join(""), ...wire(board), base: base ? wire(base) : null, times: [...times], moves,
      }));
    } catch {
      // Private mode or a full store: the server copy still works.
    }
  }

  /** Forget the copy: the server has everything. */
  clear() {
    try {
      this.storage.removeItem(this.key);
    } catch {
      // Nothing to do.
    }
  }

  /**
   * The unsaved board kept for the server's `server` (parseState's shape) at `version`, or null:
   * {board, message, times, moves}. Built on the version the server still has, it holds moves the server
   * never got; if the server has moved on since, they are put on top of its newer board, as for a
   * 409 (message: the cells both changed). A copy of another puzzle, of a version without its
   * board, or with nothing the server lacks is forgotten.
   */
  async take(server, version) {
    let copy;
    try {
      copy = JSON.parse(this.storage.getItem(this.key) || "null");
    } catch {
      copy = null;
    }
    const givens = server.board.givens.join("");
    if (!copy || copy.givens !== givens || (copy.version !== version && !copy.base)) {
      if (copy) this.clear();
      return null;
    }
    let board = parseState({ ...copy, givens }).board;
    let message = "";
    const times = new Map(Array.isArray(copy.times) ? copy.times : []);
    if (copy.version !== version) {
      const { conflictMessage, mergeBoards } = await merging();
      const base = parseState({ ...copy.base, givens }).board;
      const merged = mergeBoards(base, server.board, board, { localTimes: times, serverSavedAt: server.savedAt });
      board = merged.board;
      message = conflictMessage(merged.conflicts);
    }
    if (sameEntries(board, server.board)) {
      this.clear();
      return null;
    }
    return { board, message, times, moves: Array.isArray(copy.moves) ? copy.moves : [] };
  }
}
