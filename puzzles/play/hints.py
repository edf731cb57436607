"""Assists: hints that explain the next step from a player's own position, revealed a stage at
a time, and checks that say which of the player's digits are wrong.

Stage 1 says where to look (one house), stage 2 names the technique, stage 3 gives the exact
placement or elimination and the engine's one-line explanation. Asking again on the same
position reveals the next stage; any change to the digits or centre notes starts again at 1.
A hint never carries more than its stage, and never the solution grid; a check names the wrong
cells, never the digits that belong in them.

Either one marks the solve as assisted, so it is not ranked, and both count against one limit
per player: settings.HINTS_PER_MINUTE hints and checks together. Each hint shown and each check
is also an event in the attempt's record of play (playrecord.py).
"""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from .. import engine
from ..engine import technique_about, technique_phrase, technique_title
from ..engine.grid import UNITS, cell_name, unit_name
from ..models import Check, DailyPuzzle, Hint, PlayEvent
from ..record_of_play.events import play_log
from .attempts import AlreadySolved, attempt_lock
from .positions import position_clean, position_key

LAST_STAGE = 3
RATE_WINDOW = datetime.timedelta(seconds=60)


class HintsTooFast(Exception):
    """The player asked for more hints and checks (together) than settings.HINTS_PER_MINUTE allows."""

    def __init__(self, retry_after: int, asked: str = "hints") -> None:
        super().__init__(f"That's a lot of {asked}: try again in {retry_after} seconds.")
        self.retry_after = retry_after


# Steps the engine returns when the player's own board is wrong, rather than a technique.
MISTAKES = ("wrong-digit", "missing-candidate")


@dataclass
class HintResult:
    """The hint shown, at its stage; None for `step` when the board is already full and right."""

    stage: int
    step: engine.Step | None
    hints_used: int

    def to_dict(self) -> dict[str, Any]:
        """The JSON answer: only what the stage reveals (see the module's docstring)."""
        step = self.step
        if step is None:
            return {
                "stage": 0,
                "kind": "complete",
                "final": True,
                "message": "Every cell is filled in correctly: submit your grid.",
                "hints_used": self.hints_used,
            }
        kind = step.technique if step.technique in MISTAKES else "step"
        unit = step.houses[0]
        out: dict[str, Any] = {
            "stage": self.stage,
            "kind": kind,
            "final": self.stage >= LAST_STAGE,
            "unit": {"index": unit, "name": unit_name(unit), "cells": list(UNITS[unit])},
            "hints_used": self.hints_used,
        }
        if self.stage == 1:
            out["message"] = _where_to_look(kind, unit)
            out["highlight"] = list(UNITS[unit])
            return out
        if kind == "step":
            out["technique"] = {
                "name": step.technique,
                "title": technique_title(step.technique),
                "about": technique_about(step.technique),
            }
        else:
            # A mistake's stage 2 is the cell; the other wrong cells wait for their own hints.
            cell = step.cells[0]
            out["cell"] = {"index": cell, "name": cell_name(cell)}
        if self.stage == 2:
            if kind == "step":
                out["message"] = f"Look for {technique_phrase(step.technique)} in {unit_name(unit)}."
                out["highlight"] = list(UNITS[unit])
            else:
                out["message"] = _which_cell(kind, step.cells[0])
                out["highlight"] = [step.cells[0]]
            return out
        full = step.to_dict()
        if kind == "wrong-digit":
            first = step.cells[0]
            out["cells"] = full["cells"][:1]
            out["placements"] = []
            out["eliminations"] = [e for e in full["eliminations"] if e["cell"] == first]
            out["highlight"] = [first]
        else:
            out["cells"] = full["cells"]
            out["placements"] = full["placements"]
            out["eliminations"] = full["eliminations"]
            out["highlight"] = list(step.cells)
        out["explanation"] = step.explanation
        out["message"] = step.explanation
        return out


def _where_to_look(kind: str, unit: int) -> str:
    if kind == "wrong-digit":
        return f"One of your digits is wrong: look at {unit_name(unit)}."
    if kind == "missing-candidate":
        return f"One of your centre notes leaves out the digit its cell needs: look at {unit_name(unit)}."
    return f"There is a step to find in {unit_name(unit)}."


def _which_cell(kind: str, cell: int) -> str:
    if kind == "wrong-digit":
        return f"The digit in {cell_name(cell)} is wrong."
    return f"Your notes for {cell_name(cell)} leave out the digit it needs."


def _retry_after(user_id: int, now: datetime.datetime) -> int | None:
    """Seconds until the player may ask again, or None when under settings.HINTS_PER_MINUTE."""
    limit, since = settings.HINTS_PER_MINUTE, now - RATE_WINDOW
    hints = Hint.objects.filter(user_id=user_id, created__gt=since)
    checks = Check.objects.filter(attempt__user_id=user_id, created__gt=since)
    recent: list[datetime.datetime] = []
    for rows in (hints, checks):  # the newest of each, then the newest of both
        recent += rows.order_by("-created").values_list("created", flat=True)[:limit]
    recent = sorted(recent, reverse=True)[:limit]
    if len(recent) < limit:
        return None
    # The oldest of the last HINTS_PER_MINUTE hints and checks has to leave the window first.
    frees_at = recent[-1] + RATE_WINDOW
    return max(1, math.ceil((frees_at - now).total_seconds()))


def _assists_allow(user_id: int, now: datetime.datetime, asked: str) -> None:
    """Raise HintsTooFast when the player is at the limit; call it in the transaction that
    records the hint or check.

    The player's row is the lock for the limit: their assists on other dailies (other attempt
    rows) are counted too, and two requests at once must not both get the last one.
    """
    list(get_user_model().objects.select_for_update().filter(pk=user_id).values_list("pk"))
    wait = _retry_after(user_id, now)
    if wait is not None:
        raise HintsTooFast(wait, asked)


def hint_request(user, daily: DailyPuzzle, digits: object, corner: object = None, centre: object = None) -> HintResult:
    """The next hint stage for the player's position; the position itself is not saved.

    Raises BadPosition for a malformed position, AlreadySolved for a solved attempt and
    HintsTooFast over the rate limit; in each case nothing is recorded. A full, correct board
    gives a result with no step, and records nothing either.
    """
    with transaction.atomic():
        # Locked: two hint requests at once must not both read stage 1 and both show it.
        attempt = attempt_lock(user, daily)
        if attempt.is_solved:
            raise AlreadySolved()
        givens = daily.puzzle.givens
        digits, _, centre = position_clean(givens, digits, corner, centre)
        now = timezone.now()
        _assists_allow(attempt.user_id, now, "hints")
        # Centre notes are the player's candidates (an empty one restricts nothing); corner
        # notes mark where a digit may go in a box, which is not a candidate list.
        step = engine.next_step(givens, digits, centre)
        if step is None:
            return HintResult(0, None, attempt.hints_used)
        key = position_key(digits, centre)
        same = attempt.hint_position == key and attempt.hint_stage >= 1
        stage = min(attempt.hint_stage + 1, LAST_STAGE) if same else 1
        Hint.objects.create(
            attempt=attempt, user_id=attempt.user_id, stage=stage, technique=step.technique, created=now
        )
        attempt.hints_used += 1
        attempt.hint_stage = stage
        attempt.hint_position = key
        attempt.save(update_fields=["hints_used", "hint_stage", "hint_position", "updated_at"])
        play_log(attempt, PlayEvent.Kind.HINT, now)
        return HintResult(stage, step, attempt.hints_used)


@dataclass(frozen=True)
class CheckResult:
    wrong: list[int]  # the cells (0-80) whose entered digit is not the solution's
    checks_used: int  # on this attempt, this check included


def check_request(user, daily: DailyPuzzle, digits: object) -> CheckResult:
    """Which of the player's entered digits are wrong; the digits sent are not saved.

    Raises BadPosition for malformed digits, AlreadySolved for a solved attempt and HintsTooFast
    over the rate limit; in each case nothing is recorded. Otherwise the check is counted on the
    attempt (started if there is none), which marks a later solve as assisted, even when nothing
    was wrong. Givens are never wrong: a player's digits on them are not theirs (position_clean).
    """
    with transaction.atomic():
        attempt = attempt_lock(user, daily)  # locked: two checks at once are both counted
        if attempt.is_solved:
            raise AlreadySolved()
        digits, _, _ = position_clean(daily.puzzle.givens, digits)
        now = timezone.now()
        _assists_allow(attempt.user_id, now, "checks")
        solution = daily.puzzle.solution
        wrong = [cell for cell, mine in enumerate(digits) if mine != "0" and mine != solution[cell]]
        Check.objects.create(attempt=attempt, wrong=len(wrong), created=now)
        attempt.checks_used += 1
        attempt.save(update_fields=["checks_used", "updated_at"])
        play_log(attempt, PlayEvent.Kind.CHECK, now)
        return CheckResult(wrong, attempt.checks_used)
