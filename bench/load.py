"""Load: simulated players on loopback against gunicorn with production settings, PostgreSQL, and
Redis as broker and cache, each playing the way the board does; what each request costs the server.

    python bench/load.py [--players 300] [--ramp 30] [--seconds 90] [--workers 5] [--processes 2]
    python bench/load.py --quick            # a smoke run: 30 players, 15 s

The players are coroutines (bench/harness/crowd.py), spread over `--processes` client processes,
each an asyncio loop with one pooled aiohttp client, so a thousand waiting players cost the
generator almost nothing and its own CPU is measured beside the server's. Most players arrive
logged in (a session made ahead, as a two-week session cookie brings a morning's players back);
`--login-rate` of them (2% by default) log in through the real form, a full password check.

Each player, per daily: the home page, the puzzle page, its state, an "open" heartbeat, a save
every few seconds carrying the moves that filled its cells (on a 409 it adopts the stored version,
as board.js does), a heartbeat after 10 s without a write (the board's tick rule), the submit of
the solved grid and the results fragment; then the next difficulty, until the time is up. Players
start evenly over `--ramp`; "steady" is from the ramp's end to the end of play.

At the end the database is checked against what each player was told: every acknowledged save is
there (no lost save) with its event in the record of play, and every acknowledged solve is
recorded. Then each endpoint alone (bench/harness/endpoints.py): a few clients for a few seconds,
the server's CPU over that window divided by its requests. The CPU is read from /proc: gunicorn's
master and workers, the PostgreSQL backends connected to the bench's database, the Redis server
(the whole server: other databases' clients count too) and the client processes.

It uses (and empties) its own database `sudoku_bench_load` (BENCH_LOAD_DATABASE_URL) and Redis
databases 8 (broker) and 9 (cache).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import (
    BROKER_URL,
    CACHE_URL,
    daily_path,
    free_port,
    gunicorn,
    logged_in_sessions,
    make_puzzles,
    percentile,
    reset_site,
    row,
    server_pids,
    setup_site,
    stop,
)
from bench.harness.crowd import Daily, Outcome, Pace, Ticket, crowd_process
from bench.harness.endpoints import Stage, measure_endpoints
from bench.harness.meter import Meter, database_backends, pids_named

DB_URL = os.environ.get("BENCH_LOAD_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sudoku_bench_load")
PASSWORD = "a long bench password 1"
ENDPOINTS = ("login-form", "login", "home", "page", "state", "save", "beat", "submit", "results")
PLAYER_FACING = ("home", "page", "state", "save", "beat", "submit", "results")
SERVER = ("gunicorn", "postgres", "redis")


def make_users(prefix: str, count: int, form_every: int) -> list[Ticket]:
    """Users prefix0..: every `form_every`-th (0: none) with a real password hash (one PBKDF2
    hash, shared) to log in through the form; the others with a session made ahead."""
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import User

    hashed = make_password(PASSWORD)
    form = [bool(form_every) and i % form_every == 0 for i in range(count)]
    users = User.objects.bulk_create(
        [User(username=f"{prefix}{i}", password=hashed if form[i] else "!") for i in range(count)], batch_size=1000
    )
    ahead = iter(logged_in_sessions([u for u, f in zip(users, form) if not f]))
    return [
        Ticket(i, u.username, password=PASSWORD) if f else Ticket(i, u.username, session=next(ahead))
        for i, (u, f) in enumerate(zip(users, form))
    ]


def play(port: int, tickets: list[Ticket], dailies: list[Daily], args, meter: Meter):
    """The players in `args.processes` client processes; the samples, the outcomes, the client
    processes' CPU seconds, and the meter's readings at the ramp's end and the end of play."""
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    begin = time.monotonic() + 1.0
    until = begin + args.ramp + args.seconds
    starts = [begin + args.ramp * i / max(1, len(tickets)) for i in range(len(tickets))]
    pace = Pace(args.save_every, args.beat_every, args.saves_per_puzzle)
    processes = [
        context.Process(
            target=crowd_process,
            args=((port, tickets[p :: args.processes], starts[p :: args.processes], until, dailies, pace), results),
        )
        for p in range(args.processes)
    ]
    for process in processes:
        process.start()
    clients = [process.pid for process in processes if process.pid is not None]
    meter.groups["client"] = lambda: clients
    time.sleep(max(0.0, begin + args.ramp - time.monotonic()))
    steady_start = meter.read()
    time.sleep(max(0.0, until - time.monotonic()))
    steady_end = meter.read()
    del meter.groups["client"]
    gathered = [results.get(timeout=max(60.0, until + 120 - time.monotonic())) for _ in processes]
    for process in processes:
        process.join()
    samples = [s for g in gathered for s in g[0]]
    outcomes = [o for g in gathered for o in g[1]]
    client_cpu = sum(g[2] for g in gathered)
    return samples, outcomes, client_cpu, (begin, begin + args.ramp, until), Meter.used(steady_start, steady_end)


def summarise(samples: list, since: float, until: float) -> dict[str, dict]:
    out = {}
    for kind in ENDPOINTS:
        chosen = [s for s in samples if s[0] == kind and since <= s[1] < until]
        latencies = sorted(s[2] for s in chosen)
        out[kind] = {
            "count": len(chosen),
            "rate": len(chosen) / max(0.001, until - since),
            "p50": percentile(latencies, 0.5),
            "p99": percentile(latencies, 0.99),
            "max": latencies[-1] if latencies else float("nan"),
            "errors": sum(1 for s in chosen if s[3] != (302 if kind == "login" else 200) and s[3] != 409),
            "conflicts": sum(1 for s in chosen if s[3] == 409),
        }
    return out


def errors_by_kind(samples: list) -> dict[str, int]:
    """Unexpected answers by endpoint and status (0: no answer at all)."""
    counts: dict[str, int] = {}
    for kind, _, _, status in samples:
        if status not in (200, 409) and not (kind == "login" and status == 302):
            counts[f"{kind} {status}"] = counts.get(f"{kind} {status}", 0) + 1
    return counts


def verify(prefix: str, outcomes: list[Outcome], dailies: dict[str, Daily]) -> list[str]:
    """Every acknowledged save and solve is in the database (nothing lost, nothing extra)."""
    from puzzles.models import Attempt, PlayEvent, Solve

    problems = []
    saves = PlayEvent.objects.filter(kind=PlayEvent.Kind.SAVE, attempt__user__username__startswith=prefix).count()
    acknowledged = sum(o.saves for o in outcomes)
    if saves != acknowledged:
        problems.append(f"the record of play holds {saves} saves, {acknowledged} were acknowledged")
    attempts: dict[tuple[str, str], Attempt] = {
        (a.user.username, a.daily.difficulty): a
        for a in Attempt.objects.filter(user__username__startswith=prefix).select_related("user", "daily")
    }
    solves: dict[str, set[str]] = {}
    for user, difficulty in Solve.objects.filter(user__username__startswith=prefix).values_list(
        "user__username", "daily__difficulty"
    ):
        solves.setdefault(user, set()).add(difficulty)
    for outcome in outcomes:
        user = f"{prefix}{outcome.index}"
        solved = solves.get(user, set())
        if solved != outcome.solved:
            problems.append(f"{user}: solves recorded {sorted(solved)}, acknowledged {sorted(outcome.solved)}")
        for difficulty, (version, board) in outcome.saved.items():
            if difficulty in outcome.solved:
                continue
            attempt = attempts.get((user, difficulty))
            stored = "".join("0" if g != "0" else d for g, d in zip(dailies[difficulty].givens, board))
            if attempt is None or attempt.version != version or attempt.digits != stored:
                problems.append(
                    f"{user} {difficulty}: acknowledged version {version}, stored "
                    f"{attempt.version if attempt else None} (digits match: {attempt is not None and attempt.digits == stored})"
                )
    return problems


def ms(seconds: float, count: int) -> str:
    return f"{1000 * seconds / count:.2f}" if count else "-"


def print_steady(
    steady: dict[str, dict], cpu: dict[str, float], client_cpu_steady: float, seconds: float, players: int
) -> None:
    widths = (-11, 8, 8, 9, 9, 9, 7, 6)
    print(row("endpoint", "count", "req/s", "p50 ms", "p99 ms", "max ms", "errors", "409s", widths=widths, sep=""))
    for kind, r in steady.items():
        times = (f"{r['p50']:.1f}", f"{r['p99']:.1f}", f"{r['max']:.1f}")
        print(row(kind, r["count"], f"{r['rate']:.1f}", *times, r["errors"], r["conflicts"], widths=widths, sep=""))
    requests = sum(r["count"] for r in steady.values())
    server = sum(cpu[k] for k in SERVER)
    cores = os.cpu_count() or 1
    print(
        f"all       {requests:>8}{requests / seconds:>8.1f}   server CPU {server:.1f} s: "
        + ", ".join(f"{k} {cpu[k]:.1f} s ({ms(cpu[k], requests)} ms a request)" for k in SERVER)
    )
    print(
        f"server CPU a request {ms(server, requests)} ms, so {requests / server if server else float('nan'):.0f} "
        f"requests a second per server core; the clients used {client_cpu_steady:.1f} s "
        f"({100 * client_cpu_steady / (seconds * cores):.0f}% of the machine's {cores} cores), the whole machine "
        f"{100 * cpu['machine'] / cpu['capacity']:.0f}% busy, of which others' processes "
        f"{100 * max(0.0, cpu['machine'] - server - client_cpu_steady) / cpu['capacity']:.0f}%"
    )
    # A player waiting on a queue asks for less: this is the rate as played, a bound from below
    # on what players ask for when nothing queues.
    per_minute = 60 * requests / seconds / players
    print(
        f"a player sent {per_minute:.1f} requests a minute (fewer while waiting on a queue), so one server core "
        f"holds about "
        f"{players * seconds / server if server else float('nan'):.0f} players at this mix"
    )


def print_endpoints(stages: list[Stage]) -> None:
    widths = (-9, 7, 8, 8, 10, 10, 8, 10, 10, 9, 7)
    print(
        row(
            "endpoint",
            "count",
            "req/s",
            "p50 ms",
            "gunicorn",
            "postgres",
            "redis",
            "server",
            "/s a core",
            "client",
            "errors",
            widths=widths,
            sep="",
        )
    )
    for s in stages:
        server = sum(s.cpu[k] for k in SERVER)
        per_core = f"{s.requests / server:.0f}" if server else "-"
        cells = [ms(s.cpu[k], s.requests) for k in SERVER]
        rate = f"{s.requests / s.seconds:.1f}"
        print(
            row(
                s.kind,
                s.requests,
                rate,
                f"{s.p50:.1f}",
                *cells,
                ms(server, s.requests),
                per_core,
                ms(s.cpu["client"], s.requests),
                s.errors,
                widths=widths,
                sep="",
            )
        )
    page = next((s for s in stages if s.kind == "page" and s.requests), None)
    if page:
        base = sum(page.cpu[k] for k in SERVER) / page.requests
        ratios = [
            f"{s.kind} {sum(s.cpu[k] for k in SERVER) / s.requests / base:.1f}x"
            for s in stages
            if s.requests and s.kind != "page"
        ]
        print("server CPU a request against the puzzle page's: " + ", ".join(ratios))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--ramp", type=float, default=30.0, help="seconds over which the players start")
    parser.add_argument("--seconds", type=float, default=90.0, help="seconds of steady play after the ramp")
    parser.add_argument("--workers", type=int, default=5, help="gunicorn sync workers (the site's default here: 5)")
    parser.add_argument("--processes", type=int, default=2, help="client processes the players are spread over")
    parser.add_argument("--login-rate", type=float, default=0.02, help="share of players who log in through the form")
    parser.add_argument(
        "--save-every", type=float, default=10.0, help="mean seconds between saves (0.5x-1.5x; board.js: 10 at play)"
    )
    parser.add_argument("--beat-every", type=float, default=10.0, help="seconds between heartbeats (board.js: 10)")
    parser.add_argument("--saves-per-puzzle", type=int, default=30, help="a five-minute solve at the board's pace")
    parser.add_argument("--endpoint-seconds", type=float, default=5.0, help="seconds of each endpoint alone")
    parser.add_argument("--endpoint-clients", type=int, default=4, help="clients of each endpoint alone")
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run: 30 players, 5 s ramp, 10 s steady, 2 s each endpoint"
    )
    args = parser.parse_args()
    if args.quick:
        args.players, args.ramp, args.seconds, args.endpoint_seconds = 30, 5.0, 10.0, 2.0

    env = setup_site(DB_URL, CACHE_URL, broker=BROKER_URL)
    reset_site("player", "solo")
    from django.contrib.sessions.models import Session
    from django.db import connections

    Session.objects.all().delete()  # the last run's sessions: their users are gone

    from puzzles.models import site_today

    today = site_today()
    dailies = {
        p.tier: Daily(p.tier, daily_path(today, p.tier), p.givens, p.solution) for p in make_puzzles(seed=6, day=today)
    }
    form_every = round(1 / args.login_rate) if args.login_rate > 0 else 0
    made = time.perf_counter()
    tickets = make_users("player", args.players, form_every)
    solo = make_users("solo", 20 * args.endpoint_clients, 0)
    logins = [(t.username, PASSWORD) for t in make_users("sololog", 10 * args.endpoint_clients, 1)]
    made = time.perf_counter() - made
    connections.close_all()

    port = free_port()
    server = gunicorn(port, env, args.workers)
    meter = Meter(
        {
            "gunicorn": lambda: server_pids(server),
            "postgres": database_backends(DB_URL),
            "redis": lambda: pids_named("redis-server"),
        }
    )
    try:
        import http.client

        for _ in range(4 * args.workers):  # every worker's imports and templates, not measured
            for path in ["/", "/accounts/login/", *(d.path for d in dailies.values())]:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                conn.request("GET", path)
                conn.getresponse().read()
                conn.close()
        samples, outcomes, client_cpu, (begin, steady_from, until), cpu = play(
            port, tickets, list(dailies.values()), args, meter
        )
        ended = max((s[1] + s[2] / 1000 for s in samples), default=until)
        problems = verify("player", outcomes, dailies)
        connections.close_all()
        stages = asyncio.run(
            measure_endpoints(
                port,
                [t.session for t in solo if t.session],
                logins,
                list(dailies.values()),
                meter,
                workers=args.endpoint_clients,
                seconds=args.endpoint_seconds,
            )
        )
    finally:
        stop(server)

    whole = summarise(samples, begin, ended + 0.001)
    steady = summarise(samples, steady_from, until)
    steady_seconds = until - steady_from
    errors = sum(r["errors"] for r in whole.values())
    failures = [f"player{o.index}: {f}" for o in outcomes for f in o.failures]
    cores = os.cpu_count() or 1
    print(
        f"\nbench/load.py: {args.players} players ({form_every and len(range(0, args.players, form_every))} through the log-in form), "
        f"a {args.ramp:.0f} s ramp, {args.seconds:.0f} s steady; gunicorn {args.workers} sync workers, PostgreSQL, "
        f"Redis broker + cache; {args.processes} client processes; {cores} cores shared by all"
    )
    print(
        f"each player, per daily: home, page, state, open beat, a save every {args.save_every:.0f} s on average "
        f"({args.saves_per_puzzle} a puzzle), a tick after {args.beat_every:.0f} s without a write, submit, results; next daily. "
        f"Users and sessions made in {made:.1f} s"
    )
    print(
        f"requests {len(samples)} in {ended - begin:.1f} s; players who played to the end without an error "
        f"{sum(o.finished for o in outcomes)}/{args.players}; the clients' CPU over the whole run {client_cpu:.1f} s"
    )
    print(f"\nsteady: sent from the ramp's end for {steady_seconds:.0f} s")
    # The clients' share of the steady window, from their processes' CPU over it.
    print_steady(steady, cpu, cpu.get("client", 0.0), steady_seconds, args.players)
    print("\nwhole run")
    widths = (-11, 8, 9, 9, 9, 7, 6)
    print(row("endpoint", "count", "p50 ms", "p99 ms", "max ms", "errors", "409s", widths=widths, sep=""))
    for kind, r in whole.items():
        print(
            row(
                kind,
                r["count"],
                f"{r['p50']:.1f}",
                f"{r['p99']:.1f}",
                f"{r['max']:.1f}",
                r["errors"],
                r["conflicts"],
                widths=widths,
                sep="",
            )
        )
    print(
        f"\neach endpoint alone: {args.endpoint_clients} clients back to back for {args.endpoint_seconds:.0f} s; CPU ms a request "
        "(login: the form's GET and the POST, a request being one log-in)"
    )
    print_endpoints(stages)
    kinds = errors_by_kind(samples)
    print(
        f"\nerrors: {errors} ({', '.join(f'{k}: {v}' for k, v in sorted(kinds.items())) or 'none'}); "
        f"saves acknowledged {sum(o.saves for o in outcomes)}, solves {sum(len(o.solved) for o in outcomes)}; "
        f"lost or mismatched in the database: {len(problems)}"
    )
    for line in (failures + problems)[:20]:
        print("  ", line)
    worst = max((steady[k]["p99"] for k in PLAYER_FACING if steady[k]["count"]), default=float("nan"))
    print(
        f"target: 0 errors, nothing lost and a steady p99 under 200 ms for every player-facing endpoint: "
        f"{'met' if errors == 0 and not problems and worst < 200 else 'not met'} (worst steady p99 {worst:.1f} ms)"
    )
    sys.exit(1 if errors or problems else 0)


if __name__ == "__main__":
    main()
