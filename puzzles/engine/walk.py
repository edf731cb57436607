"""A puzzle's solve, position by position: the positions a practice or a worked example comes from.

walk() takes the same steps as rate() (the easiest step each time, trial and error only when
logic is stuck) and yields each position before its step, so a position it yields is one where
that step's technique is the next step a solver with full pencil marks would take.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .finders import LOGICAL, trial_and_error
from .grid import Grid, as_grid, candidates
from .rater import _unique_solution, easiest_step
from .steps import Candidates, Step, apply


@dataclass(frozen=True, slots=True)
class Moment:
    """One position of a solve and the step taken from it.

    digits are the 81 digits placed (0 for empty); cands the 81 candidate masks (bit d - 1 for
    digit d, 0 for a filled cell), with every earlier elimination already made.
    """

    digits: tuple[int, ...]
    cands: tuple[int, ...]
    step: Step


def walk(givens: str | Sequence[int], solution: Grid | None = None) -> Iterator[Moment]:
    """Every position of the puzzle's solve with the step taken from it, first to last.

    InvalidGrid unless the puzzle has exactly one solution (checked before the first position
    when no solution is given, since uniqueness steps and trial and error rely on it).
    """
    grid = as_grid(givens)
    if solution is None:
        solution = _unique_solution(grid)
    digits = grid[:]
    cands: Candidates = candidates(grid)
    while 0 in digits:
        step = easiest_step(digits, cands, LOGICAL) or trial_and_error(digits, cands, solution)
        assert step is not None
        yield Moment(tuple(digits), tuple(cands), step)
        apply(step, digits, cands)
