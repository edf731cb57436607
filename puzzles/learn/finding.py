"""The search for worked examples: walk puzzles step by step and keep, for each technique, the
clearest position where it is the next step.

A position a walk yields is one where its step's technique is the easiest step a solver with full
pencil marks would take, so an example found here is that technique and nothing simpler. Clear
means a board in the middle of a solve (neither nearly empty nor nearly full, and the house the
step is about not one cell short of full, where anything is easy), then small: few cells in the
pattern, few candidates removed or digits placed. The search runs from a management command (find_examples), never in a request.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .. import engine
from ..engine import TECHNIQUE_BY_NAME, TECHNIQUES, UNITS, Moment, walk

# The empty cells of a board in the middle of a solve: enough to look real, few enough to read.
MIDDLE = (25, 55)


@dataclass(frozen=True)
class Found:
    """A position and its step, with where the position came from."""

    moment: Moment
    givens: str
    source: str
    # The technique the engine would take first there, for an example that is not the easiest
    # step of its position (search_beside); None when it is.
    first: str | None = None

    @property
    def clutter(self) -> tuple[int, int, int, int, int]:
        """Smaller is clearer: a position mid-solve, then the pattern and its changes, then the
        words."""
        step, digits = self.moment.step, self.moment.digits
        empty = digits.count(0)
        house_empty = [sum(1 for c in UNITS[h] if not digits[c]) for h in step.houses]
        awkward = not MIDDLE[0] <= empty <= MIDDLE[1] or (bool(house_empty) and house_empty[0] < 3)
        size = len(step.cells) + len(step.eliminations) + len(step.placements)
        return (int(self.first is not None), int(awkward), size, abs(empty - sum(MIDDLE) // 2), len(step.explanation))


def puzzles_from_file(lines: Iterable[str], name: str) -> Iterator[tuple[str, str]]:
    """(givens, source) for each puzzle line of a file such as top1465.txt."""
    for number, line in enumerate(lines, start=1):
        givens = line.strip()
        if len(givens) == 81:
            yield givens, f"{name}, puzzle {number}"


def puzzles_generated(tier: str, seed: int, count: int) -> Iterator[tuple[str, str]]:
    """(givens, source) for `count` puzzles the engine generates at `tier`, from `seed`."""
    rng = random.Random(seed)
    for number in range(1, count + 1):
        made = engine.generate(tier, rng)
        givens = "".join(map(str, made.givens))
        yield givens, f"generated {tier} puzzle {number} of seed {seed}"


def search(puzzles: Iterable[tuple[str, str]], best: dict[str, Found] | None = None) -> dict[str, Found]:
    """The clearest example of each technique among the puzzles' walks, added to `best`."""
    best = {} if best is None else best
    for givens, source in puzzles:
        for number, moment in enumerate(walk(givens), start=1):
            found = Found(moment, givens, f"{source}, step {number}")
            name = moment.step.technique
            if name not in best or found.clutter < best[name].clutter:
                best[name] = found
    return best


def search_beside(puzzles: Iterable[tuple[str, str]], names: list[str], best: dict[str, Found]) -> dict[str, Found]:
    """For techniques no walk meets as the easiest step (the rater prefers another of their tier
    wherever both apply: a Nishio before a cell forcing chain), the clearest position of the
    puzzles' walks where the technique's own finder finds a step, with the step the engine
    takes there first; added to `best`."""
    # Trial and error has no finder: the walks meet it wherever logic is stuck, or never.
    by_tier: dict[str, list[str]] = {}
    for name in names:
        if name != "trial-and-error":
            by_tier.setdefault(TECHNIQUE_BY_NAME[name].tier, []).append(name)
    for givens, source in puzzles:
        for number, moment in enumerate(walk(givens), start=1):
            for name in by_tier.get(moment.step.tier or "", []):
                if name == moment.step.technique:
                    continue
                found_here = engine.instances(list(moment.digits), list(moment.cands), name)
                if not found_here:
                    continue
                beside = Moment(moment.digits, moment.cands, found_here[0])
                found = Found(beside, givens, f"{source}, step {number}", first=moment.step.technique)
                if name not in best or found.clutter < best[name].clutter:
                    best[name] = found
    return best


def missing(best: dict[str, Found]) -> list[str]:
    """The techniques of the catalogue with no example yet, easiest first."""
    return [t.name for t in TECHNIQUES if t.name not in best]
