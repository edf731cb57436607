"""The record of play as the writes of an attempt add to it (models/play.py has what an event holds).

Every save, submit, open and close (attempts.py) and every hint shown and check (hints.py) appends
one event, in the transaction of the write itself: stamped with the server's time, with the moves
the board sent (record_of_play/moves.py), the stored digits after it, and how many empty cells it filled,
counted from the stored digits before and after (placed_count), never from the moves.
An attempt holds at most settings.PLAY_MOVES_PER_ATTEMPT moves: a write whose moves would pass it
is refused whole (RecordFull, a 413), while a write without moves always goes through, so a board
with a full record can still save and submit. Events are never changed or deleted by the app; they
go with their attempt (a guest's attempts moved to an account at log-in keep theirs).

Writes without moves (an open, a close, a save that carries none) would otherwise add a row each
without end, so the events are bounded too: at most settings.PLAY_EVENTS_PER_MINUTE in any minute,
and settings.PLAY_EVENTS_PER_ATTEMPT in all, the submit aside, so that a full record can still be
solved. The write checks it: on PostgreSQL inside its one statement (play/fastpath.py), which then
matches nothing, and the locking path (ensure_room_for_event, before anything is written) says
why. A write past a bound is refused whole: the clock and the record both stay as they were, so
the time the record shows and the time the clock counted never part (a beat that moved the clock
but logged nothing would part them). Past the minute's bound the answer is a 429 with the wait
(EventsTooFast), past the attempt's a 413 (EventsFull; the API's record_bounded decorator). The
locking path reads the count without a lock, so requests sent at the same moment may pass it
together: the bound can be overshot by the requests in flight at once, never by more.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Sequence

from django.conf import settings
from django.db.models import Count, Min, Q

from ..models import Attempt, PlayEvent
from .fastcount import event_counts
from .moves import Move, pack


class RecordFull(Exception):
    """The write's moves would take the attempt's record of play past its bound."""

    def __init__(self) -> None:
        limit = settings.PLAY_MOVES_PER_ATTEMPT
        super().__init__(f"The record of play for this puzzle is full ({limit} moves): send the write without moves.")


class EventsTooFast(Exception):
    """The write would log more than settings.PLAY_EVENTS_PER_MINUTE events on the attempt in a
    minute; retry_after is the wait, in whole seconds, until the oldest of them leaves the minute."""

    def __init__(self, retry_after: int) -> None:
        limit = settings.PLAY_EVENTS_PER_MINUTE
        super().__init__(
            f"Too many writes to this puzzle in a minute (at most {limit}): nothing was saved. "
            f"Try again in {retry_after} s."
        )
        self.retry_after = retry_after


class EventsFull(Exception):
    """The attempt's record of play holds settings.PLAY_EVENTS_PER_ATTEMPT events: only the submit
    is taken now."""

    def __init__(self) -> None:
        limit = settings.PLAY_EVENTS_PER_ATTEMPT
        super().__init__(f"The record of play for this puzzle is full ({limit} writes): only the submit is taken now.")


MINUTE = datetime.timedelta(minutes=1)


def ensure_room_for_event(user_id: int, daily_id: int, kind: str, now: datetime.datetime) -> None:
    """Pass if the player's attempt at the daily can log one more event of `kind` at `now`; raise
    EventsTooFast past the minute's bound, EventsFull past the attempt's (never for a submit).
    The counts come from fastcount.event_counts (this rule's query written out: every write asks
    it); the wait, needed only to refuse, from the ORM."""
    since = now - MINUTE
    total, recent = event_counts(user_id, daily_id, since)
    if recent >= settings.PLAY_EVENTS_PER_MINUTE:
        mine = PlayEvent.objects.filter(attempt__user_id=user_id, attempt__daily_id=daily_id, arrived_at__gt=since)
        oldest = mine.aggregate(oldest=Min("arrived_at"))["oldest"] or now  # none: a bound of 0 turns writes off
        wait = (oldest - since).total_seconds()
        raise EventsTooFast(max(1, math.ceil(wait)))
    if kind != PlayEvent.Kind.SUBMIT and total >= settings.PLAY_EVENTS_PER_ATTEMPT:
        raise EventsFull()


def event_counts_orm(user_id: int, daily_id: int, since: datetime.datetime) -> tuple[int, int]:
    """fastcount.event_counts as the ORM says it, for the tests that hold the two together."""
    counts = PlayEvent.objects.filter(attempt__user_id=user_id, attempt__daily_id=daily_id).aggregate(
        total=Count("id"), recent=Count("id", filter=Q(arrived_at__gt=since))
    )
    return counts["total"], counts["recent"]


def placed_count(before: str, after: str) -> int:
    """How many cells a write filled: empty before it, a digit after it."""
    return sum(1 for old, new in zip(before, after) if old == "0" and new != "0")


def ensure_room_for_moves(attempt: Attempt, moves: Sequence[Move]) -> None:
    """Count the moves on the attempt, or raise RecordFull if they would pass the bound (a write
    without moves always passes: the board's way on with a full record)."""
    if moves and attempt.moves_logged + len(moves) > settings.PLAY_MOVES_PER_ATTEMPT:
        raise RecordFull()
    attempt.moves_logged += len(moves)


def play_log(
    attempt: Attempt, kind: str, now: datetime.datetime, moves: Sequence[Move] = (), before: str | None = None
) -> None:
    """Append an event to the attempt's record of play, with its digits and its clock as they now
    stand; `before` (the digits before a save or submit) gives the count of cells it filled."""
    placed = 0 if before is None else placed_count(before, attempt.digits)
    PlayEvent.objects.create(
        attempt_id=attempt.pk,
        kind=kind,
        arrived_at=now,
        moves=pack(moves),
        placed=placed,
        digits=attempt.digits,
        clock=attempt.active_seconds,
    )
