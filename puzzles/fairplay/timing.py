"""A move's time on the record of play: when it was made, the clock then, and whether that time
counted. The judge (judge.py), the replays (replays.py) and the player's export
(accounts/export_play.py) all read a record by these two rules.

A move's time is its write's arrival less its age, never before the write before it arrived (nor
before the attempt started) and never after its own write: ages are the board's word, the
arrivals the server's, so a made-up age can spread moves only over time that really passed.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Sequence
from typing import NamedTuple, Protocol, TypeVar

from ..record_of_play.moves import Move, unpack


class Counted(NamedTuple):
    """A move on the clock: when it was made, the clock then (seconds), and whether that time counted."""

    at: datetime.datetime
    clock: float
    inside: bool
    move: Move


# Rounding between the database's clock and Python's (a millisecond): not time a move could hide in.
COUNTED_SLACK = 0.001


class Written(Protocol):
    """What the clock's rules below read of an event: a PlayEvent, or a row of its fields (the
    export reads a year of them as rows, far cheaper than model instances)."""

    @property
    def arrived_at(self) -> datetime.datetime: ...

    @property
    def moves(self) -> bytes | memoryview: ...

    @property
    def clock(self) -> float | None: ...


AnEvent = TypeVar("AnEvent", bound=Written)


_MICROSECOND = datetime.timedelta(microseconds=1)


def _backs(event: Written, after: datetime.datetime) -> Iterator[tuple[int, Move]]:
    """Each move of a write with how long before the write's arrival it was made, in whole
    microseconds: its age, cut so that it is never before `after` nor after the arrival (the
    rule of move_times, in integers: a year of moves is timed in a fraction of a second, exactly)."""
    room = max((event.arrived_at - after) // _MICROSECOND, 0)
    for move in unpack(event.moves):
        yield min(move.age_ms * 1000, room), move


def move_times(event: Written, after: datetime.datetime) -> list[tuple[datetime.datetime, Move]]:
    """Each move of a write with its time: the arrival less its age, never before `after` (the
    previous event's arrival, or the attempt's start) nor after the arrival."""
    arrival = event.arrived_at
    return [(arrival - datetime.timedelta(microseconds=back), move) for back, move in _backs(event, after)]


def on_the_clock(
    events: Sequence[AnEvent], started_at: datetime.datetime
) -> list[tuple[AnEvent, list[Counted]]] | None:
    """Each event with its moves on the clock: when each was made (move_times), the clock then and
    whether that time counted; None for a record from before events kept their clock.

    The clock (play/attempts.py) counted `clock - clock before` of the stretch that ends at an
    event (PlayEvent.clock); ticks are not logged, so the counted part is taken to be the
    stretch's end, just before the sign of life that counted it. A move made earlier than that,
    which only an age reaching back past the counted time can claim, was made off the clock.
    """
    if any(event.clock is None for event in events):
        return None
    timed: list[tuple[AnEvent, list[Counted]]] = []
    previous, before = started_at, 0.0
    for event in events:
        arrived = event.arrived_at
        arrival, clock = max(previous, arrived), float(event.clock or 0.0)
        late = (arrival - arrived) // _MICROSECOND  # an event that arrived before the one it follows
        counted = clock - before + COUNTED_SLACK
        moves = []
        for back, move in _backs(event, previous):
            seconds = (late + back) / 1_000_000  # before the stretch's end
            at = arrived - datetime.timedelta(microseconds=back)
            moves.append(Counted(at, max(before, clock - seconds), seconds <= counted, move))
        timed.append((event, moves))
        previous, before = arrival, clock
    return timed
