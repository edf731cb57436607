// A fake clock for the board's sync queue: timers and a time that move only when the caller moves
// them. Shared by the queue's tests (sync.test.mjs) and the requests bench (bench/requests.mjs).

/** Let whatever a timer set off (promises, their callbacks) run before going on. */
export const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Timers and a time that move only when the caller moves them. */
export class FakeTime {
  constructor() {
    this.now = 0;
    this.pending = new Map();
    this.nextId = 1;
  }

  setTimeout(fn, ms = 0) {
    const id = this.nextId++;
    this.pending.set(id, { at: this.now + ms, fn });
    return id;
  }

  clearTimeout(id) {
    this.pending.delete(id);
  }

  /** Move on by `ms`, running every timer that falls due, in order, and whatever it sets off. */
  async advance(ms) {
    const end = this.now + ms;
    for (;;) {
      const [id, next] = [...this.pending].sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0] ?? [];
      if (!next || next.at > end) break;
      this.pending.delete(id);
      this.now = next.at;
      next.fn();
      await settle();
    }
    this.now = end;
    await settle();
  }
}
