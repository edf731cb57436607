"""Fault b: a worker killed in the middle of a seed batch: its pool process (SIGKILL), then a
whole worker (SIGKILL of its process group), each followed by a new worker that must finish the
batch exactly."""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path

from bench.faults.checks import check
from bench.harness import (
    celery_worker,
    children_of,
    enqueue_seed_batch,
    new_seed_batch,
    purge_queues,
    stop,
    wait_until,
)

TASK_LINE = re.compile(r"Task puzzles\.tasks\.work_seed_batch\[([0-9a-f-]{36})\] (received|succeeded)")


class Worker:
    def __init__(self, name: str, env: dict[str, str], root: Path) -> None:
        self.name, self.log = name, root / f"worker-{name}.log"
        self.proc = celery_worker(name, env, self.log, loglevel="INFO")
        if not wait_until(lambda: " ready." in self.text(), 40, 0.2):
            raise SystemExit(f"worker {name} did not start; see {self.log}")

    def text(self) -> str:
        return self.log.read_text()

    def events(self) -> tuple[set[str], set[str]]:
        received: set[str] = set()
        succeeded: set[str] = set()
        for task_id, event in TASK_LINE.findall(self.text()):
            (received if event == "received" else succeeded).add(task_id)
        return received, succeeded


def check_batch(fault: str, batch_id: int, what: str, seconds: float) -> None:
    from puzzles.models import Puzzle, SeedBatch

    batch = SeedBatch.objects.get(pk=batch_id)
    stored = Puzzle.objects.filter(tier=batch.tier, created__gte=batch.created)
    rows = list(stored.values_list("givens", "solution", "techniques"))
    partial = [
        g for g, s, t in rows if len(g) != 81 or len(s) != 81 or not t or any(x != "0" and x != y for x, y in zip(g, s))
    ]
    distinct = len({g for g, _, _ in rows})
    check(
        fault,
        what,
        batch.made == batch.requested == len(rows) == distinct and not partial,
        f"made {batch.made}/{batch.requested}, {len(rows)} rows, {distinct} distinct givens, "
        f"{len(partial)} partial rows, done {seconds:.1f} s after the kill",
    )


def fault_worker(env: dict[str, str], root: Path, visibility: int) -> None:
    from puzzles.models import SeedBatch

    print("\n(b) a worker killed in the middle of a seed batch", flush=True)
    purge_queues()
    workers: list[Worker] = []
    try:
        # 1. Its pool process is killed: the worker gives the task back at once (acks_late and
        #    reject_on_worker_lost); it is stopped, and a new worker finishes the batch.
        first = Worker("b1", env, root)
        workers.append(first)
        batch = new_seed_batch("medium", 150)
        enqueue_seed_batch(batch)  # one task per batch, as the admin and seed_pool enqueue
        wait_until(lambda: SeedBatch.objects.get(pk=batch).made >= 30, 60)
        received, succeeded = first.events()
        running = received - succeeded
        made_at_kill = SeedBatch.objects.get(pk=batch).made
        for pid in children_of(first.proc.pid):
            os.kill(pid, signal.SIGKILL)
        killed_at = time.monotonic()
        noticed = wait_until(lambda: "WorkerLostError" in first.text(), 20, 0.1)
        stop(first.proc, grace=30)
        second = Worker("b2", env, root)
        workers.append(second)
        done = wait_until(lambda: SeedBatch.objects.get(pk=batch).done, 90, 0.1)
        seconds = time.monotonic() - killed_at
        # Run again: finished by the old worker after the kill (it took the task back itself),
        # or received by the new one.
        again = (first.events()[1] - succeeded) | second.events()[0]
        print(
            f"    pool process killed at {made_at_kill}/150; WorkerLostError logged: {noticed}; "
            f"exit code of the old worker {first.proc.returncode}",
            flush=True,
        )
        check(
            "b",
            "pool process killed: the killed task runs again and the batch completes exactly",
            done and bool(running) and running <= again,
            f"task running at the kill: {len(running)}, run again: {len(running & again)}; batch done: {done}",
        )
        check_batch("b", batch, "pool process killed: no partial puzzle, no duplicate, exact count", seconds)
        stop(second.proc, grace=15)

        # 2. The whole worker is killed (a lost machine): its task stays unacknowledged in Redis
        #    until the visibility timeout, when a worker (re)starting puts it back in the queue.
        third = Worker("b3", env, root)
        workers.append(third)
        batch = new_seed_batch("medium", 150)
        enqueue_seed_batch(batch)
        wait_until(lambda: SeedBatch.objects.get(pk=batch).made >= 30, 60)
        os.killpg(third.proc.pid, signal.SIGKILL)
        third.proc.wait(timeout=10)
        killed_at = time.monotonic()
        made_at_kill = SeedBatch.objects.get(pk=batch).made
        fourth = Worker("b4", env, root)
        workers.append(fourth)
        stalled = not wait_until(lambda: SeedBatch.objects.get(pk=batch).made > made_at_kill, 3, 0.2)
        # The new worker only restores unacknowledged tasks older than the visibility timeout
        # when it starts (and every ~100 s after): restart it once the timeout has passed.
        time.sleep(max(0.0, visibility + 1 - (time.monotonic() - killed_at)))
        stop(fourth.proc, grace=15)
        fifth = Worker("b5", env, root)
        workers.append(fifth)
        resumed = wait_until(lambda: SeedBatch.objects.get(pk=batch).made > made_at_kill, 30, 0.1)
        resumed_after = time.monotonic() - killed_at
        done = wait_until(lambda: SeedBatch.objects.get(pk=batch).done, 90, 0.1)
        seconds = time.monotonic() - killed_at
        check(
            "b",
            "whole worker killed: its task is redelivered after the visibility timeout",
            stalled and resumed and done,
            f"killed at {made_at_kill}/150; no progress while the task was unacknowledged: {stalled}; "
            f"resumed {resumed_after:.1f} s after the kill (visibility timeout {visibility} s; production 900 s)",
        )
        check_batch("b", batch, "whole worker killed: no partial puzzle, no duplicate, exact count", seconds)
    finally:
        stop(*(w.proc for w in workers), grace=15)
