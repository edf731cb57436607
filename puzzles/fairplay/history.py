"""A player's history beside a suspect solve, for the review queue (review.py): their recent solves
with the times the ratings expected, their rating and how it moved, and the solve's per-move
timing in brief. Read-only, for staff; nothing here is shown to players.
"""

from __future__ import annotations

import datetime
import statistics
from dataclasses import dataclass
from itertools import pairwise

from ..models import PlayerRating, RatingChange, Solve
from .judge import digit_times, record_of
from .ranking import is_provisional, rank_time

RECENT_SOLVES = 10  # the player's solves listed before the suspect one
LONGEST_GAPS = 3  # the longest pauses between digits listed


@dataclass(frozen=True)
class Past:
    """One of the player's solves: when, which, its ranked time, what the ratings expected of it
    (None: not rated), and the player's rating and deviation after it (None: not rated)."""

    solved_at: datetime.datetime
    daily: str
    seconds: float
    expected: float | None
    rating: tuple[float, float] | None
    held: bool


def recent_solves(solve: Solve, count: int = RECENT_SOLVES) -> list[Past]:
    """The player's `count` latest solves made before this one, newest first, with their ratings."""
    earlier = (
        Solve.objects.filter(user_id=solve.user_id, solved_at__lt=solve.solved_at)
        .select_related("daily", "rating_change")
        .order_by("-solved_at")[:count]
    )
    found = []
    for past in earlier:
        change: RatingChange | None = getattr(past, "rating_change", None)
        found.append(
            Past(
                solved_at=past.solved_at,
                daily=f"{past.daily.date} {past.daily.difficulty}",
                seconds=rank_time(past),
                expected=change.expected_seconds if change else None,
                rating=(change.player_after[0], change.player_after[1]) if change else None,
                held=past.flagged,
            )
        )
    return found


def rating_line(user_id: int) -> str:
    """The player's rating as it stands, with its deviation, rated solves and whether it is provisional."""
    rating = PlayerRating.objects.filter(user_id=user_id).first()
    if rating is None or not rating.solves:
        return "no rated solve yet (provisional)"
    state = "provisional" if is_provisional(rating) else "established"
    return f"{rating.rating:.0f} ± {rating.deviation:.0f} after {rating.solves} rated solves ({state})"


@dataclass(frozen=True)
class Timing:
    """The solve's digits in time: how many, the median gap between consecutive ones and the longest gaps."""

    digits: int
    median_gap: float | None
    longest: list[float]


def timing_of(solve: Solve) -> Timing:
    """The per-move timing of the solve's record (judge.digit_times), in brief."""
    times = digit_times(record_of(solve), solve.attempt.started_at)
    gaps = [(later - earlier).total_seconds() for earlier, later in pairwise(times)]
    return Timing(
        digits=len(times),
        median_gap=statistics.median(gaps) if gaps else None,
        longest=sorted(gaps, reverse=True)[:LONGEST_GAPS],
    )
