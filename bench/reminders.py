"""Reminders bench: reminders per minute through a local SMTP server, and database queries per
reminder, of the hourly task's run (puzzles/accounts/reminders.py: reminders_send).

    python bench/reminders.py [--players 2000] [--batch 100] [--workers 1 2] [--streak-days 5] [--markdown]

Makes --players accounts, each with a verified address, reminders by email at midnight UTC (so all
are due) and a run of solves on the --streak-days days before today (the mail's streak is read per
player), and today's five dailies. An aiosmtpd server on localhost, in a process of its own,
accepts and counts every message. For each --workers count, the claims are emptied and that many
processes run the task at once, each on its own database connection; the figures are the wall time
from their start to the last one's end, the messages the server got (each due reminder exactly
once, or the bench says so) and the queries each process made. Production settings on the bench's
own database (BENCH_REMINDERS_DATABASE_URL, `sudoku_bench_reminders` on the local PostgreSQL by
default) and Redis cache (BENCH_REMINDERS_CACHE_URL, database 12).
"""

from __future__ import annotations

import argparse
import datetime
import multiprocessing
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import free_port, make_puzzles, markdown_header, markdown_row, reset_site, row, setup_site
from bench.harness.services import vacuum

DB_URL = os.environ.get("BENCH_REMINDERS_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sudoku_bench_reminders")
CACHE_URL = os.environ.get("BENCH_REMINDERS_CACHE_URL", "redis://127.0.0.1:6379/12")
PREFIX = "remind-"


class Counter:
    """aiosmtpd's handler: counts the messages it accepts, and their recipients."""

    def __init__(self, counts) -> None:
        self.counts = counts

    async def handle_DATA(self, server, session, envelope) -> str:
        for address in envelope.rcpt_tos:
            self.counts[address] = self.counts.get(address, 0) + 1
        return "250 Message accepted for delivery"


def smtp_server(port: int, counts, ready) -> None:
    """A local SMTP server in a process of its own, so its work is not this process's."""
    import logging

    from aiosmtpd.controller import Controller

    logging.getLogger("mail.log").setLevel(logging.WARNING)  # a line per SMTP command otherwise
    controller = Controller(Counter(counts), hostname="127.0.0.1", port=port)
    controller.start()
    ready.set()
    while True:
        time.sleep(3600)


def make_players(count: int, streak_days: int) -> None:
    """`count` players due now, each with a verified address and a streak of `streak_days` days."""
    from allauth.account.models import EmailAddress
    from django.contrib.auth.models import User

    from puzzles.models import Attempt, DailyPuzzle, Reminder, Solve, site_today

    users = User.objects.bulk_create(
        [User(username=f"{PREFIX}{n:05d}", email=f"{PREFIX}{n:05d}@example.com") for n in range(count)]
    )
    EmailAddress.objects.bulk_create([EmailAddress(user=u, email=u.email, verified=True, primary=True) for u in users])
    Reminder.objects.bulk_create([Reminder(user=u, email=True, hour=0, time_zone="UTC") for u in users])
    today = site_today()
    for back in range(1, streak_days + 1):
        day = today - datetime.timedelta(days=back)
        make_puzzles(seed=back, tiers=("easy",), day=day)
        daily = DailyPuzzle.objects.get(date=day, difficulty="easy")
        attempts = Attempt.objects.bulk_create([Attempt(user=u, daily=daily) for u in users])
        solved_at = datetime.datetime.combine(day, datetime.time(12), datetime.UTC)
        Solve.objects.bulk_create(
            [Solve(attempt=a, user=a.user, daily=daily, seconds=300, solved_at=solved_at) for a in attempts]
        )


def one_worker(batch: int, results) -> None:
    """Run the task once, in this process; what it sent and the queries it made."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from puzzles.accounts.reminders import reminders_send

    connection.close()  # a connection of its own, never the parent's
    with CaptureQueriesContext(connection) as queries:
        report = reminders_send(batch=batch)
    results.append((report.sent, report.failed, len(queries)))


def run(workers: int, batch: int, counts) -> tuple[float, list]:
    from django.db import connections

    from puzzles.models import ReminderSent

    ReminderSent.objects.all().delete()
    counts.clear()
    connections.close_all()
    manager_results = multiprocessing.Manager().list()
    processes = [multiprocessing.Process(target=one_worker, args=(batch, manager_results)) for _ in range(workers)]
    started = time.perf_counter()
    for process in processes:
        process.start()
    for process in processes:
        process.join()
    return time.perf_counter() - started, list(manager_results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--streak-days", type=int, default=5)
    parser.add_argument("--markdown", action="store_true", help="print a table for docs/performance.md")
    args = parser.parse_args()

    multiprocessing.set_start_method("fork")
    port = free_port()
    manager = multiprocessing.Manager()
    counts, ready = manager.dict(), manager.Event()
    server = multiprocessing.Process(target=smtp_server, args=(port, counts, ready), daemon=True)
    server.start()
    ready.wait(10)
    setup_site(DB_URL, CACHE_URL, EMAIL_URL=f"smtp://127.0.0.1:{port}")
    reset_site(PREFIX)
    from puzzles.models import site_today

    make_puzzles(seed=0, day=site_today())
    make_players(args.players, args.streak_days)
    vacuum()  # the planner's statistics for the rows just made (autovacuum may be off)

    titles = ("workers", "reminders", "seconds", "per minute", "queries / reminder", "each once")
    widths = (8, 10, 8, 11, 19, 10)
    print(markdown_header(*titles) if args.markdown else row(*titles, widths=widths))
    for workers in args.workers:
        seconds, results = run(workers, args.batch, counts)
        sent = sum(r[0] for r in results)
        queries = sum(r[2] for r in results)
        once = len(counts) == args.players and set(counts.values()) == {1}
        cells = (workers, sent, f"{seconds:.1f}", f"{sent / seconds * 60:,.0f}", f"{queries / max(sent, 1):.2f}", once)
        print(markdown_row(*cells) if args.markdown else row(*cells, widths=widths))
    server.terminate()


if __name__ == "__main__":
    main()
