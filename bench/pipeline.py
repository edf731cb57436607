"""Pipeline benchmark: puzzles stored per minute per tier by real Celery workers, end to end
through Redis and PostgreSQL, with one worker process and with two.

    python bench/pipeline.py [--seconds 8] [--tiers easy,medium,...]

It uses (and empties) its own database, `sudoku_bench` on the local PostgreSQL unless
BENCH_DATABASE_URL says otherwise, and Redis database 14 unless BENCH_REDIS_URL does. Each run
enqueues one seed batch and one task per worker process, and times from enqueueing until the
batch is complete. The engine's own time is the sum of the stored puzzles' generation times;
the overhead is whatever the workers' busy time adds to it (queue, database, start of tasks,
and the last puzzles made by a worker after the batch was already full). BENCH_LOGDIR keeps the
workers' logs there and prints their ends; BENCH_LOGLEVEL and BENCH_POOL set the workers'
--loglevel and --pool.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import (
    celery_worker,
    enqueue_seed_batch,
    ensure_database,
    ensure_redis,
    new_seed_batch,
    purge_queues,
    row,
    setup_django,
    stop,
    wait_until,
)

DB_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sudoku_bench")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
# Rough puzzles per second of one process (from bench/engine.py), to size each batch.
RATE = {"easy": 50, "medium": 22, "hard": 5, "expert": 18, "extreme": 15}


def start_workers(count: int, logdir: Path) -> list:
    """`count` workers of one process each, answering a ping before anything is timed."""
    from sudokusite.celery import app

    env = {**os.environ, "DATABASE_URL": DB_URL, "REDIS_URL": REDIS_URL}
    loglevel, pool = os.environ.get("BENCH_LOGLEVEL", "WARNING"), os.environ.get("BENCH_POOL", "prefork")
    workers = [
        celery_worker(f"bench{i}", env, logdir / f"worker{i}.log", loglevel=loglevel, pool=pool) for i in range(count)
    ]
    if not wait_until(lambda: len(app.control.ping(timeout=1.0) or []) >= count, 60, 0):
        stop(*workers)
        raise SystemExit(f"workers did not start; see {logdir}")
    return workers


def run(tier: str, processes: int, seconds: float) -> tuple[float, float]:
    """(puzzles stored per minute, overhead as a fraction of engine time) for one configuration."""
    from django.db.models import Sum

    from puzzles.models import Puzzle, SeedBatch

    Puzzle.objects.all().delete()
    SeedBatch.objects.all().delete()
    count = max(10, int(RATE[tier] * processes * seconds))
    batch = new_seed_batch(tier, count)
    started = time.monotonic()
    enqueue_seed_batch(batch, tasks=processes)
    while not SeedBatch.objects.get(pk=batch).done:
        time.sleep(0.05)
    wall = time.monotonic() - started
    engine_ms = Puzzle.objects.aggregate(total=Sum("generation_ms"))["total"] or 0.0
    busy_ms = wall * 1000 * processes
    return count / wall * 60, (busy_ms - engine_ms) / engine_ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="rough length of each run")
    parser.add_argument("--tiers", default="easy,medium,hard,expert,extreme")
    args = parser.parse_args()

    ensure_database(DB_URL)
    ensure_redis(REDIS_URL)
    setup_django({"DATABASE_URL": DB_URL, "REDIS_URL": REDIS_URL})
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    purge_queues()

    tiers = args.tiers.split(",")
    results: dict[tuple[str, int], tuple[float, float]] = {}
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_LOGDIR")) as tmp:
        for processes in (1, 2):
            workers = start_workers(processes, Path(tmp))
            try:
                for tier in tiers:
                    results[(tier, processes)] = run(tier, processes, args.seconds)
            finally:
                stop(*workers)
                if os.environ.get("BENCH_LOGDIR"):
                    for log in Path(tmp).glob("worker*.log"):
                        print(f"--- {log.name}\n{log.read_text()[-3000:]}")

    print(f"\nPuzzles stored per minute through Redis and PostgreSQL ({os.cpu_count()} cores)")
    print(row("tier", "1 process", "2 processes", "speed-up", "overhead 1p", "overhead 2p", widths=(12,)))
    for tier in tiers:
        one, two = results[(tier, 1)], results[(tier, 2)]
        cells = (
            f"{one[0]:.0f}",
            f"{two[0]:.0f}",
            f"{two[0] / one[0]:.2f}x",
            f"{one[1] * 100:.1f}%",
            f"{two[1] * 100:.1f}%",
        )
        print(row(tier, *cells, widths=(12,)))


if __name__ == "__main__":
    main()
