"""Wings: a pivot cell and two pincers whose candidates force a digit into one of the three.

Each finder takes a pencil-marked position (see steps.py) and returns its first Step, or None.
Every finder here is sound for every solution of the position: it never removes a digit that
some solution puts in that cell.
"""

from __future__ import annotations

from .grid import CELLS, DIGIT_OF_BIT, DIGITS_OF, PEER_BITS, POPCOUNT, Grid, cell_name
from .steps import Candidates, Step, cell_houses, digit_boards, pencil, removals_text, seen_by_all


def xy_wing(digits: Grid, cands: Candidates) -> Step | None:
    """A two-candidate pivot {x,y} seeing pincers {x,z} and {y,z}: one pincer is z, so cells
    seeing both pincers can't be."""
    bivalue = [c for c in CELLS if POPCOUNT[cands[c]] == 2]
    boards: list[int] | None = None
    for pivot in bivalue:
        held = cands[pivot]
        seen = PEER_BITS[pivot]
        wings = [c for c in bivalue if seen >> c & 1 and POPCOUNT[cands[c] & held] == 1]
        for i, a in enumerate(wings):
            for b in wings[i + 1 :]:
                ma, mb = cands[a], cands[b]
                z = ma & mb & ~held
                if not z or ma & held == mb & held:
                    continue
                if boards is None:
                    boards = digit_boards(cands)
                digit = DIGIT_OF_BIT[z]
                targets = seen_by_all((a, b), boards[digit])
                if not targets:
                    continue
                elims = tuple((c, digit) for c in targets)
                x = DIGIT_OF_BIT[ma & held]
                y = DIGIT_OF_BIT[mb & held]
                return Step(
                    "xy-wing",
                    cell_houses(pivot),
                    (pivot, a, b),
                    tuple(sorted((x, y, digit))),
                    eliminations=elims,
                    explanation=(
                        f"{cell_name(pivot)} is {x} or {y}: if {x}, {cell_name(a)} ({pencil(ma)}) is "
                        f"{digit}, and if {y}, {cell_name(b)} ({pencil(mb)}) is {digit}, so a cell "
                        f"that sees both of them can't be {digit}: {removals_text(elims)}."
                    ),
                )
    return None


def xyz_wing(digits: Grid, cands: Candidates) -> Step | None:
    """A pivot {x,y,z} seeing pincers {x,z} and {y,z}: one of the three is z, so cells seeing
    all three can't be."""
    bivalue = [c for c in CELLS if POPCOUNT[cands[c]] == 2]
    boards: list[int] | None = None
    for pivot in CELLS:
        held = cands[pivot]
        if POPCOUNT[held] != 3:
            continue
        seen = PEER_BITS[pivot]
        wings = [c for c in bivalue if seen >> c & 1 and not cands[c] & ~held]
        for i, a in enumerate(wings):
            for b in wings[i + 1 :]:
                ma, mb = cands[a], cands[b]
                if ma == mb:
                    continue
                z = ma & mb
                if boards is None:
                    boards = digit_boards(cands)
                digit = DIGIT_OF_BIT[z]
                targets = seen_by_all((pivot, a, b), boards[digit])
                if not targets:
                    continue
                elims = tuple((c, digit) for c in targets)
                x = DIGIT_OF_BIT[ma & ~z]
                y = DIGIT_OF_BIT[mb & ~z]
                return Step(
                    "xyz-wing",
                    cell_houses(pivot),
                    (pivot, a, b),
                    DIGITS_OF[held],
                    eliminations=elims,
                    explanation=(
                        f"{cell_name(pivot)} is {pencil(held)}: if {x}, {cell_name(a)} ({pencil(ma)}) "
                        f"is {digit}; if {y}, {cell_name(b)} ({pencil(mb)}) is {digit}; otherwise it is "
                        f"{digit} itself, so a cell that sees all three can't be {digit}: "
                        f"{removals_text(elims)}."
                    ),
                )
    return None
