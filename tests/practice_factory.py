"""Practice positions for the site's tests: a real position from walk() stored in the pool."""

from __future__ import annotations

from puzzles.models import PracticePosition, Puzzle

from .engine.practice_positions import practice_position


def make_practice_position(technique: str, puzzle: Puzzle | None = None, second: bool = False) -> PracticePosition:
    """The fixture position of `technique` (tests/engine/practice_positions.py), stored; with
    `second`, its second one."""
    moment, solution, givens = practice_position(technique, second)
    return PracticePosition.objects.create(
        technique=technique,
        digits="".join(map(str, moment.digits)),
        cands=list(moment.cands),
        solution="".join(map(str, solution)),
        givens=givens,
        places=bool(moment.step.placements),
        puzzle=puzzle,
        source=PracticePosition.Source.POOL if puzzle else PracticePosition.Source.GENERATED,
    )


def right_answer(technique: str) -> dict:
    """The body of a check that gives the walk's own step: right by construction."""
    moment, _, _ = practice_position(technique)
    step = moment.step
    if step.placements:
        return {"placement": list(step.placements[0])}
    return {"eliminations": [list(p) for p in step.eliminations]}


def wrong_answer(technique: str) -> tuple[dict, tuple[int, int]]:
    """A check that marks a cell's own answer: wrong whatever the technique; with the mark."""
    moment, solution, _ = practice_position(technique)
    step = moment.step
    if step.placements:
        cell = next(c for c in range(81) if moment.cands[c].bit_count() >= 2)
        other = next(d for d in range(1, 10) if moment.cands[cell] >> (d - 1) & 1 and d != solution[cell])
        return {"placement": [cell, other]}, (cell, other)
    cell = next(c for c in range(81) if moment.cands[c] and (c, solution[c]) not in step.eliminations)
    return {"eliminations": [[cell, solution[cell]]]}, (cell, solution[cell])
