"""Assists: hints that explain the next step from a player's own position, revealed a stage at
a time, and checks that say which of the player's digits are wrong.

Asking again on the same position reveals the next stage of the same hint (what each stage shows
is hint_answers.py's); any change to the digits or centre notes starts a new hint at stage 1. A
hint never carries the solution grid; a check names the wrong cells, never the digits that belong
in them.

Showing mistakes (the board's show_mistakes setting, NYT's auto-check) is checks too: the board
asks as each digit is placed (an "auto" check), and the answer is a check's, counted like one.

Either one marks the solve as assisted, so it is not ranked. Each is limited per player, apart:
settings.HINTS_PER_MINUTE hints (a hint is its first stage; its later stages are free) and
settings.CHECKS_PER_MINUTE checks; an auto check, which comes with each digit placed, may be one
of settings.AUTO_CHECKS_PER_MINUTE checks of either kind. So that free stages cannot be asked for
without end, a minute also holds at most LAST_STAGE requests for each hint allowed (showing the
last stage again is a request). attempt.hints_used counts hints, not stages. Each hint stage shown
and each check is also an event in the attempt's record of play (record_of_play/events.py).
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from .. import engine
from ..models import Check, DailyPuzzle, Hint, PlayEvent
from ..record_of_play.events import play_log
from .attempts import AlreadySolved, attempt_lock
from .hint_answers import LAST_STAGE, MISTAKES, HintResult
from .positions import position_clean, position_key

__all__ = ["LAST_STAGE", "MISTAKES", "CheckResult", "HintResult", "HintsTooFast", "check_request", "hint_request"]

RATE_WINDOW = datetime.timedelta(seconds=60)


class HintsTooFast(Exception):
    """The player asked for more hints, or more checks, than a minute allows; the message says
    which, and when to try again."""

    def __init__(self, retry_after: int, what: str = "hints") -> None:
        super().__init__(f"That's a lot of {what} in a minute: try again in {retry_after} seconds.")
        self.retry_after = retry_after


def _wait(times: Iterable[datetime.datetime], limit: int, now: datetime.datetime) -> int | None:
    """Seconds until one of the `limit` newest `times` (newest first) leaves the minute, or None
    when there are fewer than `limit` of them."""
    recent = list(times)[:limit]
    if len(recent) < limit:
        return None
    # The oldest of the last `limit` has to leave the window first.
    frees_at = recent[-1] + RATE_WINDOW
    return max(1, math.ceil((frees_at - now).total_seconds()))


def _lock_player(user_id: int) -> None:
    """The player's row is the lock for their limits: their assists on other dailies (other
    attempt rows) are counted too, and two requests at once must not both get the last one.
    Call it in the transaction that records the hint or check."""
    list(get_user_model().objects.select_for_update().filter(pk=user_id).values_list("pk"))


def _limit_hints(user_id: int, now: datetime.datetime, new_hint: bool) -> None:
    """Raise HintsTooFast when the player may not have this hint request now."""
    _lock_player(user_id)
    limit = settings.HINTS_PER_MINUTE
    shown = Hint.objects.filter(user_id=user_id, created__gt=now - RATE_WINDOW).order_by("-created")
    if new_hint:
        wait = _wait(shown.filter(stage=1).values_list("created", flat=True)[:limit], limit, now)
        if wait is not None:
            raise HintsTooFast(wait, "hints")
    requests = limit * LAST_STAGE
    wait = _wait(shown.values_list("created", flat=True)[:requests], requests, now)
    if wait is not None:
        raise HintsTooFast(wait, "hint requests")


def _limit_checks(user_id: int, now: datetime.datetime, limit: int) -> None:
    """Raise HintsTooFast when the player has made `limit` checks in the minute, of either kind."""
    _lock_player(user_id)
    checks = Check.objects.filter(attempt__user_id=user_id, created__gt=now - RATE_WINDOW).order_by("-created")
    wait = _wait(checks.values_list("created", flat=True)[:limit], limit, now)
    if wait is not None:
        raise HintsTooFast(wait, "checks")


def hint_request(user, daily: DailyPuzzle, digits: object, corner: object = None, centre: object = None) -> HintResult:
    """The next hint stage for the player's position; the position itself is not saved.

    Raises BadPosition for a malformed position, AlreadySolved for a solved attempt and
    HintsTooFast over a limit; in each case nothing is recorded. A full, correct board gives a
    result with no step, and records nothing either.
    """
    with transaction.atomic():
        # Locked: two hint requests at once must not both read stage 1 and both show it.
        attempt = attempt_lock(user, daily)
        if attempt.is_solved:
            raise AlreadySolved()
        givens = daily.puzzle.givens
        digits, _, centre = position_clean(givens, digits, corner, centre)
        now = timezone.now()
        key = position_key(digits, centre)
        same = attempt.hint_position == key and attempt.hint_stage >= 1
        stage = min(attempt.hint_stage + 1, LAST_STAGE) if same else 1
        _limit_hints(attempt.user_id, now, new_hint=stage == 1)
        # Centre notes are the player's candidates (an empty one restricts nothing); corner
        # notes mark where a digit may go in a box, which is not a candidate list.
        step = engine.next_step(givens, [int(d) for d in digits], centre)
        if step is None:
            return HintResult(0, None, attempt.hints_used)
        Hint.objects.create(
            attempt=attempt, user_id=attempt.user_id, stage=stage, technique=step.technique, created=now
        )
        if stage == 1:
            attempt.hints_used += 1
        attempt.hint_stage = stage
        attempt.hint_position = key
        attempt.save(update_fields=["hints_used", "hint_stage", "hint_position", "updated_at"])
        play_log(attempt, PlayEvent.Kind.HINT, now)
        return HintResult(stage, step, attempt.hints_used, givens, digits, centre)


@dataclass(frozen=True)
class CheckResult:
    wrong: list[int]  # the cells (0-80) whose entered digit is not the solution's
    checks_used: int  # on this attempt, this check included


def check_request(user, daily: DailyPuzzle, digits: object, *, auto: bool = False) -> CheckResult:
    """Which of the player's entered digits are wrong; the digits sent are not saved. `auto`: the
    board asks as a digit is placed (showing mistakes), not for a press of Check.

    Raises BadPosition for malformed digits, AlreadySolved for a solved attempt and HintsTooFast
    over settings.CHECKS_PER_MINUTE (AUTO_CHECKS_PER_MINUTE for an auto check); in each case
    nothing is recorded. Otherwise the check is counted on the attempt (started if there is none),
    which marks a later solve as assisted, even when nothing was wrong. Givens are never wrong: a
    player's digits on them are not theirs (position_clean).
    """
    with transaction.atomic():
        attempt = attempt_lock(user, daily)  # locked: two checks at once are both counted
        if attempt.is_solved:
            raise AlreadySolved()
        digits, _, _ = position_clean(daily.puzzle.givens, digits)
        now = timezone.now()
        _limit_checks(attempt.user_id, now, settings.AUTO_CHECKS_PER_MINUTE if auto else settings.CHECKS_PER_MINUTE)
        solution = daily.puzzle.solution
        wrong = [cell for cell, mine in enumerate(digits) if mine != "0" and mine != solution[cell]]
        Check.objects.create(attempt=attempt, wrong=len(wrong), created=now)
        attempt.checks_used += 1
        attempt.save(update_fields=["checks_used", "updated_at"])
        play_log(attempt, PlayEvent.Kind.CHECK, now)
        return CheckResult(wrong, attempt.checks_used)
