// The sync queue's four requests (sync.js): a save, a submit, a beat and a refresh, each sent for
// the queue when it is that job's turn (sync-rules.js nextJob), and what its answer does to the
// queue and, through the queue's host, to the page.

import { wire } from "./device.js";
import { tickDueIn } from "./sync-rules.js";
import { digitsString } from "./sudoku.js";

/** What the page says when the server's board replaces the one on screen. */
export const UPDATED_ELSEWHERE = "Updated from your other device";

/** The four requests and what their answers do. Each returns once the answer is applied. */
export const JOBS = {
  async save(sync, keepalive) {
    const sent = sync.host.board();
    const { batch, body } = sync.record.outgoing(sync.dateNow());
    sync.dirty = false;
    sync.due = false;
    if (!sync.offline) sync.show("saving");
    sync.wrote();
    sync.lastSaveAt = sync.now();
    let reply;
    try {
      reply = await sync.send(sync.urls.save, { version: sync.version, ...wire(sent), ...body }, keepalive);
    } catch (error) {
      sync.dirty = true; // Nothing was saved: the same (or newer) board goes next time.
      throw error;
    }
    const { status, data } = reply;
    if (status === 200) {
      sync.version = data.version;
      sync.base = sent;
      sync.counting ||= sync.host.running(); // a save starts the server's clock (a guest's first one, say)
      sync.host.elapsed(data.elapsed);
      sync.record.delivered(batch);
      // More than one write's moves: the rest go in the next save, at once.
      if (sync.record.moves.length && !sync.dirty) Object.assign(sync, { dirty: true, due: true });
      if (sync.dirty) sync.writeLocalCopy(); // Newer moves: their copy now builds on this version.
      else {
        sync.times.clear();
        sync.clearLocalCopy();
      }
      sync.show("saved");
    } else if (status === 409) {
      await sync.rebase(data?.state, UPDATED_ELSEWHERE);
    } else if (sync.record.refusedAsFull(status, data)) {
      Object.assign(sync, { dirty: true, due: true });
    } else {
      sync.refuse(status, data);
    }
  },

  async submit(sync) {
    sync.submit = false;
    const { batch, body } = sync.record.outgoing(sync.dateNow());
    sync.wrote();
    const { status, data } = await sync.send(sync.urls.submit, { version: sync.version, digits: digitsString(sync.host.board()), ...body });
    if (status === 200) sync.record.delivered(batch);
    if (status === 200 && data.solved) {
      if (data.state) sync.adopt(data?.state, "");
      sync.host.finish(data.seconds ?? data.state?.solve_seconds);
    } else if (status === 200) {
      if (typeof data.version === "number") sync.version = data.version;
      sync.host.alert(data.message || "Not quite: some digits are wrong.");
    } else if (status === 409) {
      await sync.rebase(data?.state, UPDATED_ELSEWHERE);
    } else if (sync.record.refusedAsFull(status, data)) {
      sync.submit = true;
    } else {
      sync.refuse(status, data);
    }
  },

  async beat(sync) {
    const phase = sync.beat;
    sync.beat = null;
    // Paused or hidden while a tick or an open waited in the queue: a close follows it anyway.
    if (phase !== "close" && !sync.host.running()) return;
    // A tick that waited behind a save or a submit: that write was the sign of life.
    if (phase === "tick" && tickDueIn(sync.now(), sync.lastWriteAt) > 0) return;
    sync.wrote();
    const { status, data } = await sync.send(sync.urls.beat, { version: sync.version, phase });
    if (status === 200) sync.host.elapsed(data.elapsed);
    else if (status === 409 && data?.state) sync.adopt(data?.state, UPDATED_ELSEWHERE);
    else if (status === 401 || status === 403) sync.refuse(status, data);
  },

  async refresh(sync) {
    sync.refresh = false;
    const { status, data } = await sync.send(sync.urls.state);
    // Only a newer version replaces the board; local moves made meanwhile go through save and 409.
    if (status === 200 && !sync.dirty && data.version !== sync.version) {
      sync.adopt(data, UPDATED_ELSEWHERE);
    } else if (status === 200) {
      sync.host.elapsed(data.elapsed);
    }
  },
};
