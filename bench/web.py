"""Web benchmark: gunicorn on loopback with PostgreSQL, players opening today's puzzle and
saving progress, beside a trivial view of the same server as the ceiling.

    python bench/web.py [--seconds 10] [--players 20] [--rounds 3] [--workers N]

The loads (ceiling, page, the player's state, back-to-back saves) take turns, round after round,
so a slow spell of a shared machine falls on all of them alike; every round is printed, and the summary
takes the median round. gunicorn runs with the site's own settings (sudokusite/gunicorn.py:
(2 x cores) + 1 sync workers) unless --workers says otherwise.

It uses (and empties) its own database, `sudoku_bench_web` on the local PostgreSQL unless
BENCH_DATABASE_URL says otherwise. Each simulated player is a thread (the players are spread over
LOAD_PROCESSES processes) with its own connection, reopened whenever gunicorn's sync workers close
it, which they do after every response, and its own logged-in session; every request's latency
is recorded.
"""

from __future__ import annotations

import argparse
import gc
import json
import multiprocessing
import os
import random
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import (
    Connection,
    daily_path,
    free_port,
    gunicorn,
    make_puzzles,
    new_players,
    percentile,
    reset_site,
    row,
    setup_site,
    stop,
)

DB_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sudoku_bench_web")
# The production cache: Redis, on a database number of the bench's own (clearing it is safe).
CACHE_URL = os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/2")
LOAD_PROCESSES = 4


def prepare(players: int) -> tuple[str, str, list[tuple[str, str]]]:
    """Today's easy daily (its path and givens) and one logged-in session (session id, CSRF
    token) per player."""
    from puzzles.models import site_today

    reset_site("bench")
    (puzzle,) = make_puzzles(1, ("easy",), day=site_today())
    sessions = [session for _, session in new_players(players, "bench")]
    return daily_path(site_today(), "easy"), puzzle.givens, sessions


class Player(threading.Thread):
    """Sends one kind of request in a loop on a keep-alive connection, timing each one."""

    def __init__(
        self, port: int, kind: str, path: str, session: tuple[str, str], until: float, givens: str, pace: float = 0.0
    ):
        super().__init__(daemon=True)
        self.port, self.kind, self.path, self.until, self.givens = port, kind, path, until, givens
        self.pace = pace  # seconds between one player's requests; 0 sends them back to back
        sid, csrf = session
        self.headers = {
            "Cookie": f"sessionid={sid}; csrftoken={csrf}",
            "X-CSRFToken": csrf,
            "Content-Type": "application/json",
            "Referer": f"http://127.0.0.1:{port}{path}",
        }
        self.latencies: list[float] = []
        self.errors = 0
        self.version = 0

    def request(self, conn: Connection) -> int:
        if self.kind == "ping":
            status, data, _ = conn.send("GET", "/ping/")
        elif self.kind == "page":
            status, data, _ = conn.send("GET", self.path, headers=self.headers)
        elif self.kind == "state":
            status, data, _ = conn.send("GET", "/api" + self.path + "state/", headers=self.headers)
        else:
            cell = random.choice([i for i, g in enumerate(self.givens) if g == "0"])
            digits = ["0"] * 81
            digits[cell] = str(random.randint(1, 9))
            body = json.dumps(
                {
                    "version": self.version,
                    "digits": "".join(digits),
                    "corner": [""] * 81,
                    "centre": [""] * 81,
                    "colours": [""] * 81,  # the board sends its colours with every save (issue 13)
                    # and the move that made the change, which the record of play keeps (issue 15)
                    "moves": [[0, "d", [[cell, int(digits[cell])]]]],
                }
            )
            status, data, _ = conn.send("POST", "/api" + self.path + "save/", body.encode(), self.headers)
        if self.kind == "save" and status == 200:
            self.version = json.loads(data)["version"]
        elif self.kind == "save" and status == 409:
            self.version = json.loads(data)["state"]["version"]  # as the board does: adopt, retry
        return status

    def run(self) -> None:
        conn = Connection(self.port)
        if self.kind == "save":
            # Like the page, start from the version the server has (not timed).
            _, data, _ = conn.send("GET", "/api" + self.path + "state/", headers=self.headers)
            self.version = json.loads(data)["version"]
        # Paced players start spread over one interval, as real ones would not move in step.
        next_at = time.monotonic() + random.uniform(0, self.pace)
        while time.monotonic() < self.until:
            if self.pace:
                time.sleep(max(0.0, next_at - time.monotonic()))
                next_at += self.pace
            started = time.perf_counter()
            status = self.request(conn)
            self.latencies.append((time.perf_counter() - started) * 1000)
            if status != 200:
                self.errors += 1


def _play(
    port: int, kind: str, path: str, sessions, start_at: float, seconds: float, givens: str, pace: float
) -> list[tuple[list[float], int]]:
    """One load process: its share of the players, from `start_at` for `seconds`."""
    time.sleep(max(0.0, start_at - time.monotonic()))
    players = [Player(port, kind, path, s, start_at + seconds, givens, pace) for s in sessions]
    for p in players:
        p.start()
    for p in players:
        p.join()
    return [(p.latencies, p.errors) for p in players]


def load(port: int, kind: str, path: str, sessions, seconds: float, givens: str, pace: float = 0.0) -> dict:
    """The players, spread over LOAD_PROCESSES processes, all starting together.

    One Python process for twenty players made them take turns on its interpreter lock: a player
    could wait milliseconds to read its answer and close its connection, and gunicorn's sync
    worker waits for that close (a graceful close, up to 2 s) before it takes the next request.
    Real players are separate machines, so here they are at least separate processes.
    """
    shares = [sessions[i::LOAD_PROCESSES] for i in range(LOAD_PROCESSES) if sessions[i::LOAD_PROCESSES]]
    start_at = time.monotonic() + 0.5  # every process forked and waiting (the clock is system-wide)
    with multiprocessing.get_context("fork").Pool(len(shares)) as pool:
        results = pool.starmap(_play, [(port, kind, path, share, start_at, seconds, givens, pace) for share in shares])
    played = [player for share in results for player in share]
    latencies = [x for times, _ in played for x in times]
    return {
        "requests": len(latencies),
        "rps": len(latencies) / seconds,
        "p50": percentile(latencies, 0.5),
        "p99": percentile(latencies, 0.99),
        "errors": sum(errors for _, errors in played),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3, help="turns of ceiling, page and saves")
    parser.add_argument("--workers", type=int, help="gunicorn worker processes (default: the site's setting)")
    # board.js saves 600 ms after the last entry (SAVE_DELAY_MS) and one save at a time, so no
    # player's board sends saves closer together than that: the harshest pace people can make.
    parser.add_argument("--pace", type=float, default=0.6, help="seconds between a paced player's saves")
    args = parser.parse_args()

    env = setup_site(DB_URL, CACHE_URL)
    path, givens, sessions = prepare(args.players)
    from sudokusite import gunicorn as gunicorn_settings

    workers = args.workers or gunicorn_settings.workers
    port = free_port()
    server = gunicorn(port, env, workers, site_config=True, timeout=None)
    rounds: list[dict[str, dict]] = []
    # This process holds Django and the setup's objects; a full garbage collection scanning them
    # would stall every player thread at once and be timed as the server's latency.
    gc.freeze()
    try:
        for kind in KINDS:  # every worker's imports and connections, before anything is timed
            load(port, kind, path, sessions, 1, givens)
        # The players saving as fast as their boards can, every `--pace` seconds each: first, and
        # three times as long (a p99 of some thousand saves), so it does not time the aftermath of
        # the back-to-back rounds (autovacuum and a checkpoint after tens of thousands of updates).
        paced = load(port, "save", path, sessions, 3 * args.seconds, givens, pace=args.pace)
        for _ in range(args.rounds):
            rounds.append({kind: load(port, kind, path, sessions, args.seconds, givens) for kind in KINDS})
    finally:
        stop(server)

    print(
        f"\ngunicorn, {workers} sync workers, PostgreSQL and Redis, {args.players} concurrent players, "
        f"{args.rounds} rounds of {args.seconds:.0f} s per load ({os.cpu_count()} cores; the load generator shares them)"
    )
    widths = (-7, -34, 10, 10, 10, 8)
    print(row("round", "endpoint", "req/s", "p50 ms", "p99 ms", "errors", widths=widths, sep=""))
    lines = [(number, LABELS[kind], r) for number, results in enumerate(rounds, 1) for kind, r in results.items()]
    for number, label, r in [*lines, ("", f"save, every {args.pace:.1f} s a player", paced)]:
        figures = (f"{r['rps']:.0f}", f"{r['p50']:.1f}", f"{r['p99']:.1f}", r["errors"])
        print(row(number, label, *figures, widths=widths, sep=""))
    ratios = sorted(r["page"]["rps"] / r["ping"]["rps"] for r in rounds)
    save_p99s = sorted(r["save"]["p99"] for r in rounds)
    print(
        f"puzzle page at {', '.join(f'{x:.0%}' for x in ratios)} of the ceiling's throughput, median "
        f"{statistics.median(ratios):.0%} (target 60%); back-to-back save p99 "
        f"{', '.join(f'{x:.1f}' for x in save_p99s)} ms, median {statistics.median(save_p99s):.1f} ms "
        f"(target under 50 ms)"
    )


# The page is the same for everyone; the board then asks the state API who is playing and where
# they are, so opening a puzzle is a page and a state: both are measured, the page against the target.
KINDS = ("ping", "page", "state", "save")
LABELS = {
    "ping": "trivial view (ceiling)",
    "page": "puzzle page",
    "state": "player's state (after the page)",
    "save": "save progress",
}


if __name__ == "__main__":
    main()
