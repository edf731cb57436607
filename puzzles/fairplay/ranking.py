"""Whether a solve earns a place on the day's leaderboard, and the time it is ranked by: the rules,
in one place, read from the attempt's record of play (models/play.py).

A solve is judged as it is recorded (attempts.attempt_submit, after the submit's own event is
written), and the verdict is stored on it: `ranked_seconds`, `unranked` (a code of REASON_CODES,
"" when the record earns a rank) and `flagged` (held for an admin's review). It is judged again
only when its player's email address is verified (account_verified). The account's age is taken
when the solve is made: judged later, five accounts made at midnight would rank by six.

The thresholds come from how the board writes (static/js/sync.js): a save goes 600 ms after the
last change and at most 3 s after the first unsaved one, and a fast person places about one digit
a second, so a save normally carries the digits of under 3 s: 1 to 4 of them.

- LARGE_WRITE_DIGITS: a write placing more than 9 digits (a full unit, over twice the most a fast
  person types in one save's window) is large: it holds digits made elsewhere, by a script or a
  board that was offline (which the server cannot tell apart, so play that was mostly offline
  is recorded but not ranked).
- MAJORITY: "most of the digits" is more than half of the puzzle's empty cells, for the final
  submit alone and for the large writes together (the submit counted among them).
- MIN_MEDIAN_GAP_SECONDS: the median gap between consecutive digits over the whole solve must be
  at least 0.75 s. Selecting a cell and typing a digit takes a person some 0.3 to 0.5 s, and the
  fastest solvers, at about a digit a second on average, have a median gap near that second; a
  median under 0.75 s means most of the solve went faster than the quickest people's quick
  stretches. A move placing one digit in several cells counts each, with no gap between them.

A move's time is its write's arrival less its age, never before the write before it arrived (nor
before the attempt started) and never after its own write: ages are the board's word, the
arrivals the server's, so a made-up age can spread moves only over time that really passed.
The server's own count of the digits each write placed (PlayEvent.placed) decides the large
writes and the submit's share, and stands in for any digit the moves do not account for.
"""

from __future__ import annotations

import datetime
import statistics
from itertools import pairwise

from allauth.account.models import EmailAddress
from allauth.account.signals import email_confirmed
from django.conf import settings
from django.db.models import F
from django.db.models.functions import Coalesce
from django.dispatch import receiver

from ..durations import format_duration as clock
from ..models import DailyPuzzle, PlayEvent, Solve, SolveQuerySet
from ..record_of_play.moves import Move, unpack

LARGE_WRITE_DIGITS = 9
MAJORITY = 0.5
MIN_MEDIAN_GAP_SECONDS = 0.75

# The time a solve is ranked by; older solves, judged before the record of play, have only their clock.
RANK_TIME = Coalesce(F("ranked_seconds"), F("seconds"))

# Why a record does not earn a rank, first match wins (Solve.unranked holds the code).
NO_RECORD, NEW_ACCOUNT, IN_SUBMIT, LARGE_WRITES, TOO_FAST = (
    "no-record",
    "new-account",
    "in-submit",
    "large-writes",
    "too-fast",
)
REASON_CODES = (NO_RECORD, NEW_ACCOUNT, IN_SUBMIT, LARGE_WRITES, TOO_FAST)
WRITES = (PlayEvent.Kind.SAVE, PlayEvent.Kind.SUBMIT)


def reason(code: str) -> str:
    """The sentence the results page shows for an `unranked` code (after "Not on the leaderboard:")."""
    return {
        NO_RECORD: "the server has no record of your moves (an old page or a script), so the time cannot be checked",
        NEW_ACCOUNT: (
            f"your account was under {settings.RANKED_ACCOUNT_MIN_HOURS:g} hours old when you solved it: "
            "verify your email address and it is ranked"
        ),
        IN_SUBMIT: "most of the digits arrived with the final submit, not as they were placed",
        LARGE_WRITES: (
            f"most of the digits arrived in saves of over {LARGE_WRITE_DIGITS} digits at once "
            "(as after playing offline), not as they were placed"
        ),
        TOO_FAST: (
            f"digits went in faster than a person enters them (under {MIN_MEDIAN_GAP_SECONDS:g} s apart "
            "for most of the solve)"
        ),
    }.get(code, code)


# --- the record ---------------------------------------------------------------------------------


def record_of(solve: Solve) -> list[PlayEvent]:
    """The attempt's record of play, in the order the server received it."""
    return list(PlayEvent.objects.filter(attempt_id=solve.attempt_id).order_by("id"))


def move_times(event: PlayEvent, after: datetime.datetime) -> list[tuple[datetime.datetime, Move]]:
    """Each move of a write with its time: the arrival less its age, never before `after` (the
    previous event's arrival, or the attempt's start) nor after the arrival."""
    times = []
    for move in unpack(event.moves):
        at = event.arrived_at - datetime.timedelta(milliseconds=move.age_ms)
        times.append((min(max(at, after), event.arrived_at), move))
    return times


def open_seconds(events: list[PlayEvent], started_at: datetime.datetime) -> float:
    """The wall time the page was open: from each open to the next close, or to the submit.

    No gap is dropped inside a span: a page that stops sending heartbeats still counts while it
    is open, and an open after an open (its close never arrived) keeps the span running. A write,
    hint or check while the page is not open (a record that starts with a save, or a close that
    was not the page's last word) means it was open after all: the span starts at the event's
    earliest move (see move_times), or at its arrival if it has none; but a write whose moves were
    all made before the page last closed (the closing page's last save, arriving just after its
    close) opens nothing, or the time away would count. The replay's clock follows the same rule
    (replays.py). The record ends at its last submit, the one that solved it (a wrong submit
    before it ends nothing); a record without a submit ends at its last event.
    """
    submits = [n for n, event in enumerate(events) if event.kind == PlayEvent.Kind.SUBMIT]
    total, since, previous, stopped = 0.0, None, started_at, None
    for event in events[: submits[-1] + 1] if submits else events:
        if event.kind == PlayEvent.Kind.OPEN:
            since = since or event.arrived_at
        elif event.kind == PlayEvent.Kind.CLOSE:
            if since is not None:
                total += (event.arrived_at - since).total_seconds()
                stopped = event.arrived_at
            since = None
        elif since is None:
            earliest = min([at for at, _ in move_times(event, previous)], default=event.arrived_at)
            if stopped is None or earliest > stopped:
                since = earliest
        previous = event.arrived_at
    if since is not None:
        total += (previous - since).total_seconds()
    return max(total, 0.0)


def ranked_time(solve: Solve, events: list[PlayEvent]) -> float:
    """The time the leaderboard ranks a solve by: the page's open time, never less than its clock."""
    return max(solve.seconds, open_seconds(events, solve.attempt.started_at))


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


# --- the rules, one function each ---------------------------------------------------------------


def has_no_moves(events: list[PlayEvent]) -> bool:
    """No write carries a move: an old board or a script. Nothing shows the grid filled over time."""
    return not any(event.moves for event in events if event.kind in WRITES)


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
    """Writes of over LARGE_WRITE_DIGITS placed digits, the submit among them, placed most of the cells."""
    large = sum(e.placed for e in events if e.kind in WRITES and e.placed > LARGE_WRITE_DIGITS)
    return large > MAJORITY * empty_cells


def too_fast(events: list[PlayEvent], started_at: datetime.datetime) -> bool:
    """The median gap between consecutive digits is under MIN_MEDIAN_GAP_SECONDS."""
    times = digit_times(events, started_at)
    gaps = [(later - earlier).total_seconds() for earlier, later in pairwise(times)]
    return bool(gaps) and statistics.median(gaps) < MIN_MEDIAN_GAP_SECONDS


def unranked_reason(solve: Solve, events: list[PlayEvent]) -> str:
    """Why the record does not earn a rank (a code of REASON_CODES, the first that applies), or ""."""
    empty_cells = solve.daily.puzzle.givens.count("0")
    started_at = solve.attempt.started_at
    if has_no_moves(events):
        return NO_RECORD
    if is_new_account(solve):
        return NEW_ACCOUNT
    if mostly_in_submit(events, empty_cells):
        return IN_SUBMIT
    if mostly_in_large_writes(events, empty_cells):
        return LARGE_WRITES
    if too_fast(events, started_at):
        return TOO_FAST
    return ""


def day_median(daily: DailyPuzzle, excluding: int | None = None) -> tuple[float | None, int]:
    """The median ranked time of a daily's ranked solves and how many there are; (None, 0) for none."""
    ranked: SolveQuerySet = Solve.objects.ranked().filter(daily=daily).exclude(pk=excluding)
    times = ranked.annotate(rank_time=RANK_TIME).order_by("rank_time")
    count = times.count()
    if not count:
        return None, 0
    middle = list(times.values_list("rank_time", flat=True)[(count - 1) // 2 : count // 2 + 1])
    return sum(middle) / len(middle), count


def floor_of(solve: Solve) -> tuple[float, str]:
    """The floor a solve must reach not to be held, and which it is ("difficulty" or "day"): the
    difficulty's (LEADERBOARD_FLOOR_SECONDS) or, once the day has DAY_FLOOR_MIN_SOLVES other
    ranked solves, DAY_FLOOR_FRACTION of their median, whichever is higher."""
    floor = float(settings.LEADERBOARD_FLOOR_SECONDS.get(solve.daily.difficulty, 0))
    median, count = day_median(solve.daily, excluding=solve.pk)
    if median is not None and count >= settings.DAY_FLOOR_MIN_SOLVES:
        day_floor = settings.DAY_FLOOR_FRACTION * median
        if day_floor > floor:
            return day_floor, "day"
    return floor, "difficulty"


def is_held(solve: Solve) -> bool:
    """A solve that would be ranked, faster than its floor (floor_of): held for an admin's review.
    Solves not ranked anyway are not held: an approval could not rank them."""
    if solve.late or solve.hinted or solve.unranked:
        return False
    floor, _ = floor_of(solve)
    return (solve.ranked_seconds if solve.ranked_seconds is not None else solve.seconds) < floor


def solve_judge(solve: Solve) -> None:
    """Judge a solve just recorded from its record of play, and save the verdict: its ranked time,
    why it is not ranked (if so) and whether it is held for review."""
    events = record_of(solve)
    solve.ranked_seconds = ranked_time(solve, events)
    solve.unranked = unranked_reason(solve, events)
    solve.flagged = is_held(solve)
    solve.save(update_fields=["ranked_seconds", "unranked", "flagged"])


def account_verified(user_id: int) -> None:
    """A player's email address was just verified: judge again their solves that were not ranked
    as a new account's (the record's own rules come after that one, so they are checked now)."""
    for solve in Solve.objects.select_related("daily__puzzle", "attempt", "user").filter(
        user_id=user_id, unranked=NEW_ACCOUNT
    ):
        solve_judge(solve)


# Connected when this module is imported, as the site starts: the admin (autodiscovered) and
# attempts.py import it.
@receiver(email_confirmed, dispatch_uid="fairplay_account_verified")
def _email_confirmed(sender: object, email_address: EmailAddress, **kwargs: object) -> None:
    account_verified(email_address.user_id)


# --- what the pages say -------------------------------------------------------------------------


def held_because(solve: Solve) -> str:
    """Why a held solve waits for review, for its player."""
    floor, which = floor_of(solve)
    if which == "day":
        share = f"{settings.DAY_FLOOR_FRACTION:.0%}"
        return f"it was under {share} of the day's median time, so it is held until an admin checks it"
    return f"it was under {clock(floor)}, so it is held until an admin checks it"


def rules(difficulty: str) -> list[str]:
    """The ranking rules as the leaderboard writes them, with the numbers in force."""
    floor = settings.LEADERBOARD_FLOOR_SECONDS.get(difficulty, 0)
    return [
        "Only solves made on the puzzle's day, without hints or checks, by players with an account are ranked.",
        "The ranked time is the whole time the puzzle's page was open, as the server recorded it: a pause "
        "or a closed page stops it, a missing heartbeat does not. It is never less than the clock's time.",
        "The record of play must show the grid filled over time: a solve is not ranked when most of its "
        f"digits arrive in the final submit, or in saves of over {LARGE_WRITE_DIGITS} digits at once, or when "
        f"its digits go in under {MIN_MEDIAN_GAP_SECONDS:g} s apart for most of the solve.",
        f"A solve by an account under {settings.RANKED_ACCOUNT_MIN_HOURS:g} hours old is ranked once the "
        "account's email address is verified.",
        f"A solve under {clock(floor)} on this puzzle, or, once the day has {settings.DAY_FLOOR_MIN_SOLVES} ranked "
        f"solves, under {settings.DAY_FLOOR_FRACTION:.0%} of their median time, is held until an admin has "
        "checked it; an admin may also disqualify a solve.",
    ]
