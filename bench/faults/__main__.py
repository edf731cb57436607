"""Run the faults: `python bench/faults [--only d,a,c,b] ...` (see __init__.py)."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench import faults
from bench.faults.checks import CHECKS
from bench.faults.database import fault_database
from bench.faults.redis_outage import fault_redis
from bench.faults.replay import fault_replay_and_race
from bench.faults.services import PrivatePostgres, PrivateRedis
from bench.faults.target import GUNICORN_WORKERS, HEALTH_TOKEN, Site, prepare_daily, prepare_players
from bench.faults.worker import fault_worker
from bench.harness import row, setup_site


def main() -> int:
    parser = argparse.ArgumentParser(description=faults.__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=8, help="players saving during the faults")
    parser.add_argument("--redis-outage", type=float, default=4.0, help="seconds Redis stays down")
    parser.add_argument("--db-outage", type=float, default=3.0, help="seconds the database stays stopped")
    parser.add_argument("--race-rounds", type=int, default=20)
    parser.add_argument("--visibility", type=int, default=12, help="the broker's visibility timeout for fault b")
    parser.add_argument("--only", default="d,a,c,b", help="which faults, in this order")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (logs)")
    args = parser.parse_args()

    root = Path(tempfile.mkdtemp(prefix="sudoku-faults-"))
    os.chmod(root, 0o755)
    pg, redis_server, site = PrivatePostgres(root), PrivateRedis(root), None
    started = time.monotonic()
    try:
        pg.init()
        redis_server.start()
        env = setup_site(
            pg.url,
            redis_server.url(1),
            broker=redis_server.url(0),
            # /health/ shows the probes' details only to staff or a monitor holding this token.
            HEALTH_TOKEN=HEALTH_TOKEN,
            # Each player here saves 20 times a second, far past a person's bound on the record
            # of play's events a minute (a 429 once 120 are logged); the faults are about Redis,
            # workers and the database, and the bound has tests of its own.
            PLAY_EVENTS_PER_MINUTE="100000",
            # Another settings module (one that imports sudokusite.settings and changes a
            # setting) tries a change against the same faults.
            DJANGO_SETTINGS_MODULE=os.environ.get("DJANGO_SETTINGS_MODULE", "sudokusite.settings"),
        )
        site = Site(env, root / "gunicorn.log")
        prepare_daily(site)
        players = prepare_players(args.players, "player")
        solvers = prepare_players(6, "solver")
        site.start()
        print(
            f"PostgreSQL on port {pg.port}, Redis on port {redis_server.port}, gunicorn ({GUNICORN_WORKERS} workers) "
            f"on port {site.port}; logs in {root}",
            flush=True,
        )
        for p in players:
            site.refresh_version(p)
        for fault in args.only.split(","):
            if fault == "d":
                fault_replay_and_race(site, args.race_rounds)
            elif fault == "a":
                fault_redis(site, redis_server, players, solvers, args.redis_outage)
            elif fault == "c":
                fault_database(site, pg, players, args.db_outage)
            elif fault == "b":
                worker_env = {
                    **env,
                    "GENERATION_BUDGET_SECONDS": "2",
                    "CELERY_SOFT_TIME_LIMIT": "8",
                    "CELERY_HARD_TIME_LIMIT": "10",
                    "CELERY_VISIBILITY_TIMEOUT": str(args.visibility),
                }
                fault_worker(worker_env, root, args.visibility)
    finally:
        if site is not None:
            site.stop()
        redis_server.stop()
        try:
            from django.db import connections

            connections.close_all()
        except Exception:
            pass
        pg.stop()
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)

    print(f"\nFaults, {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, {time.monotonic() - started:.0f} s in all")
    widths = (-6, -(max((len(c.what) for c in CHECKS), default=10) + 2), 0)
    print(row("fault", "check", "result", widths=widths, sep=""))
    for c in CHECKS:
        print(row(c.fault, c.what, "pass" if c.passed else "FAIL", widths=widths, sep=""))
    failed = [c for c in CHECKS if not c.passed]
    print(f"{len(CHECKS) - len(failed)} of {len(CHECKS)} checks passed")
    return 1 if failed or not CHECKS else 0


if __name__ == "__main__":
    sys.exit(main())
