"""The tiers checked against real play, for the admin: per tier over the last days of dailies, the
median solve time and the puzzles' played ratings, and the days whose puzzle played far from its
tier. Reads only; the ratings are puzzles/ratings/'s (docs/ratings.md).

A day is called out when its puzzle's played rating is settled (at least FLAG_MIN_SOLVES rated
solves and a deviation of at most FLAG_MAX_DEVIATION) and nearer another tier's centre than its own
slot's: it played as that tier. A tier's centre is the median of its settled puzzles' ratings in
the window (for the puzzle's own tier, the others'), or the tier's prior
(settings.RATING_TIER_PRIORS) when there are none.
"""

from __future__ import annotations

import datetime
import statistics
from dataclasses import dataclass

from django.conf import settings

from ..models import TIER_ORDER, DailyPuzzle, Puzzle, PuzzleRating, RatingChange

WINDOW_DAYS = 30
FLAG_MIN_SOLVES = 10
FLAG_MAX_DEVIATION = 100.0


@dataclass
class TierPlay:
    tier: str
    dailies: int
    solves: int  # rated solves of them
    median_seconds: float | None
    median_rating: float | None  # of the dailies with a rated solve
    lowest: float | None
    highest: float | None
    centre: float  # the median of the settled ratings, or the tier's prior (see above)


@dataclass
class OffDay:
    daily: DailyPuzzle
    rating: float
    deviation: float
    solves: int
    played_as: str  # the tier whose centre it is nearest
    way: str  # "easier" or "harder"


def window(today: datetime.date, days: int = WINDOW_DAYS) -> tuple[datetime.date, datetime.date]:
    """The dates of the last `days` days of dailies, today included."""
    return today - datetime.timedelta(days=days - 1), today


def _settled(rating: PuzzleRating) -> bool:
    return rating.solves >= FLAG_MIN_SOLVES and rating.deviation <= FLAG_MAX_DEVIATION


def tiers_against_play(today: datetime.date, days: int = WINDOW_DAYS) -> tuple[list[TierPlay], list[OffDay]]:
    """Per tier (slot) its dailies' play over the window, and the days that played as another tier."""
    dailies = list(DailyPuzzle.objects.filter(date__range=window(today, days)).select_related("puzzle"))
    ratings = {
        r.puzzle_id: r for r in PuzzleRating.objects.filter(puzzle__in=[d.puzzle_id for d in dailies], solves__gt=0)
    }
    # The judged times come to Python: a month of one tier's rated solves, for a page staff open.
    times: dict[str, list[float]] = {}
    slots = RatingChange.objects.filter(puzzle__daily__in=dailies)
    for slot, seconds in slots.values_list("puzzle__daily__difficulty", "seconds"):
        times.setdefault(slot, []).append(seconds)
    rows = []
    for tier in TIER_ORDER:
        mine = [d for d in dailies if d.difficulty == tier]
        played = [ratings[d.puzzle_id] for d in mine if d.puzzle_id in ratings]
        values = [r.rating for r in played]
        settled = [r.rating for r in played if _settled(r)]
        rows.append(
            TierPlay(
                tier=tier,
                dailies=len(mine),
                solves=len(times.get(tier, [])),
                median_seconds=statistics.median(times[tier]) if tier in times else None,
                median_rating=statistics.median(values) if values else None,
                lowest=min(values, default=None),
                highest=max(values, default=None),
                centre=statistics.median(settled) if settled else settings.RATING_TIER_PRIORS[tier],
            )
        )
    off = []
    for daily in sorted(dailies, key=lambda d: (d.date, TIER_ORDER.index(d.difficulty)), reverse=True):
        rating = ratings.get(daily.puzzle_id)
        if rating is None or not _settled(rating):
            continue
        # Its own tier's centre without it, so that a lone outlier cannot be its tier's median.
        others = [
            ratings[d.puzzle_id].rating
            for d in dailies
            if d.difficulty == daily.difficulty
            and d != daily
            and d.puzzle_id in ratings
            and _settled(ratings[d.puzzle_id])
        ]
        own = statistics.median(others) if others else settings.RATING_TIER_PRIORS[daily.difficulty]
        centres = {row.tier: own if row.tier == daily.difficulty else row.centre for row in rows}
        nearest = min(TIER_ORDER, key=lambda t: (abs(centres[t] - rating.rating), t != daily.difficulty))
        if nearest != daily.difficulty:
            way = "easier" if rating.rating < centres[daily.difficulty] else "harder"
            off.append(OffDay(daily, rating.rating, rating.deviation, rating.solves, nearest, way))
    return rows, off


@dataclass
class PuzzlePlay:
    rating: float | None
    deviation: float | None
    solves: int
    median_seconds: float | None


def puzzle_play(puzzle: Puzzle) -> PuzzlePlay:
    """A puzzle's played rating and deviation, its rated solves and their median judged time."""
    rating = PuzzleRating.objects.filter(puzzle=puzzle, solves__gt=0).first()
    times = list(RatingChange.objects.filter(puzzle=puzzle).values_list("seconds", flat=True))
    return PuzzlePlay(
        rating=rating.rating if rating else None,
        deviation=rating.deviation if rating else None,
        solves=len(times),
        median_seconds=statistics.median(times) if times else None,
    )
