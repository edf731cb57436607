"""Pipeline benchmark: puzzles stored per minute per tier by real Celery workers, end to end
through Redis and PostgreSQL, with one worker process and with two.

    python bench/pipeline.py [--seconds 8] [--tiers easy,medium,...]

It uses (and empties) its own database, `sudoku_bench` on the local PostgreSQL unless
BENCH_DATABASE_URL says otherwise, and Redis database 14 unless BENCH_REDIS_URL does. Each run
enqueues one seed batch and one task per worker process, and times from enqueueing until the
batch is complete. The engine's own time is the sum of the stored puzzles' generation times;
the overhead is whatever the workers' busy time adds to it (queue, database, start of tasks,
and the last puzzles made by a worker after the batch was already full).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DB_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sudoku_bench")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
# Rough puzzles per second of one process (from bench/engine.py), to size each batch.
RATE = {"easy": 50, "medium": 22, "hard": 5, "expert": 18, "extreme": 15}


def ensure_database() -> None:
    import psycopg

    name = DB_URL.rsplit("/", 1)[1]
    admin_url = DB_URL.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        if not conn.execute("select 1 from pg_database where datname = %s", (name,)).fetchone():
            conn.execute(f'create database "{name}"')


def start_workers(count: int, logdir: Path) -> list[subprocess.Popen]:
    env = {**os.environ, "DATABASE_URL": DB_URL, "REDIS_URL": REDIS_URL}
    procs = []
    for i in range(count):
        log = open(logdir / f"worker{i}.log", "w")
        procs.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "sudokusite",
                    "worker",
                    "--queues",
                    "default,generation",
                    "--concurrency",
                    "1",
                    "--hostname",
                    f"bench{i}@%h",
                    "--loglevel",
                    os.environ.get("BENCH_LOGLEVEL", "WARNING"),
                    "--without-gossip",
                    "--without-mingle",
                    "--without-heartbeat",
                    "--pool",
                    os.environ.get("BENCH_POOL", "prefork"),
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        )
    # Wait until every worker answers a ping, so start-up is not timed.
    from sudokusite.celery import app

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        replies = app.control.ping(timeout=1.0) or []
        if len(replies) >= count:
            return procs
    raise SystemExit("workers did not start; see " + str(logdir))


def stop_workers(procs: list[subprocess.Popen]) -> None:
    for p in procs:
        p.send_signal(signal.SIGTERM)
    for p in procs:
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()


def run(tier: str, processes: int, seconds: float) -> tuple[float, float]:
    """(puzzles stored per minute, overhead as a fraction of engine time) for one configuration."""
    from django.db.models import Sum

    from puzzles import pipeline
    from puzzles.models import Puzzle, SeedBatch
    from puzzles.tasks import work_seed_batch

    Puzzle.objects.all().delete()
    SeedBatch.objects.all().delete()
    count = max(10, int(RATE[tier] * processes * seconds))
    batch = pipeline.seed_batch_create(tier, count, filler="diagonal-boxes", symmetry="none")
    started = time.monotonic()
    for _ in range(processes):
        work_seed_batch.delay(batch.pk)
    while not SeedBatch.objects.get(pk=batch.pk).done:
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

    ensure_database()
    os.environ["DATABASE_URL"] = DB_URL
    os.environ["REDIS_URL"] = REDIS_URL
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sudokusite.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from sudokusite.celery import app

    with app.connection_for_write() as conn:
        for queue in ("default", "generation"):
            conn.default_channel.queue_purge(queue)

    tiers = args.tiers.split(",")
    results: dict[tuple[str, int], tuple[float, float]] = {}
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_LOGDIR")) as tmp:
        for processes in (1, 2):
            procs = start_workers(processes, Path(tmp))
            try:
                for tier in tiers:
                    results[(tier, processes)] = run(tier, processes, args.seconds)
            finally:
                stop_workers(procs)
                if os.environ.get("BENCH_LOGDIR"):
                    for log in Path(tmp).glob("worker*.log"):
                        print(f"--- {log.name}\n{log.read_text()[-3000:]}")

    print(f"\nPuzzles stored per minute through Redis and PostgreSQL ({os.cpu_count()} cores)")
    header = ("tier", "1 process", "2 processes", "speed-up", "overhead 1p", "overhead 2p")
    print("  ".join(f"{h:>12}" for h in header))
    for tier in tiers:
        one, two = results[(tier, 1)], results[(tier, 2)]
        print(
            "  ".join(
                f"{c:>12}"
                for c in (
                    tier,
                    f"{one[0]:.0f}",
                    f"{two[0]:.0f}",
                    f"{two[0] / one[0]:.2f}x",
                    f"{one[1] * 100:.1f}%",
                    f"{two[1] * 100:.1f}%",
                )
            )
        )


if __name__ == "__main__":
    main()
