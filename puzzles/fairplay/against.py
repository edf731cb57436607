"""A solve judged against its player: held for review when it is far faster than the player's own
history allows, as lichess holds a result against its player's history. judge.held_reason asks
here after the floors (ranking.floor_of); ranking.py holds the codes, words.py says them.

- An established player (ranking.is_provisional is False, their rating as it stood before the
  solve): in the ratings' model (ratings/contest.py) a time t where the two ratings expected E is
  a performance of 400 k log10(E / t) points above the player's rating. The rule, one for every
  solve, of the day or from the archive: the solve is held (PAST_HISTORY) when that performance is
  more than HOLD_DEVIATIONS times the player's rating deviation above their rating, and at least
  HOLD_MIN_POINTS above it. The puzzle is taken at its rating before the solve or, before anyone
  has solved it, at what a puzzle of its tier and its rater's score is expected to rate
  (ratings/contest.fresh_rating: its tier's played puzzles fitted to their scores, or the tier's
  prior while they are few; one figure for a tier held honest good days on the puzzles easy for
  it, since a tier's puzzles spread over a few hundred points): its deviation is left out,
  since a fresh puzzle's prior deviation is wide (RATING_PRIOR_DEVIATION), and counted in, it let
  an established player perform 984 points above their rating on a fresh daily unheld. The points
  bound keeps a good day ranked (350 points at k = 2 is 2.7 times faster than expected; the
  deviations are doubts about the rating, not how a player's days vary). The points are counted
  from the lower of the rating now and the rating HOLD_HISTORY_DAYS before the solve
  (rating_then): an account that plays a little above its rating every day climbs, and judged
  only against where that climb has brought it, it ranked first within a fortnight
  (bench/cheat.py --days, the patient climber); a person improves by far less in two weeks.
- A provisional player (a new account, or a rating that has not settled): their history says too
  little, so the field judges. The solve is held (PAST_FIELD) when faster than FIELD_MARGIN of the
  fastest time the day's established players ranked (ranking.others_fastest); on a day
  without one, the floors alone judge it. The margin is 1: a new account faster than every
  established player that day waits for review. Under 1, a fresh account with a verified email
  that read the leaderboard (which marks new players) ranked first by aiming just above the
  margin (bench/cheat.py --days).
- Rank 1 by an unproven player: the day's fastest time (ranking.rank_among over the day's ranked
  solves), on a day with established players' ranked solves (a new site has no one to protect,
  and would hold every winner), is held whatever the rules above said when its player's first
  rated solve is under RANK_ONE_SEASON_DAYS (30) days old (FIRST_MONTH), or when another of their
  solves of the last HOLD_HISTORY_DAYS waits for review or was disqualified (UNDER_REVIEW). A
  script 2 s behind the day's best established time until its own rating is established, then 2 s
  ahead of it, posts a strong newcomer's times; an established mediocre account aiming at rank 1
  every day is held by its history most days, and on a day whose field is slow its aim falls
  within its history; each took rank 1 otherwise (bench/cheat.py --days, the patient newcomer and
  the aiming account). A person's first wins, and their wins while an earlier result is being
  checked, wait for an admin instead.
"""

from __future__ import annotations

import datetime
import math

from django.conf import settings

from ..models import PlayerRating, RatingChange, Solve
from .ranking import (
    FIRST_MONTH,
    PAST_FIELD,
    PAST_HISTORY,
    UNDER_REVIEW,
    expected_given,
    is_provisional,
    rank_among,
    rank_time,
)


def rating_before(solve: Solve, change: RatingChange | None) -> PlayerRating | None:
    """The player's rating as it stood before the solve: the stored one, with the rating and
    deviation its rating `change` kept once the solve is rated; None for a player never rated."""
    rating = PlayerRating.objects.filter(user_id=solve.user_id).first()
    if rating is not None and change is not None:
        rating.rating, rating.deviation = change.player_before[0], change.player_before[1]
        rating.solves = max(0, rating.solves - 1)
        rating.on_day_solves = max(0, rating.on_day_solves - (not solve.late))
    return rating


def points_above(solve: Solve, change: RatingChange | None) -> float | None:
    """How far the performance the solve's time implies stands above the player's rating, in
    rating points; None for a player without a rated solve."""
    expected = expected_given(solve, change)
    if expected is None:
        return None
    return 400 * settings.RATING_SPREAD * math.log10(expected / max(1.0, rank_time(solve)))


def rating_then(solve: Solve) -> float | None:
    """The player's rating HOLD_HISTORY_DAYS before the solve (after their last rated solve made by
    then) or, for a rating younger than that, after its first ESTABLISHED_SOLVES rated solves;
    None for a player with fewer."""
    changes = RatingChange.objects.filter(user_id=solve.user_id).order_by("solved_at", "solve_id")
    cutoff = solve.solved_at - datetime.timedelta(days=settings.HOLD_HISTORY_DAYS)
    found = changes.filter(solved_at__lte=cutoff).values_list("player_after", flat=True).last()
    if found is None:
        found = changes.values_list("player_after", flat=True)[settings.ESTABLISHED_SOLVES - 1 :].first()
    return float(found[0]) if found is not None else None


def hold_points(rating: PlayerRating) -> float:
    """How far above their rating an established player's performance may go before the solve is
    held: HOLD_DEVIATIONS of their deviations, and at least HOLD_MIN_POINTS (the module's rule)."""
    return max(settings.HOLD_DEVIATIONS * rating.deviation, settings.HOLD_MIN_POINTS)


def past_history(solve: Solve, rating: PlayerRating, change: RatingChange | None) -> bool:
    """Faster than the established player's rating allows (hold_points), counted from the lower of
    their rating now and rating_then."""
    above = points_above(solve, change)
    if above is None:
        return False
    then = rating_then(solve)
    climbed = max(0.0, rating.rating - then) if then is not None else 0.0
    return above + climbed > hold_points(rating)


def past_field(solve: Solve, others: list[float]) -> bool:
    """A provisional player's time under FIELD_MARGIN of the day's fastest established one (of
    `others`, the other established players' fastest times: ranking.others_fastest)."""
    return bool(others) and rank_time(solve) < settings.FIELD_MARGIN * others[0]


def unproven_at_the_top(solve: Solve, others: list[float]) -> str:
    """FIRST_MONTH or UNDER_REVIEW (the module's rule) when the solve would take its day's rank 1 on
    a day established players ranked on (`others`, their fastest times), else ""."""
    if solve.late or not others:
        return ""
    ranked = Solve.objects.ranked().filter(daily_id=solve.daily_id).exclude(pk=solve.pk)
    if rank_among(ranked, rank_time(solve)) > 1:
        return ""
    since = PlayerRating.objects.filter(user_id=solve.user_id).values_list("on_day_since", flat=True).first()
    if since is None or solve.solved_at - since < datetime.timedelta(days=settings.RANK_ONE_SEASON_DAYS):
        return FIRST_MONTH
    recent = solve.solved_at - datetime.timedelta(days=settings.HOLD_HISTORY_DAYS)
    checked = Solve.objects.filter(user_id=solve.user_id, solved_at__gte=recent, flagged=True).exclude(pk=solve.pk)
    return UNDER_REVIEW if checked.exclude(review=Solve.Review.APPROVED).exists() else ""


def held_against_player(solve: Solve, others: list[float]) -> str:
    """PAST_HISTORY, PAST_FIELD, FIRST_MONTH or UNDER_REVIEW when the solve is faster than its
    player's history allows, else ""; `others` are the day's other established players' fastest
    times (ranking.others_fastest)."""
    # The solve's rating change, once its ratings moved: read once for the three rules that look at it.
    change = RatingChange.objects.filter(solve=solve).first()
    rating = rating_before(solve, change)
    if is_provisional(rating):
        if past_field(solve, others):
            return PAST_FIELD
    elif rating is not None and past_history(solve, rating, change):  # established: a rating exists
        return PAST_HISTORY
    return unproven_at_the_top(solve, others)
