// The sync queue's rules (sync.js), pure: which request goes next, and when.
//
// The clock: time counts while a page of the puzzle is open, visible and unpaused, a pause up to 3 min.
// The page tells the server when that starts ("open") and stops ("close"), and beats ("tick")
// in between; the server counts the time between them (puzzles/play/attempts.py). Every write (a
// save, a submit, a beat) is such a sign of life, so a tick goes only after BEAT_MS without one:
// while the player moves, their saves keep the clock going and no tick is sent.
//
// How often a save goes: the first entry after a quiet spell is saved at once (SAVE_DELAY_MS after
// the burst), and entries that follow within SAVE_EVERY_MS of that save wait for the next one, so
// a player at play sends about one write every BEAT_MS, saves and ticks together. Each entry is
// kept on this device the moment it is made, every move carries its own time, and the waiting
// entries go at once when the page is hidden or left, when the grid is full, or at the tick that
// would have gone anyway: the wait loses no move and no second of the clock, only requests.
//
// `sync` below is the queue (sync.js SyncQueue), read, never changed: tests/js/sync.test.mjs
// checks each rule on its own and through the queue.

const SAVE_DELAY_MS = 600; // Debounce: a burst of entries becomes one save.
export const BEAT_MS = 10_000; // The server counts gaps between beats up to 3 min as play time.
// At play, a save at most this often: the clock's own pace. The page may ask for another
// (data-save-every, from settings.BOARD_SAVE_EVERY_SECONDS).
export const SAVE_EVERY_MS = BEAT_MS;
const RETRY_MAX_MS = 30_000;

/**
 * Whether a heartbeat goes now: only while time counts (a "close" when it stops), and never from
 * a visitor who has not moved yet. A visitor's first write makes them a guest on the server, so
 * merely opening a puzzle (or leaving it open) makes nobody.
 */
export function shouldBeat(sync, running, phase = "tick") {
  if (sync.awaitingFirstMove) return false;
  return phase === "close" ? sync.counting : running;
}

/**
 * The beat to send when `next` is asked for while `waiting` has not gone yet: an open and a close
 * that meet become a tick (the server counts on), and a close stays a close until it has gone.
 */
export function combinePhases(waiting, next) {
  if (!waiting || waiting === next) return next;
  if (waiting === "tick") return next;
  if (next === "tick") return waiting;
  return "tick"; // open then close, or close then open
}

/**
 * How long until a tick is due, `lastWriteAt` being when the last write left (all in ms): BEAT_MS
 * after it, so the server never goes longer than BEAT_MS without a sign of life while time counts.
 */
export function tickDueIn(now, lastWriteAt) {
  return Math.max(0, lastWriteAt + BEAT_MS - now);
}

/** The most urgent job waiting: saving first, because submit and beat carry its version. */
export function nextJob(sync) {
  if (sync.beat === "close" && !sync.dirty) return "beat"; // the time counted stops now, not after a refresh
  if (sync.dirty && sync.due) return "save";
  if (sync.submit && !sync.dirty) return "submit";
  if (sync.beat) return "beat";
  if (sync.refresh && !sync.dirty) return "refresh";
  return null;
}

/**
 * How long a save waits, asked at `now` for changes unsaved since `dirtySince`, the last save
 * having left at `lastSaveAt` (all in ms): a quiet moment after the last change, so a burst of
 * entries is one request, and no sooner than `every` after the last save; but never more than
 * `every` after the first unsaved change, however fast the entries keep coming.
 */
export function saveDelay(now, dirtySince, lastSaveAt, every = SAVE_EVERY_MS) {
  const at = Math.max(now + SAVE_DELAY_MS, lastSaveAt + every);
  return Math.max(0, Math.min(at, dirtySince + every) - now);
}

/** The wait before the next try after waiting `ms`: 1 s, then twice as long, up to RETRY_MAX_MS. */
export function nextRetryMs(ms) {
  return Math.min(RETRY_MAX_MS, ms ? ms * 2 : 1000);
}
