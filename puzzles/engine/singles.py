"""Singles: a cell with one candidate left, and a digit with one place left in a house.

Each finder takes a pencil-marked position (see steps.py) and returns its first Step, or None.
"""

from __future__ import annotations

from .grid import BIT, DIGIT_OF_BIT, PEERS, UNITS, Cell, Digit, Grid, Mask, cell_name, unit_name
from .steps import HOUSE_ORDER, Candidates, Step, cell_houses

# The masks holding exactly one digit: a set lookup is the cheapest naked-single test.
_ONE_DIGIT: frozenset[Mask] = frozenset(BIT[1:])


def naked_single(digits: Grid, cands: Candidates) -> Step | None:
    """The first empty cell with one candidate left."""
    for cell, mask in enumerate(cands):
        if mask in _ONE_DIGIT:
            return naked_step(digits, cell, DIGIT_OF_BIT[mask])
    return None


def naked_step(digits: Grid, cell: Cell, digit: Digit) -> Step:
    """The naked single placing `digit` in `cell`, whose one candidate it is."""
    seen = {digits[p] for p in PEERS[cell]}
    if len(seen - {0}) == 8:
        why = f"{cell_name(cell)} sees every digit but {digit} in its row, column and box"
    else:
        why = f"The only candidate left in {cell_name(cell)} is {digit}"
    return Step(
        "naked-single",
        cell_houses(cell),
        (cell,),
        (digit,),
        placements=((cell, digit),),
        explanation=f"{why}, so it goes there.",
    )


def hidden_single(digits: Grid, cands: Candidates) -> Step | None:
    """The first house (boxes first) where a digit has one place left."""
    for unit in HOUSE_ORDER:
        cells = UNITS[unit]
        once = twice = 0
        for c in cells:
            mask = cands[c]
            twice |= once & mask
            once |= mask
        only = once & ~twice
        if only:
            bit = only & -only
            digit = DIGIT_OF_BIT[bit]
            cell = next(c for c in cells if cands[c] & bit)
            return hidden_step(unit, cell, digit)
    return None


def hidden_step(unit: int, cell: Cell, digit: Digit) -> Step:
    """The hidden single placing `digit` in `cell`, its one place left in `unit`."""
    return Step(
        "hidden-single",
        (unit,),
        (cell,),
        (digit,),
        placements=((cell, digit),),
        explanation=f"In {unit_name(unit)}, {digit} can only go in {cell_name(cell)}, so it goes there.",
        # A box is scanned more easily than a line: 1.2 against 1.5 on the SE scale.
        difficulty=1.2 if unit >= 18 else 1.5,
    )
