"""Midnight: many players on the home page and the new day's puzzles while the site's date turns,
with gunicorn, a Celery worker and beat running under a faked clock (libfaketime).

    python bench/midnight.py [--players 50] [--before 12] [--after 20] [--workers 4] [--tz Europe/Amsterdam]

Debian's `faketime` runs every server process with the same offset from the real clock (a
relative offset, so processes started a second apart still agree), chosen so that the site's
midnight (in --tz) falls `--before` seconds after the players start. Two scenarios run in turn:

  ahead   the dailies of today and the next PUBLISH_DAYS_AHEAD (2) days are published beforehand,
          as beat keeps them; beat runs on its normal schedule.
  beat    only today's dailies exist; the pools hold a puzzle per tier and beat publishes every
          few seconds with PUBLISH_DAYS_AHEAD=0, so the new day's puzzles appear only when beat's
          next tick after midnight publishes them (the window players see an empty day is measured).

Each player, on its own logged-in keep-alive connection, polls the home page and requests one of
the new day's puzzle pages (and, once it is served, its state and a save) about twice a second.
Checked: no 5xx or dropped connection; every home page shows the date the clock says (before or
after midnight) with all five puzzles of that date; the new day's pages are 404 before midnight
(the future is never served) and 200 after. Uses its own database `sudoku_bench_midnight` and
Redis databases 8 (broker) and 9 (cache).
"""

from __future__ import annotations

import argparse
import datetime
import glob
import http.client
import json
import os
import random
import re
import shutil
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import (
    BROKER_URL,
    CACHE_URL,
    TIERS,
    Connection,
    celery_beat,
    celery_worker,
    free_port,
    gunicorn,
    make_puzzles,
    new_players,
    percentile,
    reset_site,
    setup_site,
    stop,
)

DB_URL = os.environ.get("BENCH_MIDNIGHT_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sudoku_bench_midnight")
CARD_LINK = re.compile(rb'href="/daily/(\d{4}-\d{2}-\d{2})/([a-z]+)/"')
HEADING_DATE = re.compile(rb"Today's puzzles <small>([^<]+)</small>")
# A response counts as "after midnight" only when sent this long after it, and as "before" only
# when it came back this long before: the bench's clock and the servers' agree to well within it.
MARGIN = 0.05
# Debian's faketime package puts the library under the machine's multiarch folder.
LIBFAKETIME = next(
    iter(sorted(glob.glob("/usr/lib/*/faketime/libfaketime.so.1"))), "/usr/lib/faketime/libfaketime.so.1"
)


@dataclass
class Seen:
    kind: str  # home, newpage, state, save
    sent: float  # fake seconds relative to midnight
    received: float
    status: int
    shown: str = ""  # home: the heading's date; newpage etc.: the day asked for
    cards: int = 0  # home: puzzles of the shown date linked
    link_dates: set = field(default_factory=set)


class Watcher(threading.Thread):
    def __init__(self, port: int, session: tuple[str, str], clock, until: float, new_day: datetime.date, seed: int):
        super().__init__(daemon=True)
        self.port, self.clock, self.until, self.new_day = port, clock, until, new_day
        sid, csrf = session
        self.headers = {"Cookie": f"sessionid={sid}; csrftoken={csrf}", "X-CSRFToken": csrf}
        self.rng = random.Random(seed)
        self.seen: list[Seen] = []
        self.version: dict[str, int] = {}

    def get(self, conn: Connection, kind: str, method: str, path: str, body: bytes | None = None) -> tuple[Seen, bytes]:
        sent = self.clock()
        headers = dict(self.headers, **({"Content-Type": "application/json"} if body is not None else {}))
        status, data, _ = conn.send(method, path, body, headers)
        seen = Seen(kind, sent, self.clock(), status)
        self.seen.append(seen)
        return seen, data

    def run(self) -> None:
        conn = Connection(self.port)
        time.sleep(self.rng.uniform(0, 0.5))
        while self.clock() < self.until:
            seen, data = self.get(conn, "home", "GET", "/")
            heading = HEADING_DATE.search(data)
            if heading:
                seen.shown = datetime.datetime.strptime(heading.group(1).decode(), "%A %d %B %Y").date().isoformat()
            links = CARD_LINK.findall(data)
            seen.link_dates = {d.decode() for d, _ in links}
            seen.cards = len({t for d, t in links if d.decode() == seen.shown})
            tier = self.rng.choice(TIERS)
            day = self.new_day.isoformat()
            page, _ = self.get(conn, "newpage", "GET", f"/daily/{day}/{tier}/")
            page.shown = day
            if page.status == 200:
                api = f"/api/daily/{day}/{tier}/"
                state, data = self.get(conn, "state", "GET", api + "state/")
                if state.status == 200:
                    version = json.loads(data)["version"]
                    digits = "0" * 81
                    self.get(
                        conn,
                        "save",
                        "POST",
                        api + "save/",
                        json.dumps(
                            {"version": version, "digits": digits, "corner": [""] * 81, "centre": [""] * 81}
                        ).encode(),
                    )
            time.sleep(self.rng.uniform(0.3, 0.7))
        conn.close()


def scenario(name: str, args, env: dict[str, str], tz: ZoneInfo) -> dict:
    from django.db import connections

    from puzzles.models import DailyPuzzle

    reset_site("night")
    warmup = 10.0  # seconds for gunicorn, the worker and beat to start before the players do
    real_start = time.time() + warmup
    midnight_real = real_start + args.before
    # The site's next midnight is placed at `midnight_real`: find the date it begins.
    fake_midnight = datetime.datetime.combine(
        datetime.datetime.now(tz).date() + datetime.timedelta(days=1), datetime.time(), tz
    )
    offset = round(fake_midnight.timestamp() - midnight_real)
    old_day = fake_midnight.date() - datetime.timedelta(days=1)
    new_day = fake_midnight.date()
    fake_midnight_ts = fake_midnight.timestamp()
    clock = lambda: time.time() + offset - fake_midnight_ts  # noqa: E731  (fake seconds from midnight)

    days = [old_day, new_day, new_day + datetime.timedelta(days=1)] if name == "ahead" else [old_day]
    for n, day in enumerate(days):
        make_puzzles(seed=100 + n, day=day)
    if name == "beat":
        make_puzzles(seed=200)  # the pools: one puzzle per tier for beat to publish at midnight
        # A running site's pools, filled long ago: a day not yet published is "not there yet"
        # (404), never "being prepared" (a new site's first fill, answered 503).
        from django.utils import timezone

        from puzzles.models import Pool

        for tier in TIERS:
            Pool.objects.update_or_create(tier=tier, defaults={"filled_at": timezone.now()})
    sessions = [session for _, session in new_players(args.players, f"night{name}")]
    connections.close_all()

    scratch = Path(tempfile.mkdtemp(prefix="midnight-"))
    # (FAKETIME_DONT_FAKE_MONOTONIC=1 would be natural, but with libfaketime 0.9.10 it makes
    # Python's time.sleep fail with EINVAL; a relative offset moves the monotonic clock harmlessly.)
    child_env = dict(
        env,
        TZ="UTC",
        REFILL_EVERY_SECONDS="3600",
        PUBLISH_DAYS_AHEAD="2" if name == "ahead" else "0",
        PUBLISH_EVERY_SECONDS="600" if name == "ahead" else str(args.beat_every),
    )
    # libfaketime preloaded straight into each process (not through the `faketime` wrapper, which
    # forks and does not pass SIGTERM on), all with one relative offset so their clocks agree.
    child_env.update(LD_PRELOAD=LIBFAKETIME, FAKETIME=f"{offset:+d}")
    port = free_port()
    processes = [
        celery_worker(f"midnight-{name}-{os.getpid()}", child_env, scratch / "worker.log", queues="default"),
        celery_beat(child_env, scratch / "beat.log", scratch / "beat-schedule"),
    ]
    try:
        processes.append(gunicorn(port, child_env, args.workers))  # the worker and beat start meanwhile
        # The servers' clock, asked through the site: the Date header is theirs.
        probe = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        probe.request("GET", "/ping/")
        server_date = probe.getresponse().getheader("Date", "")
        probe.close()
        time.sleep(max(0.0, real_start - time.time()))
        until = args.after
        watchers = [Watcher(port, s, clock, until, new_day, i) for i, s in enumerate(sessions)]
        for w in watchers:
            w.start()
        for w in watchers:
            w.join(timeout=args.before + args.after + 60)
    finally:
        stop(*processes)
    beat_log = (scratch / "beat.log").read_text(errors="replace")
    shutil.rmtree(scratch, ignore_errors=True)
    published = DailyPuzzle.objects.filter(date=new_day).count()
    seen = [s for w in watchers for s in w.seen]
    return analyse(name, seen, old_day, new_day, published, server_date, beat_log, args)


def analyse(
    name: str, seen: list[Seen], old_day, new_day, published: int, server_date: str, beat_log: str, args
) -> dict:
    old, new = old_day.isoformat(), new_day.isoformat()
    failures = [s for s in seen if s.status >= 500 or s.status == 0]
    home = [s for s in seen if s.kind == "home" and s.status == 200]
    wrong_date = [s for s in home if (s.sent > MARGIN and s.shown != new) or (s.received < -MARGIN and s.shown != old)]
    empty = [s for s in home if s.cards < len(TIERS)]
    empty_new = [s for s in empty if s.shown == new]
    pages = [s for s in seen if s.kind == "newpage"]
    early = [s for s in pages if s.received < -MARGIN and s.status != 404]
    late_404 = [s for s in pages if s.sent > MARGIN and s.status != 200]
    full_new = [s.received for s in home if s.shown == new and s.cards == len(TIERS)]
    first_full = min(full_new) if full_new else float("nan")
    last_empty = max((s.received for s in empty_new), default=float("nan"))
    statuses: dict[str, dict[int, int]] = {}
    for s in seen:
        statuses.setdefault(s.kind, {}).setdefault(s.status, 0)
        statuses[s.kind][s.status] += 1
    latencies = [(s.received - s.sent) * 1000 for s in seen]
    window = [(s.received - s.sent) * 1000 for s in seen if -2 <= s.sent <= 3]
    beat_sent = beat_log.count("Sending due task publish-dailies")
    print(
        f"\nscenario '{name}': {args.players} players, {args.before:.0f} s before and {args.after:.0f} s after the "
        f"site's midnight ({args.tz}), {old} -> {new}; servers' Date header at start: {server_date}"
    )
    print(f"  requests: {len(seen)}; by kind and status: {json.dumps(statuses, sort_keys=True)}")
    print(
        f"  latency p50 {percentile(latencies, 0.5):.1f} ms, p99 {percentile(latencies, 0.99):.1f} ms; "
        f"from 2 s before to 3 s after midnight p99 {percentile(window, 0.99):.1f} ms ({len(window)} requests)"
    )
    print(f"  5xx or dropped connections: {len(failures)}")
    print(
        f"  home pages: {len(home)}, showing {old}: {sum(s.shown == old for s in home)}, {new}: "
        f"{sum(s.shown == new for s in home)}; showing the wrong date for their time: {len(wrong_date)}"
    )
    print(
        f"  home pages with fewer than {len(TIERS)} puzzles (an empty day): {len(empty)} "
        f"(of the new day: {len(empty_new)}, the last {last_empty:+.2f} s after midnight)"
    )
    print(f"  first home page with the new day's five puzzles: {first_full:+.2f} s after midnight")
    print(
        f"  new day's pages: {len(pages)}; served before midnight: {len(early)}; not 200 after midnight: {len(late_404)}"
    )
    print(f"  dailies of {new} in the database at the end: {published}; beat sent publish-dailies {beat_sent} times")
    ok = not failures and not wrong_date and not early and published == len(TIERS)
    if name == "ahead":
        ok = ok and not empty and not late_404
    else:  # the new day shows once beat has published it: its midnight tick, or the next at worst
        ok = ok and first_full <= args.beat_every + MARGIN
    print(f"  verdict: {'as expected' if ok else 'PROBLEM'}")
    return {"ok": ok, "failures": len(failures), "empty_new": len(empty_new), "first_full": first_full}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--before", type=float, default=12.0, help="seconds of play before the site's midnight")
    parser.add_argument("--after", type=float, default=20.0, help="seconds of play after it")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn worker processes")
    parser.add_argument("--tz", default="Europe/Amsterdam", help="the site's TIME_ZONE")
    parser.add_argument(
        "--beat-every", type=float, default=5.0, help="beat's publishing interval in the 'beat' scenario"
    )
    parser.add_argument("--scenario", choices=["ahead", "beat", "both"], default="both")
    args = parser.parse_args()
    if not Path(LIBFAKETIME).exists():
        raise SystemExit("needs Debian's faketime: apt-get install -y faketime")

    env = setup_site(DB_URL, CACHE_URL, broker=BROKER_URL, TIME_ZONE=args.tz)
    tz = ZoneInfo(args.tz)
    results = [
        scenario(name, args, env, tz) for name in (["ahead", "beat"] if args.scenario == "both" else [args.scenario])
    ]
    sys.exit(0 if all(r["ok"] for r in results) else 1)


if __name__ == "__main__":
    main()
