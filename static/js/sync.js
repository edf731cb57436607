// Talking to the server: the only module that does, and the only one that changes the sync state.
//
// The server owns the truth (version, elapsed time, solved). Every change is saved through a
// queue that sends one request at a time, in order of what matters most (sync-rules.js: which
// goes next, and when; sync-jobs.js: the requests and what their answers do). When the server
// says another tab or device saved first (409), the page takes the server's newer board and puts
// its own unsaved entries back on top (merge.js, loaded with the first merge), so neither device's moves are lost; where both
// changed one cell, the newer entry wins and the player is told. Unsaved moves are also kept on
// this device (device.js), with the board they were made on, so they survive a closed tab or a
// long time offline and are merged the same way when the server has moved on meanwhile.
//
// The record of play: every change is also kept as moves (record-of-play.js), and each save or
// submit carries the oldest of them; the queue says when they were made, written and stored.
//
// The queue decides; what its answers do to the page goes through its host (see SyncQueue), and
// fetch, timers, the two kinds of time and storage are passed in, so Node's test runner drives it without a
// browser (tests/js/sync.test.mjs).

import { browserStorage, DeviceCopy, merging } from "./device.js";
import { RecordOfPlay } from "./record-of-play.js";
import { JOBS } from "./sync-jobs.js";
import { BEAT_MS, combinePhases, nextJob, nextRetryMs, saveDelay, SAVE_EVERY_MS, shouldBeat, tickDueIn } from "./sync-rules.js";
import { digitsString, parseState, sameEntries } from "./sudoku.js";

const REFRESH_EVERY_MS = 5_000;
const BACK_ONLINE_MS = 3_000;

/** A failure worth retrying: no network, or the server briefly unwell (5xx). */
export class Transient extends Error {}

/**
 * The page's one line to the server. `urls`: {save, beat, submit, state, hint, results}.
 * `host` is the game as the queue sees it:
 *   board()                          the board on screen
 *   canPlay(), solved(), running()   the position has loaded; the puzzle is solved; time counts
 *   status(state, text)              the save line ("loading", "saving", "saved", "offline" ...)
 *   elapsed(seconds)                 the server's play time
 *   adopt(server, notice)            put the server's position (parseState's shape) on screen
 *   rebase(board, notice)            the server's newer position with this device's unsaved entries on top
 *   finish(seconds)                  the solve is recorded
 *   alert(text)                      a full grid that is not the solution
 */
export class SyncQueue {
  constructor({
    urls, host, csrfToken = () => "", fetch = (...args) => globalThis.fetch(...args),
    timers = globalThis, now = () => performance.now(), dateNow = () => Date.now(), storage = browserStorage,
    saveEveryMs = SAVE_EVERY_MS,
  }) {
    // now: monotonic ms, for waits (debounce, retries); dateNow: epoch ms, when a move was made.
    Object.assign(this, { urls, host, csrfToken, fetch, timers, now, dateNow, saveEveryMs });
    this.copy = new DeviceCopy(storage); // unsaved moves kept on this device, per player once the server says who
    this.version = 0; // the server's version of the position the board builds on
    this.base = null; // that version's board: what the server has, to tell this device's own changes from it
    this.times = new Map(); // cell -> when this device last changed it (epoch ms), for merging
    this.record = new RecordOfPlay(); // the moves no write has carried yet
    this.counting = false; // an "open" has gone and no "close" since: the server's clock runs
    this.awaitingFirstMove = false; // a visitor who has not moved: no beats (see shouldBeat)
    this.dirty = false; // unsaved changes exist
    this.due = false; // the debounce has passed (or a submit needs the save now)
    this.submit = false;
    this.beat = null; // the heartbeat waiting to go: "open", "tick" or "close"
    this.refresh = false;
    this.busy = false; // one request in flight
    this.debounce = null;
    this.retry = null;
    this.retryMs = 0;
    this.offline = false;
    this.stopped = false; // the server refused (logged out, bad input): no more requests
    this.dirtySince = 0;
    this.lastRefresh = 0;
    this.lastWriteAt = -Infinity; // when the last write (a sign of life to the server's clock) left
    this.lastSaveAt = -Infinity; // when the last save left
    this.ticker = null; // the timer of the next tick, once startTicking() has run
    this.shown = "idle"; // the save line's state as last shown (the page starts with "idle")
  }

  /**
   * The player's position and who they are, retried while the network is away; null if the
   * server refused. A visitor gets the empty position with `player: null` (their first write
   * makes them a guest). `started` is false while the player has no attempt at this puzzle
   * (reading the state starts none).
   */
  async load() {
    this.show("loading", "Loading your game…");
    for (let wait = 1000; ; wait = nextRetryMs(wait)) {
      try {
        const { status, data } = await this.send(this.urls.state);
        if (status === 200 && data?.givens) {
          this.show("idle");
          return {
            ...parseState(data), player: data.player ?? null, started: data.started !== false, messages: data.messages ?? [],
          };
        }
        if (status === 403) this.refuse(status, data);
        else this.show("error", `Could not load your game: ${data?.error || `error ${status}`}. Reload the page to try again.`);
        return null;
      } catch (error) {
        if (!(error instanceof Transient)) throw error;
        this.show("offline", "Offline — will retry");
        await new Promise((resolve) => this.timers.setTimeout(resolve, wait));
      }
    }
  }

  /**
   * The player's position has loaded: saves build on `version`, unsaved moves are kept per player
   * (a visitor's under "visitor"). A visitor sends nothing until their first move.
   */
  begin(version, playerId, puzzle, guest = false, base = null) {
    this.copy.open(playerId, puzzle, guest);
    this.version = version;
    this.base = base;
    this.awaitingFirstMove = playerId == null;
  }

  // ---- What the page asks for. ----

  /**
   * The board changed (in `cells`, as `moves`): keep it on this device, save it soon, and submit it
   * once it is full. A visitor's first move starts the server's clock with the save that makes them a guest.
   */
  changed(full, cells = [], moves = []) {
    const at = this.dateNow();
    for (const i of cells) this.times.set(i, at);
    this.record.add(moves, at);
    if (this.awaitingFirstMove) this.counting = true;
    this.awaitingFirstMove = false;
    this.writeLocalCopy();
    this.scheduleSave();
    // A full grid is always submitted: the server is the judge, and a wrong grid gets its
    // "Not quite" message from there (the conflicts are already marked on the board).
    if (full) {
      this.submit = true;
      this.due = true; // The submit goes after a save of the same grid, without waiting.
      this.pump();
    }
  }

  /** Ask for a save after a quiet moment, at most one every saveEveryMs (see saveDelay). */
  scheduleSave() {
    if (!this.dirty) this.dirtySince = this.now();
    this.dirty = true;
    this.timers.clearTimeout(this.debounce);
    this.debounce = this.timers.setTimeout(() => {
      this.due = true;
      this.pump();
    }, saveDelay(this.now(), this.dirtySince, this.lastSaveAt, this.saveEveryMs));
  }

  /**
   * Tell the server's clock: "open" when time starts to count (the page opens, shows or resumes),
   * "tick" while it counts, "close" when it stops (hidden, paused, solved).
   */
  requestBeat(phase = "tick") {
    if (!shouldBeat(this, this.host.running(), phase)) return;
    if (phase === "open" && this.counting && !this.beat) phase = "tick";
    if (phase === "tick" && tickDueIn(this.now(), this.lastWriteAt) > 0) return; // a write said it already
    if (phase === "tick" && this.dirty) {
      // Entries are waiting: their save is the sign of life, one request instead of two.
      this.timers.clearTimeout(this.debounce);
      this.due = true;
      this.pump();
      return;
    }
    this.beat = combinePhases(this.beat, phase);
    this.counting = phase !== "close";
    this.pump();
  }

  /**
   * Keep the server's clock going while time counts: a tick once BEAT_MS have passed without a
   * write. Checked again BEAT_MS after each write (or each check that found time not counting).
   */
  startTicking() {
    this.timers.clearTimeout(this.ticker);
    this.ticker = this.timers.setTimeout(() => {
      this.ticker = null;
      this.requestBeat("tick"); // goes at once unless a request is in flight, which is a write itself or ends soon
      this.startTicking();
    }, tickDueIn(this.now(), this.lastWriteAt) || BEAT_MS);
  }

  /** A write left: the next tick is due BEAT_MS from now. */
  wrote() {
    this.lastWriteAt = this.now();
    if (this.ticker !== null) this.startTicking();
  }

  /**
   * The page is going away: send what is unsaved and stop the clock, both now and with keepalive
   * (the queue would send the close only after the save's answer, which an unloaded page never gets).
   */
  leave() {
    this.flushNow();
    if (!this.counting || this.awaitingFirstMove || this.stopped) return;
    this.counting = false;
    this.beat = null;
    this.wrote();
    this.send(this.urls.beat, { version: this.version, phase: "close" }, true).catch(() => {});
  }

  /**
   * Fetch the server's state when coming back (another device may have played meanwhile). Coming
   * back to the tab always looks; window focus, which fires far more often, at most every 5 s.
   */
  requestRefresh(throttle = false) {
    if (!this.host.canPlay() || this.host.solved() || this.dirty) return;
    if (throttle && this.now() - this.lastRefresh < REFRESH_EVERY_MS) return;
    this.lastRefresh = this.now();
    this.refresh = true;
    this.pump();
  }

  /** Save immediately, with keepalive: the page may be going away. */
  flushNow() {
    if (!this.dirty || this.stopped) return;
    this.timers.clearTimeout(this.debounce);
    this.due = true;
    this.pump(true);
  }

  /**
   * Send what is unsaved now and wait until the server has it, at most `limitMs`: a log-out is
   * about to end the session, after which the save would be refused (the copy on this device
   * would still keep it, but only for this device).
   */
  async saveBeforeLeaving(limitMs = 2_000) {
    this.flushNow();
    const until = this.now() + limitMs;
    while ((this.dirty || this.busy) && !this.stopped && !this.offline && this.now() < until) {
      await new Promise((resolve) => this.timers.setTimeout(resolve, 50));
    }
  }

  /**
   * The browser says we are back online: stop waiting for the backoff. The wait starts again from
   * a second: the first request often fails while the connection comes back (or one in flight
   * meets the old failure), and its retry must not wait the 16 or 30 s the outage had grown to.
   */
  retryNow() {
    this.retryMs = 0;
    if (!this.retry) return;
    this.timers.clearTimeout(this.retry);
    this.retry = null;
    this.due = true;
    this.pump();
  }

  /** The puzzle is solved: nothing is left to submit, nor to keep on this device. */
  finished() {
    this.submit = false;
    this.record.reset();
    this.clearLocalCopy();
  }

  /** Ask for the next stage of a hint on `board` (the server does not save it): {status, data}. */
  hint(board) {
    return this.send(this.urls.hint, { digits: digitsString(board), corner: board.corner, centre: board.centre });
  }

  /** Which of `board`'s digits are wrong (an assist the server records): {status, data}. `auto`: showing mistakes asks. */
  check(board, auto = false) {
    return this.send(this.urls.check, { digits: digitsString(board), auto });
  }

  /** The player's settings: read them ({status, data}), or change some. */
  settings(changes) {
    return this.send(this.urls.settings, changes === undefined ? undefined : { settings: changes });
  }

  /** The results fragment (HTML) once the solve is recorded, or null: offline, not yet, logged out. */
  async results() {
    try {
      const response = await this.fetch(this.urls.results, { credentials: "same-origin", headers: { Accept: "text/html" } });
      if (response.ok && !response.redirected) return await response.text();
    } catch {
      // Offline: the page offers to try again.
    }
    return null;
  }

  // ---- The queue. ----

  /** Send the next job unless a request is in flight or a retry is waiting; repeat until idle. */
  async pump(keepalive = false) {
    if (this.busy || this.retry || this.stopped || !this.host.canPlay()) return;
    const job = nextJob(this);
    if (!job) return;
    this.busy = true;
    try {
      await JOBS[job](this, keepalive);
      if (this.offline) this.backOnline();
    } catch (error) {
      if (!(error instanceof Transient)) console.error(error);
      this.goOffline(job);
    } finally {
      this.busy = false;
    }
    this.pump();
  }

  /** POST (or GET without a body) to the API; resolves to {status, data}, throws Transient. */
  async send(url, body, keepalive = false) {
    // The token goes with reads too: the service worker (sw.js) keeps the answers per session by it.
    const headers = { Accept: "application/json", "X-CSRFToken": this.csrfToken() };
    const init = { method: body === undefined ? "GET" : "POST", credentials: "same-origin", keepalive, headers };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await this.fetch(url, init);
    } catch (error) {
      throw new Transient(error.message);
    }
    if (response.status >= 500) throw new Transient(`HTTP ${response.status}`);
    // login_required answers a logged-out API call with a redirect to the login page, which fetch
    // follows to a 200 HTML page: that means logged out, not success.
    if (response.redirected) return { status: 401, data: null };
    let data;
    try {
      data = await response.json();
    } catch {
      data = null; // 403 from Django's CSRF check is HTML, for one.
    }
    return { status: response.status, data };
  }

  // ---- What the answers do. ----

  /** Replace the board with the server's (another tab or device saved first). */
  adopt(raw, notice) {
    if (!raw) {
      // A conflict without the state attached: drop our copy and fetch the server's.
      Object.assign(this, { dirty: false, due: false, submit: false, refresh: true, lastRefresh: 0 });
      this.record.reset();
      return;
    }
    const server = parseState(raw);
    this.timers.clearTimeout(this.debounce);
    Object.assign(this, { dirty: false, due: false, submit: false, base: server.board });
    this.version = server.version;
    this.times.clear();
    this.record.reset(); // they were made on a board that is gone: the server's moves made this one
    this.clearLocalCopy();
    this.host.adopt(server, notice);
  }

  /**
   * Another tab or device saved first: take its newer board and put this device's unsaved entries
   * back on top, then save the result on the new version. Without entries of its own since the
   * last save, or once solved, this is adopting.
   */
  async rebase(raw, notice) {
    if (!raw || !this.base || sameEntries(this.host.board(), this.base) || raw.solved) {
      this.adopt(raw, notice);
      return;
    }
    const { conflictMessage, mergeBoards } = await merging();
    const local = this.host.board(); // as it is now: the player may have moved while merge.js loaded
    const server = parseState(raw);
    const { board, conflicts } = mergeBoards(this.base, server.board, local, {
      localTimes: this.times, serverSavedAt: server.savedAt,
    });
    this.timers.clearTimeout(this.debounce);
    Object.assign(this, { dirty: false, due: false, base: server.board, version: server.version });
    // Two sentences: the notice ("Updated from your other device") has no full stop of its own.
    this.host.rebase({ ...server, board }, [notice, conflictMessage(conflicts)].filter(Boolean).join(". "));
    if (sameEntries(board, server.board)) {
      this.times.clear();
      this.record.reset();
      this.clearLocalCopy();
    } else {
      this.record.settle(server.board, board, this.dateNow());
      this.scheduleSave();
      this.due = true;
      this.writeLocalCopy();
      this.pump();
    }
  }

  /** 400: a bug, not the network; 401/403: logged out. Either way stop sending, keep the local copy. */
  refuse(status, data) {
    this.stopped = true;
    if (status === 401 || status === 403) this.show("loggedout", "You are logged out, so moves are not saved.");
    else this.show("error", `Could not save: ${data?.error || `error ${status}`}. Your moves are kept on this device.`);
  }

  /** No answer: say so quietly, keep everything, and try again later and later. */
  goOffline(job) {
    if (job === "beat") this.beat = null; // Stale by the time we are back: the next open starts afresh.
    if (job === "refresh") this.refresh = false;
    if (job === "submit") this.submit = true;
    this.offline = true;
    this.retryMs = nextRetryMs(this.retryMs);
    this.show("offline", "Offline — will retry");
    this.retry = this.timers.setTimeout(() => {
      this.retry = null;
      this.due = true;
      this.pump();
    }, this.retryMs);
  }

  /** The first answer after a failure. */
  backOnline() {
    this.offline = false;
    this.retryMs = 0;
    if (this.stopped) return; // The server answered, but with a refusal: that message stays.
    this.show("saved", "Back online — saved");
    this.timers.setTimeout(() => {
      if (!this.offline && this.shown === "saved") this.show("saved");
    }, BACK_ONLINE_MS);
  }

  /** The save line: its state is remembered, so "Back online" only clears itself. */
  show(state, text = "") {
    this.shown = state;
    this.host.status(state, text);
  }

  // ---- The local copy (device.js): unsaved work survives a closed tab or a long time offline. ----

  /** Keep the unsaved board with the server version it was built on, that version's board and the edits' times. */
  writeLocalCopy() {
    this.copy.write(this.host.board(), this.version, this.base, this.times, this.record.moves);
  }

  /** Forget the local copy once the server has everything. */
  clearLocalCopy() {
    this.copy.clear();
  }

  /**
   * The unsaved board this device kept for the server's `server` (parseState's shape), or null:
   * {board, message} (DeviceCopy.take). It goes to the server at the next pump.
   */
  async restore(server) {
    const taken = await this.copy.take(server, this.version);
    if (!taken) return null;
    this.times = taken.times;
    this.record.reset(taken.moves);
    this.record.settle(server.board, taken.board, this.dateNow());
    this.dirty = true;
    this.due = true;
    return { board: taken.board, message: taken.message };
  }
}
