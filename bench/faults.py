"""Fault injection: the site and the puzzle pipeline while Redis, a worker or the database goes
away, and clients that replay or race their saves. Prints every check with its figures, a table
at the end, and exits 1 if any check fails.

    python bench/faults.py [--players 8] [--redis-outage 4] [--only d,a,c,b]

Everything runs on services the script starts and stops itself, never the shared ones: a
PostgreSQL cluster of its own (initdb in a temporary folder, on a free port; run as the
`postgres` user when started as root) and a redis-server of its own on a free port (the broker
on database 0, the cache on database 1). gunicorn serves the site with production settings, as
bench/web.py does, less HTTPS (plain HTTP on loopback). The faults:

  d  a client replays an old save, and two saves race from the same version
  a  Redis stopped for a few seconds and started again while players save and solve
  c  the database restarted (`pg_ctl restart`) while players save, then once more while idle
  b  a worker killed mid-batch: its pool process (SIGKILL), then a whole worker (SIGKILL of
     its process group), each followed by a new worker that must finish the batch exactly
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import pwd
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PG_BIN = Path(os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin"))
HEALTH_TOKEN = "faults-monitor-" + "t" * 32  # the prober is the site's monitor
TIMEOUT = 10.0  # seconds a client waits for an answer; anything longer counts as a hang
GUNICORN_WORKERS = 3


# --- what was checked ---------------------------------------------------------------------------


@dataclass
class Check:
    fault: str
    what: str
    passed: bool
    figures: str


CHECKS: list[Check] = []


def check(fault: str, what: str, passed: bool, figures: str) -> None:
    CHECKS.append(Check(fault, what, passed, figures))
    print(f"  [{'pass' if passed else 'FAIL'}] {what}: {figures}", flush=True)


# --- private services ---------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(condition: Callable[[], bool], timeout: float, interval: float = 0.1) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(interval)
    return False


class PrivatePostgres:
    """A throwaway PostgreSQL cluster; initdb and pg_ctl refuse to run as root, so they run as
    the `postgres` user then."""

    def __init__(self, root: Path) -> None:
        self.data, self.sockets, self.log = root / "pg", root / "pg-sockets", root / "pg.log"
        self.port = free_port()
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/sudoku_faults"

    def _run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
        command = [str(PG_BIN / args[0]), *args[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=True)

    def init(self) -> None:
        self.sockets.mkdir()
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            for path in (self.data.parent, self.sockets):
                os.chown(path, owner.pw_uid, owner.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8")
        self.start()
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "sudoku_faults")

    def _options(self) -> str:
        return f"-p {self.port} -k {self.sockets} -c listen_addresses=127.0.0.1 -c fsync=off"

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-o", self._options(), "-l", str(self.log), "-w", "start")

    def restart(self) -> None:
        self._run(
            "pg_ctl", "-D", str(self.data), "-o", self._options(), "-l", str(self.log), "-m", "fast", "-w", "restart"
        )

    def stop(self, mode: str = "immediate") -> None:
        if (self.data / "postmaster.pid").exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def ready(self) -> bool:
        return (
            subprocess.run([str(PG_BIN / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(self.port)]).returncode == 0
        )


class PrivateRedis:
    def __init__(self, root: Path) -> None:
        self.port, self.log = free_port(), root / "redis.log"
        self.proc: subprocess.Popen | None = None

    def url(self, db: int) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        binary = shutil.which("redis-server") or "redis-server"
        self.proc = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no",
            ],
            stdout=open(self.log, "a"),
            stderr=subprocess.STDOUT,
        )
        import redis

        client = redis.Redis(port=self.port, socket_connect_timeout=0.5)
        if not wait_until(lambda: _pings(client), 10):
            raise SystemExit("the private redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.proc = None


def _pings(client) -> bool:
    try:
        return bool(client.ping())
    except Exception:
        return False


def stop_process_group(proc: subprocess.Popen | None, grace: float = 15) -> None:
    """Stop a process started in a session of its own: SIGTERM to it alone (gunicorn's master and
    Celery's main process then shut their children down gracefully), SIGKILL to the whole group
    after `grace` seconds or for anything of the group left behind."""
    if proc is None:
        return
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass  # the group is gone: nothing was left behind
    if proc.poll() is None:
        proc.wait(timeout=10)


def children_of(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return sorted(int(p) for p in out.split())


# --- the site under test ------------------------------------------------------------------------


@dataclass
class Player:
    """A logged-in player: a session of their own, the version they last saw, what they sent."""

    name: str
    user_id: int
    cookie: str
    csrf: str
    version: int = 0
    acked: list[tuple[int, int]] = field(default_factory=list)  # (save number, version answered)

    def headers(self, port: int) -> dict[str, str]:
        return {
            "Cookie": f"sessionid={self.cookie}; csrftoken={self.csrf}",
            "X-CSRFToken": self.csrf,
            "Content-Type": "application/json",
            "Referer": f"http://127.0.0.1:{port}/",
        }


@dataclass
class Reply:
    """One request as a client saw it."""

    kind: str
    player: str
    started: float
    ended: float
    status: int  # 0: no answer (refused, reset or timed out)
    content_type: str = ""
    body: bytes = b""
    error: str = ""
    number: int = 0  # the save's number, for saves

    @property
    def seconds(self) -> float:
        return self.ended - self.started

    def json(self) -> dict | None:
        try:
            data = json.loads(self.body)
        except ValueError:
            return None
        return data if isinstance(data, dict) else None

    @property
    def clean_failure(self) -> bool:
        """A refusal a client can act on: JSON with a message, or the site's own error page."""
        data = self.json() if "json" in self.content_type else None
        if data is not None and data.get("error"):
            return True
        return self.status >= 500 and b"Traceback" not in self.body and b"Something went wrong" in self.body


class Site:
    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.env, self.log, self.port = env, log, free_port()
        self.proc: subprocess.Popen | None = None
        self.path = ""
        self.givens = self.solution = ""

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "sudokusite.wsgi",
                "--workers",
                str(GUNICORN_WORKERS),
                "--bind",
                f"127.0.0.1:{self.port}",
                "--log-level",
                "warning",
                "--timeout",
                "30",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=open(self.log, "a"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        if not wait_until(lambda: self.get("/ping/").status == 200, 30, 0.2):
            raise SystemExit(f"gunicorn did not start; see {self.log}")

    def workers(self) -> list[int]:
        return children_of(self.proc.pid) if self.proc else []

    def request(
        self,
        method: str,
        path: str,
        body: dict | None = None,
        headers: dict | None = None,
        kind: str = "",
        player: str = "",
        number: int = 0,
    ) -> Reply:
        started = time.monotonic()
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT)
        try:
            conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers or {})
            response = conn.getresponse()
            data = response.read()
            return Reply(
                kind,
                player,
                started,
                time.monotonic(),
                response.status,
                response.getheader("Content-Type", ""),
                data,
                number=number,
            )
        except (OSError, http.client.HTTPException) as exc:
            return Reply(
                kind, player, started, time.monotonic(), 0, error=f"{type(exc).__name__}: {exc}", number=number
            )
        finally:
            conn.close()

    def get(self, path: str) -> Reply:
        return self.request("GET", path, kind="get")

    def api(self, player: Player, action: str, body: dict | None = None, number: int = 0) -> Reply:
        method = "GET" if action == "state" else "POST"
        return self.request(
            method,
            f"/api{self.path}{action}/",
            body,
            player.headers(self.port),
            kind=action,
            player=player.name,
            number=number,
        )

    def refresh_version(self, player: Player) -> None:
        reply = self.api(player, "state")
        if reply.status == 200:
            player.version = reply.json()["version"]

    def stop(self) -> None:
        stop_process_group(self.proc, grace=20)


def numbered_digits(givens: str, number: int) -> str:
    """A position that names its save: `number` written in base 9 (digits 1-9) into the
    first empty cells, so the stored board says which save it came from."""
    empty = [i for i, g in enumerate(givens) if g == "0"]
    digits = ["0"] * 81
    for cell in empty[:8]:
        number, rest = divmod(number, 9)
        digits[cell] = str(rest + 1)
    return "".join(digits)


def number_of(givens: str, digits: str) -> int:
    empty = [i for i, g in enumerate(givens) if g == "0"]
    number = 0
    for cell in reversed(empty[:8]):
        number = number * 9 + (int(digits[cell]) - 1 if digits[cell] != "0" else 0)
    return number


class Saver(threading.Thread):
    """A player saving every `pace` seconds until told to stop, as the board does: adopt the
    server's version on 200 and on 409, and keep the last version after any other answer."""

    def __init__(self, site: Site, player: Player, stop: threading.Event, pace: float, start_number: int) -> None:
        super().__init__(daemon=True)
        self.site, self.player, self.stop_event, self.pace = site, player, stop, pace
        self.number = start_number
        self.replies: list[Reply] = []

    def run(self) -> None:
        while not self.stop_event.is_set():
            self.number += 1
            body = {
                "version": self.player.version,
                "digits": numbered_digits(self.site.givens, self.number),
                "corner": [""] * 81,
                "centre": [""] * 81,
            }
            reply = self.site.api(self.player, "save", body, number=self.number)
            self.replies.append(reply)
            data = reply.json() if reply.status in (200, 409) else None
            if reply.status == 200 and data:
                self.player.version = data["version"]
                self.player.acked.append((self.number, data["version"]))
            elif reply.status == 409 and data and "state" in data:
                self.player.version = data["state"]["version"]
            self.stop_event.wait(self.pace)


class Prober(threading.Thread):
    """Asks /health/ every half second: what the site itself says about its services."""

    def __init__(self, site: Site, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.site, self.stop_event = site, stop
        self.replies: list[Reply] = []

    def run(self) -> None:
        while not self.stop_event.is_set():
            auth = {"Authorization": f"Bearer {HEALTH_TOKEN}"}
            self.replies.append(self.site.request("GET", "/health/", headers=auth, kind="health"))
            self.stop_event.wait(0.5)


def run_load(
    site: Site, players: list[Player], pace: float, during: Callable[[], dict], start_number: int
) -> tuple[list[Reply], list[Reply], dict]:
    """Players saving and a health prober while `during()` injects the fault; returns the saves,
    the health answers and what `during` reported."""
    stop = threading.Event()
    savers = [Saver(site, p, stop, pace, start_number) for p in players]
    prober = Prober(site, stop)
    for t in (*savers, prober):
        t.start()
    try:
        report = during()
    finally:
        stop.set()
        for t in (*savers, prober):
            t.join(timeout=TIMEOUT + 5)
    return [r for s in savers for r in s.replies], prober.replies, report


def in_window(replies: list[Reply], start: float, end: float) -> list[Reply]:
    """Requests that were in flight at some moment of [start, end]."""
    return [r for r in replies if r.started <= end and r.ended >= start]


def summary(replies: list[Reply]) -> str:
    counts: dict[str, int] = {}
    for r in replies:
        key = str(r.status) if r.status else "no answer"
        counts[key] = counts.get(key, 0) + 1
    return ", ".join(f"{n} x {k}" for k, n in sorted(counts.items())) or "none"


def p99(replies: list[Reply]) -> float:
    times = sorted(r.seconds * 1000 for r in replies)
    return times[min(len(times) - 1, int(len(times) * 0.99))] if times else 0.0


def check_nothing_lost(fault: str, label: str, site: Site, players: list[Player]) -> None:
    """Every save answered 200 is in the database: each player's stored board is the one of
    their last acknowledged save (or a later one whose answer was lost), and the versions
    the server answered only ever went up."""
    from django.db import connections

    from puzzles.models import Attempt

    connections.close_all()  # the script's own connection may predate a restart
    lost, unanswered_commits, not_monotonic, acked = [], 0, [], 0
    for p in players:
        acked += len(p.acked)
        versions = [v for _, v in p.acked]
        if any(b <= a for a, b in itertools.pairwise(versions)):
            not_monotonic.append(p.name)
        if not p.acked:
            continue
        attempt = Attempt.objects.get(user_id=p.user_id, daily__puzzle__givens=site.givens)
        last_number, last_version = p.acked[-1]
        stored_number = number_of(site.givens, attempt.digits)
        if attempt.version < last_version or (attempt.version == last_version and stored_number != last_number):
            lost.append(
                f"{p.name}: stored v{attempt.version} save #{stored_number}, answered v{last_version} save #{last_number}"
            )
        elif attempt.version > last_version:
            unanswered_commits += 1  # a later save was stored but its answer never arrived
    check(
        fault,
        f"{label}: every save answered 200 is in the database",
        not lost,
        f"{acked} saves answered 200 by {len(players)} players; lost: {lost or 0}; "
        f"stored without an answer received: {unanswered_commits}",
    )
    check(
        fault,
        f"{label}: the versions answered only go up",
        not not_monotonic,
        f"{acked} versions, out of order for: {not_monotonic or 'nobody'}",
    )


# --- setup ----------------------------------------------------------------------------------------


def prepare_players(count: int, prefix: str) -> list[Player]:
    from django.contrib.auth.models import User

    from bench.web import logged_in_session

    players = []
    for i in range(count):
        user = User.objects.create_user(f"{prefix}{i}", password=None)
        players.append(Player(user.username, user.pk, *logged_in_session(user)))
    return players


def prepare_daily(site: Site) -> None:
    from django.core.management import call_command

    from puzzles import pipeline
    from puzzles.models import site_today

    call_command("migrate", verbosity=0)
    puzzle = pipeline.puzzle_store(pipeline.puzzle_make("easy", rng=random.Random(1)))
    pipeline.daily_schedule(puzzle, site_today(), "easy")
    site.path = f"/daily/{site_today().isoformat()}/easy/"
    site.givens, site.solution = puzzle.givens, puzzle.solution


# --- d: replayed and racing saves -----------------------------------------------------------------


def fault_replay_and_race(site: Site, rounds: int) -> None:
    from puzzles.models import Attempt

    print("\n(d) a client replays an old save; two saves race from the same version", flush=True)
    player = prepare_players(1, "replay")[0]
    site.refresh_version(player)
    first = {
        "version": player.version,
        "digits": numbered_digits(site.givens, 1),
        "corner": [""] * 81,
        "centre": [""] * 81,
    }
    a = site.api(player, "save", first)
    second = {**first, "version": (a.json() or {}).get("version", -1), "digits": numbered_digits(site.givens, 2)}
    b = site.api(player, "save", second)
    replayed = site.api(player, "save", first)
    state = (replayed.json() or {}).get("state", {})
    stored = Attempt.objects.get(user_id=player.user_id)
    check(
        "d",
        "a replayed old save is refused with 409 and the newer board kept",
        a.status == b.status == 200
        and replayed.status == 409
        and state.get("version") == (b.json() or {}).get("version") == stored.version
        and stored.digits == second["digits"]
        and state.get("digits") == second["digits"],
        f"saves {a.status}, {b.status}; replay of the first {replayed.status} "
        f"({(replayed.json() or {}).get('error', replayed.body[:80])!r}); stored v{stored.version} = save #"
        f"{number_of(site.givens, stored.digits)}",
    )

    racer = prepare_players(1, "race")[0]
    outcomes, wrong = {"one 200, one 409": 0}, []
    for r in range(rounds):
        site.refresh_version(racer)
        version = racer.version
        barrier = threading.Barrier(2)
        replies: list[Reply | None] = [None, None]
        bodies = [
            {
                "version": version,
                "digits": numbered_digits(site.givens, 1000 + 2 * r + k),
                "corner": [""] * 81,
                "centre": [""] * 81,
            }
            for k in (0, 1)
        ]

        def tab(k: int) -> None:
            barrier.wait(timeout=5)
            replies[k] = site.api(racer, "save", bodies[k], number=1000 + 2 * r + k)

        tabs = [threading.Thread(target=tab, args=(k,)) for k in (0, 1)]
        for t in tabs:
            t.start()
        for t in tabs:
            t.join(timeout=TIMEOUT + 5)
        statuses = sorted(x.status for x in replies)
        stored = Attempt.objects.get(user_id=racer.user_id)
        if statuses != [200, 409]:
            wrong.append(f"round {r}: {statuses}")
            continue
        winner = 0 if replies[0].status == 200 else 1
        loser_state = replies[1 - winner].json()["state"]
        if not (
            stored.digits == bodies[winner]["digits"] == loser_state["digits"]
            and stored.version == version + 1 == loser_state["version"]
        ):
            wrong.append(f"round {r}: stored save #{number_of(site.givens, stored.digits)} v{stored.version}")
            continue
        outcomes["one 200, one 409"] += 1
    check(
        "d",
        "two saves from one version: one wins, the other gets 409, the winner's board is stored",
        not wrong,
        f"{outcomes['one 200, one 409']}/{rounds} rounds exactly so; otherwise: {wrong or 'none'}",
    )


# --- a: Redis stopped and started -----------------------------------------------------------------


def fault_redis(
    site: Site, redis_server: PrivateRedis, players: list[Player], solvers: list[Player], outage: float
) -> None:
    from puzzles.models import Solve

    print(f"\n(a) Redis (broker and cache) stopped for {outage:.0f} s and started again during play", flush=True)
    solves: list[tuple[str, Reply]] = []

    def solve(player: Player, when: str) -> None:
        site.refresh_version(player)
        reply = site.api(player, "submit", {"version": player.version, "digits": site.solution})
        solves.append((when, reply))

    def during() -> dict:
        time.sleep(3)
        for p in solvers[0::3]:
            solve(p, "before")
        down = time.monotonic()
        redis_server.stop()
        time.sleep(1)
        for p in solvers[1::3]:
            solve(p, "during")
        time.sleep(max(0.0, outage - (time.monotonic() - down)))
        up = time.monotonic()
        redis_server.start()
        time.sleep(2)
        for p in solvers[2::3]:
            solve(p, "after")
        time.sleep(2)
        return {"down": down, "up": up}

    saves, health, report = run_load(site, players, 0.05, during, start_number=10_000)
    down, up = report["down"], report["up"]
    outage_saves = in_window(saves, down, up)
    everything = saves + [r for _, r in solves]
    unclean = [r for r in everything if r.status not in (200, 409) and not (r.status and r.clean_failure)]
    server_errors = [r for r in everything if r.status >= 500]
    check(
        "a",
        "no 500, no HTML and no traceback while Redis was down or coming back",
        not server_errors and not unclean,
        f"{len(saves)} saves ({summary(saves)}), {len(solves)} submits; 5xx: {len(server_errors)}; "
        f"unclear failures: {len(unclean)}{' e.g. ' + repr(unclean[0].body[:120] or unclean[0].error) if unclean else ''}",
    )
    ok = [r for r in outage_saves if r.status == 200]
    check(
        "a",
        "saves keep working while Redis is down",
        bool(outage_saves) and len(ok) == len(outage_saves),
        f"{len(ok)}/{len(outage_saves)} saves in the {up - down:.1f} s outage answered 200, "
        f"p99 {p99(outage_saves):.0f} ms, slowest {max((r.seconds for r in outage_saves), default=0) * 1000:.0f} ms",
    )
    recorded = {s.user_id for s in Solve.objects.filter(user_id__in=[p.user_id for p in solvers])}
    by_name = {p.name: p for p in solvers}
    solved_ok = [
        (when, r)
        for when, r in solves
        if r.status == 200 and (r.json() or {}).get("solved") and by_name[r.player].user_id in recorded
    ]
    during_total = sum(1 for when, _ in solves if when == "during")
    during_ok = sum(1 for when, _ in solved_ok if when == "during")
    check(
        "a",
        "solves are recorded before, during and after the outage",
        len(solved_ok) == len(solves),
        f"{len(solved_ok)}/{len(solves)} submits solved and recorded ({during_ok}/{during_total} during the outage)",
    )
    cache_states = [((r.json() or {}).get("cache"), r.started) for r in health]
    down_seen = any(state == "unreachable" and down <= t <= up for state, t in cache_states)
    back = [state for state, t in cache_states if t > up + 1]
    check(
        "a",
        "the outage was real and the site saw Redis come back (/health/)",
        down_seen and bool(back) and back[-1] == "ok",
        f"/health/ cache: {'unreachable' if down_seen else 'never unreachable'} during the outage, "
        f"{back[-1] if back else 'no answer'} at the end; health answered {summary(health)}",
    )
    check_nothing_lost("a", "Redis down", site, players)


# --- c: the database restarted --------------------------------------------------------------------


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
    same_workers = site.workers() == workers_before and site.proc.poll() is None
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
        body = {
            "version": p.version,
            "digits": numbered_digits(site.givens, 40_000 + i),
            "corner": [""] * 81,
            "centre": [""] * 81,
        }
        reply = site.api(p, "save", body, number=40_000 + i)
        data = reply.json() if reply.status in (200, 409) else None
        if reply.status == 200 and data:
            p.version = data["version"]
            p.acked.append((40_000 + i, p.version))
        elif reply.status == 409 and data:
            p.version = data["state"]["version"]
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


# --- b: a worker killed mid-batch -----------------------------------------------------------------

TASK_LINE = re.compile(r"Task puzzles\.tasks\.work_seed_batch\[([0-9a-f-]{36})\] (received|succeeded)")


class Worker:
    def __init__(self, name: str, env: dict[str, str], root: Path) -> None:
        self.name, self.log = name, root / f"worker-{name}.log"
        self.proc = subprocess.Popen(
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
                f"{name}@%h",
                "--loglevel",
                "INFO",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
            cwd=ROOT,
            env=env,
            stdout=open(self.log, "w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        if not wait_until(lambda: " ready." in self.text(), 40, 0.2):
            raise SystemExit(f"worker {name} did not start; see {self.log}")

    def text(self) -> str:
        return self.log.read_text()

    def events(self) -> tuple[set[str], set[str]]:
        received, succeeded = set(), set()
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
    from puzzles import pipeline
    from puzzles.models import SeedBatch
    from puzzles.tasks import work_seed_batch
    from sudokusite.celery import app

    print("\n(b) a worker killed in the middle of a seed batch", flush=True)
    with app.connection_for_write() as conn:
        for queue in ("default", "generation"):
            conn.default_channel.queue_purge(queue)
    workers: list[Worker] = []
    try:
        # 1. Its pool process is killed: the worker gives the task back at once (acks_late and
        #    reject_on_worker_lost); it is stopped, and a new worker finishes the batch.
        first = Worker("b1", env, root)
        workers.append(first)
        batch = pipeline.seed_batch_create("medium", 150, filler="diagonal-boxes", symmetry="none")
        work_seed_batch.delay(batch.pk)  # one task per batch, as the admin and seed_pool enqueue
        wait_until(lambda: SeedBatch.objects.get(pk=batch.pk).made >= 30, 60)
        received, succeeded = first.events()
        running = received - succeeded
        made_at_kill = SeedBatch.objects.get(pk=batch.pk).made
        for pid in children_of(first.proc.pid):
            os.kill(pid, signal.SIGKILL)
        killed_at = time.monotonic()
        noticed = wait_until(lambda: "WorkerLostError" in first.text(), 20, 0.1)
        stop_process_group(first.proc, grace=30)
        second = Worker("b2", env, root)
        workers.append(second)
        done = wait_until(lambda: SeedBatch.objects.get(pk=batch.pk).done, 90, 0.1)
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
        check_batch("b", batch.pk, "pool process killed: no partial puzzle, no duplicate, exact count", seconds)
        stop_process_group(second.proc)

        # 2. The whole worker is killed (a lost machine): its task stays unacknowledged in Redis
        #    until the visibility timeout, when a worker (re)starting puts it back in the queue.
        third = Worker("b3", env, root)
        workers.append(third)
        batch = pipeline.seed_batch_create("medium", 150, filler="diagonal-boxes", symmetry="none")
        work_seed_batch.delay(batch.pk)
        wait_until(lambda: SeedBatch.objects.get(pk=batch.pk).made >= 30, 60)
        os.killpg(third.proc.pid, signal.SIGKILL)
        third.proc.wait(timeout=10)
        killed_at = time.monotonic()
        made_at_kill = SeedBatch.objects.get(pk=batch.pk).made
        fourth = Worker("b4", env, root)
        workers.append(fourth)
        stalled = not wait_until(lambda: SeedBatch.objects.get(pk=batch.pk).made > made_at_kill, 3, 0.2)
        # The new worker only restores unacknowledged tasks older than the visibility timeout
        # when it starts (and every ~100 s after): restart it once the timeout has passed.
        time.sleep(max(0.0, visibility + 1 - (time.monotonic() - killed_at)))
        stop_process_group(fourth.proc)
        fifth = Worker("b5", env, root)
        workers.append(fifth)
        resumed = wait_until(lambda: SeedBatch.objects.get(pk=batch.pk).made > made_at_kill, 30, 0.1)
        resumed_after = time.monotonic() - killed_at
        done = wait_until(lambda: SeedBatch.objects.get(pk=batch.pk).done, 90, 0.1)
        seconds = time.monotonic() - killed_at
        check(
            "b",
            "whole worker killed: its task is redelivered after the visibility timeout",
            stalled and resumed and done,
            f"killed at {made_at_kill}/150; no progress while the task was unacknowledged: {stalled}; "
            f"resumed {resumed_after:.1f} s after the kill (visibility timeout {visibility} s; production 900 s)",
        )
        check_batch("b", batch.pk, "whole worker killed: no partial puzzle, no duplicate, exact count", seconds)
    finally:
        for w in workers:
            stop_process_group(w.proc)


# --- main -----------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
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
        env = {
            **os.environ,
            "DATABASE_URL": pg.url,
            "REDIS_URL": redis_server.url(0),
            "CACHE_URL": redis_server.url(1),
            "DJANGO_DEBUG": "0",
            "SECRET_KEY": "faults-only-" + "x" * 50,
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",
            # /health/ shows the probes' details only to staff or a monitor holding this token.
            "HEALTH_TOKEN": HEALTH_TOKEN,
            # Another settings module (one that imports sudokusite.settings and changes a
            # setting) tries a change against the same faults.
            "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE", "sudokusite.settings"),
        }
        os.environ.update(env)
        import django

        django.setup()
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
    width = max(len(c.what) for c in CHECKS) if CHECKS else 10
    print(f"{'fault':<6}{'check':<{width + 2}}result")
    for c in CHECKS:
        print(f"{c.fault:<6}{c.what:<{width + 2}}{'pass' if c.passed else 'FAIL'}")
    failed = [c for c in CHECKS if not c.passed]
    print(f"{len(CHECKS) - len(failed)} of {len(CHECKS)} checks passed")
    return 1 if failed or not CHECKS else 0


if __name__ == "__main__":
    sys.exit(main())
