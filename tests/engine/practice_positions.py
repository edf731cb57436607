"""Positions for practice tests, made by walk(): for each technique, a puzzle of top-1465 (its
line, counting from 0) and the index of a position of its walk where that technique is the step.

Found once by walking top-1465 from the start (the first few of each technique kept); the tests
check each again, so a change to the engine that moves a step shows up as a failing test.
"""

from __future__ import annotations

from functools import cache

from puzzles.engine import Moment, as_grid, solve, walk

from .test_rater import top1465

WHERE: dict[str, tuple[int, int]] = {
    "als-xz": (0, 42),
    "bug-plus-one": (216, 68),
    "claiming": (0, 48),
    "direct-hidden-pair": (0, 1),
    "direct-hidden-triple": (8, 25),
    "direct-pointing": (4, 8),
    "empty-rectangle": (35, 22),
    "hidden-pair": (0, 10),
    "hidden-quad": (509, 14),
    "hidden-single": (0, 0),
    "hidden-triple": (6, 38),
    "jellyfish": (474, 30),
    "naked-pair": (0, 14),
    "naked-quad": (6, 65),
    "naked-single": (0, 60),
    "naked-triple": (12, 27),
    "nishio": (0, 24),
    "pointing": (0, 3),
    "simple-colouring": (196, 52),
    "skyscraper": (0, 17),
    "swordfish": (51, 13),
    "turbot-fish": (47, 37),
    "two-string-kite": (12, 17),
    "unique-rectangle-1": (0, 18),
    "unique-rectangle-2": (38, 20),
    "unique-rectangle-3": (70, 30),
    "unique-rectangle-4": (11, 20),
    "unit-forcing-chain": (1, 24),
    "w-wing": (47, 49),
    "x-chain": (23, 41),
    "x-wing": (47, 47),
    "xy-chain": (11, 54),
    "xy-wing": (15, 25),
    "xyz-wing": (37, 73),
}


@cache
def _lines() -> list[str]:
    return top1465(1465)


def practice_position(technique: str) -> tuple[Moment, list[int], str]:
    """The moment where `technique` is the step, the puzzle's solution, and its givens."""
    line, index = WHERE[technique]
    givens = _lines()[line]
    solution = solve(as_grid(givens))
    assert solution is not None
    for i, moment in enumerate(walk(givens, solution)):
        if i == index:
            return moment, solution, givens
    raise AssertionError(f"the walk of puzzle {line} is shorter than {index}")
