"""Ratings from real play as players read them: how a puzzle played, once its day is over, and a
player's own rating with its history (the chart on /stats/).

Only reads what puzzles/ratings/ keeps (models/ratings.py): the ratings as stored, and from their
rows the median time of a puzzle's rated solves and the mean rating of each tier's puzzles (what
"played like a hard puzzle" is measured against).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import Avg, Count

from ..durations import format_duration
from ..engine import article_for
from ..models import TIER_ORDER, DailyPuzzle, PlayerRating, Puzzle, PuzzleRating, RatingChange, site_today
from .history import median, short_date, site_date

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# A puzzle's played tier is named only from tiers whose average rating rests on this many puzzles
# with at least PLAYED_MIN_SOLVES rated solves each: fewer say more about chance than the tier.
TIER_MIN_PUZZLES = 3
PLAYED_MIN_SOLVES = 3


def _tier_means() -> dict[str, float]:
    """The mean played rating of each tier's well-played puzzles, for the tiers with enough of
    them: one query."""
    rows = (
        PuzzleRating.objects.filter(solves__gte=PLAYED_MIN_SOLVES)
        .values("puzzle__tier")
        .annotate(mean=Avg("rating"), puzzles=Count("pk"))
        .order_by()
    )
    return {r["puzzle__tier"]: r["mean"] for r in rows if r["puzzles"] >= TIER_MIN_PUZZLES}


def played_like(rating: float, means: dict[str, float]) -> str:
    """The tier whose puzzles' mean rating is nearest `rating` ('' with fewer than two tiers known)."""
    if len(means) < 2:
        return ""
    return min((t for t in TIER_ORDER if t in means), key=lambda t: abs(means[t] - rating))


@dataclass(frozen=True)
class Played:
    rating: float
    deviation: float
    solves: int
    median_seconds: float | None
    like: str  # the tier it played like, or ''

    @property
    def sentence(self) -> str:
        """'Played like a hard puzzle: rated 1720 ± 60 from 54 rated solves, median time 12:40.'"""
        opening = f"Played like {article_for(self.like)} {self.like} puzzle" if self.like else "Played"
        noun = "rated solve" if self.solves == 1 else "rated solves"
        time = f", median time {format_duration(self.median_seconds)}" if self.median_seconds is not None else ""
        return f"{opening}: rated {self.rating:.0f} ± {self.deviation:.0f} from {self.solves} {noun}{time}."


def day_over(daily: DailyPuzzle, today: datetime.date | None = None) -> bool:
    """Whether the daily's own day has ended in the site's time zone."""
    return daily.date < (today or site_today())


def puzzle_played(puzzle: Puzzle, today: datetime.date | None = None) -> Played | None:
    """How the daily's puzzle played, or None: before its day is over (its rating would tell
    today's players how hard it is), and while no rated solve has moved its rating."""
    daily = getattr(puzzle, "daily", None)
    if daily is None or not day_over(daily, today):
        return None
    rating = PuzzleRating.objects.filter(puzzle=puzzle).first()
    times = list(RatingChange.objects.filter(puzzle=puzzle).values_list("seconds", flat=True))
    if rating is None or not times:
        return None
    like = played_like(rating.rating, _tier_means())
    return Played(rating.rating, rating.deviation, len(times), median(times), like)


# --- a player's rating and its history ---------------------------------------------------------


@dataclass(frozen=True)
class RatingPoint:
    day: datetime.date
    rating: float
    deviation: float


@dataclass(frozen=True)
class RatingChart:
    """The history as an SVG line (the template draws it): the rating after each rated solve,
    evenly spaced in solve order, in a band of ± its deviation."""

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    line: str  # the polyline's points
    band: str  # the polygon's points: the rating ± deviation
    y_ticks: list[tuple[float, str]]
    x_ticks: list[tuple[float, str, str]]  # position, label, anchor
    summary: str


@dataclass(frozen=True)
class PlayerStanding:
    rating: float
    deviation: float
    solves: int
    chart: RatingChart | None  # None before two rated solves

    @property
    def shown(self) -> str:
        """'1620 ± 80'."""
        return f"{self.rating:.0f} ± {self.deviation:.0f}"


def rating_summary(points: list[RatingPoint]) -> str:
    """The chart in one sentence, for those who cannot see it."""
    first, last = points[0], points[-1]
    ratings = [p.rating for p in points]
    return (
        f"{len(points)} rated solves from {short_date(first.day)} to {short_date(last.day)}: "
        f"from {first.rating:.0f} to {last.rating:.0f}, highest {max(ratings):.0f}, lowest {min(ratings):.0f}."
    )


def rating_chart(points: list[RatingPoint], *, width: int = 600, height: int = 200) -> RatingChart:
    """Lay out the line of ratings (y) after each solve (x, oldest on the left), two or more points."""
    left, right, top, bottom = 56, width - 16, 12, height - 32
    low = min(p.rating - p.deviation for p in points)
    high = max(p.rating + p.deviation for p in points)
    step = 100 if high - low <= 600 else 250
    y_min, y_max = step * int(low // step), step * (int(high // step) + 1)

    def y(value: float) -> float:
        return round(bottom - (bottom - top) * (value - y_min) / (y_max - y_min), 1)

    def x(index: int) -> float:
        return round(left + (right - left) * index / (len(points) - 1), 1)

    line = " ".join(f"{x(i)},{y(p.rating)}" for i, p in enumerate(points))
    upper = [f"{x(i)},{y(p.rating + p.deviation)}" for i, p in enumerate(points)]
    lower = [f"{x(i)},{y(p.rating - p.deviation)}" for i, p in reversed(list(enumerate(points)))]
    y_ticks = [(y(v), str(v)) for v in range(y_min, y_max + 1, step)]
    x_ticks = [(x(0), short_date(points[0].day), "start"), (x(len(points) - 1), short_date(points[-1].day), "end")]
    return RatingChart(
        width, height, left, right, top, bottom, line, " ".join(upper + lower), y_ticks, x_ticks, rating_summary(points)
    )


def player_history(user: User) -> PlayerStanding | None:
    """A player's rating, its deviation and its history, or None before their first rated solve:
    two queries, whatever the number of solves."""
    rating = PlayerRating.objects.filter(user=user).first()
    if rating is None:
        return None
    rows = (
        RatingChange.objects.filter(user=user)
        .order_by("solved_at", "solve_id")
        .values_list("solved_at", "player_after")
    )
    points = [
        RatingPoint(site_date(solved_at), float(after[0]), float(after[1]))
        for solved_at, after in rows
        if isinstance(after, list) and len(after) >= 2
    ]
    chart = rating_chart(points) if len(points) >= 2 else None
    return PlayerStanding(rating.rating, rating.deviation, len(points), chart)
