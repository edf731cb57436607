"""Is a solve ranked, and if not why, by which time, and at which place: the ranking rule, written
once. The leaderboard, the leagues, the results page, the admin and the review queue all read it
here; judge.py applies it to a solve's record of play, words.py says it to players and admins.

A solve is ranked when it was made on the puzzle's day, without hints or checks, by a player with
an account, its record of play earns a rank (judge.py stores why not as one of REASON_CODES), and
it is neither held for review nor disqualified; Solve.objects.ranked() is the same rule as a
query. It is ranked by its ranked time (RANK_TIME), compared to the whole second as every page
shows times: equal whole seconds share a place (shared_ranks, rank_among), and the one listed
first is the faster by the fraction, then the earlier.
"""

from __future__ import annotations

import statistics
from collections.abc import Hashable, Sequence
from typing import Protocol

from django.conf import settings
from django.db.models import F
from django.db.models.functions import Coalesce
from django.db.models.lookups import GreaterThanOrEqual, LessThan

from ..models import DailyPuzzle, PlayerRating, RatingChange, Solve, SolveQuerySet
from ..ratings import expected_seconds, expected_seconds_for, fresh_rating

# The time a solve is ranked by; older solves, judged before the record of play, have only their
# clock (Solve.rank_seconds, for a solve in hand).
RANK_TIME = Coalesce(F("ranked_seconds"), F("seconds"))

# The record's thresholds (judge.py's docstring says where each comes from).
LARGE_WRITE_MIN_DIGITS = 9
MAJORITY = 0.5
MIN_MEDIAN_GAP_SECONDS = 0.75
# Digits placed while the clock did not count (timing.on_the_clock): a record may have a few, a
# save made offline and sent late; over a unit of them is play hidden from the clock.
UNCOUNTED_DIGITS = 9


def large_write_digits() -> int:
    """A write placing more digits than this is large (judge.py's docstring): twice what a fast
    person, at a digit a second, places in the board's save window (BOARD_SAVE_EVERY_SECONDS, 20
    with its 10 s), and never under a unit (LARGE_WRITE_MIN_DIGITS)."""
    return max(LARGE_WRITE_MIN_DIGITS, 2 * settings.BOARD_SAVE_EVERY_SECONDS)


# Why a record does not earn a rank, first match wins (Solve.unranked holds the code).
NO_RECORD, NEW_ACCOUNT, IN_SUBMIT, LARGE_WRITES, UNCOUNTED, TOO_FAST = (
    "no-record",
    "new-account",
    "in-submit",
    "large-writes",
    "uncounted",
    "too-fast",
)
REASON_CODES = (NO_RECORD, NEW_ACCOUNT, IN_SUBMIT, LARGE_WRITES, UNCOUNTED, TOO_FAST)
# A solve not judged yet: its submit records it so, and the beat's sweep judges it after the
# player's answer (judge.judge_waiting_one), within a second or two.
# Until then it is not ranked, rated nor held, and its player is told it is being checked.
CHECKING = "checking"
# Why else a solve is not ranked: the solve's own flags and the review's answer.
LATE, HELPED, DISQUALIFIED, HELD = "late", "helped", "disqualified", "held"
# Why a solve is held for review (Solve.held; judge.held_reason applies them, first match wins):
# under the difficulty's floor, under the day's floor, a clock far below the time from the first
# move (judge.clock_far_below_wall), a record of play that repeats an earlier solve's of the same
# puzzle (copies.py), far faster than the player's own rating allows (against.py), a provisional
# player faster than the day's established players allow, the day's rank 1 in a player's first
# month or while another of their solves waits for review (against.py).
UNDER_FLOOR, UNDER_DAY, PAST_HISTORY, PAST_FIELD, COPY = "floor", "day", "history", "field", "copy"
OFF_CLOCK, FIRST_MONTH, UNDER_REVIEW = "wall", "first-month", "under-review"
HOLD_CODES = (UNDER_FLOOR, UNDER_DAY, OFF_CLOCK, COPY, PAST_HISTORY, PAST_FIELD, FIRST_MONTH, UNDER_REVIEW)


def rank_time(solve: Solve) -> float:
    """The time one solve is ranked by (RANK_TIME, for a solve in hand)."""
    return solve.rank_seconds


class Verdict(Protocol):
    """What not_ranked_codes reads of a solve: a Solve, or its fields as a row (the export's)."""

    @property
    def late(self) -> bool: ...
    @property
    def assisted(self) -> bool: ...
    @property
    def unranked(self) -> str: ...
    @property
    def review(self) -> str: ...
    @property
    def flagged(self) -> bool: ...


def not_ranked_codes(solve: Verdict) -> list[str]:
    """Every reason the solve is not ranked, as codes in the order pages give them; [] when ranked
    (a guest's solve aside: Solve.objects.ranked() leaves guests out)."""
    codes = []
    if solve.late:
        codes.append(LATE)
    if solve.assisted:
        codes.append(HELPED)
    if solve.unranked and not (codes and solve.unranked == CHECKING):
        codes.append(solve.unranked)  # a late or helped solve is not ranked, judged or not
    if solve.review == Solve.Review.DISQUALIFIED:
        codes.append(DISQUALIFIED)
    elif solve.flagged and solve.review != Solve.Review.APPROVED:
        codes.append(HELD)
    return codes


def not_rated_codes(solve: Solve) -> list[str]:
    """Every reason the solve moves no rating: not_ranked_codes without its day, since archive
    solves are rated (Solve.objects.rated() is the same rule as a query, guests aside)."""
    return [code for code in not_ranked_codes(solve) if code != LATE]


def shared_ranks(keys: Sequence[Hashable]) -> list[int]:
    """The places of rows already in order, by their keys: equal keys share the first one's place
    (1, 2, 2, 4). A time's key is its whole seconds, as pages show it."""
    ranks: list[int] = []
    for position, key in enumerate(keys, start=1):
        ranks.append(ranks[-1] if ranks and keys[position - 2] == key else position)
    return ranks


def rank_among(ranked: SolveQuerySet, seconds: float) -> int:
    """The place a ranked time takes among ranked solves: 1 + those shown with a smaller
    whole-second time (shared_ranks' rule, counted by the database)."""
    return 1 + ranked.filter(LessThan(RANK_TIME, int(seconds))).count()


def _median_of(ranked: SolveQuerySet) -> tuple[float | None, int]:
    """The median ranked time of some ranked solves and how many there are; (None, 0) for none."""
    times = ranked.annotate(rank_time=RANK_TIME).order_by("rank_time")
    count = times.count()
    if not count:
        return None, 0
    middle = list(times.values_list("rank_time", flat=True)[(count - 1) // 2 : count // 2 + 1])
    return sum(middle) / len(middle), count


def day_median(daily: DailyPuzzle, excluding: int | None = None) -> tuple[float | None, int]:
    """The median ranked time of a daily's ranked solves and how many there are; (None, 0) for none."""
    ranked: SolveQuerySet = Solve.objects.ranked().filter(daily=daily)
    return _median_of(ranked.exclude(pk=excluding) if excluding is not None else ranked)


def day_medians(dailies: Sequence[DailyPuzzle]) -> dict[int, tuple[float, int]]:
    """day_median of several dailies in one query: {daily id: (median, count)}, for those with a
    ranked solve; the times come to Python, so keep it to a day's few dailies."""
    times: dict[int, list[float]] = {}
    rows = Solve.objects.ranked().filter(daily__in=dailies).annotate(rank_time=RANK_TIME)
    for daily_id, seconds in rows.order_by("rank_time").values_list("daily_id", "rank_time"):
        times.setdefault(daily_id, []).append(seconds)
    return {daily_id: (statistics.median(found), len(found)) for daily_id, found in times.items()}


def is_provisional(rating: PlayerRating | None) -> bool:
    """A player's rating is provisional (the leaderboard says "new") until it is earned on the days
    themselves: it rests on ESTABLISHED_SOLVES rated solves of dailies made on their day, on
    ESTABLISHED_DAYS different days, at least as many as its archive solves, and its deviation is at
    most PROVISIONAL_DEVIATION. An archive solve takes an hour of nobody's day: a rating farmed
    there in an evening stays new (by_established is the same rule as a query)."""
    return (
        rating is None
        or rating.on_day_solves < settings.ESTABLISHED_SOLVES
        or rating.on_days < settings.ESTABLISHED_DAYS
        or 2 * rating.on_day_solves < rating.solves
        or rating.deviation > settings.PROVISIONAL_DEVIATION
    )


def by_established(solves: SolveQuerySet) -> SolveQuerySet:
    """The solves of established players: a rating that is not provisional (is_provisional's rule),
    each of its solves a clean one (the ranked rule without its day, never held unless approved),
    and no solve ever disqualified. Fake accounts cost a history of days each to count."""
    return solves.filter(
        GreaterThanOrEqual(2 * F("user__rating__on_day_solves"), F("user__rating__solves")),
        user__rating__on_day_solves__gte=settings.ESTABLISHED_SOLVES,
        user__rating__on_days__gte=settings.ESTABLISHED_DAYS,
        user__rating__deviation__lte=settings.PROVISIONAL_DEVIATION,
    ).exclude(user__in=Solve.objects.filter(review=Solve.Review.DISQUALIFIED).values("user"))


def floor_of(solve: Solve) -> tuple[float, str]:
    """The floor a solve must reach not to be held, and which it is (UNDER_DAY or UNDER_FLOOR): the
    difficulty's (LEADERBOARD_FLOOR_SECONDS) or, once the day has DAY_FLOOR_MIN_SOLVES other ranked
    solves by established players (by_established), DAY_FLOOR_FRACTION of the DAY_FLOOR_RANK-th
    fastest of them, whichever is higher. Only established players count, and only the fastest of
    them, so slow solves cannot raise it: not from fresh accounts, nor from accounts that farmed
    establishment with slow solves first."""
    return floor_among(solve.daily, others_fastest(solve))


def others_fastest(solve: Solve) -> list[float]:
    """The fastest ranked times on the solve's daily by established players other than its own
    (a player has one solve a daily), fastest first: what floor_of and the field (against.py) read."""
    return fastest_times(by_established(Solve.objects.ranked().filter(daily_id=solve.daily_id).exclude(pk=solve.pk)))


def fastest_times(established: SolveQuerySet) -> list[float]:
    """The fastest ranked times of some solves, fastest first, as many as the day's floor looks at:
    one query."""
    enough = max(settings.DAY_FLOOR_MIN_SOLVES, settings.DAY_FLOOR_RANK)
    return list(
        established.annotate(rank_time=RANK_TIME).order_by("rank_time").values_list("rank_time", flat=True)[:enough]
    )


def day_floor(daily: DailyPuzzle, established: SolveQuerySet) -> tuple[float, str]:
    """floor_of's rule, given the established players' ranked solves that count."""
    return floor_among(daily, fastest_times(established))


def floor_among(daily: DailyPuzzle, fastest: list[float]) -> tuple[float, str]:
    """floor_of's rule, given the fastest established times that count (fastest_times): as many
    as there are, up to the number it needs."""
    floor = float(settings.LEADERBOARD_FLOOR_SECONDS.get(daily.difficulty, 0))
    if len(fastest) >= max(settings.DAY_FLOOR_MIN_SOLVES, settings.DAY_FLOOR_RANK):
        by_day = settings.DAY_FLOOR_FRACTION * fastest[settings.DAY_FLOOR_RANK - 1]
        if by_day > floor:
            return by_day, UNDER_DAY
    return floor, UNDER_FLOOR


def hold_bound(daily: DailyPuzzle) -> float:
    """A time under which a solve of the daily may be held by a floor or by the field (judge.held_again
    looks again at those): the floor and FIELD_MARGIN of the fastest established time, as they stand."""
    fastest = fastest_times(by_established(Solve.objects.ranked().filter(daily=daily)))
    field = settings.FIELD_MARGIN * fastest[0] if fastest else 0.0
    return max(floor_among(daily, fastest)[0], field)


def expected_of(solve: Solve) -> float | None:
    """The time the solve's player was expected to take on its puzzle, from the two ratings as they
    stood before it: those its rating change kept, once applied; the stored ones until then. None
    for a player without a rated solve (ratings/contest.py). For the rules that judge a result
    against the player who made it."""
    return expected_given(solve, RatingChange.objects.filter(solve=solve).first())


def expected_given(solve: Solve, change: RatingChange | None) -> float | None:
    """expected_of, for a caller that has read the solve's rating change already (None: not applied).
    The change's expectation took a puzzle nobody had solved at its tier's prior: such a puzzle is
    taken at what it is expected to rate (ratings.fresh_rating) instead."""
    if change is None:
        return expected_seconds_for(solve.user, solve.daily.puzzle)
    if float(change.puzzle_before[1]) >= settings.RATING_PRIOR_DEVIATION:  # its deviation untouched: unsolved
        return expected_seconds(float(change.player_before[0]), fresh_rating(solve.daily.puzzle))
    return change.expected_seconds
