"""Importing puzzles from a text file: one grid a line, each checked, rated and stored on its own.

A file of puzzles from elsewhere is trusted for nothing: every grid is parsed, must have exactly
one solution, and is rated by our own rater, so an imported puzzle lands in the tier our players
would expect. A bad line never costs the good ones.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .. import engine
from ..models import Puzzle
from ..pipeline import pools
from .dashboard import IMPORTED


@dataclass
class ImportReport:
    stored: int = 0
    duplicates: int = 0
    failures: list[tuple[int, str]] = field(default_factory=list)  # (line number, reason)

    @property
    def grids(self) -> int:
        """How many lines held a grid (anything that was not blank or a comment)."""
        return self.stored + self.duplicates + len(self.failures)


def grid_text(line: str) -> str:
    """A line without its comment (# to the end) and surrounding blanks; '' when nothing is left."""
    return line.split("#", 1)[0].strip()


def puzzle_import(text: str) -> bool:
    """Check, rate and store one grid; False when the same puzzle is already stored.

    Raises engine.InvalidGrid, with a reason a person understands, for a grid that is malformed,
    has no solution or more than one, or has no empty cell.
    """
    grid = engine.parse(text)
    # A duplicate is common when files are imported twice; catching it first skips the rating.
    if Puzzle.objects.filter(givens=engine.format_grid(grid)).exists():
        return False
    if 0 not in grid:
        raise engine.InvalidGrid("every cell is filled in, so there is nothing to solve")
    solutions = engine.count_solutions(grid, limit=2)
    if solutions == 0:
        raise engine.InvalidGrid("no solution")
    if solutions > 1:
        # This also covers grids under 17 clues, which the database would refuse outright.
        raise engine.InvalidGrid("more than one solution")
    solution = engine.solve(grid)
    assert solution is not None  # count_solutions found exactly one
    made = engine.Generated(
        givens=grid,
        solution=solution,
        rating=engine.rate(grid),
        filler=IMPORTED,
        symmetry=engine.symmetry_of(grid),
        tries=0,
        milliseconds=0.0,
    )
    # puzzle_store saves in its own transaction and answers None when another request stored
    # the same givens in the meantime.
    return pools.puzzle_store(made) is not None


def puzzles_import(lines: Iterable[str]) -> ImportReport:
    """Store every valid, unique grid among `lines` (one a line); report the others by line number.

    Blank lines and comments (# to the end of a line) are skipped. Each puzzle is stored in its
    own transaction, so the good lines are kept whatever happens to the bad ones.
    """
    report = ImportReport()
    for number, line in enumerate(lines, start=1):
        text = grid_text(line)
        if not text:
            continue
        try:
            stored = puzzle_import(text)
        except engine.InvalidGrid as exc:
            report.failures.append((number, str(exc)))
            continue
        if stored:
            report.stored += 1
        else:
            report.duplicates += 1
    return report
