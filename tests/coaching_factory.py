"""Reviews, technique uses and ratings made by hand in the shapes models/coaching.py and
models/ratings.py document, for the tests of the pages that show them; `make_review(solve)`, the
real review of a solve, for the browser's test; and `play_through`, a solve played through the
board's API in a given order, for the review's."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from typing import Any

import time_machine
from django.test import Client
from django.utils import timezone

from puzzles.coaching.review import REVIEW_VERSION
from puzzles.coaching.services import review_store
from puzzles.models import DailyPuzzle, PlayerRating, PuzzleRating, RatingChange, Solve, SolveReview, TechniqueUse
from tests.factories import post, url


def placement(move: int, ms: int, cell: int, digit: int, technique: str = "hidden-single", **fields: Any) -> dict:
    """One placement of a review: by logic with `technique` unless `verdict` says otherwise."""
    verdict = fields.pop("verdict", "logic")
    text = f"The {digit} in row {cell // 9 + 1}, column {cell % 9 + 1}: the only place for it."
    return {
        "move": move,
        "ms": ms,
        "cell": cell,
        "digit": digit,
        "verdict": verdict,
        "technique": technique if verdict == "logic" else "",
        "steps": [{"technique": technique, "text": text}] if verdict == "logic" else [],
        "think_ms": 4000,
        **fields,
    }


def save_review(
    solve: Solve, placements: list[dict], stalls: list[dict] = (), mistakes: list[dict] = ()
) -> SolveReview:
    """The solve's review, stored as the review task stores it."""
    return SolveReview.objects.update_or_create(
        solve=solve,
        defaults={
            "version": REVIEW_VERSION,
            "placements": list(placements),
            "stalls": list(stalls),
            "mistakes": list(mistakes),
        },
    )[0]


def make_use(solve: Solve, technique: str, seconds: float, solved_at: datetime.datetime | None = None) -> TechniqueUse:
    """One TechniqueUse of the solve's player, with the solve's review (by the current rules, as
    the profile counts only those) if it has none."""
    SolveReview.objects.get_or_create(solve=solve, defaults={"version": REVIEW_VERSION})
    return TechniqueUse.objects.create(
        user=solve.user, solve=solve, technique=technique, think_seconds=seconds, solved_at=solved_at or solve.solved_at
    )


def make_rating_change(solve: Solve, player_after: float, puzzle_after: float, deviation: float = 80) -> RatingChange:
    """The rating change of a rated solve, both sides before at the start; the two ratings set to
    what it leaves (PlayerRating and PuzzleRating), with their solve counts."""
    change = RatingChange.objects.create(
        solve=solve,
        user=solve.user,
        puzzle=solve.daily.puzzle,
        solved_at=solve.solved_at,
        seconds=solve.seconds,
        score=0.5,
        expected_seconds=solve.seconds,
        player_before=[1500, 350, 0.06],
        player_after=[player_after, deviation, 0.06],
        puzzle_before=[1500, 350, 0.06],
        puzzle_after=[puzzle_after, deviation, 0.06],
    )
    for model, key, value, after in (
        (PlayerRating, "user", solve.user, player_after),
        (PuzzleRating, "puzzle", solve.daily.puzzle, puzzle_after),
    ):
        rating, _ = model.objects.get_or_create(**{key: value})
        rating.rating, rating.deviation, rating.updated_at = after, deviation, timezone.now()
        rating.solves += 1
        rating.save()
    return change


def make_review(solve: Solve) -> SolveReview:
    """The solve's review as the task makes it (coaching/services.py), for the browser's test."""
    review = review_store(solve.pk)
    assert review is not None
    return review


def play_through(
    client: Client,
    daily: DailyPuzzle,
    order: Sequence[tuple[int, int]],
    notes: Callable[[int], dict[int, str]] | None = None,
    gap: int = 5,
) -> Solve:
    """A solve of `daily` through the board's API by the client's player: a digit every `gap`
    seconds in `order` ((cell, digit) pairs, the last one submitted). `notes`, when given, is asked
    before each placement (by its index in `order`) for the centre notes to write then, as
    {cell: "45"} ("" takes a cell's away), and they go in a move of their own."""
    board, centre = ["0"] * 81, [""] * 81
    with time_machine.travel(timezone.now(), tick=False) as clock:
        assert client.get(url(daily)).status_code == 200
        post(client, url(daily, "beat"), {"phase": "open"})
        version = 0

        def write(kind: str, move: list) -> None:
            nonlocal version
            body = {"version": version, "digits": "".join(board), "centre": centre, "moves": [move]}
            response = post(client, url(daily, kind), body)
            assert response.status_code == 200, response.content
            version = response.json().get("version", version)

        for number, (cell, digit) in enumerate(order):
            clock.shift(gap)
            written = notes(number) if notes else {}
            if written:
                centre[:] = [written.get(c, mark) for c, mark in enumerate(centre)]
                write("save", [0, "n", [[c, mark] for c, mark in sorted(written.items())]])
            board[cell] = str(digit)
            write("submit" if number == len(order) - 1 else "save", [0, "d", [[cell, digit]]])
    return Solve.objects.get(daily=daily, user_id=client.session["_auth_user_id"])
