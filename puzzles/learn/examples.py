"""The worked examples: one position per technique, found by the engine and kept in examples.json.

Each example is a position of a real solve (the digits placed and every empty cell's candidates,
as a player with full pencil marks would have them) and the step the engine takes from it. The
file is written by `manage.py find_examples` (finding.py) and committed; pages only read it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ..engine import Step
from .finding import Found

EXAMPLES_FILE = Path(__file__).with_name("examples.json")


@dataclass(frozen=True)
class Example:
    """A position (81 digits, 0 for empty; 81 candidate masks, bit d - 1 for digit d) and its step."""

    digits: tuple[int, ...]
    cands: tuple[int, ...]
    step: Step
    givens: str
    source: str
    # The technique the engine takes first in this position, when the example's is not the
    # easiest step there (finding.search_beside); None when it is.
    first: str | None = None


def step_to_json(step: Step) -> dict[str, Any]:
    return {
        "technique": step.technique,
        "houses": list(step.houses),
        "cells": list(step.cells),
        "digits": list(step.digits),
        "placements": [list(p) for p in step.placements],
        "eliminations": [list(e) for e in step.eliminations],
        "explanation": step.explanation,
        "difficulty": step.difficulty,
    }


def step_from_json(data: dict[str, Any]) -> Step:
    return Step(
        technique=data["technique"],
        houses=tuple(data["houses"]),
        cells=tuple(data["cells"]),
        digits=tuple(data["digits"]),
        placements=tuple((c, d) for c, d in data["placements"]),
        eliminations=tuple((c, d) for c, d in data["eliminations"]),
        explanation=data["explanation"],
        difficulty=data["difficulty"],
    )


def to_json(found: Found) -> dict[str, Any]:
    """One example as the file keeps it."""
    return {
        "source": found.source,
        "givens": found.givens,
        "digits": "".join(map(str, found.moment.digits)),
        "cands": list(found.moment.cands),
        "step": step_to_json(found.moment.step),
        **({"first": found.first} if found.first else {}),
    }


def from_json(data: dict[str, Any]) -> Example:
    return Example(
        digits=tuple(int(d) for d in data["digits"]),
        cands=tuple(data["cands"]),
        step=step_from_json(data["step"]),
        givens=data["givens"],
        source=data["source"],
        first=data.get("first"),
    )


def write_examples(found: dict[str, Found], order: list[str], path: Path = EXAMPLES_FILE) -> None:
    """Write the examples in the catalogue's order, one technique a key."""
    # One line a technique, so a new search shows in a diff as the techniques it changed.
    lines = [f"{json.dumps(name)}: {json.dumps(to_json(found[name]))}" for name in order if name in found]
    path.write_text("{\n" + ",\n".join(lines) + "\n}\n")


@cache
def examples() -> dict[str, Example]:
    """Every technique's example, read once from the committed file."""
    if not EXAMPLES_FILE.exists():
        return {}
    return {name: from_json(data) for name, data in json.loads(EXAMPLES_FILE.read_text()).items()}
