"""Cost per request: the server's CPU, the wall time and the SQL queries of each endpoint a
player calls, one request at a time, against the puzzle page's.

    python bench/costs.py [--requests 100] [--reads 300] [--passes 10] [--rounds 8] [--gap 7]

One gunicorn sync worker with the site's settings (production, PostgreSQL, Redis as cache and
broker, no Celery worker nor beat: a solve's follow-up is not the request's cost; the bench judges
the solves itself, as the beat's sweep would, and prints that CPU apart). The CPU of an endpoint
is what gunicorn's processes used (from /proc: the scheduler's count, to the microsecond, where
the kernel has it) while it answered `--requests` requests in a row, divided by their number;
only one request is ever in flight, so it is that endpoint's and nobody else's. Reads are sent
`--reads` times (writes `--requests`), in `--passes` passes over all the reads in turn: a read's
figure is its median pass, and its ratio to the puzzle page's the median of each pass's ratio to
the page's in the same pass (with the middle half of them, or their range over a few passes).
A shared machine's speed moves from second to second (a plain loop's time, on the machine of
2026-11-27, by 40% between runs): short passes, each timed to the microsecond, put both sides of
a ratio in the same spell. The queries are counted in this process, through Django's test client
on the same database and cache, on a request made after a first one warmed the caches.

The players are made to look like real ones, as the fair-play judge sees them: accounts a month
old, each puzzle played in `--rounds` saves `--gap` seconds apart (the moves' ages spread over the
gap, at most 8 digits a save), so solves are judged in full and most are ranked. So setting up
takes about `--rounds` x `--gap` seconds of waiting. The players:

- "solved": has solved all of today's and yesterday's dailies (the home page's cards, its streak
  and yesterday's results; the results page with its receipt, leaderboard and review);
- "playing": is half-way through today's easy puzzle (saves and heartbeats go to it);
- `--requests` others, each with today's easy puzzle played up to its last digits: each submit
  is a fresh attempt's solve (and they fill the leaderboard the results page shows); the slowest
  ranked of them is the "just solved" player, whose results are read as a solver first
  reads them: below the board's top, the review still being prepared.

It uses (and empties) its own database, `sudoku_bench_costs` (BENCH_DATABASE_URL), and the load
benches' Redis databases (BENCH_LOAD_BROKER_URL, BENCH_LOAD_CACHE_URL).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import (
    BROKER_URL,
    CACHE_URL,
    Connection,
    daily_path,
    free_port,
    gunicorn,
    logged_in_session,
    make_puzzles,
    percentile,
    precise_cpu_seconds,
    purge_queues,
    reset_site,
    row,
    server_pids,
    setup_site,
    stop,
)

DB_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sudoku_bench_costs")
MAX_DIGITS_A_SAVE = 8  # under the judge's large write (more than 9)


@dataclass
class Game:
    """One player's play of one daily, over HTTP: the version and board as the board holds them."""

    session: tuple[str, str]
    path: str  # /daily/YYYY-MM-DD/<tier>/
    givens: str
    solution: str
    board: list[str] = field(default_factory=list)
    todo: list[int] = field(default_factory=list)
    version: int = 0
    chunk: int = 1

    def headers(self, **extra: str) -> dict[str, str]:
        sid, csrf = self.session
        return {
            "Cookie": f"sessionid={sid}; csrftoken={csrf}",
            "X-CSRFToken": csrf,
            "Content-Type": "application/json",
            **extra,
        }

    def body(self, cells: list[int], gap: float, rng: random.Random) -> bytes:
        """The board's write after filling `cells` one by one over the last `gap` seconds."""
        for cell in cells:
            self.board[cell] = self.solution[cell]
        # Evenly spread, a little jittered, oldest first: random ages bunch up, and a median gap under
        # the judge's 0.75 s would make most solves "too fast", which spares the judge its work.
        step = gap * 1000 / max(1, len(cells))
        ages = [int(step * (len(cells) - k - 0.5) + rng.uniform(-0.1, 0.1) * step) for k in range(len(cells))]
        moves = [[age, "d", [[cell, int(self.solution[cell])]]] for age, cell in zip(ages, cells)]
        return json.dumps(
            {
                "version": self.version,
                "digits": "".join(self.board),
                "corner": [""] * 81,
                "centre": [""] * 81,
                "colours": [""] * 81,
                "moves": moves,
            }
        ).encode()


def new_game(session: tuple[str, str], day: datetime.date, puzzle, rounds: int, rng: random.Random) -> Game:
    todo = [i for i, g in enumerate(puzzle.givens) if g == "0"]
    rng.shuffle(todo)
    chunk = min(MAX_DIGITS_A_SAVE, math.ceil(len(todo) / rounds))
    return Game(
        session, daily_path(day, puzzle.tier), puzzle.givens, puzzle.solution, list(puzzle.givens), todo, 0, chunk
    )


def write(conn: Connection, game: Game, kind: str, body: bytes) -> dict:
    status, data, _ = conn.send("POST", "/api" + game.path + kind + "/", body, game.headers())
    if status != 200:
        raise SystemExit(f"{kind} of {game.path} answered {status}: {data[:200]!r}")
    answer = json.loads(data)
    game.version = answer.get("version", game.version)
    return answer


def play(conn: Connection, games: list[Game], rounds: dict[int, int], gap: float, rng: random.Random) -> None:
    """Every game opened, then saved in rounds `gap` seconds apart: game i plays rounds[i] saves
    (fewer if its puzzle is filled first), leaving at least its last digits for its submit."""
    for game in games:
        write(conn, game, "beat", b'{"phase": "open"}')
    for number in range(max(rounds.values())):
        started = time.monotonic()
        time.sleep(gap)  # the digits of this round are typed meanwhile
        for i, game in enumerate(games):
            if number < rounds[i] and len(game.todo) > game.chunk:
                cells, game.todo = game.todo[: game.chunk], game.todo[game.chunk :]
                write(conn, game, "save", game.body(cells, time.monotonic() - started, rng))


def submit(conn: Connection, game: Game, rng: random.Random) -> bytes:
    cells, game.todo = game.todo, []
    return game.body(cells, 5.0, rng)  # typed over the 5 s before it (the bench waits longer)


@dataclass
class Endpoint:
    label: str
    player: str
    method: str
    path: str
    headers: dict[str, str]
    bodies: list[bytes] | None = None  # one a request, for writes
    expected: int = 200


def measured(latencies: list[float], cpu: float, errors: int) -> dict:
    """One endpoint's figures: its requests, the server's CPU ms and the wall p50 ms a request, its errors."""
    return {
        "n": len(latencies),
        "cpu_ms": cpu / len(latencies) * 1000,
        "p50": percentile(latencies, 0.5),
        "errors": errors,
    }


def in_passes(runs: list[dict]) -> dict:
    """A read's figures over its passes: the median pass's CPU, every pass's (for each pass's ratio
    to the puzzle page's of the same pass), the requests and errors of all."""
    cpus = [run["cpu_ms"] for run in runs]
    return {
        "n": sum(run["n"] for run in runs),
        "cpu_ms": statistics.median(cpus),
        "passes": cpus,
        "p50": statistics.median(run["p50"] for run in runs),
        "errors": sum(run["errors"] for run in runs),
    }


def ratio(figure: dict, page: dict) -> str:
    """The CPU a request as a multiple of the puzzle page's: for reads, each pass against the page's
    in the same pass, the median and the spread (the range over a few passes, the middle half
    over more); for writes, against the page's median."""
    if "passes" not in figure:
        return f"{figure['cpu_ms'] / page['cpu_ms']:.1f}"
    each = sorted(mine / theirs for mine, theirs in zip(figure["passes"], page["passes"]))
    middle = statistics.median(each)
    if len(each) == 1:
        return f"{middle:.1f}"
    low, high = (each[0], each[-1]) if len(each) < 8 else (percentile(each, 0.25), percentile(each, 0.75))
    return f"{middle:.1f} ({low:.1f}-{high:.1f})"


def measure(port: int, server, endpoint: Endpoint, count: int) -> dict:
    """`count` requests in a row on a keep-alive connection, after one that is not counted."""
    conn = Connection(port)
    bodies = endpoint.bodies or [b""] * (count + 1)
    conn.send(endpoint.method, endpoint.path, bodies[0] or None, endpoint.headers)  # warm
    latencies, errors = [], 0
    pids = server_pids(server)
    before = precise_cpu_seconds(pids)
    for body in bodies[1 : count + 1]:
        started = time.perf_counter()
        status, _, _ = conn.send(endpoint.method, endpoint.path, body or None, endpoint.headers)
        latencies.append((time.perf_counter() - started) * 1000)
        errors += status != endpoint.expected
    conn.close()
    return measured(latencies, precise_cpu_seconds(pids) - before, errors)


def queries_of(endpoint: Endpoint, body: bytes | None) -> int:
    """The SQL queries of one request in this process (Django's test client, the same database and
    cache), made after one that warmed the caches."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST="127.0.0.1")
    cookie = endpoint.headers.get("Cookie", "")
    for part in filter(None, cookie.split("; ")):
        name, value = part.split("=", 1)
        client.cookies[name] = value
    skip = ("Cookie", "Content-Type")
    extra = {"HTTP_" + k.upper().replace("-", "_"): v for k, v in endpoint.headers.items() if k not in skip}
    send = client.get if endpoint.method == "GET" else client.post
    if endpoint.method == "GET":
        send(endpoint.path, **extra)
    with CaptureQueriesContext(connection) as captured:
        response = send(endpoint.path, body, content_type="application/json", **extra)
    if response.status_code != endpoint.expected:
        raise SystemExit(f"{endpoint.label} answered {response.status_code} in this process")
    return len(captured)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=100, help="requests per endpoint")
    # The reads are cheap, and /proc counts CPU in ticks of 10 ms: more of them keep the tick small.
    parser.add_argument("--reads", type=int, default=300, help="requests per endpoint that writes nothing")
    parser.add_argument(
        "--passes", type=int, default=10, help="passes over the reads, each --reads/passes of every read in turn"
    )
    parser.add_argument("--rounds", type=int, default=8, help="saves in which a puzzle is played")
    parser.add_argument("--gap", type=float, default=7.0, help="seconds between one game's saves")
    args = parser.parse_args()
    rng = random.Random(27)

    env = setup_site(DB_URL, CACHE_URL, BROKER_URL)
    from django.contrib.auth.models import User
    from django.utils import timezone

    from puzzles.models import site_today

    purge_queues()
    reset_site("cost")
    today = site_today()
    yesterday = today - datetime.timedelta(days=1)
    todays = {p.tier: p for p in make_puzzles(27, day=today)}
    yesterdays = make_puzzles(28, day=yesterday)
    names = ["cost-solved", "cost-playing", *(f"cost-submit{i}" for i in range(args.requests + 3))]
    users = [User.objects.create_user(name, password=None) for name in names]
    # A month old: a new account's solve is not ranked, which would spare the judge its work.
    User.objects.filter(username__startswith="cost").update(date_joined=timezone.now() - datetime.timedelta(days=30))
    sessions = {user.username: logged_in_session(User.objects.get(pk=user.pk)) for user in users}

    solved = [new_game(sessions["cost-solved"], today, p, args.rounds, rng) for p in todays.values()]
    solved += [new_game(sessions["cost-solved"], yesterday, p, args.rounds, rng) for p in yesterdays]
    playing = new_game(sessions["cost-playing"], today, todays["easy"], args.rounds, rng)
    submitters = [new_game(sessions[n], today, todays["easy"], args.rounds, rng) for n in names[2:]]
    games = [*solved, playing, *submitters]
    rounds = {i: (args.rounds // 2 if game is playing else args.rounds) for i, game in enumerate(games)}

    port = free_port()
    # The server's own log apart: the players who have not solved are answered 404 on purpose,
    # and Django logs each one.
    log = Path(tempfile.mkdtemp(prefix="costs-")) / "gunicorn.log"
    server = gunicorn(port, env, workers=1, site_config=True, timeout=None, log=log)
    try:
        conn = Connection(port)
        print(
            f"setting up: {len(games)} games in {args.rounds} rounds {args.gap:.0f} s apart (server log: {log})",
            flush=True,
        )
        play(conn, games, rounds, args.gap, rng)
        time.sleep(args.gap)  # the last digits are typed (their ages must fit after the last save)
        for game in solved:
            if not write(conn, game, "submit", submit(conn, game, rng)).get("solved"):
                raise SystemExit(f"the solved player's {game.path} was not solved")
        # Followed up as the beat's sweep would have, within a second or two: the results show
        # a verdict, and the review of how the player solved it.
        follow_up_all()
        easy = daily_path(today, "easy")
        api = "/api" + easy
        solver, player = solved[0].headers(), playing.headers()
        beat = json.dumps({"phase": "tick"}).encode()
        saves = []
        for _ in range(args.requests + 2):
            saves.append(playing.body([], 0, rng))
            playing.version += 1
        submit_bodies = [submit(conn, game, rng) for game in submitters]
        fragment = {"Accept": "text/html", "Sec-Fetch-Mode": "cors"}
        navigate = {"Accept": "text/html", "Sec-Fetch-Mode": "navigate"}
        month = f"/archive/{today:%Y}/{today:%m}/"
        # What a solver reads first: the slowest of the submits' players, below the board's top,
        # their review still being prepared (the bench runs no worker after the submits); who
        # that is is known once the submits are judged.
        just_solved = Endpoint("results fragment", "just solved", "GET", easy + "results/", dict(fragment))
        endpoints = [
            Endpoint("puzzle page", "playing", "GET", easy, player),
            Endpoint("home", "solved", "GET", "/", solver),
            Endpoint("home", "playing", "GET", "/", player),
            Endpoint("state", "playing", "GET", api + "state/", player),
            Endpoint("save", "playing", "POST", api + "save/", player, saves),
            Endpoint("beat", "playing", "POST", api + "beat/", player, [beat] * (args.requests + 2)),
            Endpoint("submit (a solve)", "fresh", "POST", api + "submit/", {}, submit_bodies),
            Endpoint("results fragment", "solved", "GET", easy + "results/", {**solver, **fragment}),
            Endpoint("results page", "solved", "GET", easy + "results/", {**solver, **navigate}),
            just_solved,
            Endpoint("results (not solved)", "playing", "GET", easy + "results/", {**player, **fragment}, expected=404),
            Endpoint("archive", "solved", "GET", month, solver),
            Endpoint("stats", "solved", "GET", "/stats/", solver),
        ]
        figures: dict[str, dict] = {}
        for endpoint in endpoints:  # the writes, once each; then the reads, in passes
            if endpoint.label.startswith("submit"):
                figures[endpoint.label] = measure_submits(port, server, submitters, submit_bodies, args.requests)
                # Their verdicts, as the beat's sweep gives them after the answer (before the
                # results are read, as a player's would be): a worker's CPU, not the request's.
                judging = judge_all()
                slowest = slowest_ranked(names[2 : 2 + args.requests])
                just_solved.headers.update(submitters[names.index(slowest) - 2].headers())
            elif endpoint.method != "GET":
                figures[endpoint.label + endpoint.player] = measure(port, server, endpoint, args.requests)
        reads = [e for e in endpoints if e.method == "GET"]
        passes: list[dict[str, dict]] = []
        for _ in range(args.passes):
            passes.append({e.label + e.player: measure(port, server, e, args.reads // args.passes) for e in reads})
        for key in passes[0]:
            figures[key] = in_passes([one[key] for one in passes])
    finally:
        stop(server)

    # The queries, in this process: the players' state as the server left it.
    queries = {}
    for endpoint in endpoints:
        if endpoint.label.startswith("submit"):
            last = submitters[-1]
            endpoint = Endpoint(endpoint.label, "fresh", "POST", api + "submit/", last.headers())
            queries[endpoint.label] = queries_of(endpoint, submit_bodies[-1])
        elif endpoint.label == "save":
            queries["save" + endpoint.player] = queries_of(endpoint, saves[-1])
        else:
            queries[endpoint.label + endpoint.player] = queries_of(endpoint, (endpoint.bodies or [b""])[-1] or None)

    # How the judge found the solves: one judged in full (ranked, or held) costs it more than one
    # it stops at early (too fast, say), so the submit's figure depends on this mix.
    from collections import Counter

    from puzzles.models import Solve

    verdicts = Counter(
        unranked or (f"held ({held})" if held else "ranked")
        for unranked, held in Solve.objects.filter(user__username__startswith="cost-").values_list("unranked", "held")
    )
    page = figures["puzzle pageplaying"]
    print(
        f"\ngunicorn, 1 sync worker, production settings, PostgreSQL and Redis; {args.reads} reads or "
        f"{args.requests} writes in a row per endpoint ({os.cpu_count()} cores, shared); CPU is the server's per request"
    )
    print("the solves as judged: " + ", ".join(f"{n} {verdict}" for verdict, n in verdicts.most_common()))
    count, cpu = judging
    if count:
        print(f"the judge, in the beat's sweep (not the request): {cpu * 1000 / count:.1f} CPU ms a solve")
    widths = (-22, -13, 6, 10, 17, 10, 9, 7)
    print(row("endpoint", "player", "n", "CPU ms", "x page", "p50 ms", "queries", "errors", widths=widths, sep=""))
    for endpoint in endpoints:
        key = endpoint.label if endpoint.label.startswith("submit") else endpoint.label + endpoint.player
        f = figures[key]
        print(
            row(
                endpoint.label,
                endpoint.player,
                f["n"],
                f"{f['cpu_ms']:.1f}",
                ratio(f, page),
                f"{f['p50']:.1f}",
                queries.get(key, ""),
                f["errors"],
                widths=widths,
                sep="",
            )
        )


def follow_up_all() -> int:
    """What the beat's sweep does (the bench runs no worker): every solve being checked judged,
    its day's holds decided again, reviewed, and the ratings brought up to them; how many."""
    from puzzles.fairplay import judge
    from puzzles.pipeline import tasks

    return tasks.follow_ups(judge.waiting())


def slowest_ranked(names: list[str]) -> str:
    """Which of these players' ranked solves of today's easy daily is the slowest (so below the
    board's top, whose rows are the fastest)."""
    from puzzles.fairplay import ranking
    from puzzles.models import Solve

    ranked = Solve.objects.ranked().filter(user__username__in=names).annotate(rank_time=ranking.RANK_TIME)
    slowest = ranked.order_by("-rank_time", "-pk").values_list("user__username", flat=True).first()
    if slowest is None:
        raise SystemExit("none of the submits was ranked")
    return slowest


def judge_all() -> tuple[int, float]:
    """Judge every solve waiting for its verdict, as the beat's sweep does (the bench runs no
    worker): how many, and the CPU seconds this process spent on them."""
    from puzzles.fairplay import judge
    from puzzles.fairplay.ranking import CHECKING
    from puzzles.models import Solve

    waiting = list(Solve.objects.filter(unranked=CHECKING).order_by("pk").values_list("pk", flat=True))
    started = time.process_time()
    for solve_id in waiting:
        judge.judge_waiting_one(solve_id)
    return len(waiting), time.process_time() - started


def measure_submits(port: int, server, submitters: list[Game], bodies: list[bytes], count: int) -> dict:
    """Each submit a different player's solve of today's easy puzzle, on one connection; the last
    submitters are kept for the warm-up and the query count."""
    conn = Connection(port)
    first = submitters[-2]
    conn.send("POST", "/api" + first.path + "submit/", bodies[-2], first.headers())  # warm
    latencies, errors = [], 0
    pids = server_pids(server)
    before = precise_cpu_seconds(pids)
    for game, body in list(zip(submitters, bodies))[:count]:
        started = time.perf_counter()
        status, data, _ = conn.send("POST", "/api" + game.path + "submit/", body, game.headers())
        latencies.append((time.perf_counter() - started) * 1000)
        errors += status != 200 or not json.loads(data).get("solved")
    conn.close()
    return measured(latencies, precise_cpu_seconds(pids) - before, errors)


if __name__ == "__main__":
    main()
