"""Positions for practice tests, made by walk(): for each technique, a puzzle of top-1465 (its
line, counting from 0) and the index of a position of its walk where that technique is the step.

Found once by walking top-1465 from the start (the first few of each technique kept); the tests
check each again, so a change to the engine that moves a step shows up as a failing test. With
the grouped patterns and the forcing chain, a hidden quad, a jellyfish and simple colouring are
each the step at one position only in all of top-1465 (a full walk of every puzzle), so their
second positions come from the Sukaku Explainer sets in bench/: a line past top-1465's last
(1464) counts on into se_rated.txt, then se_holdout.txt, then se_fresh.txt. With the unique
loop, top-1465's one jellyfish position became a unique loop, so both of the jellyfish's come
from se_rated.txt. With the forcing chains rated as Sukaku Explainer rates them, the rater takes
other extreme steps and the walks after them moved: each position that no longer showed its
technique was found again the same way (the next one of the technique in top-1465 not already
held), and top-1465 now has a simple colouring position of its own. With ALS-XZ taken only as a cell
and a set of three or four cells (Sukaku Explainer's wings), searched before the BUG+1, the walks
moved again, and each position that moved was found again the same way: the first position of its
technique in top-1465, in order of puzzle and step, that the other table does not hold.
"""

from __future__ import annotations

from functools import cache

from bench.harness import BENCH
from puzzles.engine import Moment, as_grid, solve, walk

from .test_rater import top1465

WHERE: dict[str, tuple[int, int]] = {
    "als-xz": (0, 43),
    "bug-plus-one": (284, 76),
    "claiming": (0, 49),
    "direct-hidden-pair": (0, 1),
    "direct-hidden-triple": (8, 25),
    "direct-pointing": (4, 8),
    "empty-rectangle": (35, 41),
    "forcing-chain": (0, 26),
    "grouped-skyscraper": (23, 10),
    "grouped-two-string-kite": (202, 63),
    "grouped-x-chain": (35, 19),
    "hidden-pair": (0, 10),
    "hidden-quad": (509, 8),
    "hidden-single": (0, 0),
    "hidden-triple": (6, 54),
    "jellyfish": (1681, 18),
    "naked-pair": (0, 14),
    "naked-quad": (29, 44),
    "naked-single": (0, 61),
    "naked-triple": (35, 39),
    "nishio": (0, 29),
    "pointing": (0, 3),
    "simple-colouring": (751, 59),
    "skyscraper": (0, 17),
    "swordfish": (51, 13),
    "turbot-fish": (61, 32),
    "two-string-kite": (12, 17),
    "unique-rectangle-1": (0, 18),
    "unique-rectangle-2": (38, 20),
    "unique-rectangle-3": (70, 30),
    "unique-rectangle-4": (11, 20),
    "unique-loop": (346, 35),
    "unit-forcing-chain": (0, 24),
    "w-wing": (47, 56),
    "x-chain": (35, 51),
    "x-wing": (35, 69),
    "xy-chain": (11, 54),
    "xy-wing": (15, 25),
    "xyz-wing": (33, 30),
}

# A second position for each technique where top-1465 has one: the next one a page serves.
SECOND: dict[str, tuple[int, int]] = {
    "als-xz": (6, 17),
    "bug-plus-one": (304, 47),
    "claiming": (0, 50),
    "direct-hidden-pair": (0, 2),
    "direct-hidden-triple": (8, 27),
    "direct-pointing": (5, 8),
    "empty-rectangle": (61, 20),
    "forcing-chain": (2, 41),
    "grouped-skyscraper": (37, 20),
    "grouped-two-string-kite": (216, 16),
    "grouped-x-chain": (37, 21),
    "hidden-pair": (0, 12),
    "hidden-quad": (2538, 19),
    "hidden-single": (0, 19),
    "hidden-triple": (10, 16),
    "jellyfish": (1682, 26),
    "naked-pair": (0, 16),
    "naked-quad": (214, 45),
    "naked-single": (0, 65),
    "naked-triple": (13, 27),
    "nishio": (0, 30),
    "pointing": (0, 4),
    "simple-colouring": (1734, 29),
    "skyscraper": (11, 18),
    "swordfish": (88, 1),
    "turbot-fish": (76, 44),
    "two-string-kite": (20, 15),
    "unique-rectangle-1": (12, 18),
    "unique-rectangle-2": (42, 22),
    "unique-rectangle-3": (196, 6),
    "unique-rectangle-4": (15, 23),
    "unique-loop": (385, 16),
    "unit-forcing-chain": (0, 25),
    "w-wing": (64, 25),
    "x-chain": (66, 59),
    "x-wing": (64, 53),
    "xy-chain": (11, 56),
    "xy-wing": (41, 49),
    "xyz-wing": (37, 79),
}


SE_SETS = ("se_rated.txt", "se_holdout.txt", "se_fresh.txt")


@cache
def _lines() -> list[str]:
    """top-1465's puzzles, then the Sukaku Explainer sets' (their first field, comments skipped)."""
    lines = top1465(1465)
    assert len(lines) == 1465
    for name in SE_SETS:
        text = (BENCH / name).read_text()
        lines += [line.split()[0] for line in text.splitlines() if line.strip() and not line.startswith("#")]
    return lines


def practice_position(technique: str, second: bool = False) -> tuple[Moment, list[int], str]:
    """The moment where `technique` is the step, the puzzle's solution, and its givens (with
    `second`, from SECOND)."""
    line, index = (SECOND if second else WHERE)[technique]
    givens = _lines()[line]
    solution = solve(as_grid(givens))
    assert solution is not None
    for i, moment in enumerate(walk(givens, solution)):
        if i == index:
            return moment, solution, givens.replace(".", "0")
    raise AssertionError(f"the walk of puzzle {line} is shorter than {index}")
