"""What one stage of a hint shows: the JSON answer, in people's words.

Stage 1 says where to look (one house), stage 2 names the technique (or, for a mistake, the
cell), stage 3 gives the step itself and ends in something the player can do with one press:
the placement the step leads to where there is one, else the notes it leaves (written into the
cells that have none), or for a mistake the way to put it right. Wherever the cells a stage is
about hold no notes of the player's, it carries their candidates, for the board to draw while the
hint is open. Candidates come from the digits on the board and the player's own notes, never from
the solution; a hint never carries more than its stage.

Cells are named as people read them, "row 5, column 3", with the short form taught at the first
mention of a hint ("row 5, column 3 (r5c3)") and used after it; "house" is said plainly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse

from .. import engine
from ..engine import (
    TECHNIQUE_BY_NAME,
    UNITS,
    cell_name,
    spoken,
    technique_about,
    technique_phrase,
    technique_title,
    unit_name,
)

LAST_STAGE = 3

# Steps the engine returns when the player's own board is wrong, rather than a technique.
MISTAKES = ("wrong-digit", "missing-candidate")

# Techniques read from the candidates of their first house as a whole (where a digit can go in
# it): the hint draws them in every empty cell of that house, not only in the step's own cells.
HOUSE_TECHNIQUES = ("hidden-", "direct-", "pointing", "claiming")

CELL = re.compile(r"\br([1-9])c([1-9])\b")
HOUSES = (re.compile(r"\bhouses\b"), "rows, columns or boxes"), (re.compile(r"\bhouse\b"), "row, column or box")


def peoples_words(text: str, taught: set[str] | None = None) -> str:
    """`text` with one cell named in full and the short form after it, "row 1, column 2 (r1c2)",
    unless `taught` (the short forms already met in this hint, updated) says that was done; and
    "house" said plainly. The cell named in full is the first that stands in the sentence itself:
    one inside parentheses, or followed by its own, would nest them."""
    taught = set() if taught is None else taught
    out, at = [], 0
    for match in CELL.finditer(text):
        inside = text.count("(", 0, match.start()) > text.count(")", 0, match.start())
        if taught or inside or text.startswith(" (", match.end()):
            continue
        short = match.group(0)
        taught.add(short)
        out += [text[at : match.start()], f"row {match.group(1)}, column {match.group(2)} ({short})"]
        at = match.end()
    text = "".join(out) + text[at:]
    if text.startswith("row "):  # a sentence that opens with the cell
        text = "R" + text[1:]
    for pattern, plain in HOUSES:
        text = pattern.sub(plain, text)
    return text


def technique_guide(name: str) -> str | None:
    """The address of the guide's page that explains a technique, for the hint's "How this
    technique works" link; None for a name the guide has no page for."""
    if name not in TECHNIQUE_BY_NAME:
        return None
    return reverse("puzzles:learn-technique", args=[name])


@dataclass
class HintResult:
    """The hint shown, at its stage; None for `step` when the board is already full and right.

    `digits` and `centre` are the player's position the step was found on (digits with the
    givens, and their centre notes), from which the candidates and the action are worked out.
    """

    stage: int
    step: engine.Step | None
    hints_used: int
    givens: str = ""
    digits: str = "0" * 81
    centre: list[str] = field(default_factory=lambda: [""] * 81)

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
                "about": peoples_words(technique_about(step.technique)),
            }
            guide = technique_guide(step.technique)
            if guide:
                out["technique"]["guide"] = guide
        else:
            # A mistake's stage 2 is the cell; the other wrong cells wait for their own hints.
            cell = step.cells[0]
            out["cell"] = {"index": cell, "name": cell_name(cell)}
        if self.stage == 2:
            if kind == "step":
                out["message"] = peoples_words(f"Look for {technique_phrase(step.technique)} in {unit_name(unit)}.")
                out["highlight"] = list(UNITS[unit])
            else:
                out["message"] = peoples_words(_which_cell(kind, step.cells[0]))
                out["highlight"] = [step.cells[0]]
            return out
        taught: set[str] = set()
        full = step.to_dict()
        if kind == "wrong-digit":
            first = step.cells[0]
            out["cells"] = full["cells"][:1]
            out["placements"] = []
            out["eliminations"] = [e for e in full["eliminations"] if e["cell"] == first]
            out["highlight"] = [first]
            out["action"] = {
                "kind": "erase",
                "cell": first,
                "label": f"Erase the {self._digit(first)} in {spoken(first)}",
            }
        elif kind == "missing-candidate":
            (cell,) = step.cells
            out["cells"] = full["cells"]
            out["placements"] = []
            out["eliminations"] = []
            out["missing"] = {"cell": cell, "digits": list(step.digits)}
            out["highlight"] = [cell]
            notes = "".join(sorted(set(self.centre[cell]) | {str(d) for d in step.digits}))
            label = "Put it back" if len(step.digits) == 1 else "Put them back"
            out["action"] = {"kind": "notes", "label": label, "notes": [{"cell": cell, "digits": notes}]}
        else:
            out["cells"] = full["cells"]
            out["placements"] = full["placements"]
            out["eliminations"] = full["eliminations"]
            out["highlight"] = list(step.cells)
            self._add_candidates(out, self._cells_of(step))
            out["action"] = self._action(step, out, taught)
        out["explanation"] = peoples_words(step.explanation, taught)
        out["message"] = out["explanation"]
        if "then" in out:  # after the explanation, as the player reads them
            out["then"] = peoples_words(out["then"], taught)
        return out

    # --- what a step's last stage ends in ---------------------------------------------------

    def _digit(self, cell: int) -> int:
        return int(self.digits[cell])

    def _has_notes(self, cell: int) -> bool:
        return bool(self.centre[cell])

    def _cells_of(self, step: engine.Step) -> list[int]:
        """The cells a step is about: its own, those it places in or removes from, and for a
        technique read from a house's candidates, that house's."""
        cells = list(step.cells) + [c for c, _ in step.placements] + [c for c, _ in step.eliminations]
        if step.technique.startswith(HOUSE_TECHNIQUES):
            cells += UNITS[step.houses[0]]
        return list(dict.fromkeys(cells))

    def _add_candidates(self, out: dict[str, Any], cells: tuple[int, ...] | list[int]) -> None:
        """The candidates of those of `cells` that are empty and hold no notes, for the board to draw."""
        bare = [c for c in cells if self.givens[c] == "0" and self.digits[c] == "0" and not self._has_notes(c)]
        if not bare:
            return
        cands = engine.position_candidates(self.givens, [int(d) for d in self.digits], self.centre)
        out["candidates"] = [{"cell": c, "digits": list(cands[c])} for c in sorted(bare)]

    def _action(self, step: engine.Step, out: dict[str, Any], taught: set[str]) -> dict[str, Any]:
        """The one press a step ends in: the placement it leads to, else the notes it leaves."""
        single = engine.single_after(self.givens, [int(d) for d in self.digits], self.centre, step)
        if single is not None:
            ((cell, digit),) = single.placements
            if not step.placements:
                out["then"] = single.explanation
            return {"kind": "place", "cell": cell, "digit": digit, "label": f"Place {digit} in {spoken(cell)}"}
        removed: dict[int, set[int]] = {}
        for cell, digit in step.eliminations:
            removed.setdefault(cell, set()).add(digit)
        drawn = {entry["cell"]: entry["digits"] for entry in out.get("candidates", [])}
        notes = []
        for cell in sorted(set(drawn) | set(removed)):
            mine = drawn[cell] if cell in drawn else [int(d) for d in self.centre[cell]]
            keep = "".join(str(d) for d in mine if d not in removed.get(cell, set()))
            notes.append({"cell": cell, "digits": keep})
        label = "Fill these notes" if drawn else "Remove these notes"
        return {"kind": "notes", "label": label, "notes": notes}


def _where_to_look(kind: str, unit: int) -> str:
    if kind == "wrong-digit":
        return f"One of your digits is wrong: look at {unit_name(unit)}."
    if kind == "missing-candidate":
        return f"A note is missing in {unit_name(unit)}: a cell's centre notes leave out digits nothing rules out."
    return f"There is a step to find in {unit_name(unit)}."


def _which_cell(kind: str, cell: int) -> str:
    if kind == "wrong-digit":
        return f"The digit in {cell_name(cell)} is wrong."
    return f"Your notes for {cell_name(cell)} leave out digits that nothing on the board rules out there."
