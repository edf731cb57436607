"""The bivalue universal grave with more than one odd cell (BUG+n): Sukaku Explainer's BUG types
2 and 3, beside the BUG+1 of uniqueness.py.

In a BUG every open cell has two candidates and every digit two places in each house that still
needs it: a deadly pattern, with no solution or several. When a few cells (the odd cells) hold
more, and taking one extra digit out of each (the one that has a third place in a house) would
leave a BUG, then in a puzzle with one solution at least one odd cell holds its extra digit.
With a single extra digit for all of them, a cell that sees every odd cell can't hold it (type
2); with several, in a house that holds every odd cell they act as one cell holding those digits,
which can make a naked subset with other cells there (type 3). Sound only for a puzzle with one
solution, as every uniqueness technique.
"""

from __future__ import annotations

from itertools import combinations

from .grid import BIT, DIGITS_OF, POPCOUNT, UNIT_BITS, UNITS, UNITS_OF, Cell, Grid, Mask, cell_name
from .steps import (
    HOUSE_ORDER,
    Candidates,
    Pair,
    Step,
    bits,
    cell_houses,
    cells_text,
    digit_boards,
    digits_text,
    houses_text,
    join_words,
    pencil,
    removals_text,
    seen_by_all,
)

# Sukaku Explainer's figures (Bug2Hint.java, Bug3Hint.java): type 2 5.7; type 3 5.7 and 0.1 for
# each digit of the naked subset past the first (a pair 5.8, a triple 5.9, a quad 6.0).
_TYPE_2 = 5.7
_LARGEST_SUBSET = 4
# More odd cells than this are not looked for: far from a BUG, and each one costs a search.
_MOST_ODD = 6

_BUG = (
    "if none of them held it, every open cell would have two candidates and every digit two places "
    "in each house, a deadly pattern with no solution or several; the puzzle has one"
)


def _odd_digits(cands: Candidates, boards: list[int]) -> dict[Cell, Mask] | None:
    """{odd cell: its extra digits} when taking them out leaves a BUG: each digit with a third
    place in a house marks the one cell of more than two candidates among those places. None
    when no such set of cells exists (or a house's count can't be explained that way)."""
    odd: dict[Cell, Mask] = {}
    for unit in range(27):
        for d in range(1, 10):
            places = boards[d] & UNIT_BITS[unit]
            count = places.bit_count()
            if count in (0, 2):
                continue
            wide = [c for c in bits(places) if POPCOUNT[cands[c]] > 2]
            if not wide:
                return None
            if len(wide) == 1:
                odd[wide[0]] = odd.get(wide[0], 0) | BIT[d]
    if len(odd) < 2:
        return None
    rest = list(cands)
    for cell, extra in odd.items():
        rest[cell] &= ~extra
    if any(mask and POPCOUNT[mask] != 2 for mask in rest):
        return None
    left = digit_boards(rest)
    for unit in range(27):
        for d in range(1, 10):
            if (left[d] & UNIT_BITS[unit]).bit_count() not in (0, 2):
                return None
    return odd


def bug_plus_n(digits: Grid, cands: Candidates) -> Step | None:
    """Two or more odd cells whose extra digits leave a BUG: one of them holds its extra digit,
    which rules that digit out of cells seeing them all (type 2), or makes a naked subset with
    cells of a house holding them all (type 3, the smallest subset first)."""
    if sum(1 for mask in cands if POPCOUNT[mask] > 2) > _MOST_ODD:
        return None
    boards = digit_boards(cands)
    odd = _odd_digits(cands, boards)
    if odd is None:
        return None
    cells = tuple(sorted(odd))
    extras = 0
    for mask in odd.values():
        extras |= mask
    listed = join_words([f"{cell_name(c)} ({pencil(odd[c])})" for c in cells], "or")
    if POPCOUNT[extras] == 1:
        d = DIGITS_OF[extras][0]
        targets = seen_by_all(cells, boards[d])
        if targets:
            elims = tuple((t, d) for t in targets)
            return Step(
                "bug-plus-n",
                cell_houses(cells[0]),
                cells,
                (d,),
                eliminations=elims,
                explanation=(
                    f"Every open cell but {cells_text(cells)} has two candidates, and taking {d} out of those "
                    f"cells would leave every digit two places in each house. So one of them is {d}: "
                    f"{_BUG}. A cell that sees them all can't be {d}: {removals_text(elims)}."
                ),
                difficulty=_TYPE_2,
            )
    shared = tuple(u for u in HOUSE_ORDER if all(u in UNITS_OF[c] for c in cells))
    for size in range(1, _LARGEST_SUBSET):
        for house in shared:
            found = _subset(cands, cells, extras, house, size)
            if found is None:
                continue
            subset, union, elims = found
            members = join_words([f"{cell_name(c)} ({pencil(cands[c])})" for c in subset])
            return Step(
                "bug-plus-n",
                (house,),
                cells + subset,
                DIGITS_OF[union],
                eliminations=elims,
                explanation=(
                    f"Every open cell but {cells_text(cells)} has two candidates, and taking their extra "
                    f"digits out would leave every digit two places in each house. So {listed} holds its "
                    f"extra digit: {_BUG}. Together they act as one cell of {houses_text((house,))} holding "
                    f"{pencil(extras)}, and with {members} they hold {digits_text(DIGITS_OF[union])} between "
                    f"them, so no other cell there can: {removals_text(elims)}."
                ),
                difficulty=round(_TYPE_2 + 0.1 * size, 1),
            )
    return None


def _subset(
    cands: Candidates, odd: tuple[Cell, ...], extras: Mask, house: int, size: int
) -> tuple[tuple[Cell, ...], Mask, tuple[Pair, ...]] | None:
    """`size` cells of `house` that, with the odd cells' extra digits as one more cell, hold
    `size` + 1 digits and clear some: (the cells, their digits, the eliminations)."""
    pool = [c for c in UNITS[house] if cands[c] and c not in odd and POPCOUNT[cands[c] | extras] <= size + 1]
    for subset in combinations(pool, size):
        union = extras
        for c in subset:
            union |= cands[c]
        if POPCOUNT[union] != size + 1:
            continue
        skip = set(subset) | set(odd)
        touched = [c for c in UNITS[house] if c not in skip and cands[c] & union]
        if touched:
            return subset, union, tuple((c, d) for c in touched for d in DIGITS_OF[cands[c] & union])
    return None
