"""The record of play as the writes of an attempt add to it (models/play.py has what an event holds).

Every save, submit, open and close (attempts.py) and every hint shown and check (hints.py) appends
one event, in the transaction of the write itself: stamped with the server's time, with the moves
the board sent (record_of_play/moves.py), the stored digits after it, and how many empty cells it filled,
counted from the stored digits before and after (placed_count), never from the moves.
An attempt holds at most settings.PLAY_MOVES_PER_ATTEMPT moves: a write whose moves would pass it
is refused whole (RecordFull, a 413), while a write without moves always goes through, so a board
with a full record can still save and submit. Events are never changed or deleted by the app; they
go with their attempt (a guest's attempts moved to an account at log-in keep theirs).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.conf import settings

from ..models import Attempt, PlayEvent
from .moves import Move, pack


class RecordFull(Exception):
    """The write's moves would take the attempt's record of play past its bound."""

    def __init__(self) -> None:
        limit = settings.PLAY_MOVES_PER_ATTEMPT
        super().__init__(f"The record of play for this puzzle is full ({limit} moves): send the write without moves.")


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
