"""A solve as a contest between its player and its puzzle: the result its time scores, the time two
ratings expect, and a puzzle's first rating (docs/ratings.md states the model).

The model is the log-time one: ln t = ln T0 - (R_player - R_puzzle) * ln 10 / (400 k) + noise, with
T0 the reference time (settings.RATING_REFERENCE_SECONDS) and k the spread (RATING_SPREAD). The
score 1 / (1 + (t / T0)^k) then has Glicko's expected score at the expected time, so the two ratings
and the time speak one language.
"""

from __future__ import annotations

import math
import statistics

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.cache import cache

from ..models import PlayerRating, Puzzle, PuzzleRating, Solve
from ..models.ratings import START_VOLATILITY
from .glicko2 import Rating

# A time under a second is a clock's slip, not a result: it is judged as one second.
SHORTEST_SECONDS = 1.0


def judged_seconds(solve: Solve) -> float:
    """The time a rated solve is judged by: the time it is ranked by, at least a second."""
    return max(SHORTEST_SECONDS, solve.rank_seconds)


def score(seconds: float) -> float:
    """The player's result, 0 to 1: a half at the reference time, nearer 1 the faster."""
    ratio = max(SHORTEST_SECONDS, seconds) / settings.RATING_REFERENCE_SECONDS
    # (t / T0)^k as exp(k ln(t / T0)), kept finite for any time a clock can give.
    exponent = min(700.0, settings.RATING_SPREAD * math.log(ratio))
    return 1 / (1 + math.exp(exponent))


def expected_seconds(player_rating: float, puzzle_rating: float) -> float:
    """The time the two ratings expect: the reference time, ten times shorter per 400 k points
    the player stands above the puzzle."""
    return settings.RATING_REFERENCE_SECONDS * 10 ** (-(player_rating - puzzle_rating) / (400 * settings.RATING_SPREAD))


def prior(tier: str) -> Rating:
    """A puzzle's rating before anyone has solved it: its tier's, with a wide deviation."""
    return settings.RATING_TIER_PRIORS[tier], settings.RATING_PRIOR_DEVIATION, START_VOLATILITY


# A fresh puzzle's expected rating is fitted to its tier's played puzzles once they are this many,
# each with this many rated solves (fewer say more about their players than about the puzzle);
# the fit is kept this long, since a tier's puzzles settle over days, not minutes.
FRESH_FIT_PUZZLES = 10
FRESH_FIT_SOLVES = 5
FRESH_FIT_SECONDS = 3600


def _fresh_fit(tier: str) -> tuple[float, float, float, float] | tuple[()]:
    """The line of the tier's played puzzles' ratings on the rater's score (slope, intercept) and
    the lowest and highest of those ratings; () while too few are played or their scores are one."""
    rows = PuzzleRating.objects.filter(puzzle__tier=tier, solves__gte=FRESH_FIT_SOLVES)
    pairs = list(rows.values_list("puzzle__score", "rating")[:5000])
    if len(pairs) < FRESH_FIT_PUZZLES:
        return ()
    scores, ratings = [float(x) for x, _ in pairs], [y for _, y in pairs]
    try:
        slope, intercept = statistics.linear_regression(scores, ratings)
    except statistics.StatisticsError:  # every puzzle of the same score
        return ()
    return slope, intercept, min(ratings), max(ratings)


def fresh_rating(puzzle: Puzzle) -> float:
    """What a puzzle nobody has solved yet is expected to rate: the line of its tier's played
    puzzles on the rater's score, at its score, within the ratings they reached; its tier's prior
    while the tier has too few (_fresh_fit). The prior is one figure for a whole tier, and a
    tier's hardest puzzle may play a few hundred points above its easiest."""
    fit = cache.get(key := f"ratings:fresh-fit:{puzzle.tier}")
    if fit is None:
        fit = _fresh_fit(puzzle.tier)
        cache.set(key, fit, FRESH_FIT_SECONDS)
    if not fit:
        return prior(puzzle.tier)[0]
    slope, intercept, low, high = fit
    return min(high, max(low, intercept + slope * puzzle.score))


def puzzle_rating_of(puzzle: Puzzle) -> float:
    """The puzzle's played rating, or what it is expected to rate before its first rated solve."""
    played = PuzzleRating.objects.filter(puzzle=puzzle, solves__gt=0).values_list("rating", flat=True).first()
    return played if played is not None else fresh_rating(puzzle)


def expected_seconds_for(user: AbstractBaseUser | AnonymousUser, puzzle: Puzzle) -> float | None:
    """The time the player is expected to take on the puzzle, from their stored ratings; None for a
    player without a rated solve (the puzzle falls back to its tier's prior)."""
    if not user.is_authenticated:
        return None
    player = PlayerRating.objects.filter(user_id=user.pk, solves__gt=0).values_list("rating", flat=True).first()
    if player is None:
        return None
    return expected_seconds(player, puzzle_rating_of(puzzle))
