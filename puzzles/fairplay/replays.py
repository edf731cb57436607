"""Replays: a solve's record of play (models/play.py) as a timeline on the player's clock, and who
may watch it.

The timeline puts every move on the axis of active time, the solve's one clock (play/attempts.py
has its rule), so a replay skips what the player did away from the puzzle and ends at the time
the results and the leaderboard show:

- A move's moment is its write's arrival less its age, never before the previous event's
  arrival (the attempt's start, for the first) nor after its own: the rule of timing.move_times.
- Each event keeps the clock after it; a move is placed on it as timing.on_the_clock says (the
  counted part of a stretch is its end, before the sign of life that counted it), and the
  timeline ends at the clock of the submit that solved the puzzle.
- An older record, from before events kept their clock, is replayed on its open spans: the clock
  runs from an "open" to the next "close" and ends at the solving submit; an open while it runs
  and a close while it is stopped change nothing; any other event while it is stopped starts it
  from its oldest move (or its arrival) if that came after the clock stopped.
- Each save and the submit carry the digits after them: the replay puts those on the board as it
  passes the write, so a move the board failed to send cannot leave the replay out of step.
- A solve with no record of its own (made before moves were kept) has no moves: the givens, then
  its solved grid at its time.

Who may watch (`replay_visible`): staff, any solve (to review held ones); a player who has solved
that daily (late or with hints too), their own solve and every ranked one. Nobody else sees
anything of a daily's record, not even whether a solve exists.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from ..models import Attempt, PlayEvent, Solve
from ..record_of_play.moves import Move
from .timing import move_times, on_the_clock

Kind = PlayEvent.Kind
WRITES = (Kind.SAVE, Kind.SUBMIT)  # the events whose digits the server recorded


@dataclass(frozen=True)
class TimedMove:
    ms: int  # on the player's clock: active milliseconds since the start
    move: Move

    def as_list(self) -> list:
        return [self.ms, self.move.layer, [list(pair) for pair in self.move.cells]]


@dataclass(frozen=True)
class Snapshot:
    after: int  # how many moves had been made when the write arrived
    ms: int
    digits: str  # the player's 81 digits after the write (0 on givens and empty cells)


@dataclass
class Timeline:
    givens: str
    moves: list[TimedMove] = field(default_factory=list)
    writes: list[Snapshot] = field(default_factory=list)
    end_ms: int = 0  # the clock at the solving submit
    seconds: float = 0.0  # the solve's recorded time

    def as_dict(self) -> dict[str, Any]:
        """The timeline as the replay's page reads it (static/js/replay.js)."""
        return {
            "givens": self.givens,
            "moves": [m.as_list() for m in self.moves],
            "writes": [[w.after, w.ms, w.digits] for w in self.writes],
            "end_ms": self.end_ms,
            "seconds": self.seconds,
        }


def _solved_by(event: PlayEvent, givens: str, solution: str) -> bool:
    """Whether a submit's digits, with the givens, are the solution."""
    digits = event.digits
    return len(digits) == 81 and all((g if g != "0" else d) == s for g, d, s in zip(givens, digits, solution))


def _record_of(attempt: Attempt, givens: str, solution: str) -> list[PlayEvent]:
    """The attempt's events up to the submit that solved it (its whole record if none did)."""
    record = []
    for event in PlayEvent.objects.filter(attempt=attempt).order_by("id"):
        record.append(event)
        if event.kind == Kind.SUBMIT and _solved_by(event, givens, solution):
            break
    return record


class _Clock:
    """Active time as a function of the server's time, fed the events in order (the module's
    docstring has the rules)."""

    def __init__(self) -> None:
        self.counted = datetime.timedelta(0)  # before `since`
        self.since: datetime.datetime | None = None  # when it last started; None while stopped
        self.stopped: datetime.datetime | None = None  # when it last stopped; None before it ran

    def at(self, moment: datetime.datetime) -> int:
        """The clock at `moment` (no earlier than the last event fed), in whole milliseconds."""
        running = moment - self.since if self.since is not None else datetime.timedelta(0)
        return int((self.counted + max(running, datetime.timedelta(0))) / datetime.timedelta(milliseconds=1))

    def start(self, moment: datetime.datetime) -> None:
        if self.since is None:
            self.since = moment

    def stop(self, moment: datetime.datetime) -> None:
        if self.since is not None:
            self.counted += max(moment - self.since, datetime.timedelta(0))
            self.since, self.stopped = None, moment

    def sign_of_life(self, earliest: datetime.datetime) -> None:
        """A write, hint or check that began at `earliest`: the page was open since then, unless
        it all happened before the clock last stopped."""
        if self.since is None and (self.stopped is None or earliest > self.stopped):
            self.since = earliest


def timeline_of(solve: Solve) -> Timeline:
    """The solve's replay: its moves on the player's clock and the digits after each write (the
    module's docstring has the rules)."""
    attempt = solve.attempt
    puzzle = solve.daily.puzzle
    timeline = Timeline(givens=puzzle.givens, seconds=solve.seconds)
    record = _record_of(attempt, puzzle.givens, puzzle.solution)
    kept = on_the_clock(record, attempt.started_at) if record else None
    if kept is not None:
        for event, moves in kept:
            timeline.moves.extend(TimedMove(int(counted.clock * 1000), counted.move) for counted in moves)
            if event.kind in WRITES and event.digits:
                timeline.writes.append(Snapshot(len(timeline.moves), int((event.clock or 0) * 1000), event.digits))
        timeline.end_ms = int((record[-1].clock or 0) * 1000)
    elif record:
        timeline.end_ms = _on_open_spans(timeline, record, attempt.started_at)
    else:  # made before the record of play: its time is all there is
        timeline.end_ms = int(solve.seconds * 1000)
    last = record[-1] if record else None
    if last is None or not (last.kind == Kind.SUBMIT and _solved_by(last, puzzle.givens, puzzle.solution)):
        # The record stops short of the solve: end on the solved grid all the same.
        timeline.writes.append(Snapshot(len(timeline.moves), timeline.end_ms, attempt.digits))
    return timeline


def _on_open_spans(timeline: Timeline, record: list[PlayEvent], started_at: datetime.datetime) -> int:
    """An older record's moves on the clock of its open spans (_Clock), into the timeline; the
    clock at its end."""
    clock = _Clock()
    floor = started_at
    for event in record:
        arrival = max(floor, event.arrived_at)  # in the order received, even if two stamps crossed
        moments = move_times(event, floor)
        if event.kind == Kind.OPEN:
            clock.start(arrival)
        elif event.kind != Kind.CLOSE:
            clock.sign_of_life(moments[0][0] if moments else arrival)
        timeline.moves.extend(TimedMove(clock.at(moment), move) for moment, move in moments)
        floor = arrival
        if event.kind in WRITES and event.digits:
            timeline.writes.append(Snapshot(len(timeline.moves), clock.at(floor), event.digits))
        if event.kind == Kind.CLOSE:
            clock.stop(arrival)
    return clock.at(floor)


def replay_visible(solve: Solve, user) -> bool:
    """Whether `user` may watch `solve`'s replay: staff any; a player who has solved its daily
    their own and the ranked ones; nobody else."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff or solve.user_id == user.pk:
        return True
    has_solved = Solve.objects.filter(user=user, daily_id=solve.daily_id).exists()
    return has_solved and Solve.objects.ranked().filter(pk=solve.pk).exists()


def replay_for(daily, solve_id: int, user) -> Solve | None:
    """The solve of `daily` with that id if `user` may watch it, else None (whether it does not
    exist or may not be shown: the caller answers both alike)."""
    solve = Solve.objects.select_related("user", "attempt").filter(pk=solve_id, daily=daily).first()
    if solve is None or not replay_visible(solve, user):
        return None
    solve.daily = daily  # already loaded, with its puzzle
    return solve
