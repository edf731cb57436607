"""Each endpoint alone: a few clients send one kind of request back to back for a few seconds
while a Meter reads what the server's processes used, so the CPU of one request of that kind is
the window's CPU over its requests, with nothing else running (bench/load.py's last phase).

Submits need unsolved puzzles with an attempt, and results need solves: an unmetered stage
opens and half-fills each (player, daily) pair first, the submit stage solves pairs until none
is left or the time is up, and the results stage reads the solved ones.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from .crowd import Client, Daily, Sample, cpu_of_this_process, pooled_client, post
from .figures import percentile
from .meter import Meter


@dataclass
class Pair:
    """One solo player's attempt at one daily, as far as the server has acknowledged it."""

    client: Client
    daily: Daily
    version: int = 0
    board: list[str] = field(default_factory=list)
    empty: list[int] = field(default_factory=list)  # cells still to fill, in the order filled
    solved: bool = False


@dataclass
class Stage:
    kind: str
    requests: int
    errors: int
    seconds: float
    p50: float
    cpu: dict[str, float]  # seconds per meter group, with "client" (this process)


Work = Callable[[int], Awaitable[None]]


async def run_for(workers: int, seconds: float, work: Work) -> None:
    """`workers` loops calling work(worker) until `seconds` pass or work raises StopAsyncIteration."""
    deadline = time.monotonic() + seconds

    async def loop(worker: int) -> None:
        while time.monotonic() < deadline:
            try:
                await work(worker)
            except StopAsyncIteration:
                return

    await asyncio.gather(*(loop(w) for w in range(workers)))


def ok(status: int) -> int:
    return 0 if status in (200, 302) else 1


async def measure_endpoints(
    port: int,
    sessions: Sequence[tuple[str, str]],
    logins: Sequence[tuple[str, str]],
    dailies: Sequence[Daily],
    meter: Meter,
    workers: int = 4,
    seconds: float = 5.0,
) -> list[Stage]:
    """Each endpoint alone for `seconds`, by `workers` clients: solo players from `sessions`
    (made ahead), and `logins` (username, password) for the log-in form's stage."""
    samples: list[Sample] = []
    stages: list[Stage] = []
    async with pooled_client(connections=workers * 2) as http:
        base = f"http://127.0.0.1:{port}"
        clients = [Client(http, base, samples) for _ in sessions]
        for client, session in zip(clients, sessions):
            client.enter(session)
        pairs = [Pair(c, d) for c in clients for d in dailies]
        shares = [pairs[w::workers] for w in range(workers)]
        cycles = [itertools.cycle(share) for share in shares]

        async def stage(kind: str, work: Work, counted: Sequence[str] = (), until_done: bool = False) -> None:
            first = len(samples)
            cpu, started, begin = meter.read(), cpu_of_this_process(), time.monotonic()
            await run_for(workers, 600 if until_done else seconds, work)
            spent = time.monotonic() - begin
            used = Meter.used(cpu, meter.read())
            used["client"] = cpu_of_this_process() - started
            mine = [s for s in samples[first:] if s[0] in (kind, *counted)]
            requests = sum(1 for s in mine if s[0] == kind)
            latencies = [s[2] for s in mine if s[0] == kind]
            errors = sum(ok(s[3]) for s in mine)
            stages.append(Stage(kind, requests, errors, spent, percentile(latencies, 0.5), used))

        async def home(w: int) -> None:
            await next(cycles[w]).client.request("home", "GET", "/")

        async def page(w: int) -> None:
            pair = next(cycles[w])
            await pair.client.request("page", "GET", pair.daily.path)

        await stage("home", home)
        await stage("page", page)

        # Every pair opened and half filled, as a player is midway through a puzzle (its CPU is
        # printed as "prepare", three requests of different kinds).
        unprepared = [iter(share) for share in shares]

        async def prepare(w: int) -> None:
            pair = next(unprepared[w], None)
            if pair is None:
                raise StopAsyncIteration
            daily, client = pair.daily, pair.client
            _, data = await client.request("prepare", "GET", daily.api + "state/")
            position = json.loads(data)
            pair.version, pair.board = position["version"], list(position["digits"])
            pair.empty = [i for i, g in enumerate(daily.givens) if g == "0" and pair.board[i] == "0"]
            body = post({"version": pair.version, "phase": "open"})
            await client.request("prepare", "POST", daily.api + "beat/", body)
            await save(pair, len(pair.empty) // 2, "prepare")

        await stage("prepare", prepare, until_done=True)

        async def state(w: int) -> None:
            pair = next(cycles[w])
            await pair.client.request("state", "GET", pair.daily.api + "state/")

        async def beat(w: int) -> None:
            pair = next(cycles[w])
            body = post({"version": pair.version, "phase": "tick"})
            await pair.client.request("beat", "POST", pair.daily.api + "beat/", body)

        async def save_one(w: int) -> None:
            pair = next(cycles[w])
            await save(pair, 1 if len(pair.empty) > 1 else 0, "save")

        waiting = [iter(share) for share in shares]

        async def submit(w: int) -> None:
            pair = next(waiting[w], None)
            if pair is None:
                raise StopAsyncIteration
            daily = pair.daily
            digits = "".join("0" if g != "0" else s for g, s in zip(daily.givens, daily.solution))
            body = post({"version": pair.version, "digits": digits, "moves": []})
            status, data = await pair.client.request("submit", "POST", daily.api + "submit/", body)
            pair.solved = status == 200 and bool(json.loads(data).get("solved"))

        await stage("state", state)
        await stage("beat", beat)
        await stage("save", save_one)
        await stage("submit", submit)
        solved = [itertools.cycle([p for p in share if p.solved] or [None]) for share in shares]

        async def results(w: int) -> None:
            pair = next(solved[w])
            if pair is None:
                raise StopAsyncIteration
            await pair.client.results(pair.daily)

        await stage("results", results)

        accounts = iter(logins)

        async def login(w: int) -> None:
            account = next(accounts, None)
            if account is None:
                raise StopAsyncIteration
            await Client(http, base, samples).log_in(*account)

        await stage("login", login, counted=("login-form",))
    return stages


async def save(pair: Pair, cells: int, kind: str) -> None:
    """A save of `cells` more cells with their moves, adopting the stored version on a 409."""
    placed, pair.empty = pair.empty[:cells], pair.empty[cells:]
    for cell in placed:
        pair.board[cell] = pair.daily.solution[cell]
    ages = range(100 * len(placed), 0, -100)  # oldest first, as the board sends them
    moves = [[age, "d", [[cell, int(pair.daily.solution[cell])]]] for age, cell in zip(ages, placed)]
    for _ in range(2):
        body = post({"version": pair.version, "digits": "".join(pair.board), "moves": moves})
        status, data = await pair.client.request(kind, "POST", pair.daily.api + "save/", body)
        if status != 409:
            break
        pair.version = json.loads(data)["state"]["version"]
    if status == 200:
        pair.version = json.loads(data)["version"]
