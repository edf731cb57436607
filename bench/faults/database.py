"""Fault c: the database restarted (`pg_ctl restart`) while players save, stopped for a few
seconds while they save, then restarted once more while the site is idle."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from bench.faults.checks import check, check_nothing_lost, in_window, summary
from bench.faults.services import PrivatePostgres
from bench.faults.target import GUNICORN_WORKERS, TIMEOUT, Player, Saver, Site, run_load
from bench.harness import wait_until


def database_under_load(
    site: Site, pg: PrivatePostgres, players: list[Player], label: str, fault: Callable[[], None], start_number: int
) -> None:
    workers_before = site.workers()

    def during() -> dict:
        time.sleep(3)
        began = time.monotonic()
        fault()
        wait_until(pg.ready, 30, 0.05)
        ready = time.monotonic()
        time.sleep(5)
        return {"began": began, "ready": ready}

    saves, health, report = run_load(site, players, 0.05, during, start_number=start_number)
    began, ready = report["began"], report["ready"]
    outage = in_window(saves, began, ready)
    unclean = [r for r in saves if r.status not in (200, 409) and not (r.status and r.clean_failure)]
    hangs = [r for r in saves + health if r.seconds >= TIMEOUT - 0.5]
    check(
        "c",
        f"{label}: requests while the database is away fail cleanly, none hangs",
        not unclean and not hangs,
        f"{len(outage)} saves in the {ready - began:.1f} s outage: {summary(outage)}; "
        f"failures that were not JSON or the site's error page: {len(unclean)}"
        f"{' e.g. ' + repr(unclean[0].body[:120] or unclean[0].error) if unclean else ''}; "
        f"slowest {max((r.seconds for r in saves), default=0) * 1000:.0f} ms (limit {TIMEOUT:.0f} s)",
    )
    health_down = [
        r
        for r in in_window(health, began, ready)
        if r.status == 503 and (r.json() or {}).get("database") == "unreachable"
    ]
    health_after = [r for r in health if r.started > ready + 1]
    check(
        "c",
        f"{label}: /health/ says 503 while the database is away, 200 after",
        bool(health_after) and health_after[-1].status == 200 and (bool(health_down) or ready - began < 1),
        f"{len(health_down)} answers 503 (database unreachable) in the outage, "
        f"{summary(in_window(health, began, ready))} in all; last answer {health_after[-1].status if health_after else 'none'}",
    )
    after = [r for r in saves if r.started > ready]
    late_failures = [r for r in after if r.status not in (200, 409)]
    first_ok = min((r.ended for r in after if r.status == 200), default=None)
    settled = [r for r in after if r.started > ready + 2]
    same_workers = site.workers() == workers_before and site.proc is not None and site.proc.poll() is None
    check(
        "c",
        f"{label}: the site recovers without restarting gunicorn",
        same_workers and bool(settled) and all(r.status in (200, 409) for r in settled),
        f"first 200 {((first_ok or ready) - ready) * 1000:.0f} ms after the database was ready; "
        f"{len(after)} saves after it: {summary(after)}; same gunicorn workers: {same_workers}",
    )
    check(
        "c",
        f"{label}: no request fails once the database answers again",
        not late_failures,
        f"{len(late_failures)} of {len(after)} saves sent after the database was ready failed "
        f"({summary(late_failures)})",
    )
    check_nothing_lost("c", label, site, players)


def fault_database(site: Site, pg: PrivatePostgres, players: list[Player], outage: float) -> None:
    print("\n(c) the database restarted (pg_ctl restart -m fast) while players save", flush=True)
    database_under_load(site, pg, players, "restart", pg.restart, 20_000)

    def stop_and_start() -> None:
        pg.stop(mode="fast")
        time.sleep(outage)
        pg.start()

    print(
        f"\n(c) the database stopped for {outage:.0f} s (pg_ctl stop -m fast, then start) while players save",
        flush=True,
    )
    database_under_load(site, pg, players, f"{outage:.0f} s stop", stop_and_start, 25_000)

    from django.db import connection as conn_

    conn = conn_.settings_dict
    print("\n(c) the database restarted while the site is idle, then players come back", flush=True)
    # Give every gunicorn worker a database connection (CONN_MAX_AGE keeps it for a minute).
    stop = threading.Event()
    warm = [Saver(site, p, stop, 0.0, 30_000) for p in players]
    for t in warm:
        t.start()
    time.sleep(1.5)
    stop.set()
    for t in warm:
        t.join(timeout=TIMEOUT + 5)
    pg.restart()
    wait_until(pg.ready, 30, 0.05)
    time.sleep(0.5)
    replies = []
    for i in range(GUNICORN_WORKERS * 4):
        p = players[i % len(players)]
        reply = site.save(p, 40_000 + i)
        p.took(reply)
        replies.append(reply)
    failures = [r for r in replies if r.status not in (200, 409)]
    check(
        "c",
        "idle restart: the first requests afterwards succeed (pooled connections)",
        not failures,
        f"{len(replies)} saves one after another once the database was ready: {summary(replies)} "
        f"({GUNICORN_WORKERS} gunicorn workers; CONN_MAX_AGE {conn['CONN_MAX_AGE']}, "
        f"CONN_HEALTH_CHECKS {conn['CONN_HEALTH_CHECKS']})",
    )
    check_nothing_lost("c", "idle restart", site, players)
