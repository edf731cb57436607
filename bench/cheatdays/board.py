"""A board without the page, in-process: the site's real views through django.test.Client (CSRF
enforced, an address of its own per client), each request made at a simulated moment; and the
timelines a player (or a bot) writes: when each digit goes in, when the board saves, ticks,
closes and submits.

The board's write pattern (static/js/sync.js): a save 0.6 s after the last change and at most 3 s
after the first unsaved one, a tick every 10 s while the page is visible, the last digits in the
submit. Each move carries its age, the time since it was made, as the board's moves do.
"""

from __future__ import annotations

import datetime
import itertools
import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache

SAVE_DELAY, SAVE_AT_MOST = 0.6, 3.0  # the board's debounce (static/js/sync.js)
# The board ticks every 10 s while visible; here every 25 s. Ticks are not logged and a silence
# under HEARTBEAT_GAP_SECONDS (180 s by default) counts in full, so the clock and
# the record are the same, for less than half the requests.
TICK_EVERY = 25.0
FASTEST_GAP = 1.2  # a person's quickest average pace, seconds a digit, over a whole solve
HOST = "127.0.0.1"
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')

_addresses = itertools.count(1)
# Every write or beat the site refused in this run, as "<name> <status>": a refused honest write
# changes what is measured, so run.py prints them.
REFUSED: Counter[str] = Counter()


@dataclass(frozen=True)
class Daily:
    pk: int
    path: str  # /daily/YYYY-MM-DD/<difficulty>/
    tier: str
    givens: str
    solution: str
    puzzle: int


@cache
def logical_order(givens: str, solution: str) -> tuple[int, ...]:
    """The empty cells in the order the engine's own walk fills them: the order a person finds them."""
    from puzzles.engine import walk

    order = [cell for moment in walk(givens, solution) for cell, _ in moment.step.placements]
    seen = set(order)
    return tuple(order + [cell for cell, given in enumerate(givens) if given == "0" and cell not in seen])


# --- timelines: what a board sends, and when (seconds from opening the page) ----------------------


@dataclass
class Step:
    at: float  # seconds after the open
    kind: str  # "open", "tick", "close", "save", "submit"
    cells: list[tuple[int, float]] = field(default_factory=list)  # (cell, when it was made) for writes


def paced(order: tuple[int, ...], seconds: float, rng: random.Random, first: float = 0.0) -> list[tuple[int, float]]:
    """Every cell of `order` given a time, the last at `seconds`: gaps drawn around their mean
    (an exponential and a floor of a third of it), the first digit after `first` seconds."""
    weights = [rng.expovariate(1.0) + 0.5 for _ in order]
    scale = (seconds - first) / sum(weights)
    times, at = [], first
    for cell, weight in zip(order, weights, strict=True):
        at += weight * scale
        times.append((cell, at))
    return times


def board_writes(placed: list[tuple[int, float]], ticks: bool = True, opened: bool = True) -> list[Step]:
    """The board's steps for digits placed at those times: an open, debounced saves, ticks every
    TICK_EVERY s of silence while visible, and the submit with the last digits 0.3 s after the last."""
    steps = [Step(0.0, "open")] if opened else []
    pending: list[tuple[int, float]] = []
    for cell, at in placed:
        if pending:
            due = min(pending[-1][1] + SAVE_DELAY, pending[0][1] + SAVE_AT_MOST)
            if due <= at:
                steps.append(Step(due, "save", pending))
                pending = []
        pending = [*pending, (cell, at)]
    end = placed[-1][1] + 0.3 if placed else 0.3
    steps.append(Step(end, "submit", pending))
    return with_ticks(steps) if ticks else steps


def with_ticks(steps: list[Step], every: float = TICK_EVERY) -> list[Step]:
    """Ticks in every silence of `every` s or more between the steps, but after a close (a visible page)."""
    out: list[Step] = []
    for step in steps:
        if out:
            last = out[-1].at
            while step.at - last >= every and out[-1].kind != "close":
                last += every
                out.append(Step(last, "tick"))
        out.append(step)
    return out


def honest_steps(daily: Daily, seconds: float, rng: random.Random) -> tuple[list[Step], float]:
    """A person's solve of `seconds` (at least FASTEST_GAP a digit): the cells in the engine's
    logical order, a first look before the first digit; the steps and the seconds used."""
    order = logical_order(daily.givens, daily.solution)
    seconds = max(seconds, FASTEST_GAP * len(order))
    return board_writes(paced(order, seconds, rng, first=min(20.0, 0.05 * seconds))), seconds


# --- a client ------------------------------------------------------------------------------------


def followed_up(daily: Daily) -> None:
    """What the beat's sweep does a second after a submit's answer in production (tasks.follow_ups):
    the solves left being checked judged, the day's other held solves decided again, the ratings
    brought up to them; all but the solve's review (coaching), which judges nothing."""
    from puzzles.fairplay import judge
    from puzzles.ratings.ledger import ratings_catch_up

    for solve_id in judge.waiting():
        if judge.judge_waiting_one(solve_id):
            judge.held_again_after(solve_id)
    ratings_catch_up()


class Board:
    """One browser: its cookies, its own address, the board's position and version on one daily."""

    def __init__(self, user=None) -> None:
        from django.test import Client

        n = next(_addresses)
        address = f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}"
        self.client = Client(enforce_csrf_checks=True, HTTP_HOST=HOST, REMOTE_ADDR=address)
        if user is not None:
            self.client.force_login(user)
        self.version = 0
        self.digits = ["0"] * 81

    def token(self) -> str:
        cookie = self.client.cookies.get("csrftoken")
        return cookie.value if cookie else ""

    def visit(self, daily: Daily) -> None:
        """Open the puzzle's page and read the state, as the board does on load."""
        self.client.get(daily.path)
        answer = self.client.get(f"/api{daily.path}state/")
        state = answer.json() if answer.status_code == 200 else {}
        self.version = state.get("version", 0)
        self.digits = list(state.get("digits", "0" * 81))

    def api(self, daily: Daily, name: str, payload: dict) -> dict:
        response = self.client.post(
            f"/api{daily.path}{name}/",
            json.dumps(payload),
            content_type="application/json",
            HTTP_X_CSRFTOKEN=self.token(),
        )
        if response.status_code != 200:
            REFUSED[f"{name} {response.status_code}"] += 1
            return {}
        return response.json()

    def beat(self, daily: Daily, phase: str) -> None:
        self.api(daily, "beat", {"phase": phase})

    def write(self, daily: Daily, kind: str, cells: list[tuple[int, float]], now: float) -> dict:
        """A save or the submit carrying these cells' digits, each move aged from when it was made."""
        for cell, _ in cells:
            self.digits[cell] = daily.solution[cell]
        moves = [[max(0, int((now - made) * 1000)), "d", [[cell, int(daily.solution[cell])]]] for cell, made in cells]
        payload = {"version": self.version, "digits": "".join(self.digits), "moves": moves}
        if kind == "save":
            payload.update(corner=[""] * 81, centre=[""] * 81, colours=[""] * 81)
        answer = self.api(daily, kind, payload)
        self.version = answer.get("version", self.version)
        if kind == "submit" and answer.get("solved"):
            followed_up(daily)
        return answer

    def form(self, path: str, fields: dict[str, str]) -> int:
        """Fill in a form as a browser does: GET it for its token, POST it; the POST's status."""
        page = self.client.get(path)
        token = CSRF_INPUT.search(page.content.decode())
        if token is None:
            return page.status_code
        return self.client.post(path, {**fields, "csrfmiddlewaretoken": token.group(1)}).status_code


def played(board: Board, daily: Daily, steps: list[Step], start: datetime.datetime):
    """A generator for the scheduler (world.run): yields the moment of each step, and makes the
    step's request when resumed at it (the clock is travelled there)."""
    board.visit(daily)
    for step in steps:
        yield start + datetime.timedelta(seconds=step.at)
        if step.kind in ("open", "tick", "close"):
            board.beat(daily, step.kind)
        else:
            board.write(daily, step.kind, step.cells, step.at)
