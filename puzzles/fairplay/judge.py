"""Judging a solve from the attempt's record of play (models/play.py): the time it is ranked by,
whether the record earns a rank, and whether it is held for review.

A solve has one time: its clock (play/attempts.py has the rule: every sign of life counts the
time since the one before it, a silence counting only up to HEARTBEAT_GAP_SECONDS), which the
board, the results, the leaderboard, the share card and the replay all show. Solves judged before
that rule keep the ranked time they were given (Solve.ranked_seconds is never recomputed). The
record must show the digits placed inside that counted time (on_the_clock, UNCOUNTED_DIGITS).
ranking.py holds the rule this applies (the thresholds, the codes, the floors); against.py the
rule that judges a solve against its player; words.py says them.

A solve is judged just after it is recorded, off the player's submit: attempts.attempt_submit
stores it as ranking.CHECKING (not ranked, rated nor held), and the beat's sweep, every
JUDGE_SWEEP_SECONDS (a second), finds it (waiting) and judges it first thing (judge_waiting_one),
then follows it up (pipeline/tasks.py). The results page says the time is being checked until
then, and asks again. The verdict is stored on the solve: `ranked_seconds`, `unranked` (a code of
ranking.REASON_CODES, "" when the record earns a rank), `flagged` (held for an admin's review) and
`held` (why, a code of ranking.HOLD_CODES). It is judged again when its player's email address is
verified (account_verified); while it waits for review, its hold is decided again as each solve of
its day is judged (held_again, after the answer, in the solve's follow-up) and as the ratings
move (held_again_today). The account's age is taken when the solve is made: judged later, five
accounts made at midnight would rank by six.

The thresholds (ranking.py) come from how the board writes (static/js/sync.js): the first entry
after a quiet spell is saved 600 ms after the burst, and entries that follow wait for the next
save, at most BOARD_SAVE_EVERY_SECONDS (10 s) after the first unsaved one; a fast person places
about one digit a second, so a save carries the digits of up to 10 s of play: 1 to about 12 of them.

- ranking.large_write_digits(): a write placing more digits than twice a save window's at that
  pace (20 with the 10 s window; never under 9, a full unit) is large: it holds digits made
  elsewhere, by a script or a board that was offline (which the server cannot tell apart, so play
  that was mostly offline is recorded but not ranked). When it was a fixed 9 with the saves 3 s
  apart, the slower pace ranked a player typing a digit a second as "in bulk".
- MAJORITY: "most of the digits" is more than half of the puzzle's empty cells, for the final
  submit alone and for the large writes together (the submit counted among them).
- MIN_MEDIAN_GAP_SECONDS: the median gap between consecutive digits over the whole solve must be
  at least 0.75 s. Selecting a cell and typing a digit takes a person some 0.3 to 0.5 s, and the
  fastest solvers, at about a digit a second on average, have a median gap near that second; a
  median under 0.75 s means most of the solve went faster than the quickest people's quick
  stretches. A move placing one digit in several cells counts each, with no gap between them.

A move's time follows timing.py (move_times, on_the_clock). The server's own count of the digits each write placed (PlayEvent.placed) decides the large
writes and the submit's share, and stands in for any digit the moves do not account for.
"""

from __future__ import annotations

import datetime
import statistics
from itertools import pairwise

from allauth.account.models import EmailAddress
from allauth.account.signals import email_confirmed
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.db.models.lookups import LessThan
from django.dispatch import receiver

from ..models import DailyPuzzle, PlayEvent, Solve, site_today
from ..record_of_play.moves import unpack
from .against import held_against_player
from .copies import Placement, held_as_copy
from .copies import keep as keep_placements
from .ranking import (
    CHECKING,
    IN_SUBMIT,
    LARGE_WRITES,
    MAJORITY,
    MIN_MEDIAN_GAP_SECONDS,
    NEW_ACCOUNT,
    NO_RECORD,
    OFF_CLOCK,
    RANK_TIME,
    TOO_FAST,
    UNCOUNTED,
    UNCOUNTED_DIGITS,
    floor_among,
    hold_bound,
    large_write_digits,
    others_fastest,
    rank_among,
    rank_time,
)
from .timing import move_times, on_the_clock

WRITES = (PlayEvent.Kind.SAVE, PlayEvent.Kind.SUBMIT)


# --- the record ---------------------------------------------------------------------------------


def record_of(solve: Solve) -> list[PlayEvent]:
    """The attempt's record of play, in the order the server received it."""
    return list(PlayEvent.objects.filter(attempt_id=solve.attempt_id).order_by("id"))


def ranked_time(solve: Solve) -> float:
    """The time the leaderboard ranks a solve by: its clock, the one time a solve has. A solve
    judged before the clock was the only rule keeps the time it was ranked by then."""
    return solve.ranked_seconds if solve.ranked_seconds is not None else solve.seconds


def digit_times(events: list[PlayEvent], started_at: datetime.datetime) -> list[datetime.datetime]:
    """When each digit went in, in order: one time per cell a digit move filled, and the write's
    arrival for any digit the server counted (placed) that the moves do not account for."""
    times, previous = [], started_at
    for event in events:
        if event.kind in WRITES:
            mine = [at for at, move in move_times(event, previous) if move.layer == "d" for _, v in move.cells if v]
            times += mine + [event.arrived_at] * max(0, event.placed - len(mine))
        previous = event.arrived_at
    return sorted(times)


def placements(events: list[PlayEvent], started_at: datetime.datetime) -> list[Placement]:
    """Each digit placed, in the record's order: its cell, its digit and the clock when it went in
    (on_the_clock), as the replay shows it (copies.py compares them); [] for a record from before
    events kept their clock."""
    timed = on_the_clock(events, started_at) or []
    return [
        (cell, int(value), c.clock)
        for _, moves in timed
        for c in moves
        if c.move.layer == "d"
        for cell, value in c.move.cells
        if value
    ]


# --- the rules, one function each ---------------------------------------------------------------


def has_no_moves(events: list[PlayEvent]) -> bool:
    """No write carries a move: an old board or a script. Nothing shows the grid filled over time."""
    return not any(event.moves for event in events if event.kind in WRITES)


def record_cut_short(solve: Solve, events: list[PlayEvent]) -> bool:
    """The attempt logged more moves (Attempt.moves_logged) than its record holds: the record of an
    attempt left unsolved was deleted (accounts/retention.py) and play went on after it, so what is
    left cannot show how the grid was filled."""
    return sum(len(unpack(event.moves)) for event in events) < solve.attempt.moves_logged


def is_new_account(solve: Solve) -> bool:
    """The account was younger than RANKED_ACCOUNT_MIN_HOURS when the solve was made, and has no
    verified email: the cheapest thing to make by the dozen."""
    age = solve.solved_at - solve.user.date_joined
    if age >= datetime.timedelta(hours=settings.RANKED_ACCOUNT_MIN_HOURS):
        return False
    return not EmailAddress.objects.filter(user_id=solve.user_id, verified=True).exists()


def mostly_in_submit(events: list[PlayEvent], empty_cells: int) -> bool:
    """The final submit itself placed most (MAJORITY) of the puzzle's empty cells."""
    submit = next((e for e in reversed(events) if e.kind == PlayEvent.Kind.SUBMIT), None)
    return submit is not None and submit.placed > MAJORITY * empty_cells


def mostly_in_large_writes(events: list[PlayEvent], empty_cells: int) -> bool:
    """Writes of over large_write_digits() placed digits, the submit among them, placed most of the cells."""
    bound = large_write_digits()
    large = sum(e.placed for e in events if e.kind in WRITES and e.placed > bound)
    return large > MAJORITY * empty_cells


def too_fast(events: list[PlayEvent], started_at: datetime.datetime) -> bool:
    """The median gap between consecutive digits is under MIN_MEDIAN_GAP_SECONDS."""
    times = digit_times(events, started_at)
    gaps = [(later - earlier).total_seconds() for earlier, later in pairwise(times)]
    return bool(gaps) and statistics.median(gaps) < MIN_MEDIAN_GAP_SECONDS


def outside_the_clock(events: list[PlayEvent], started_at: datetime.datetime) -> bool:
    """Over UNCOUNTED_DIGITS digits were placed while the clock did not count (on_the_clock)."""
    moves = [counted for _, timed in on_the_clock(events, started_at) or [] for counted in timed]
    outside = sum(1 for c in moves if not c.inside and c.move.layer == "d" for _, v in c.move.cells if v)
    return outside > UNCOUNTED_DIGITS


def wall_seconds(events: list[PlayEvent], started_at: datetime.datetime) -> float | None:
    """The time on the wall from the record's earliest move (move_times) to its solving submit's
    arrival; None for a record without moves or a submit."""
    previous, first = started_at, None
    for event in events:
        if first is None and event.moves:
            first = min(at for at, _ in move_times(event, previous))
        previous = event.arrived_at
    submits = [event.arrived_at for event in events if event.kind == PlayEvent.Kind.SUBMIT]
    return (submits[-1] - first).total_seconds() if first is not None and submits else None


def clock_far_below_wall(solve: Solve) -> bool:
    """The solve's clock is under CLOCK_WALL_RATIO (0.75: three quarters) of its wall time
    (wall_seconds), and it would rank in its day's top WALL_HOLD_TOP (an archive solve among that
    day's ranked ones, as it would have ranked): play the clock did not count, silences past
    HEARTBEAT_GAP_SECONDS. So the clock of a solve near the top hides at most a third of itself."""
    seconds, ratio = rank_time(solve), settings.CLOCK_WALL_RATIO
    if seconds >= ratio * (solve.solved_at - solve.attempt.started_at).total_seconds():
        return False  # not even below the time since the attempt started, which the wall time is within
    ranked = Solve.objects.ranked().filter(daily_id=solve.daily_id).exclude(pk=solve.pk)
    if rank_among(ranked, seconds) > settings.WALL_HOLD_TOP:
        return False
    wall = wall_seconds(record_of(solve), solve.attempt.started_at)
    return wall is not None and seconds < ratio * wall


def unranked_reason(solve: Solve, events: list[PlayEvent]) -> str:
    """Why the record does not earn a rank (a code of REASON_CODES, the first that applies), or ""."""
    empty_cells = solve.daily.puzzle.givens.count("0")
    started_at = solve.attempt.started_at
    if has_no_moves(events) or record_cut_short(solve, events):
        return NO_RECORD
    if is_new_account(solve):
        return NEW_ACCOUNT
    if mostly_in_submit(events, empty_cells):
        return IN_SUBMIT
    if mostly_in_large_writes(events, empty_cells):
        return LARGE_WRITES
    if outside_the_clock(events, started_at):
        return UNCOUNTED
    if too_fast(events, started_at):
        return TOO_FAST
    return ""


def held_reason(solve: Solve) -> str:
    """Why a solve that would be ranked or rated is held for an admin's review (a code of
    HOLD_CODES), or "": faster than its floor (floor_of), a copy of an earlier solve's record
    (copies.py), or faster than its player's history allows (against.py). An archive solve is judged by the same rules, since it moves its player's rating
    as a solve of the day does (Solve.objects.rated()): farmed there, a rating took rank 1. Solves
    neither ranked nor rated anyway are not held: an approval could not count them."""
    if solve.assisted or solve.unranked:
        return ""
    others = others_fastest(solve)  # one query, for the floor and the field
    floor, which = floor_among(solve.daily, others)
    if rank_time(solve) < floor:
        return which
    if clock_far_below_wall(solve):
        return OFF_CLOCK
    return held_as_copy(solve) or held_against_player(solve, others)


def solve_judge(solve: Solve) -> None:
    """Judge a solve from its record of play, and save the verdict: its ranked time, why it is not
    ranked (if so) and whether (and why) it is held for review. The day's other solves, whose
    floors this one may have moved, are decided again after it (held_again_after, the next step of
    the solve's follow-up)."""
    events = record_of(solve)
    solve.ranked_seconds = ranked_time(solve)
    solve.unranked = unranked_reason(solve, events)
    keep_placements(solve, placements(events, solve.attempt.started_at))
    solve.held = held_reason(solve)
    solve.flagged = bool(solve.held)
    solve.save(update_fields=["ranked_seconds", "unranked", "held", "flagged"])


def judge_waiting_one(solve_id: int) -> bool:
    """Judge a solve its submit left waiting (ranking.CHECKING), under a lock so that two sweeps
    never both do; False when it is gone or judged already. Harmless to run twice."""
    with transaction.atomic():
        solve = (
            Solve.objects.select_for_update(of=("self",))
            .select_related("daily__puzzle", "attempt", "user")
            .filter(pk=solve_id, unranked=CHECKING)
            .first()
        )
        if solve is None:
            return False
        solve_judge(solve)
        return True


def waiting() -> list[int]:
    """The solves their submits left being checked (ranking.CHECKING), oldest first: what the
    beat's sweep follows up (pipeline/tasks.py), through a partial index that holds only them."""
    return list(Solve.objects.filter(unranked=CHECKING).order_by("solved_at", "pk").values_list("pk", flat=True))


def held_again(daily: DailyPuzzle, but: int | None = None) -> int:
    """Decide again the holds of a daily's solves that no admin has reviewed, from the floors, the
    field and the ratings as they stand now: those held, and those ranked under ranking.hold_bound
    (a few at the top). One held under a day's floor that later solves lowered is released; a new
    player's solve made before any established one's is held once the field is faster than it
    allows. Returns how many changed."""
    waiting = Solve.objects.filter(daily=daily, review=Solve.Review.NONE, late=False, assisted=False, unranked="")
    if but is not None:
        waiting = waiting.exclude(pk=but)
    quick = Q(flagged=True) | Q(LessThan(RANK_TIME, hold_bound(daily)))
    changed = 0
    for solve in waiting.filter(quick).select_related("user"):
        solve.daily = daily
        held = held_reason(solve)
        if held != solve.held or bool(held) != solve.flagged:
            solve.held, solve.flagged = held, bool(held)
            solve.save(update_fields=["held", "flagged"])
            changed += 1
    return changed


def held_again_after(solve_id: int) -> int:
    """held_again for the daily of a solve just judged, leaving that solve as judged; how many
    changed (0 when the solve is gone). Harmless to run twice."""
    solve = Solve.objects.select_related("daily").filter(pk=solve_id).first()
    return held_again(solve.daily, but=solve.pk) if solve is not None else 0


def held_again_today() -> int:
    """held_again for each of today's dailies: the ratings a task has just moved change the
    players' expected times; how many changed."""
    return sum(held_again(daily) for daily in DailyPuzzle.objects.for_date(site_today()))


def account_verified(user_id: int) -> None:
    """A player's email address was just verified: judge again their solves that were not ranked
    as a new account's (the record's own rules come after that one, so they are checked now)."""
    for solve in Solve.objects.select_related("daily__puzzle", "attempt", "user").filter(
        user_id=user_id, unranked=NEW_ACCOUNT
    ):
        solve_judge(solve)


# Connected when this module is imported, as the site starts: the admin (autodiscovered) and the
# tasks (pipeline/tasks.py, which the submit's view imports) import it.
@receiver(email_confirmed, dispatch_uid="fairplay_account_verified")
def _email_confirmed(sender: object, email_address: EmailAddress, **kwargs: object) -> None:
    account_verified(email_address.user_id)
