"""Hints that explain: the next step from a player's own position, revealed a stage at a time.

Stage 1 says where to look (one house), stage 2 names the technique, stage 3 gives the exact
placement or elimination and the engine's one-line explanation. Asking again on the same
position reveals the next stage; any change to the digits or centre notes starts again at 1.
A hint never carries more than its stage, and never the solution grid.
"""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass
from typing import Any, Optional

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from . import engine
from .engine.grid import UNITS, cell_name, unit_name
from .models import DailyPuzzle, Hint
from .attempts import AlreadySolved, attempt_lock, position_clean, position_key

LAST_STAGE = 3
RATE_WINDOW = datetime.timedelta(seconds=60)

# A person's name for each technique and one line on what it is. The engine names techniques
# for machines ('x-wing'); these are for the page. Every technique in engine.TECHNIQUES has one.
TECHNIQUE_WORDS: dict[str, tuple[str, str]] = {
    "naked-single": ("Naked single", "A cell whose row, column and box leave it one possible digit."),
    "hidden-single": ("Hidden single", "A digit that has only one possible cell left in a row, column or box."),
    "pointing": ("Pointing", "A digit confined to one line inside a box can't go elsewhere on that line."),
    "claiming": ("Claiming", "A digit confined to one box inside a line can't go elsewhere in that box."),
    "naked-pair": ("Naked pair", "Two cells of a house holding the same two digits: no other cell there can."),
    "hidden-pair": ("Hidden pair", "Two digits that fit only in the same two cells of a house: those cells hold nothing else."),
    "naked-triple": ("Naked triple", "Three cells of a house sharing three digits between them: no other cell there can hold them."),
    "hidden-triple": ("Hidden triple", "Three digits that fit only in the same three cells of a house: those cells hold nothing else."),
    "x-wing": ("X-wing", "A digit with two places in each of two lines, lined up: it leaves the crossing lines."),
    "xy-wing": ("XY-wing", "Three two-digit cells that force a digit out of any cell seeing both wings."),
    "naked-quad": ("Naked quad", "Four cells of a house sharing four digits between them: no other cell there can hold them."),
    "hidden-quad": ("Hidden quad", "Four digits that fit only in the same four cells of a house: those cells hold nothing else."),
    "swordfish": ("Swordfish", "An x-wing across three lines: a digit's places in three lines cover only three crossing lines."),
    "xyz-wing": ("XYZ-wing", "An xy-wing whose pivot holds three digits: cells seeing all three can't hold the shared one."),
    "simple-colouring": ("Simple colouring", "Colouring a digit's chain of only-two-places links to find cells that can't hold it."),
    "x-chain": ("X-chain", "A chain of one digit's strong and weak links: a cell seeing both ends can't hold it."),
    "xy-chain": ("XY-chain", "A chain of two-digit cells, each forcing the next: a cell seeing both ends can't hold the end digit."),
    "jellyfish": ("Jellyfish", "An x-wing across four lines: a digit's places in four lines cover only four crossing lines."),
    "trial-and-error": ("Trial and error", "No technique applies: try a candidate and see which one leads to a solution."),
}


def technique_title(name: str) -> str:
    """'x-wing' -> 'X-wing'; an unknown name is tidied up rather than refused."""
    words = TECHNIQUE_WORDS.get(name)
    return words[0] if words else name.replace("-", " ").capitalize()


def technique_about(name: str) -> str:
    """One line on what a technique is ('' for a name the table doesn't know)."""
    words = TECHNIQUE_WORDS.get(name)
    return words[1] if words else ""


class HintsTooFast(Exception):
    """The player asked for more hints than settings.HINTS_PER_MINUTE allows."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"That's a lot of hints: try again in {retry_after} seconds.")
        self.retry_after = retry_after


# Steps the engine returns when the player's own board is wrong, rather than a technique.
MISTAKES = ("wrong-digit", "missing-candidate")


@dataclass
class HintResult:
    """The hint shown, at its stage; None for `step` when the board is already full and right."""

    stage: int
    step: Optional[engine.Step]
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
                title = technique_title(step.technique)
                out["message"] = f"Look for a {title.lower()} in {unit_name(unit)}."
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


def _retry_after(user_id: int, now: datetime.datetime) -> Optional[int]:
    """Seconds until the player may ask again, or None when under settings.HINTS_PER_MINUTE."""
    recent = list(
        Hint.objects.filter(user_id=user_id, created__gt=now - RATE_WINDOW)
        .order_by("-created")
        .values_list("created", flat=True)[: settings.HINTS_PER_MINUTE]
    )
    if len(recent) < settings.HINTS_PER_MINUTE:
        return None
    # The oldest of the last HINTS_PER_MINUTE hints has to leave the window first.
    frees_at = recent[-1] + RATE_WINDOW
    return max(1, math.ceil((frees_at - now).total_seconds()))


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
        # The player's row is the lock for the rate limit: their hints on other dailies (other
        # attempt rows) are counted too, and two requests at once must not both get the last one.
        list(get_user_model().objects.select_for_update().filter(pk=attempt.user_id).values_list("pk"))
        wait = _retry_after(attempt.user_id, now)
        if wait is not None:
            raise HintsTooFast(wait)
        # Centre notes are the player's candidates (an empty one restricts nothing); corner
        # notes mark where a digit may go in a box, which is not a candidate list.
        step = engine.next_step(givens, digits, centre)
        if step is None:
            return HintResult(0, None, attempt.hints_used)
        key = position_key(digits, centre)
        same = attempt.hint_position == key and attempt.hint_stage >= 1
        stage = min(attempt.hint_stage + 1, LAST_STAGE) if same else 1
        Hint.objects.create(attempt=attempt, user_id=attempt.user_id, stage=stage, technique=step.technique, created=now)
        attempt.hints_used += 1
        attempt.hint_stage = stage
        attempt.hint_position = key
        attempt.save(update_fields=["hints_used", "hint_stage", "hint_position", "updated_at"])
        return HintResult(stage, step, attempt.hints_used)
