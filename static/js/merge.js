// Two devices, one board: when this device's save is refused because another saved first, the
// board takes the server's newer position and puts this device's unsaved entries back on top.
// Pure (boards in, a board out), so tests/js/merge.test.mjs runs it without a page or a server.
//
// Three boards meet: `base`, the last one the server confirmed to this device; `server`, the newer
// one it holds now; and `local`, this device's. Whatever only one device changed since `base` is
// kept. A cell's digit both changed differently is a real clash: the newer entry wins and the
// player is told. Notes and colours are sets of marks, merged mark by mark, so they never clash:
// that matters because placing a digit takes it out of twenty peers' notes, and two devices doing
// so in one row would otherwise "both change" cells neither player touched.

import { DIGITS, PEERS, colOf, rowOf } from "./sudoku.js";

const MARK_LAYERS = ["corner", "centre", "colours"];
const NOTE_LAYERS = ["corner", "centre"];
const NAMES_SHOWN = 4; // A longer list is cut short: "r1c1, r1c2, r1c3 and 5 other cells".

/** "r3c4": cell i by row and column, counted from 1, as sudoku players write cells. */
export function cellName(i) {
  return `r${rowOf(i) + 1}c${colOf(i) + 1}`;
}

/** A time as epoch ms: a number as it is, a date string parsed (the wire may send ISO), else null. */
function epochMs(time) {
  if (typeof time === "number") return Number.isFinite(time) ? time : null;
  if (typeof time === "string") {
    const ms = Date.parse(time);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
}

/** One cell's marks, three ways: each mark either device added or took off since base counts. */
function mergeMarks(base, server, local) {
  if (local === base) return server;
  if (server === base) return local;
  return [...DIGITS].filter((d) => {
    const inServer = server.includes(d);
    return inServer !== base.includes(d) ? inServer : local.includes(d);
  }).join("");
}

/**
 * The server's newer board with this device's unsaved entries on top: {board, conflicts}.
 * conflicts: [{cell, kept: "this" | "other"}] for each cell whose digit both devices changed, to
 * different digits; the newer one is kept (this device's if localTimes.get(cell) is later than
 * serverSavedAt, the other's otherwise, and when either time is missing). Givens never take a digit.
 * Boards of another puzzle have nothing to give each other: the server's board comes back as it is.
 */
export function mergeBoards(base, server, local, { localTimes = new Map(), serverSavedAt = null } = {}) {
  const givens = server.givens.join("");
  if (base.givens.join("") !== givens || local.givens.join("") !== givens) return { board: server, conflicts: [] };
  const savedAt = epochMs(serverSavedAt);
  const localIsNewer = (i) => {
    const changedAt = epochMs(localTimes.get(i));
    return changedAt !== null && savedAt !== null && changedAt > savedAt;
  };

  const conflicts = [];
  const digits = server.digits.map((s, i) => {
    const [b, l] = [base.digits[i], local.digits[i]];
    if (server.givens[i]) return 0;
    if (l === b) return s;
    if (s === b || s === l) return l;
    const kept = localIsNewer(i) ? "this" : "other";
    conflicts.push({ cell: i, kept });
    return kept === "this" ? l : s;
  });
  const board = { givens: server.givens, digits };
  for (const layer of MARK_LAYERS) {
    board[layer] = server[layer].map((s, i) => mergeMarks(base[layer][i], s, local[layer][i]));
  }
  restoreLostDigitsNotes(board, base, server, local, conflicts);
  return { board, conflicts };
}

/**
 * A digit that lost a clash took itself out of its peers' notes on its own device; where nothing
 * left on the merged board explains that (no peer shows the digit, and the winning device kept the
 * note), the note comes back. Changes `board` in place: it is still being built.
 */
function restoreLostDigitsNotes(board, base, server, local, conflicts) {
  const shows = (j, d) => (board.givens[j] || board.digits[j]) === d;
  for (const { cell, kept } of conflicts) {
    const [winner, loser] = kept === "this" ? [local, server] : [server, local];
    const lost = loser.digits[cell];
    if (!lost || lost === board.digits[cell]) continue;
    const mark = String(lost);
    for (const j of PEERS[cell]) {
      if (PEERS[j].some((k) => shows(k, lost))) continue;
      for (const layer of NOTE_LAYERS) {
        const notes = board[layer][j];
        if (!notes.includes(mark) && base[layer][j].includes(mark) && winner[layer][j].includes(mark)) {
          board[layer][j] = [...DIGITS].filter((d) => d === mark || notes.includes(d)).join("");
        }
      }
    }
  }
}

/** What the player reads about the clashes, or "" for none: "r3c4 was changed on both devices; the newer entry was kept." */
export function conflictMessage(conflicts) {
  if (!conflicts.length) return "";
  const names = [...conflicts].sort((a, b) => a.cell - b.cell).map(({ cell }) => cellName(cell));
  if (names.length === 1) return `${names[0]} was changed on both devices; the newer entry was kept.`;
  const shown = names.length > NAMES_SHOWN ? names.slice(0, NAMES_SHOWN - 1) : names.slice(0, -1);
  const rest = names.length > NAMES_SHOWN ? `${names.length - shown.length} other cells` : names[names.length - 1];
  return `${shown.join(", ")} and ${rest} were changed on both devices; the newer entries were kept.`;
}
