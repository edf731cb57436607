"""The clock's rule for a move's time (fairplay/judge.py: move_times, on_the_clock), on records
written by hand: what the replays, the judge and the export all read."""

from __future__ import annotations

import datetime
from typing import NamedTuple

from puzzles.fairplay.timing import move_times, on_the_clock
from puzzles.record_of_play.moves import Move, pack

START = datetime.datetime(2026, 11, 1, 9, 0, tzinfo=datetime.UTC)


class Event(NamedTuple):
    arrived_at: datetime.datetime
    moves: bytes
    clock: float | None


def at(seconds: float) -> datetime.datetime:
    return START + datetime.timedelta(seconds=seconds)


def event(arrived: float, ages_ms: list[int], clock: float | None) -> Event:
    return Event(at(arrived), pack([Move(age, "d", ((n, 5),)) for n, age in enumerate(ages_ms)]), clock)


def test_a_move_is_its_write_less_its_age_never_before_the_write_before_nor_after_its_own():
    times = [moment for moment, _ in move_times(event(10.0, [3_500, 12_000, 0], 10.0), at(4.0))]

    assert times == [at(6.5), at(4.0), at(10.0)]


def test_a_write_that_arrived_before_the_one_it_follows_has_its_moves_at_its_own_arrival():
    times = [moment for moment, _ in move_times(event(10.0, [3_000, 0], 10.0), at(12.0))]

    assert times == [at(10.0), at(10.0)]


def test_each_move_is_put_on_the_clock_and_told_whether_its_time_counted():
    # Away for a minute between the first write and the second: the clock counted 5 s of the 65.
    record = [event(10.0, [2_000], 10.0), event(75.0, [4_000, 30_000], 15.0)]

    timed = on_the_clock(record, START)

    assert timed is not None
    (_, first), (_, second) = timed
    assert [(c.at, c.clock, c.inside) for c in first] == [(at(8.0), 8.0, True)]
    # 4 s back from the second write is inside its 5 counted seconds; 30 s back is not, and it
    # sits at the clock before (10.0), made while the clock did not count.
    assert [(c.at, c.clock, c.inside) for c in second] == [(at(71.0), 11.0, True), (at(45.0), 10.0, False)]


def test_a_late_write_is_timed_from_the_later_arrival_it_follows():
    # The second write left the browser before the first and arrived 2 s before it: its move is
    # at its own arrival, which is 2 s back from the stretch's end.
    record = [event(20.0, [0], 20.0), event(18.0, [500], 21.0)]

    timed = on_the_clock(record, START)

    assert timed is not None
    counted = timed[1][1][0]
    assert (counted.at, counted.clock, counted.inside) == (at(18.0), 20.0, False)


def test_a_record_from_before_events_kept_their_clock_has_no_clock():
    assert on_the_clock([event(10.0, [0], None)], START) is None
