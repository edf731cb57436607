"""Load: simulated players on loopback against gunicorn with production settings, PostgreSQL, and
Redis as broker and cache, each playing the way the board does.

    python bench/load.py [--players 100] [--seconds 60] [--workers 4] [--ramp 5]

Each player is a thread with its own keep-alive connection (http.client). It logs in through the
real login form (GET for the CSRF cookie, POST username and password: a full PBKDF2 check),
opens the home page and a daily's page, fetches its state, saves a few more cells every few
seconds (naming the version it started from; on a 409 it adopts the returned version, as
board.js does), sends a heartbeat every 10 s (an "open" first) and finally submits the solved
grid, then moves on to the next difficulty until the time is up. Each save and the submit carry
the moves that put their digits in, as the board's record of play does (puzzles/playlog.py), so
every write also adds its event. Players start evenly over `--ramp` seconds.

At the end the database is checked against what each player was told: every acknowledged save is
there (no lost save) with its event in the record of play, and every acknowledged solve is
recorded. It uses (and empties) its own
database `sudoku_bench_load` (BENCH_LOAD_DATABASE_URL) and Redis databases 8 (broker) and 9
(cache).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import (
    BROKER_URL,
    CACHE_URL,
    Browser,
    daily_path,
    free_port,
    gunicorn,
    make_puzzles,
    percentile,
    reset_site,
    row,
    setup_site,
    stop,
)

DB_URL = os.environ.get("BENCH_LOAD_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sudoku_bench_load")
PASSWORD = "a long bench password 1"
ENDPOINTS = ("login-form", "login", "home", "page", "state", "save", "beat", "submit")
CSRF_INPUT = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')


def make_players(count: int) -> float:
    """Users player0.. with a real password hash (one PBKDF2 hash, shared); the hash's seconds."""
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import User

    started = time.perf_counter()
    hashed = make_password(PASSWORD)
    seconds = time.perf_counter() - started
    User.objects.bulk_create([User(username=f"player{i}", password=hashed) for i in range(count)])
    return seconds


@dataclass
class Daily:
    difficulty: str
    path: str  # /daily/YYYY-MM-DD/<difficulty>/
    givens: str
    solution: str


@dataclass
class Outcome:
    """What one player was told: per daily its last acknowledged save, and its solves."""

    logged_in: bool = False
    finished: bool = False
    saved: dict[str, tuple[int, str]] = field(default_factory=dict)  # difficulty -> (version, digits)
    solved: set[str] = field(default_factory=set)
    conflicts: int = 0
    saves: int = 0  # saves answered 200, each an event in the record of play
    failures: list[str] = field(default_factory=list)


class Player(threading.Thread):
    """Player `index`, starting at `start_at` and playing until `until` at the pace `args` set."""

    def __init__(self, index: int, port: int, start_at: float, until: float, dailies: list[Daily], args) -> None:
        super().__init__(daemon=True)
        self.index, self.port, self.start_at, self.until = index, port, start_at, until
        self.dailies = dailies[index % len(dailies) :] + dailies[: index % len(dailies)]
        self.save_every, self.beat_every, self.saves_per_puzzle = (
            args.save_every,
            args.beat_every,
            args.saves_per_puzzle,
        )
        self.rng = random.Random(index)
        self.samples: list = []
        self.outcome = Outcome()

    def fail(self, what: str) -> None:
        self.outcome.failures.append(what)

    def run(self) -> None:
        time.sleep(max(0.0, self.start_at - time.monotonic()))
        browser = Browser(self.port, self.samples)
        try:
            if self.login(browser):
                self.outcome.logged_in = True
                for daily in self.dailies:
                    if time.monotonic() >= self.until or not self.play(browser, daily):
                        break
                self.outcome.finished = not self.outcome.failures
        finally:
            browser.close()

    def login(self, browser: Browser) -> bool:
        status, page = browser.request("login-form", "GET", "/accounts/login/")
        token = CSRF_INPUT.search(page)
        if status != 200 or not token or "csrftoken" not in browser.cookies:
            self.fail(f"login form: {status}")
            return False
        body = urlencode(
            {
                "login": f"player{self.index}",
                "password": PASSWORD,
                "csrfmiddlewaretoken": token.group(1).decode(),
                "next": "/",
            }
        ).encode()
        status, _ = browser.request(
            "login", "POST", "/accounts/login/", body, content_type="application/x-www-form-urlencoded"
        )
        if status != 302 or "sessionid" not in browser.cookies:
            self.fail(f"login: {status}")
            return False
        return True

    def moves_for(self, cells: list[int], solution: str) -> list:
        """The board's moves for `cells` filled one by one since the last save, oldest first."""
        ages = sorted((int(self.rng.uniform(0, self.save_every * 1000)) for _ in cells), reverse=True)
        return [[age, "d", [[cell, int(solution[cell])]]] for age, cell in zip(ages, cells)]

    def play(self, browser: Browser, daily: Daily) -> bool:
        """One daily from the home page to the solve; False when the player has to stop."""
        api = "/api" + daily.path
        for kind, path in (("home", "/"), ("page", daily.path)):
            status, data = browser.request(kind, "GET", path)
            if status != 200:
                self.fail(f"{kind}: {status}")
                return False
        status, data = browser.request("state", "GET", api + "state/")
        if status != 200:
            self.fail(f"state: {status}")
            return False
        state = json.loads(data)
        version, board = state["version"], list(state["digits"])
        todo = [i for i, g in enumerate(daily.givens) if g == "0" and board[i] == "0"]
        self.rng.shuffle(todo)
        per_save = max(1, -(-len(todo) // self.saves_per_puzzle))
        # Real players do not move in step: the first save comes at a random point of the interval.
        next_save = time.monotonic() + self.rng.uniform(0.5, self.save_every)
        next_beat = time.monotonic() + self.rng.uniform(0.5, self.beat_every)
        status, _ = browser.request("beat", "POST", api + "beat/", b'{"phase": "open"}')
        if status != 200:
            self.fail(f"beat: {status}")
        while todo:
            wake = min(next_save, next_beat)
            if wake >= self.until:
                return False
            time.sleep(max(0.0, wake - time.monotonic()))
            if next_beat <= next_save:
                status, _ = browser.request("beat", "POST", api + "beat/", b"{}")
                if status != 200:
                    self.fail(f"beat: {status}")
                next_beat += self.beat_every
                continue
            placed = todo[:per_save]
            for cell in placed:
                board[cell] = daily.solution[cell]
            moves = self.moves_for(placed, daily.solution)
            corner = [""] * 81
            centre = [
                "" if board[i] != "0" or daily.givens[i] != "0" else daily.solution[i]
                for i in todo[per_save : per_save + 3]
            ]
            centre += [""] * (81 - len(centre))
            for _ in range(2):  # a 409 is answered once: adopt the stored version and save again
                body = json.dumps(
                    {"version": version, "digits": "".join(board), "corner": corner, "centre": centre, "moves": moves}
                )
                status, data = browser.request("save", "POST", api + "save/", body.encode())
                if status == 409:
                    self.outcome.conflicts += 1
                    version = json.loads(data)["state"]["version"]
                    continue
                break
            if status != 200:
                self.fail(f"save: {status}")
                return False
            version = json.loads(data)["version"]
            self.outcome.saved[daily.difficulty] = (version, "".join(board))
            self.outcome.saves += 1
            todo = todo[per_save:]
            # People do not save on a metronome: without jitter, players released together by
            # the login queue stay in step and arrive in bursts for the rest of the run.
            next_save += self.save_every * self.rng.uniform(0.5, 1.5)
        digits = "".join("0" if g != "0" else s for g, s in zip(daily.givens, daily.solution))
        status, data = browser.request(
            "submit", "POST", api + "submit/", json.dumps({"version": version, "digits": digits, "moves": []}).encode()
        )
        if status != 200 or not json.loads(data).get("solved"):
            self.fail(f"submit: {status} {data[:100]!r}")
            return False
        self.outcome.solved.add(daily.difficulty)
        return True


def expected_status(kind: str) -> int:
    return 302 if kind == "login" else 200


def summarise(samples: list, since: float, until: float) -> dict[str, dict]:
    out = {}
    for kind in ENDPOINTS:
        chosen = [s for s in samples if s[0] == kind and since < s[1] <= until]
        latencies = sorted(s[2] for s in chosen)
        out[kind] = {
            "count": len(chosen),
            "p50": percentile(latencies, 0.5),
            "p99": percentile(latencies, 0.99),
            "max": latencies[-1] if latencies else float("nan"),
            "errors": sum(1 for s in chosen if s[3] != expected_status(kind) and s[3] != 409),
            "conflicts": sum(1 for s in chosen if s[3] == 409),
        }
    return out


def verify(players: list[Player], dailies: dict[str, Daily]) -> list[str]:
    """Every acknowledged save and solve is in the database (nothing lost, nothing extra)."""
    from puzzles.models import Attempt, PlayEvent, Solve

    problems = []
    saves = PlayEvent.objects.filter(kind=PlayEvent.Kind.SAVE).count()
    acknowledged = sum(p.outcome.saves for p in players)
    if saves != acknowledged:
        problems.append(f"the record of play holds {saves} saves, {acknowledged} were acknowledged")
    for player in players:
        user = f"player{player.index}"
        attempts = {a.daily.difficulty: a for a in Attempt.objects.filter(user__username=user).select_related("daily")}
        solved = set(Solve.objects.filter(user__username=user).values_list("daily__difficulty", flat=True))
        if solved != player.outcome.solved:
            problems.append(f"{user}: solves recorded {sorted(solved)}, acknowledged {sorted(player.outcome.solved)}")
        for difficulty, (version, board) in player.outcome.saved.items():
            attempt = attempts.get(difficulty)
            if difficulty in player.outcome.solved:
                continue
            stored = "".join("0" if g != "0" else d for g, d in zip(dailies[difficulty].givens, board))
            if attempt is None or attempt.version != version or attempt.digits != stored:
                problems.append(
                    f"{user} {difficulty}: acknowledged version {version}, stored "
                    f"{attempt.version if attempt else None} (digits match: {attempt is not None and attempt.digits == stored})"
                )
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the players play, after the first starts")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn worker processes")
    parser.add_argument("--ramp", type=float, default=5.0, help="seconds over which the players start")
    parser.add_argument(
        "--save-every", type=float, default=3.0, help="mean seconds between one player's saves (0.5x-1.5x)"
    )
    parser.add_argument("--beat-every", type=float, default=10.0, help="seconds between heartbeats (board.js: 10)")
    parser.add_argument("--saves-per-puzzle", type=int, default=6)
    args = parser.parse_args()

    env = setup_site(DB_URL, CACHE_URL, broker=BROKER_URL)
    reset_site("player")
    from django.contrib.auth.hashers import PBKDF2PasswordHasher, check_password, get_hasher

    from puzzles.models import site_today

    today = site_today()
    dailies = {
        puzzle.tier: Daily(puzzle.tier, daily_path(today, puzzle.tier), puzzle.givens, puzzle.solution)
        for puzzle in make_puzzles(seed=6, day=today)
    }
    hash_seconds = make_players(args.players)
    from django.contrib.auth.models import User

    hashed = User.objects.get(username="player0").password
    started = time.perf_counter()
    check_password(PASSWORD, hashed)
    check_seconds = time.perf_counter() - started
    from django.db import connections

    connections.close_all()

    port = free_port()
    server = gunicorn(port, env, args.workers)
    try:
        warm = Browser(port, [])
        for _ in range(4 * args.workers):  # every worker's imports and templates, not measured
            for path in ["/", "/accounts/login/", *(d.path for d in dailies.values())]:
                warm.request("warm", "GET", path)
        warm.close()
        begin = time.monotonic() + 0.5
        until = begin + args.seconds
        ramp = [begin + args.ramp * i / max(1, args.players) for i in range(args.players)]
        players = [Player(i, port, at, until, list(dailies.values()), args) for i, at in enumerate(ramp)]
        for p in players:
            p.start()
        for p in players:
            p.join(timeout=max(1.0, until + 90 - time.monotonic()))
        ended = time.monotonic()
    finally:
        stop(server)

    samples = [s for p in players for s in p.samples]
    logins = [s[1] + s[2] / 1000 for s in samples if s[0] == "login"]
    steady_from = max(logins) if logins else until  # when the last login was answered
    whole = summarise(samples, begin, ended)
    steady = summarise(samples, steady_from, until)
    problems = verify(players, dailies)
    logged_in = sum(p.outcome.logged_in for p in players)
    sustained = sum(p.outcome.logged_in and not p.outcome.failures for p in players)
    failures = [f"player{p.index}: {f}" for p in players for f in p.outcome.failures]
    requests = len(samples)
    steady_count = sum(1 for s in samples if steady_from < s[1] <= until)
    steady_seconds = max(0.001, until - steady_from)

    print(
        f"\nbench/load.py: {args.players} players over a {args.ramp:.0f} s ramp, {args.seconds:.0f} s; gunicorn "
        f"{args.workers} sync workers, PostgreSQL, Redis broker + cache ({os.cpu_count()} cores shared with the load)"
    )
    print(
        f"each player: login form, login, then per daily home, page, state, a save every {args.save_every:.0f} s on average "
        f"({args.saves_per_puzzle} per puzzle), a heartbeat every {args.beat_every:.0f} s, submit; next daily"
    )
    print(
        f"password hashing: PBKDF2-SHA256, {PBKDF2PasswordHasher.iterations:,} iterations "
        f"({get_hasher().algorithm}); one hash here {hash_seconds * 1000:.0f} ms, one check {check_seconds * 1000:.0f} ms"
    )
    print(
        f"players logged in {logged_in}/{args.players}, sustained to the end without an error {sustained}; "
        f"all logged in {steady_from - begin:.1f} s after the first started"
    )
    print(
        f"requests {requests} in {ended - begin:.1f} s ({requests / (ended - begin):.1f}/s overall); "
        f"after the last login {steady_count} in {steady_seconds:.1f} s ({steady_count / steady_seconds:.1f}/s)"
    )
    for title, table in (("whole run", whole), ("sent after the last login was answered (steady)", steady)):
        print(f"\n{title}")
        widths = (-12, 8, 10, 10, 10, 8, 6)
        print(row("endpoint", "count", "p50 ms", "p99 ms", "max ms", "errors", "409s", widths=widths, sep=""))
        for kind, r in table.items():
            times = (f"{r['p50']:.1f}", f"{r['p99']:.1f}", f"{r['max']:.1f}")
            print(row(kind, r["count"], *times, r["errors"], r["conflicts"], widths=widths, sep=""))
    errors = sum(r["errors"] for r in whole.values())
    print(
        f"\nerrors: {errors}; solves acknowledged {sum(len(p.outcome.solved) for p in players)}; "
        f"saves acknowledged and checked in the database: {sum(len(p.outcome.saved) for p in players)} attempts; "
        f"lost or mismatched: {len(problems)}"
    )
    for line in (failures + problems)[:20]:
        print("  ", line)
    played = [steady[k]["p99"] for k in ENDPOINTS if k not in ("login", "login-form") and steady[k]["count"]]
    worst = max(played, default=float("nan"))  # nan when the run ended before the last login
    print(
        f"target: 0 errors at {args.players} players and p99 under 200 ms except login: "
        f"{'met' if errors == 0 and not problems and worst < 200 else 'not met'} (worst steady p99 {worst:.1f} ms)"
    )
    sys.exit(1 if errors or problems else 0)


if __name__ == "__main__":
    main()
