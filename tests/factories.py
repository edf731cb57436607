"""Helpers the tests share: the known easy puzzle, the board's addresses and requests, and small
`make_*` builders. Fixtures live in conftest.py; these are plain functions, imported by name."""

from __future__ import annotations

import datetime
import itertools
import json
import random
from typing import Any

import time_machine
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from puzzles.fairplay.judge import judge_waiting_one
from puzzles.fairplay.ranking import CHECKING
from puzzles.models import TIER_ORDER, Attempt, DailyPuzzle, Pool, Puzzle, Solve
from puzzles.pipeline import pools

# A well-known easy puzzle and its solution, published as today's easy daily by `todays_easy`.
EASY_GIVENS = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
EASY_SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"


def player_digits(board: str = EASY_SOLUTION, givens: str = EASY_GIVENS) -> str:
    """The player's own entries for a full board: the givens blanked out."""
    return "".join("0" if g != "0" else d for g, d in zip(givens, board))


def url(daily: DailyPuzzle, name: str | None = None) -> str:
    """The daily's board page, or with a name one of the board's JSON endpoints ("save", "state" ...)."""
    if name is None:
        return f"/daily/{daily.date.isoformat()}/{daily.difficulty}/"
    return f"/api/daily/{daily.date.isoformat()}/{daily.difficulty}/{name}/"


def post(client: Client, address: str, payload: Any, **extra: Any):
    """POST as the board does: a payload as JSON, bytes or text as they are."""
    body = payload if isinstance(payload, (bytes, str)) else json.dumps(payload)
    return client.post(address, body, content_type="application/json", **extra)


def log_in(client: Client, username: str = "ada") -> User:
    """Log the client in as `username`, making the user if there is none yet."""
    user = User.objects.get_or_create(username=username)[0]
    client.force_login(user)
    return user


def make_puzzle(tier: str = "easy", seed: int = 0, **options: str) -> Puzzle:
    """A puzzle made, rated and stored by the pipeline, reproducible from its seed."""
    puzzle = pools.puzzle_store(pools.puzzle_make(tier, rng=random.Random(seed), **options))
    assert puzzle is not None
    return puzzle


def make_known_puzzle(givens: str = EASY_GIVENS, solution: str = EASY_SOLUTION, **fields: Any) -> Puzzle:
    """A puzzle stored as the test writes it, not made by the pipeline: `givens` and `solution`
    (the known easy puzzle by default), and for the rest an easy puzzle of naked singles, imported,
    its clues counted from the givens; `fields` set any of them (tier, score, hardest ...)."""
    values = {
        "tier": "easy",
        "score": 1,
        "hardest": "naked-single",
        "clues": 81 - givens.count("0"),
        "filler": "imported",
        **fields,
    }
    return Puzzle.objects.create(givens=givens, solution=solution, **values)


def make_pools_filled(*tiers: str) -> None:
    """The pools of `tiers` (all by default) as on a running site: filled once, whatever they hold
    now, so that an empty one gets a substitute (Pool.filled_at)."""
    for tier in tiers or TIER_ORDER:
        Pool.objects.filter(pk=pools.pool_get(tier).pk).update(filled_at=timezone.now())


def make_daily(
    day: datetime.date, difficulty: str = "easy", puzzle: Puzzle | None = None, **fields: Any
) -> DailyPuzzle:
    """The daily of `difficulty` on `day` (`fields` set the rest, say substitute=True). Without a
    puzzle, a real, solvable one: the known easy one with its digits renamed, so each daily has a
    distinct puzzle whose solution the tests know."""
    if puzzle is None:
        names = next(itertools.islice(itertools.permutations("123456789"), Puzzle.objects.count() + 1, None))
        rename = dict(zip("123456789", names), **{"0": "0"})
        givens = "".join(rename[d] for d in EASY_GIVENS)
        solution = "".join(rename[d] for d in EASY_SOLUTION)
        puzzle = make_known_puzzle(givens, solution, tier=difficulty, hardest="hidden-single", used=True)
    return DailyPuzzle.objects.create(date=day, difficulty=difficulty, puzzle=puzzle, **fields)


def make_solve(
    daily: DailyPuzzle,
    username: str,
    seconds: float,
    *,
    late: bool = False,
    assisted: bool = False,
    flagged: bool = False,
    solved_at: datetime.datetime | None = None,
) -> Solve:
    """A solve of `daily` by `username` (made if new), with its attempt."""
    user = User.objects.get_or_create(username=username)[0]
    attempt = Attempt.objects.create(user=user, daily=daily, active_seconds=seconds)
    return Solve.objects.create(
        attempt=attempt,
        user=user,
        daily=daily,
        seconds=seconds,
        solved_at=solved_at or timezone.now(),
        late=late,
        assisted=assisted,
        flagged=flagged,
    )


def solve_through_api(
    client: Client, daily: DailyPuzzle, seconds: float = 0, *, clock=None, judged: bool = True
) -> dict:
    """Open a daily's page, send heartbeats until the server counts `seconds`, and submit the
    solution through the board's JSON API, as the page does; then, `judged`, give the solve its
    verdict as the beat's sweep does just after the answer (judge_follow_up). Time moves on
    `clock` (a time-machine traveller) if given; with seconds and no clock, on one of its own."""
    if clock is None and seconds:
        with time_machine.travel(timezone.now(), tick=False) as own_clock:
            return solve_through_api(client, daily, seconds, clock=own_clock, judged=judged)
    assert client.get(url(daily)).status_code == 200
    if client.get(url(daily, "state")).json()["player"] is None:
        # A visitor becomes a guest by a move, never by a heartbeat: the page's first save does it.
        assert post(client, url(daily, "save"), {"version": 0, "digits": "0" * 81}).status_code == 200
    elapsed = 0
    for _ in range(int(seconds) + 2):  # bounded: every beat after the first counts
        if elapsed >= seconds:
            break
        clock.shift(min(10, seconds - elapsed))
        elapsed = post(client, url(daily, "beat"), {}).json()["elapsed"]
    version = client.get(url(daily, "state")).json()["version"]
    digits = player_digits(daily.puzzle.solution, daily.puzzle.givens)
    response = post(client, url(daily, "submit"), {"version": version, "digits": digits})
    assert response.status_code == 200, response.content
    if judged:
        judge_follow_up(daily)
    return response.json()


def judge_follow_up(daily: DailyPuzzle) -> list[Solve]:
    """The first step of the beat's sweep for the daily's solves still being checked (a test has no
    worker): their verdicts, as fairplay/judge.py gives them just after the submit's answer."""
    waiting = list(Solve.objects.filter(daily=daily, unranked=CHECKING).order_by("pk"))
    for solve in waiting:
        assert judge_waiting_one(solve.pk)
        solve.refresh_from_db()
    return waiting


def make_event(
    attempt: Attempt,
    kind: str,
    at: datetime.datetime,
    moves: list[tuple[int, list[tuple[int, int]]]] = (),
    placed: int | None = None,
):
    """One event of `attempt`'s record of play, arrived `at`. `moves` are (age_ms, [(cell, digit), ...])
    digit moves; `placed` (the server's count of cells filled) defaults to the digits they put in."""
    from puzzles.models import PlayEvent
    from puzzles.record_of_play.moves import Move, pack

    packed = pack([Move(age, "d", tuple(cells)) for age, cells in moves])
    if placed is None:
        placed = sum(1 for _, cells in moves for _, digit in cells if digit)
    return PlayEvent.objects.create(attempt=attempt, kind=kind, arrived_at=at, moves=packed, placed=placed)


def make_paced_record(attempt: Attempt, start: datetime.datetime, gap: float, per_save: int = 3) -> datetime.datetime:
    """A record of play as the board writes it for a player placing one digit every `gap` seconds
    into the attempt's empty cells: an open, saves of `per_save` digits each as the last one goes in
    (the moves aged as they were made), the last digit with the submit. Returns the submit's time."""
    empty = [cell for cell, given in enumerate(attempt.daily.puzzle.givens) if given == "0"]
    make_event(attempt, "open", start)
    batch: list[tuple[datetime.datetime, int]] = []
    at = start
    for number, cell in enumerate(empty[:-1], start=1):
        at = start + datetime.timedelta(seconds=number * gap)
        batch.append((at, cell))
        if len(batch) == per_save:
            moves = [(int((at - made).total_seconds() * 1000), [(c, 1)]) for made, c in batch]
            make_event(attempt, "save", at, moves)
            batch = []
    end = at + datetime.timedelta(seconds=gap)
    moves = [(int((end - made).total_seconds() * 1000), [(c, 1)]) for made, c in batch] + [(0, [(empty[-1], 1)])]
    make_event(attempt, "submit", end, moves)
    return end


def make_established(
    user: User, rating: float = 1500.0, deviation: float = 60.0, solves: int = 10, on_day: int | None = None
):
    """Give `user` a settled rating (fairplay/ranking.is_provisional says no): an established player,
    whose `on_day` solves (all of them unless told) were dailies solved on their day, each on a day of its own,
    the first a year ago."""
    from puzzles.models import PlayerRating

    on_day = solves if on_day is None else on_day
    return PlayerRating.objects.update_or_create(
        user=user,
        defaults={
            "rating": rating,
            "deviation": deviation,
            "solves": solves,
            "on_day_solves": on_day,
            "on_days": on_day,
            "on_day_since": timezone.now() - datetime.timedelta(days=365),  # past its first month
        },
    )[0]
