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
import http.client
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.web import free_port  # noqa: E402

DB_URL = os.environ.get("BENCH_LOAD_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sudoku_bench_load")
BROKER_URL = os.environ.get("BENCH_LOAD_BROKER_URL", "redis://127.0.0.1:6379/8")
CACHE_URL = os.environ.get("BENCH_LOAD_CACHE_URL", "redis://127.0.0.1:6379/9")
PASSWORD = "a long bench password 1"
TIERS = ("easy", "medium", "hard", "expert", "extreme")
ENDPOINTS = ("login-form", "login", "home", "page", "state", "save", "beat", "submit")
CSRF_INPUT = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')


def production_env(db_url: str = DB_URL) -> dict[str, str]:
    """Production settings as bench/web.py sets them (less HTTPS: plain HTTP on loopback)."""
    return {
        **os.environ,
        "DATABASE_URL": db_url,
        "REDIS_URL": BROKER_URL,
        "CACHE_URL": CACHE_URL,
        "DJANGO_DEBUG": "0",
        "SECRET_KEY": "bench-only-" + "x" * 50,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        # The hundred players share one loopback address, where a real crowd has one each: the
        # per-address log-in limit would refuse all but the first 20 a minute.
        "RATE_LIMIT_LOGIN": "",
        "RATE_LIMIT_LOGIN_FAILED": "",
    }


def ensure_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        if not conn.execute("select 1 from pg_database where datname = %s", (name,)).fetchone():
            conn.execute(f'create database "{name}"')


def setup_django(env: dict[str, str]) -> None:
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sudokusite.settings")
    import django

    django.setup()


def reset_site() -> None:
    """Migrate, empty the bench's database and cache, and collect static files (hashed names)."""
    from django.contrib.auth.models import User
    from django.core.cache import cache
    from django.core.management import call_command

    from puzzles.models import Attempt, DailyPuzzle, Hint, Puzzle, Solve

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    cache.clear()
    for model in (Hint, Solve, Attempt, DailyPuzzle, Puzzle):
        model.objects.all().delete()
    User.objects.filter(username__startswith="player").delete()


def make_puzzles(seed: int, tiers=TIERS) -> list:
    """One stored puzzle per tier, made by the engine from a seed."""
    from puzzles import pipeline

    rng = random.Random(seed)
    return [pipeline.puzzle_store(pipeline.puzzle_make(tier, rng=rng)) for tier in tiers]


def make_players(count: int) -> float:
    """Users player0.. with a real password hash (one PBKDF2 hash, shared); the hash's seconds."""
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import User

    started = time.perf_counter()
    hashed = make_password(PASSWORD)
    seconds = time.perf_counter() - started
    User.objects.bulk_create([User(username=f"player{i}", password=hashed) for i in range(count)])
    return seconds


def wait_for(port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/ping/")
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"gunicorn did not answer on port {port}")


def gunicorn(port: int, workers: int, env: dict[str, str], prefix: tuple[str, ...] = ()) -> subprocess.Popen:
    return subprocess.Popen(
        [
            *prefix,
            sys.executable,
            "-m",
            "gunicorn",
            "sudokusite.wsgi",
            "--workers",
            str(workers),
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
            "--timeout",
            "60",
        ],
        cwd=ROOT,
        env=env,
    )


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class Browser:
    """One player's keep-alive connection and cookies; every request is timed and recorded."""

    def __init__(self, port: int, samples: list, timeout: float = 60):
        self.port, self.samples, self.timeout = port, samples, timeout
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        self.cookies: dict[str, str] = {}

    def request(
        self, kind: str, method: str, path: str, body: bytes | None = None, content_type: str = "application/json"
    ) -> tuple[int, bytes, http.client.HTTPResponse | None]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if method == "POST":
            headers["Content-Type"] = content_type
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        started, sent_at = time.perf_counter(), time.monotonic()
        try:
            self.conn.request(method, path, body=body, headers=headers)
            response = self.conn.getresponse()
            data = response.read()
            status = response.status
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
            status, data, response = 0, b"", None
        # (kind, when it was sent, milliseconds, status): a request belongs to the phase it was sent in.
        self.samples.append((kind, sent_at, (time.perf_counter() - started) * 1000, status))
        if response is not None:
            for header in response.msg.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(header).items():
                    self.cookies[name] = morsel.value
        return status, data, response

    def close(self) -> None:
        self.conn.close()


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
    def __init__(
        self,
        index: int,
        port: int,
        start_at: float,
        until: float,
        dailies: list[Daily],
        save_every: float,
        beat_every: float,
        saves_per_puzzle: int,
    ):
        super().__init__(daemon=True)
        self.index, self.port, self.start_at, self.until = index, port, start_at, until
        self.dailies = dailies[index % len(dailies) :] + dailies[: index % len(dailies)]
        self.save_every, self.beat_every, self.saves_per_puzzle = save_every, beat_every, saves_per_puzzle
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
        status, page, _ = browser.request("login-form", "GET", "/accounts/login/")
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
        status, _, _response = browser.request(
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
            status, data, _ = browser.request(kind, "GET", path)
            if status != 200:
                self.fail(f"{kind}: {status}")
                return False
        status, data, _ = browser.request("state", "GET", api + "state/")
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
        status, _, _ = browser.request("beat", "POST", api + "beat/", b'{"phase": "open"}')
        if status != 200:
            self.fail(f"beat: {status}")
        while todo:
            wake = min(next_save, next_beat)
            if wake >= self.until:
                return False
            time.sleep(max(0.0, wake - time.monotonic()))
            if next_beat <= next_save:
                status, _, _ = browser.request("beat", "POST", api + "beat/", b"{}")
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
                status, data, _ = browser.request("save", "POST", api + "save/", body.encode())
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
        status, data, _ = browser.request(
            "submit", "POST", api + "submit/", json.dumps({"version": version, "digits": digits, "moves": []}).encode()
        )
        if status != 200 or not json.loads(data).get("solved"):
            self.fail(f"submit: {status} {data[:100]!r}")
            return False
        self.outcome.solved.add(daily.difficulty)
        return True


def percentile(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(len(values) * q))] if values else float("nan")


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

    env = production_env()
    ensure_database(DB_URL)
    setup_django(env)
    reset_site()
    from django.contrib.auth.hashers import PBKDF2PasswordHasher, check_password, get_hasher

    from puzzles import pipeline
    from puzzles.models import site_today

    today = site_today()
    dailies = {}
    for puzzle in make_puzzles(seed=6):
        pipeline.daily_schedule(puzzle, today, puzzle.tier)
        dailies[puzzle.tier] = Daily(
            puzzle.tier, f"/daily/{today.isoformat()}/{puzzle.tier}/", puzzle.givens, puzzle.solution
        )
    hash_seconds = make_players(args.players)
    from django.contrib.auth.models import User

    hashed = User.objects.get(username="player0").password
    started = time.perf_counter()
    check_password(PASSWORD, hashed)
    check_seconds = time.perf_counter() - started
    from django.db import connections

    connections.close_all()

    port = free_port()
    server = gunicorn(port, args.workers, env)
    try:
        wait_for(port)
        warm = Browser(port, [])
        for _ in range(4 * args.workers):  # every worker's imports and templates, not measured
            for path in ["/", "/accounts/login/", *(d.path for d in dailies.values())]:
                warm.request("warm", "GET", path)
        warm.close()
        begin = time.monotonic() + 0.5
        until = begin + args.seconds
        players = [
            Player(
                i,
                port,
                begin + args.ramp * i / max(1, args.players),
                until,
                list(dailies.values()),
                args.save_every,
                args.beat_every,
                args.saves_per_puzzle,
            )
            for i in range(args.players)
        ]
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
        print(f"{'endpoint':<12}{'count':>8}{'p50 ms':>10}{'p99 ms':>10}{'max ms':>10}{'errors':>8}{'409s':>6}")
        for kind, r in table.items():
            print(
                f"{kind:<12}{r['count']:>8}{r['p50']:>10.1f}{r['p99']:>10.1f}{r['max']:>10.1f}{r['errors']:>8}{r['conflicts']:>6}"
            )
    errors = sum(r["errors"] for r in whole.values())
    print(
        f"\nerrors: {errors}; solves acknowledged {sum(len(p.outcome.solved) for p in players)}; "
        f"saves acknowledged and checked in the database: {sum(len(p.outcome.saved) for p in players)} attempts; "
        f"lost or mismatched: {len(problems)}"
    )
    for line in (failures + problems)[:20]:
        print("  ", line)
    worst = max(steady[k]["p99"] for k in ENDPOINTS if k not in ("login", "login-form") and steady[k]["count"])
    print(
        f"target: 0 errors at {args.players} players and p99 under 200 ms except login: "
        f"{'met' if errors == 0 and not problems and worst < 200 else 'not met'} (worst steady p99 {worst:.1f} ms)"
    )
    sys.exit(1 if errors or problems else 0)


if __name__ == "__main__":
    main()
