"""A player's attempt at a brought puzzle: the daily's rules for the position, the clock and the
assists, on one row of its own (models/brought.py), and never a rank.

- A position is checked against the givens on every write (play/positions.py); a write names the
  version it was made on, and a stale one is refused (StaleWrite, with play/attempts.StaleSave's words).
- The clock is the server's, with the daily's rule (play/attempts.py): every sign of life counts
  the time since the one before, up to settings.HEARTBEAT_GAP_SECONDS; a solved clock stops.
- The moves each write carries are kept on the row, each at its moment on the clock (its write's
  clock less its age, never before the write before), up to settings.PLAY_MOVES_PER_ATTEMPT: the
  review reads them (review.py). Writes that log are limited per player and minute as a daily's
  (settings.PLAY_EVENTS_PER_MINUTE), hints and checks as a daily's too, in the shared cache.
- Hints and checks are the daily's (the engine's next step on the player's own position; the
  wrong digits, never the right ones). A solve is recorded on the attempt: no Solve row, so no
  leaderboard, rating, streak or skill profile ever reads it.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .. import engine
from ..accounts.ratelimits import MINUTE, window_wait
from ..models import BroughtAttempt, BroughtPuzzle
from ..play.attempts import AlreadySolved, clock_phase, tenths
from ..play.hint_answers import LAST_STAGE, HintResult
from ..play.hints import CheckResult, HintsTooFast
from ..play.positions import colours_clean, digits_clean, position_clean, position_key
from ..record_of_play.events import EventsTooFast, RecordFull
from ..record_of_play.moves import Move, moves_clean, pack, unpack


class StaleWrite(Exception):
    """A write made on an older version than the one stored (another tab won): a daily's StaleSave."""

    def __init__(self, attempt: BroughtAttempt) -> None:
        super().__init__("Your progress was saved from another tab or device first.")
        self.attempt = attempt


POSITION_FIELDS = [
    *("digits", "corner", "centre", "colours", "version", "saved_at"),
    *("active_seconds", "last_beat_at", "updated_at", "moves", "moves_logged"),
]


def brought_read(user, puzzle: BroughtPuzzle | None) -> BroughtAttempt | None:
    """The player's attempt, or None (a visitor, a puzzle never stored, or never played): a read."""
    if puzzle is None or not getattr(user, "is_authenticated", False):
        return None
    return BroughtAttempt.objects.filter(user=user, puzzle=puzzle).first()


def _lock(user, puzzle: BroughtPuzzle) -> BroughtAttempt:
    """The player's attempt, row-locked for this transaction; started (its clock too) if none."""
    BroughtAttempt.objects.get_or_create(user=user, puzzle=puzzle, defaults={"last_beat_at": timezone.now()})
    attempt = BroughtAttempt.objects.select_for_update().get(user=user, puzzle=puzzle)
    attempt.puzzle = puzzle
    return attempt


def _advance_clock(attempt: BroughtAttempt, now: datetime.datetime) -> None:
    if attempt.is_solved:
        return
    if attempt.last_beat_at is not None:
        gap = (now - attempt.last_beat_at).total_seconds()
        if gap > 0:
            attempt.active_seconds += min(gap, settings.HEARTBEAT_GAP_SECONDS)
    attempt.last_beat_at = now


def _limit_writes(user) -> None:
    """EventsTooFast past the minute's writes that log (the daily's bound, per player here)."""
    wait = window_wait(f"brought-writes:{user.pk}", settings.PLAY_EVENTS_PER_MINUTE, MINUTE)
    if wait is not None:
        raise EventsTooFast(wait)


def _log_moves(attempt: BroughtAttempt, played: list[Move]) -> None:
    """Keep the write's moves on the attempt, each at its moment on the clock (the module's rule)."""
    if not played:
        return
    if attempt.moves_logged + len(played) > settings.PLAY_MOVES_PER_ATTEMPT:
        raise RecordFull()
    kept = unpack(attempt.moves) if attempt.moves else []
    floor = kept[-1].age_ms if kept else 0
    now_ms = int(attempt.active_seconds * 1000)
    kept += [Move(max(floor, now_ms - move.age_ms), move.layer, move.cells) for move in played]
    attempt.moves = pack(kept)
    attempt.moves_logged = len(kept)


def brought_beat(user, puzzle: BroughtPuzzle, phase: object) -> float:
    """A heartbeat: the clock follows the page; the seconds counted."""
    phase = clock_phase(phase)
    if phase != "tick":
        _limit_writes(user)
    with transaction.atomic():
        attempt = _lock(user, puzzle)
        _advance_clock(attempt, timezone.now())
        attempt.save(update_fields=["active_seconds", "last_beat_at", "updated_at"])
        return attempt.active_seconds


@dataclass(frozen=True)
class Saved:
    version: int
    active_seconds: float


def brought_save(
    user,
    puzzle: BroughtPuzzle,
    *,
    version: int,
    digits: object,
    corner: object,
    centre: object,
    colours: object,
    moves: object,
) -> Saved:
    """Store the position made on the newest version, with its moves; StaleWrite if another write
    came first, AlreadySolved once solved, RecordFull past the moves' bound."""
    clean = (*position_clean(puzzle.givens, digits, corner, centre), colours_clean(colours))
    played = moves_clean(moves)
    _limit_writes(user)
    with transaction.atomic():
        attempt = _lock(user, puzzle)
        if attempt.is_solved:
            raise AlreadySolved()
        if version != attempt.version:
            raise StaleWrite(attempt)
        attempt.saved_at = now = timezone.now()
        _advance_clock(attempt, now)
        _log_moves(attempt, played)
        attempt.digits, attempt.corner, attempt.centre, attempt.colours = clean
        attempt.version += 1
        attempt.save(update_fields=POSITION_FIELDS)
        return Saved(attempt.version, attempt.active_seconds)


@dataclass(frozen=True)
class Submitted:
    attempt: BroughtAttempt
    message: str = ""  # why the grid is not solved; "" when it is


def brought_submit(user, puzzle: BroughtPuzzle, *, version: int, digits: object, moves: object) -> Submitted:
    """Check a full grid against the solution; record the solve once (its time is the clock's)."""
    clean = digits_clean(puzzle.givens, digits)
    played = moves_clean(moves)
    _limit_writes(user)
    with transaction.atomic():
        attempt = _lock(user, puzzle)
        if attempt.is_solved:
            return Submitted(attempt)
        if version != attempt.version:
            raise StaleWrite(attempt)
        attempt.saved_at = now = timezone.now()
        _advance_clock(attempt, now)
        _log_moves(attempt, played)
        attempt.digits = clean
        attempt.version += 1
        board = [int(g) if g != "0" else int(d) for g, d in zip(puzzle.givens, clean)]
        message = ""
        if 0 in board:
            message = "Not quite: some cells are still empty."
        elif engine.format_grid(board) != puzzle.solution:
            message = "Not quite: a digit appears twice in a row, column or box."
            if not engine.conflicts(board):  # cannot be with one solution; said plainly all the same
                message = "Not quite: some digits are not the puzzle's."
        if not message:
            attempt.solved_at, attempt.solve_seconds = now, attempt.active_seconds
        attempt.save(update_fields=[*POSITION_FIELDS, "solved_at", "solve_seconds"])
        return Submitted(attempt, message)


def _limit(key: str, limit: int, what: str) -> None:
    wait = window_wait(key, limit, MINUTE)
    if wait is not None:
        raise HintsTooFast(wait, what)


def brought_hint(user, puzzle: BroughtPuzzle, digits: object, corner: object, centre: object) -> HintResult:
    """The next hint stage for the player's position, as on a daily (play/hints.py); not saved."""
    digits, _, centre = position_clean(puzzle.givens, digits, corner, centre)
    with transaction.atomic():
        attempt = _lock(user, puzzle)
        if attempt.is_solved:
            raise AlreadySolved()
        key = position_key(digits, centre)
        same = attempt.hint_position == key and attempt.hint_stage >= 1
        stage = min(attempt.hint_stage + 1, LAST_STAGE) if same else 1
        if stage == 1:
            _limit(f"brought-hints:{user.pk}", settings.HINTS_PER_MINUTE, "hints")
        _limit(f"brought-hint-asks:{user.pk}", settings.HINTS_PER_MINUTE * LAST_STAGE, "hint requests")
        step = engine.next_step(puzzle.givens, [int(d) for d in digits], centre)
        if step is None:
            return HintResult(0, None, attempt.hints_used)
        if stage == 1:
            attempt.hints_used += 1
        attempt.hint_stage, attempt.hint_position = stage, key
        attempt.save(update_fields=["hints_used", "hint_stage", "hint_position", "updated_at"])
        return HintResult(stage, step, attempt.hints_used, puzzle.givens, digits, centre)


def brought_check(user, puzzle: BroughtPuzzle, digits: object, *, auto: bool = False) -> CheckResult:
    """Which of the player's digits are wrong (never what belongs there), as on a daily."""
    digits = digits_clean(puzzle.givens, digits)
    with transaction.atomic():
        attempt = _lock(user, puzzle)
        if attempt.is_solved:
            raise AlreadySolved()
        _limit(
            f"brought-checks:{user.pk}",
            settings.AUTO_CHECKS_PER_MINUTE if auto else settings.CHECKS_PER_MINUTE,
            "checks",
        )
        wrong = [cell for cell, mine in enumerate(digits) if mine != "0" and mine != puzzle.solution[cell]]
        attempt.checks_used += 1
        attempt.save(update_fields=["checks_used", "updated_at"])
        return CheckResult(wrong, attempt.checks_used)


def brought_state(attempt: BroughtAttempt | None, givens: str) -> dict:
    """What the board needs to show the player's position (play/attempts.attempt_state's shape);
    never the solution."""
    solved = attempt is not None and attempt.is_solved
    hint_stage = 0
    if attempt is not None and not solved and attempt.hint_position == position_key(attempt.digits, attempt.centre):
        hint_stage = attempt.hint_stage
    return {
        "givens": givens,
        "digits": attempt.digits if attempt else "0" * 81,
        "corner": attempt.corner if attempt else [""] * 81,
        "centre": attempt.centre if attempt else [""] * 81,
        "colours": attempt.colours if attempt else [""] * 81,
        "version": attempt.version if attempt else 0,
        "saved_at": int(attempt.saved_at.timestamp() * 1000) if attempt and attempt.saved_at else None,
        "elapsed": tenths(attempt.active_seconds) if attempt else 0,
        "solved": solved,
        "solve_seconds": tenths(attempt.solve_seconds) if attempt and attempt.solve_seconds is not None else None,
        "hint_stage": hint_stage,
        "checks": attempt.checks_used if attempt else 0,
        "hints": attempt.hints_used if attempt else 0,
    }
