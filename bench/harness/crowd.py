"""A crowd of players as coroutines: one asyncio loop per client process, one pooled aiohttp
client per loop, each player a coroutine with its own cookies. Thousands of waiting players cost
a few kilobytes each, not a thread each, so the generator's own CPU stays small and measurable.

Every request is recorded as a sample: (kind, when it was sent by the monotonic clock, which
every process on the machine shares, milliseconds, status); status 0 is no answer at all.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import resource
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlencode

import aiohttp

Sample = tuple[str, float, float, int]
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
JSON = "application/json"


@dataclass
class Daily:
    difficulty: str
    path: str  # /daily/YYYY-MM-DD/<difficulty>/
    givens: str
    solution: str

    @property
    def api(self) -> str:
        return "/api" + self.path


@dataclass
class Pace:
    """How a player plays: the board's rhythm (static/js/sync.js), jittered per player."""

    save_every: float = 10.0  # mean seconds between saves (0.5x to 1.5x); the board's SAVE_EVERY_MS
    beat_every: float = 10.0  # BEAT_MS
    saves_per_puzzle: int = 30  # a five-minute solve


@dataclass
class Outcome:
    """What one player was told: per daily its last acknowledged save, and its solves."""

    index: int
    finished: bool = False
    saved: dict[str, tuple[int, str]] = field(default_factory=dict)  # difficulty -> (version, digits)
    solved: set[str] = field(default_factory=set)
    saves: int = 0  # saves answered 200, each an event in the record of play
    conflicts: int = 0
    failures: list[str] = field(default_factory=list)


@dataclass
class Ticket:
    """How a player gets in: a session made ahead (its key and CSRF token), or the log-in form."""

    index: int
    username: str
    session: tuple[str, str] | None = None
    password: str | None = None


class Client:
    """One player's cookies on a shared pooled HTTP client; every request timed into `samples`."""

    def __init__(self, http: aiohttp.ClientSession, base: str, samples: list[Sample]) -> None:
        self.http, self.base, self.samples = http, base, samples
        self.cookies: dict[str, str] = {}

    def enter(self, session: tuple[str, str]) -> None:
        self.cookies["sessionid"], self.cookies["csrftoken"] = session

    async def request(
        self,
        kind: str,
        method: str,
        path: str,
        body: bytes | None = None,
        content_type: str = JSON,
        extra: dict[str, str] | None = None,
    ) -> tuple[int, bytes]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()), **(extra or {})}
        if method == "POST":
            headers["Content-Type"] = content_type
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        started, sent_at = time.perf_counter(), time.monotonic()
        status, data = 0, b""
        try:
            async with self.http.request(
                method, self.base + path, data=body, headers=headers, allow_redirects=False
            ) as response:
                status, data = response.status, await response.read()
                for header in response.headers.getall("Set-Cookie", []):
                    for name, morsel in SimpleCookie(header).items():
                        self.cookies[name] = morsel.value
        except (TimeoutError, aiohttp.ClientError):
            pass  # status 0: no answer, counted as an error of its endpoint
        # When it was sent, not when it came back: a request belongs to the phase it was sent in.
        self.samples.append((kind, sent_at, (time.perf_counter() - started) * 1000, status))
        return status, data

    async def log_in(self, username: str, password: str) -> str | None:
        """Through the real form (a full password check); None, or what went wrong."""
        status, page = await self.request("login-form", "GET", "/accounts/login/")
        token = CSRF_INPUT.search(page.decode(errors="replace"))
        if status != 200 or not token or "csrftoken" not in self.cookies:
            return f"login form: {status}"
        form = {"login": username, "password": password, "csrfmiddlewaretoken": token.group(1), "next": "/"}
        status, _ = await self.request(
            "login", "POST", "/accounts/login/", urlencode(form).encode(), "application/x-www-form-urlencoded"
        )
        return None if status == 302 and "sessionid" in self.cookies else f"login: {status}"

    async def results(self, daily: Daily) -> int:
        """The results fragment, as board.js fetches it after the solve."""
        status, _ = await self.request(
            "results", "GET", daily.path + "results/", extra={"Accept": "text/html", "Sec-Fetch-Mode": "cors"}
        )
        return status


def post(data: dict[str, Any]) -> bytes:
    return json.dumps(data).encode()


class Player:
    """Player `ticket.index`: from `start_at` until `until`, every daily in turn as the board plays it."""

    def __init__(self, ticket: Ticket, client: Client, dailies: Sequence[Daily], pace: Pace) -> None:
        self.ticket, self.client, self.pace = ticket, client, pace
        shift = ticket.index % len(dailies)
        self.dailies = [*dailies[shift:], *dailies[:shift]]
        self.rng = random.Random(ticket.index)
        self.outcome = Outcome(ticket.index)

    def fail(self, what: str) -> bool:
        self.outcome.failures.append(what)
        return False

    async def run(self, start_at: float, until: float) -> Outcome:
        await asyncio.sleep(max(0.0, start_at - time.monotonic()))
        if self.ticket.session is not None:
            self.client.enter(self.ticket.session)
        else:
            assert self.ticket.password is not None
            problem = await self.client.log_in(self.ticket.username, self.ticket.password)
            if problem:
                self.fail(problem)
                return self.outcome
        for daily in self.dailies:
            if time.monotonic() >= until or not await self.play(daily, until):
                break
        self.outcome.finished = not self.outcome.failures
        return self.outcome

    def moves_for(self, cells: list[int], solution: str) -> list:
        """The board's moves for `cells` filled one by one since the last save, oldest first."""
        ages = sorted((int(self.rng.uniform(0, self.pace.save_every * 1000)) for _ in cells), reverse=True)
        return [[age, "d", [[cell, int(solution[cell])]]] for age, cell in zip(ages, cells)]

    async def play(self, daily: Daily, until: float) -> bool:
        """One daily from the home page to its results; False when the player has to stop."""
        client, pace = self.client, self.pace
        for kind, path in (("home", "/"), ("page", daily.path)):
            status, _ = await client.request(kind, "GET", path)
            if status != 200:
                return self.fail(f"{kind}: {status}")
        status, data = await client.request("state", "GET", daily.api + "state/")
        if status != 200:
            return self.fail(f"state: {status}")
        state = json.loads(data)
        version, board = state["version"], list(state["digits"])
        todo = [i for i, g in enumerate(daily.givens) if g == "0" and board[i] == "0"]
        self.rng.shuffle(todo)
        per_save = max(1, -(-len(todo) // pace.saves_per_puzzle))
        # Real players do not move in step: the first save comes at a random point of the interval.
        now = time.monotonic()
        next_save = now + self.rng.uniform(0.1, 1.0) * pace.save_every
        status, _ = await client.request(
            "beat", "POST", daily.api + "beat/", post({"version": version, "phase": "open"})
        )
        # As the board ticks (static/js/sync.js, tickDueIn): only after beat_every without a write.
        next_beat = time.monotonic() + pace.beat_every
        if status != 200:
            return self.fail(f"beat: {status}")
        while todo:
            wake = min(next_save, next_beat)
            if wake >= until:
                return False
            await asyncio.sleep(max(0.0, wake - time.monotonic()))
            if next_beat <= next_save:
                body = post({"version": version, "phase": "tick"})
                status, _ = await client.request("beat", "POST", daily.api + "beat/", body)
                if status != 200:
                    return self.fail(f"beat: {status}")
                next_beat += pace.beat_every
                continue
            placed = todo[:per_save]
            for cell in placed:
                board[cell] = daily.solution[cell]
            moves = self.moves_for(placed, daily.solution)
            centre = ["" for _ in range(81)]
            for i in todo[per_save : per_save + 3]:
                centre[i] = daily.solution[i]
            for _ in range(2):  # a 409 is answered once: adopt the stored version and save again
                body = post(
                    {
                        "version": version,
                        "digits": "".join(board),
                        "corner": [""] * 81,
                        "centre": centre,
                        "moves": moves,
                    }
                )
                status, data = await client.request("save", "POST", daily.api + "save/", body)
                if status != 409:
                    break
                self.outcome.conflicts += 1
                version = json.loads(data)["state"]["version"]
            if status != 200:
                return self.fail(f"save: {status}")
            version = json.loads(data)["version"]
            self.outcome.saved[daily.difficulty] = (version, "".join(board))
            self.outcome.saves += 1
            next_beat = time.monotonic() + pace.beat_every  # the save told the server the page lives
            todo = todo[per_save:]
            # People do not save on a metronome: without jitter, players who started together stay
            # in step and arrive in bursts for the rest of the run.
            next_save += pace.save_every * self.rng.uniform(0.5, 1.5)
        digits = "".join("0" if g != "0" else s for g, s in zip(daily.givens, daily.solution))
        status, data = await client.request(
            "submit", "POST", daily.api + "submit/", post({"version": version, "digits": digits, "moves": []})
        )
        if status != 200 or not json.loads(data).get("solved"):
            return self.fail(f"submit: {status} {data[:100]!r}")
        self.outcome.solved.add(daily.difficulty)
        status = await client.results(daily)
        return status == 200 or self.fail(f"results: {status}")


def pooled_client(connections: int, timeout: float = 60) -> aiohttp.ClientSession:
    """One pooled client for a whole loop; cookies are kept per player, not in the pool."""
    return aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(limit=connections),
        cookie_jar=aiohttp.DummyCookieJar(),
        timeout=aiohttp.ClientTimeout(total=timeout),
    )


async def play_crowd(
    port: int, tickets: Sequence[Ticket], starts: Sequence[float], until: float, dailies: Sequence[Daily], pace: Pace
) -> tuple[list[Sample], list[Outcome]]:
    samples: list[Sample] = []
    async with pooled_client(connections=max(1, len(tickets))) as http:
        base = f"http://127.0.0.1:{port}"
        players = [Player(t, Client(http, base, samples), dailies, pace) for t in tickets]
        outcomes = await asyncio.gather(*(p.run(at, until) for p, at in zip(players, starts)))
    return samples, list(outcomes)


def cpu_of_this_process() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def crowd_process(args: tuple, results: Any) -> None:
    """A client process: its players' samples and outcomes, and its own CPU seconds, onto `results`."""
    started = cpu_of_this_process()
    samples, outcomes = asyncio.run(play_crowd(*args))
    results.put((samples, outcomes, cpu_of_this_process() - started))
