"""Two web servers behind HAProxy, sharing PostgreSQL and Redis: nothing that should be shared
is kept per process.

    python bench/twoservers.py [--players 100] [--ramp 10] [--seconds 30] [--workers 2]

Two gunicorns with production settings (less HTTPS) on loopback, each with `--workers` sync
workers, behind HAProxy from Debian's package (`apt-get install haproxy`), which sends each
request to the next server in turn and names the one that answered in an X-Served-By header.
Checked through the balancer:

- one player's saves, one after another, answered by both servers, each version one more than
  the last, and the last acknowledged one is what the database holds;
- a log-in through the form on one server is a log-in on the other, and so is the log-out;
- the failed log-in limit (5 an account, RATE_LIMIT_LOGIN_FAILED) counts across both servers;
- a crowd (bench/load.py's players) plays through the balancer with no error and nothing lost,
  and both servers' processes did the work (their CPU over the steady window).

It uses bench/load.py's database `sudoku_bench_load` and Redis databases 8 and 9 (empties them):
do not run both at once.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
from itertools import pairwise
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import (
    BROKER_URL,
    CACHE_URL,
    Connection,
    daily_path,
    free_port,
    gunicorn,
    logged_in_sessions,
    make_puzzles,
    reset_site,
    server_pids,
    setup_site,
    spawn,
    stop,
    wait_until,
)
from bench.harness.crowd import Daily
from bench.harness.meter import Meter
from bench.harness.processes import answers
from bench.load import DB_URL, PASSWORD, make_users, play, summarise, verify

FAILED_LIMIT = 5
CSRF_INPUT = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
HAPROXY = """\
global
    maxconn 8192
defaults
    mode http
    timeout connect 5s
    timeout client 90s
    timeout server 90s
frontend site
    bind 127.0.0.1:{port}
    default_backend web
backend web
    balance roundrobin
    option forwardfor
    http-response set-header X-Served-By %s
{servers}
"""


def haproxy(port: int, backends: dict[str, int], folder: Path):
    """HAProxy on `port`, in turn to each of `backends` (name -> port), answering before it returns."""
    if not shutil.which("haproxy"):
        raise SystemExit("haproxy is not installed: apt-get install -y haproxy")
    servers = "\n".join(f"    server {name} 127.0.0.1:{p}" for name, p in backends.items())
    config = folder / "haproxy.cfg"
    config.write_text(HAPROXY.format(port=port, servers=servers))
    balancer = spawn(
        [shutil.which("haproxy") or "haproxy", "-db", "-f", str(config)], dict(os.environ), folder / "haproxy.log"
    )
    if not wait_until(lambda: answers(port), 20, 0.1):
        stop(balancer)
        raise SystemExit(f"haproxy did not answer on port {port}; see {folder / 'haproxy.log'}")
    return balancer


class Visitor:
    """One browser's cookies through the balancer; each answer with the server that gave it."""

    def __init__(self, port: int, session: tuple[str, str] | None = None) -> None:
        self.conn = Connection(port)
        self.cookies = {"sessionid": session[0], "csrftoken": session[1]} if session else {}

    def send(self, method: str, path: str, body: bytes | None = None, form: bool = False) -> tuple[int, bytes, str]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if method == "POST":
            headers["Content-Type"] = "application/x-www-form-urlencoded" if form else "application/json"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        status, data, response = self.conn.send(method, path, body, headers)
        served = ""
        if response is not None:
            served = response.getheader("X-Served-By", "")
            for header in response.msg.get_all("Set-Cookie") or []:
                name, _, rest = header.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
        return status, data, served

    def login_token(self) -> str:
        """The log-in form's CSRF token (and its cookie)."""
        _, page, _ = self.send("GET", "/accounts/login/")
        token = CSRF_INPUT.search(page)
        return token.group(1).decode() if token else ""

    def log_in(self, username: str, password: str, token: str) -> tuple[int, str]:
        form = {"login": username, "password": password, "csrfmiddlewaretoken": token}
        status, _, served = self.send("POST", "/accounts/login/", urlencode(form).encode(), form=True)
        return status, served


def check_saves(port: int, session: tuple[str, str], daily: Daily, saves: int = 20) -> tuple[bool, str]:
    """One player's saves one after another: every one acknowledged, by both servers, each
    version one more than the last, and the last what the database holds."""
    from puzzles.models import Attempt

    visitor = Visitor(port, session)
    _, data, _ = visitor.send("GET", "/api" + daily.path + "state/")
    version, board = json.loads(data)["version"], list(daily.givens)
    empty = [i for i, g in enumerate(daily.givens) if g == "0"][: saves - 1]
    servers, statuses, versions = [], [], []
    for n in range(saves):
        if n < len(empty):
            board[empty[n]] = daily.solution[empty[n]]
        moves = [[0, "d", [[empty[n], int(daily.solution[empty[n]])]]]] if n < len(empty) else []
        body = json.dumps({"version": version, "digits": "".join(board), "moves": moves}).encode()
        status, data, served = visitor.send("POST", "/api" + daily.path + "save/", body)
        statuses.append(status)
        servers.append(served)
        if status == 200:
            version = json.loads(data)["version"]
            versions.append(version)
    attempt = Attempt.objects.get(user__username="two-saver", daily__difficulty=daily.difficulty)
    stored = "".join("0" if g != "0" else d for g, d in zip(daily.givens, board))
    steps = all(b == a + 1 for a, b in pairwise(versions))
    held = attempt.version == version and attempt.digits == stored
    ok = statuses == [200] * saves and len(set(servers)) == 2 and steps and held
    by = {s: servers.count(s) for s in sorted(set(servers))}
    return ok, (
        f"{statuses.count(200)}/{saves} saves answered 200, by {by}; versions {versions[0]} to {versions[-1]} "
        f"one apart: {steps}; the database holds version {attempt.version} and the last digits: {held}"
    )


def check_sessions(port: int, daily: Daily) -> tuple[bool, str]:
    """A log-in on one server is one on the other, and so is the log-out."""
    visitor = Visitor(port)
    status, login_by = visitor.log_in("two-member", PASSWORD, visitor.login_token())
    seen = []
    for _ in range(4):
        _, data, served = visitor.send("GET", "/api" + daily.path + "state/")
        seen.append(((json.loads(data).get("player") or {}).get("name"), served))
    out_status, _, logout_by = visitor.send("POST", "/accounts/logout/", b"", form=True)
    after = []
    for _ in range(4):
        _, data, served = visitor.send("GET", "/api" + daily.path + "state/")
        after.append((json.loads(data).get("player"), served))
    logged_in = all(name == "two-member" for name, _ in seen) and len({s for _, s in seen}) == 2
    logged_out = all(player is None for player, _ in after) and len({s for _, s in after}) == 2
    ok = status == 302 and out_status == 302 and logged_in and logged_out
    return ok, (
        f"log-in {status} by {login_by}, then the player named on {sorted({s for n, s in seen if n})}; "
        f"log-out {out_status} by {logout_by}, then a visitor on {sorted({s for p, s in after if p is None})}"
    )


def check_rate_limit(port: int) -> tuple[bool, str]:
    """The failed log-in limit of one account counts across both servers: refused after 5."""
    visitor = Visitor(port)
    token = visitor.login_token()  # one form, sent again and again: the posts alternate between servers
    answers = [visitor.log_in("two-target", "not the password", token) for _ in range(FAILED_LIMIT + 3)]
    statuses = [status for status, _ in answers]
    expected = [200] * FAILED_LIMIT + [429] * 3
    servers = {served for _, served in answers[:FAILED_LIMIT]}
    ok = statuses == expected and len(servers) == 2
    return ok, f"answers {statuses} (limit {FAILED_LIMIT}), the first {FAILED_LIMIT} by {sorted(servers)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--ramp", type=float, default=10.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=2, help="sync workers of each server")
    parser.add_argument("--processes", type=int, default=2, help="client processes of the crowd")
    args = parser.parse_args()
    # bench/load.py's pace and log-in share for its players.
    args.save_every, args.beat_every, args.saves_per_puzzle, args.login_rate = 3.0, 10.0, 6, 0.02

    env = setup_site(DB_URL, CACHE_URL, broker=BROKER_URL, RATE_LIMIT_LOGIN_FAILED=f"{FAILED_LIMIT}/5m/key")
    reset_site("player", "solo", "two")
    from django.contrib.auth.models import User
    from django.contrib.sessions.models import Session
    from django.db import connections

    from puzzles.models import site_today

    Session.objects.all().delete()
    today = site_today()
    dailies = {
        p.tier: Daily(p.tier, daily_path(today, p.tier), p.givens, p.solution) for p in make_puzzles(6, day=today)
    }
    tickets = make_users("player", args.players, 50)
    saver = User.objects.create_user("two-saver", password=None)
    User.objects.create_user("two-member", password=PASSWORD)
    User.objects.create_user("two-target", password=PASSWORD)
    (saver_session,) = logged_in_sessions([saver])
    connections.close_all()

    folder = Path(tempfile.mkdtemp(prefix="twoservers-"))
    ports = {"a": free_port(), "b": free_port()}
    servers = {name: gunicorn(port, env, args.workers, log=folder / f"{name}.log") for name, port in ports.items()}
    front = free_port()
    balancer = None
    try:
        balancer = haproxy(front, ports, folder)
        meter = Meter({f"server {name}": (lambda s=s: server_pids(s)) for name, s in servers.items()})
        checks = {
            "one player's saves alternate between servers, all land": check_saves(
                front, saver_session, dailies["easy"]
            ),
            "sessions are shared: log-in and log-out": check_sessions(front, dailies["medium"]),
            "the failed log-in limit is shared": check_rate_limit(front),
        }
        connections.close_all()
        samples, outcomes, _, (begin, steady_from, until), cpu = play(
            front, tickets, list(dailies.values()), args, meter
        )
        problems = verify("player", outcomes, dailies)
    finally:
        stop(balancer, *servers.values())
    whole = summarise(samples, begin, until + 120)
    errors = sum(r["errors"] for r in whole.values())
    steady = summarise(samples, steady_from, until)
    requests = sum(r["count"] for r in steady.values())
    worst = max((r["p99"] for k, r in steady.items() if r["count"] and not k.startswith("login")), default=float("nan"))
    shares = ", ".join(f"{name} {cpu[name]:.1f} s" for name in (f"server {n}" for n in servers))
    used = [cpu[f"server {n}"] for n in servers]
    checks["a crowd plays through the balancer with no error, nothing lost"] = (
        errors == 0 and not problems and min(used) >= 0.5 * max(used) > 0,
        f"{args.players} players, {len(samples)} requests, {errors} errors, {len(problems)} lost or mismatched; "
        f"steady {requests / (until - steady_from):.0f} requests a second, worst p99 {worst:.0f} ms; CPU {shares}",
    )

    print(
        f"\nbench/twoservers.py: two gunicorns of {args.workers} sync workers behind HAProxy (round robin), "
        f"sharing PostgreSQL and Redis; logs in {folder}"
    )
    for name, (ok, figures) in checks.items():
        print(f"{'pass' if ok else 'FAIL'}  {name}\n      {figures}")
    for line in problems[:10]:
        print("  ", line)
    passed = sum(ok for ok, _ in checks.values())
    print(f"\n{passed} of {len(checks)} checks passed")
    sys.exit(0 if passed == len(checks) else 1)


if __name__ == "__main__":
    main()
