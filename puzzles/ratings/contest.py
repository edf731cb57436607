"""A solve as a contest between its player and its puzzle: the result its time scores, the time two
ratings expect, and a puzzle's first rating (docs/ratings.md states the model).

The model is the log-time one: ln t = ln T0 - (R_player - R_puzzle) * ln 10 / (400 k) + noise, with
T0 the reference time (settings.RATING_REFERENCE_SECONDS) and k the spread (RATING_SPREAD). The
score 1 / (1 + (t / T0)^k) then has Glicko's expected score at the expected time, so the two ratings
and the time speak one language.
"""

from __future__ import annotations

import math

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

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


def puzzle_rating_of(puzzle: Puzzle) -> float:
    """The puzzle's played rating, or its tier's prior before its first rated solve."""
    played = PuzzleRating.objects.filter(puzzle=puzzle, solves__gt=0).values_list("rating", flat=True).first()
    return played if played is not None else prior(puzzle.tier)[0]


def expected_seconds_for(user: AbstractBaseUser | AnonymousUser, puzzle: Puzzle) -> float | None:
    """The time the player is expected to take on the puzzle, from their stored ratings; None for a
    player without a rated solve (the puzzle falls back to its tier's prior)."""
    if not user.is_authenticated:
        return None
    player = PlayerRating.objects.filter(user_id=user.pk, solves__gt=0).values_list("rating", flat=True).first()
    if player is None:
        return None
    return expected_seconds(player, puzzle_rating_of(puzzle))
