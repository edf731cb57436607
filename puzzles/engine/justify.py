"""Why a digit could go where a player put it: the easiest steps from their position that end in
a single placing it there, or none at all (a guess).

The search is the rater's, aimed at one cell. First it keeps to the pencil marks: while the
placement is not a naked or hidden single, it takes the easiest step that removes candidates and
looks again, at most MAX_STEPS times. Every step it takes is sound, so a Position keeps their
eliminations for the next placement, as a player with full pencil marks would: a hard step is
paid for once. When that gets nowhere, it looks again letting singles elsewhere be placed in the
head first (a player who sees that two singles make this cell a third), and keeps nothing of that
second look. The steps it lists are those that lead to the single (see _leading), at most
MAX_STEPS of them; the others are only kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .catalogue import Technique
from .finders import FINDER_OF, LOGICAL
from .grid import ALL, BIT, PEERS, UNITS, UNITS_OF, Cell, Digit, Grid, Mask, as_grid, candidates
from .rater import easiest_step, step_difficulty
from .singles import hidden_step, naked_step
from .steps import Candidates, Pair, Step, place

# A justification longer than this is not one a player follows: its placement counts as a guess.
MAX_STEPS = 12

# The techniques that only place a digit (the single at the end is looked for directly), and the
# ones a justification searches: every other one, easiest first.
_PLACING = frozenset({"hidden-single", "naked-single", "bug-plus-one"}) | {
    name for name in FINDER_OF if name.startswith("direct-")
}
_ELIMINATING = tuple(t for t in LOGICAL if t.name not in _PLACING)
_SINGLES = ("hidden-single", "naked-single")
# Patterns that hold by their own cells' candidates, whatever the rest of their houses holds; and
# patterns that hold by where their digits can go in their houses, whatever else their cells hold.
_CELL_PATTERNS = frozenset({"naked-pair", "naked-triple", "naked-quad", "xy-wing", "xyz-wing", "xy-chain"})
_DIGIT_PATTERNS = frozenset(
    {"hidden-pair", "hidden-triple", "hidden-quad", "pointing", "claiming", "x-wing", "swordfish", "jellyfish"}
    | {"skyscraper", "two-string-kite", "turbot-fish", "empty-rectangle", "x-chain", "simple-colouring"}
    | {"grouped-skyscraper", "grouped-two-string-kite", "grouped-x-chain"}
)
_WITH_SINGLES = tuple(t for t in LOGICAL if t.name in _SINGLES) + _ELIMINATING


@dataclass(frozen=True, slots=True)
class Justification:
    """The steps that justify a placement, easiest first and ending in the single that makes it;
    None for a guess. cands are the position's candidates after every step taken on the way."""

    steps: tuple[Step, ...] | None
    cands: tuple[Mask, ...]

    @property
    def technique(self) -> str:
        """The hardest technique of the steps ('' for a guess)."""
        if not self.steps:
            return ""
        return max(reversed(self.steps), key=step_difficulty).technique


def single_for(digits: Grid, cands: Candidates, cell: Cell, digit: Digit) -> Step | None:
    """The easiest single that places `digit` in `cell` now (a hidden single in a box, a naked
    single, a hidden single in a line), or None."""
    bit = BIT[digit]
    if digits[cell] or not cands[cell] & bit:
        return None
    row, col, box = UNITS_OF[cell]
    lines = []
    for unit in (box, row, col):
        if not any(cands[c] & bit for c in UNITS[unit] if c != cell):
            if unit == box:
                return hidden_step(unit, cell, digit)
            lines.append(unit)
    if cands[cell] == bit:
        return naked_step(digits, cell, digit)
    return hidden_step(lines[0], cell, digit) if lines else None


def justify(digits: Grid, cands: Candidates, cell: Cell, digit: Digit) -> Justification:
    """justify(digits, cands, cell, digit) -> the easiest steps from the position (digits placed,
    candidate masks as steps.py keeps them) to a single placing `digit` in `cell`; steps None when
    no technique of the engine gets there in MAX_STEPS steps, or the digit cannot go there."""
    kept = list(cands)
    steps = _search(list(digits), list(cands), cell, digit, _ELIMINATING, kept)
    if steps is None:
        steps = _search(list(digits), list(kept), cell, digit, _WITH_SINGLES, None)
    return Justification(steps, tuple(kept))


def _search(
    digits: Grid, cands: Candidates, cell: Cell, digit: Digit, usable: Sequence[Technique], kept: Candidates | None
) -> tuple[Step, ...] | None:
    """The steps of `usable` that lead to the single (see the module's docstring), on a position
    of its own; each elimination made is struck from `kept` too, when given."""
    taken: list[Step] = []
    hard = 0  # steps beyond singles
    while hard <= MAX_STEPS:
        single = single_for(digits, cands, cell, digit)
        if single is not None:
            return _ending(taken, single)
        if digits[cell] or not cands[cell] & BIT[digit]:
            return None
        step = easiest_step(digits, cands, usable)
        if step is None:
            return None
        if (cell, digit) in step.placements:
            return _ending(taken, step)
        if any(c == cell for c, _ in step.placements) or (cell, digit) in step.eliminations:
            return None  # a step that denies the digit: not the solution's
        for c, d in step.eliminations:
            cands[c] &= ~BIT[d]
            if kept is not None:
                kept[c] &= ~BIT[d]
        for c, d in step.placements:  # in the head only: not kept
            place(digits, cands, c, d)
        taken.append(step)
        hard += step.technique not in _SINGLES
    return None


def _ending(taken: list[Step], last: Step) -> tuple[Step, ...] | None:
    """The steps that lead to `last`, then it; None when they are more than MAX_STEPS."""
    leading = _leading(taken, last)
    return None if len(leading) > MAX_STEPS else tuple(leading) + (last,)


def _premise(step: Step) -> set[Pair]:
    """The candidates whose absence a step's pattern may rest on: its cells' other digits and its
    digits in the rest of its houses, less the part its kind of pattern does not read (an
    approximation that keeps too much, not too little, for the patterns that name their houses)."""
    if step.technique in ("naked-single", "hidden-single"):
        (cell,), (digit,) = step.cells, step.digits
        if step.technique == "naked-single":
            return {(cell, d) for d in range(1, 10) if d != digit}
        return {(c, digit) for c in UNITS[step.houses[0]] if c != cell}
    cells = set(step.cells)
    mine = 0
    for d in step.digits:
        mine |= BIT[d]
    needed: set[Pair] = set()
    if step.technique not in _DIGIT_PATTERNS:
        needed = {(c, d) for c in cells for d in range(1, 10) if not BIT[d] & mine}
    if step.technique in _CELL_PATTERNS:
        return needed
    for unit in step.houses:
        needed |= {(c, d) for c in UNITS[unit] if c not in cells for d in step.digits}
    return needed


def _leading(taken: list[Step], last: Step) -> list[Step]:
    """The steps of `taken` that lead to `last`: walking back, a step whose eliminations remove
    a candidate the premise of a later kept step rests on."""
    needed = _premise(last)
    kept: list[Step] = []
    for step in reversed(taken):
        removed = set(step.eliminations)
        for c, d in step.placements:
            removed |= {(c, o) for o in range(1, 10) if o != d} | {(p, d) for p in PEERS[c]}
        if removed & needed:
            kept.append(step)
            needed |= _premise(step)
    return kept[::-1]


class Position:
    """A player's position through a solve: the right digits placed so far and the candidates a
    player with full pencil marks keeps, with every elimination a justification made carried on."""

    def __init__(self, givens: str | Sequence[int]) -> None:
        self.digits: Grid = as_grid(givens)
        self.cands: Candidates = candidates(self.digits)
        self._struck: list[Mask] = [0] * 81  # eliminations made by steps, not by digits placed

    def justify(self, cell: Cell, digit: Digit) -> Justification:
        """justify() from this position, keeping its eliminations (each one sound)."""
        found = justify(self.digits, self.cands, cell, digit)
        for c, (before, after) in enumerate(zip(self.cands, found.cands)):
            self._struck[c] |= before & ~after
        self.cands = list(found.cands)
        return found

    def place(self, cell: Cell, digit: Digit) -> None:
        """Write the digit (the solution's: a wrong one never enters the position)."""
        place(self.digits, self.cands, cell, digit)

    def erase(self, cell: Cell) -> None:
        """Take a digit away again: the candidates come back but for those steps removed."""
        if self.digits[cell]:
            self.digits[cell] = 0
            fresh = candidates(self.digits)
            self.cands = [f & ~s & ALL for f, s in zip(fresh, self._struck)]

    def easiest(self) -> Step | None:
        """The easiest step from here, single or not (what a hint would give), or None."""
        return easiest_step(self.digits, self.cands, LOGICAL)
