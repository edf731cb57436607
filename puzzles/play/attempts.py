"""A player's attempt at a daily: their position on the board, its saving, the clock, the solve.

A position is what the player has put on the board (digits, corner and centre notes, colours);
it is checked against the givens on every write (positions.py). Every write names the version it
was made on, and a stale one is refused rather than overwriting newer progress.

The clock is the server's, never a figure from the client. Time counts between signs of life:
the page's heartbeats, each with a phase, and its writes. One rule, used for the board's clock,
the ranked time (fairplay/judge.py) and the replay (fairplay/replays.py):

- Every sign of life (an "open": the page opened, was shown again or unpaused; a "tick", sent
  every few seconds while the page is open, visible and unpaused, a beat without a phase being
  one; a "close", sent as it closes, is hidden or paused; a save; a submit) counts the time since
  the sign of life before it, whatever the page said in between, up to HEARTBEAT_GAP_SECONDS:
  the longest silence counted, minutes, as long as a person may think at a paused or hidden board.
- So only a silence past that limit is left out, and only its part past the limit: a page that
  was closed, asleep, crashed or sent nothing. An open counts like any other sign of life, so a
  page cannot hide play by saying it closed, then opening and saving moves dated inside the
  stretch it called closed.

With the page open the board sends a sign of life every few seconds, so the limit bites only on a
page that was silent; a pause longer than it counts the limit (the paused board says so). A
solved attempt's clock never moves again. Each event of the record keeps the clock as it stood
after it (PlayEvent.clock), so the ranked time and the replay read this clock, never another; a
solve whose clock is far below the time from its first move is held for review when it would
rank near the top (fairplay/judge.clock_far_below_wall).

Every save, submit, open and close adds one event to the attempt's record of play, with the
moves the write carried, in the same transaction (record_of_play/events.py has the rules). Ticks are not
logged: the clock each event keeps says how much of the stretch before it was counted.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .. import engine
from ..fairplay.ranking import CHECKING
from ..models import Attempt, DailyPuzzle, PlayEvent, Solve
from ..record_of_play.events import ensure_room_for_event, ensure_room_for_moves, play_log
from ..record_of_play.moves import Move, moves_clean
from . import fastpath
from .positions import BadPosition, Position, colours_clean, digits_clean, position_clean, position_key


class StaleSave(Exception):
    """A save or submit started from an older version than the one stored (another tab won)."""

    def __init__(self, attempt: Attempt) -> None:
        super().__init__("Your progress was saved from another tab or device first.")
        self.attempt = attempt


class AlreadySolved(Exception):
    """The attempt is solved; nothing about it changes any more."""


# The clock's phases (see the module's docstring).
OPEN, TICK, CLOSE = "open", "tick", "close"
PHASES = (OPEN, TICK, CLOSE)

# The fields a save writes: the position, its version, the clock and the count of moves logged.
POSITION_FIELDS = [
    *("digits", "corner", "centre", "colours", "version", "saved_at"),
    *("active_seconds", "last_beat_at", "updated_at", "moves_logged"),
]
# What a submit writes: the digits and the clock, not the notes and colours (they stay as they are).
SUBMIT_FIELDS = [
    *("digits", "version", "saved_at", "active_seconds", "last_beat_at"),
    *("updated_at", "moves_logged", "wrong_submissions"),
]


def attempt_open(user, daily: DailyPuzzle) -> Attempt:
    """The player's attempt at a daily (with its solve, if any), started if there is none.

    Starting it starts the clock: the next heartbeat counts from here. Only writes start an
    attempt (a save, a heartbeat, a submit, a hint: POSTs, which carry the CSRF token); reading
    the state never does, so a link from another site cannot start a player's puzzles.
    """
    attempt = Attempt.objects.select_related("solve").filter(user=user, daily=daily).first()
    if attempt is None:
        attempt, _ = Attempt.objects.get_or_create(user=user, daily=daily, defaults={"last_beat_at": timezone.now()})
    attempt.daily = daily  # already loaded, with its puzzle
    return attempt


def attempt_lock(user, daily: DailyPuzzle) -> Attempt:
    """The player's attempt, row-locked for this transaction, with its solve if any.

    One query (the daily is already loaded); the attempt is started if the player never opened it.
    """
    locking = Attempt.objects.select_for_update(of=("self",)).select_related("solve")
    attempt = locking.filter(user=user, daily=daily).first()
    if attempt is None:
        attempt_open(user, daily)
        attempt = locking.get(user=user, daily=daily)
    attempt.daily = daily
    return attempt


def _silence_counted(last: datetime.datetime | None, now: datetime.datetime) -> float:
    """What a sign of life at `now` counts of the silence since the one at `last` (None only on
    attempts from before these rules, stopped by a close): up to the limit (the module's docstring)."""
    if last is None or now <= last:
        return 0.0
    return min((now - last).total_seconds(), settings.HEARTBEAT_GAP_SECONDS)


def _advance_clock(attempt: Attempt, now: datetime.datetime) -> None:
    """Count the time since the last sign of life, up to the limit (see the module's docstring)."""
    if attempt.is_solved:
        return
    attempt.active_seconds += _silence_counted(attempt.last_beat_at, now)
    attempt.last_beat_at = now


@dataclass(frozen=True)
class Saved:
    """What a save or a heartbeat tells the board: the new version and the time counted."""

    version: int
    active_seconds: float


def tenths(seconds: float) -> float:
    """Seconds for the board, to a tenth and rounded down: a page that shows whole seconds then
    never shows one more than the server's own m:ss (242.96 s is 4:02 on both, not 4:03)."""
    return math.floor(seconds * 10) / 10


def clock_phase(phase: object) -> str:
    """A heartbeat's phase as the board sends it, or BadPosition."""
    if not isinstance(phase, str) or phase not in PHASES:
        raise BadPosition(f"phase must be one of {', '.join(PHASES)}")
    return phase


def attempt_beat(user, daily: DailyPuzzle, phase: object = TICK) -> Saved:
    """A heartbeat: the page opened, is still open, or closed (the phase); the clock follows it."""
    phase = clock_phase(phase)
    saved = _write_in_one_statement(user, daily, phase=phase)
    if saved is not None:
        return saved
    now = timezone.now()
    if phase != TICK:
        ensure_room_for_event(user.pk, daily.pk, phase, now)
    with transaction.atomic():
        attempt = attempt_lock(user, daily)
        _advance_clock(attempt, now)
        attempt.save(update_fields=["active_seconds", "last_beat_at", "updated_at"])
        if phase != TICK and not attempt.is_solved:
            play_log(attempt, phase, now)
        return Saved(attempt.version, attempt.active_seconds)


def attempt_save(
    user,
    daily: DailyPuzzle,
    *,
    version: int,
    digits: object,
    corner: object,
    centre: object,
    colours: object = None,
    moves: object = None,
) -> Saved:
    """Store a player's position if it was made on the newest version, and log the write with its
    moves; raise StaleSave if not, RecordFull if the moves would pass the record's bound."""
    # A malformed position or moves are refused as such, whichever version they claim to follow.
    clean: Position = (*position_clean(daily.puzzle.givens, digits, corner, centre), colours_clean(colours))
    played = moves_clean(moves)
    saved = _write_in_one_statement(user, daily, version, clean, moves=played)
    if saved is not None:
        return saved
    # Not applied in one statement: a stale version, a full record, too many writes, a solved or
    # a never-opened attempt, or a database without it. The locking path finds out which and
    # answers accordingly.
    ensure_room_for_event(user.pk, daily.pk, PlayEvent.Kind.SAVE, timezone.now())
    with transaction.atomic():
        attempt = attempt_lock(user, daily)
        if attempt.is_solved:
            raise AlreadySolved()
        if version != attempt.version:
            raise StaleSave(attempt)
        ensure_room_for_moves(attempt, played)
        before = attempt.digits
        attempt.digits, attempt.corner, attempt.centre, attempt.colours = clean
        attempt.version += 1
        attempt.saved_at = now = timezone.now()
        _advance_clock(attempt, now)
        attempt.save(update_fields=POSITION_FIELDS)
        play_log(attempt, PlayEvent.Kind.SAVE, now, played, before)
        return Saved(attempt.version, attempt.active_seconds)


def _write_in_one_statement(
    user,
    daily: DailyPuzzle,
    version: int | None = None,
    clean: Position | None = None,
    *,
    phase: str = TICK,
    moves: Sequence[Move] = (),
) -> Saved | None:
    """A save (or, without a position, a heartbeat of that phase) in one statement where the
    database allows it (fastpath.py); None when it did not apply, and the locking path decides."""
    logged = clean is not None or phase != TICK  # a tick is not logged (see the module's docstring)
    written = fastpath.write_in_one_statement(
        user.pk,
        daily.pk,
        version,
        clean,
        kind=(PlayEvent.Kind.SAVE if clean is not None else phase) if logged else None,
        moves=moves,
    )
    return Saved(*written) if written else None


@dataclass
class SubmitResult:
    solved: bool
    shown: Shown  # the attempt as the board shows it after the submit
    message: str = ""
    version: int = 0  # the attempt's version after the submit
    solve_seconds: float | None = None  # the solve's time, solved now or before
    new: bool = False  # this submit recorded the solve


def _mistake(board: list[int]) -> str:
    """Why a submitted grid (the givens and the digits, 0 for an empty cell) is not solved; "" if it is."""
    if 0 in board:
        return "Not quite: some cells are still empty."
    if engine.conflicts(board):
        return "Not quite: a digit appears twice in a row, column or box."
    return ""


def attempt_submit(user, daily: DailyPuzzle, *, version: int, digits: object, moves: object = None) -> SubmitResult:
    """Check a full grid against the rules and the givens, and log it with its moves (right or
    wrong); record the solve once, being checked: the judge rules on its rank after the answer
    (fairplay/judge.py), from the beat's sweep.

    A right grid on PostgreSQL is one statement (fastpath.submit_in_one_statement); anything else
    takes the locking path, which also says why a write was refused."""
    played = moves_clean(moves)
    givens = daily.puzzle.givens
    clean = digits_clean(givens, digits)
    board = [int(g) if g != "0" else int(d) for g, d in zip(givens, clean)]
    if not _mistake(board):
        # A day's puzzle solved on a later day (in the site's zone) comes from the archive.
        late = timezone.localdate() != daily.date
        row = fastpath.submit_in_one_statement(user.pk, daily.pk, version, clean, late=late, moves=played)
        if row is not None:
            version, seconds, corner, centre, colours, saved_at, stage, position, checks, hints, _ = row
            notes, last_beat_at = (corner, centre, colours), saved_at  # the submit: the last sign of life
            shown = Shown(
                clean, *notes, version, saved_at, last_beat_at, seconds, stage, position, checks, hints, seconds
            )
            return SubmitResult(True, shown, version=version, solve_seconds=seconds, new=True)
    ensure_room_for_event(user.pk, daily.pk, PlayEvent.Kind.SUBMIT, timezone.now())
    with transaction.atomic():
        attempt = attempt_lock(user, daily)
        if attempt.is_solved:
            return SubmitResult(True, Shown.of(attempt), version=attempt.version, solve_seconds=attempt.solve.seconds)
        clean, _, _ = position_clean(givens, digits, attempt.corner, attempt.centre)
        if version != attempt.version:
            raise StaleSave(attempt)
        ensure_room_for_moves(attempt, played)
        board = [int(g) if g != "0" else int(d) for g, d in zip(givens, clean)]
        before, attempt.digits = attempt.digits, clean  # the notes and colours stay as they are
        attempt.version += 1
        attempt.saved_at = now = timezone.now()
        _advance_clock(attempt, now)
        message = _mistake(board)
        if message:
            attempt.wrong_submissions += 1
        attempt.save(update_fields=SUBMIT_FIELDS)
        # Before the solve: the judge reads the record of play, this submit included.
        play_log(attempt, PlayEvent.Kind.SUBMIT, now, played, before)
        if message:
            return SubmitResult(False, Shown.of(attempt), message=message, version=attempt.version)
        attempt.solve = Solve.objects.create(
            attempt=attempt,
            user_id=attempt.user_id,
            daily=daily,
            seconds=attempt.active_seconds,
            solved_at=now,
            # A day's puzzle solved on a later day (in the site's zone) comes from the archive.
            late=timezone.localdate(now) != daily.date,
            assisted=attempt.is_assisted,  # a hint or a check: not ranked
            # Whether it earns a rank is judged after the answer, by the beat's sweep (fairplay/judge.py).
            unranked=CHECKING,
        )
        shown = Shown.of(attempt)
        return SubmitResult(True, shown, version=attempt.version, solve_seconds=shown.solve_seconds, new=True)


@dataclass(frozen=True)
class Shown:
    """What the board shows of an attempt: the position, the clock, the solve's time, the assists."""

    digits: str
    corner: list[str]
    centre: list[str]
    colours: list[str]
    version: int
    saved_at: datetime.datetime | None
    last_beat_at: datetime.datetime | None  # the last sign of life
    active_seconds: float
    hint_stage: int
    hint_position: str
    checks_used: int
    hints_used: int
    solve_seconds: float | None

    @classmethod
    def of(cls, attempt: Attempt) -> Shown:
        return cls(
            **{name: getattr(attempt, name) for name in fastpath.SHOWN_FIELDS},
            solve_seconds=attempt.solve.seconds if attempt.is_solved else None,
        )


EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)


def _epoch_ms(moment: datetime.datetime | None) -> int | None:
    return None if moment is None else (moment - EPOCH) // datetime.timedelta(milliseconds=1)


def attempt_read(user, daily: DailyPuzzle) -> Shown | None:
    """What the board shows of the player's attempt, in one written-out query; None if not started.

    Reading changes nothing: a player who never played gets None, which attempt_state shows as
    the empty position at version 0 with no time counted, and the board's first save or
    heartbeat starts the attempt (attempt_lock).

    The board asks for this on every opening of a puzzle, so it is one written-out query
    (fastpath.attempt_row; bench/web.py measures the route). A test holds this to
    Shown.of(attempt_open(...)) in every state of an attempt.
    """
    row = fastpath.attempt_row(user.pk, daily.pk)
    return None if row is None else Shown(*row)


def _hint_stage(shown: Shown) -> int:
    if not shown.hint_stage or shown.hint_position != position_key(shown.digits, shown.centre):
        return 0
    return shown.hint_stage


def counted_by_now(shown: Shown, now: datetime.datetime | None = None) -> float:
    """The clock as a sign of life arriving `now` would leave it (the page's "open" after a reload,
    say), whether or not the leaving page's last beat has arrived yet: read from the server's own
    times, written by nobody."""
    if shown.solve_seconds is not None:
        return shown.active_seconds
    return shown.active_seconds + _silence_counted(shown.last_beat_at, now or timezone.now())


def attempt_state(attempt: Attempt | Shown | None, daily: DailyPuzzle) -> dict:
    """What the board page needs to show a player's position; never the solution."""
    shown = Shown.of(attempt) if isinstance(attempt, Attempt) else attempt
    solve_seconds = shown.solve_seconds if shown is not None else None
    solved = solve_seconds is not None
    return {
        "givens": daily.puzzle.givens,
        "digits": shown.digits if shown else "0" * 81,
        "corner": shown.corner if shown else [""] * 81,
        "centre": shown.centre if shown else [""] * 81,
        "colours": shown.colours if shown else [""] * 81,
        "version": shown.version if shown else 0,
        # When the position was last saved, in milliseconds since 1970 (null: never).
        "saved_at": _epoch_ms(shown.saved_at) if shown else None,
        "elapsed": tenths(counted_by_now(shown)) if shown else 0,
        "solved": solved,
        "solve_seconds": tenths(solve_seconds) if solve_seconds is not None else None,
        # How far the hint for the stored position has been revealed (0: none, or it moved on).
        "hint_stage": _hint_stage(shown) if shown and not solved else 0,
        "checks": shown.checks_used if shown else 0,
        # Hints shown on this attempt: the board asks before the first of a solve still unassisted.
        "hints": shown.hints_used if shown else 0,
    }
