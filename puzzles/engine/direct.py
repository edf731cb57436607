"""Direct steps: a pointing or a hidden subset that leaves a hidden single at once.

With pencil marks, a pointing removes a digit from the rest of a line, and a hidden pair or
triple empties its cells of every other digit. Often the point of it is one placement: with
those candidates gone, a house has a single place left for a digit. A solver who sees the
pattern and the placement together takes one step, a placement, and Sudoku Explainer rates
such a 'direct' step below the elimination on its own: direct pointing 1.7, direct hidden pair
2.0, direct hidden triple 2.5, against 2.6, 3.4 and 4.0 (docs/algorithms.md). These finders
return only the placement. The eliminations are not kept, as a solver who read the placement
off the board would not pencil them in; a later step that needs them is a plain pointing or
hidden subset.

A pointing from a box leaves its single in another box along the line; a hidden subset leaves
its single in its own house. SE also has a direct claiming (1.9), which is never the easiest
step, so it has no finder here: if row r's digit lies only in box B and row r' through B has
one place X for it outside B, the band's third box can hold the digit only in the band's third
row, a pointing that leaves X alone in its box (or X is a hidden single already). The same
holds for columns.
"""

from __future__ import annotations

from itertools import combinations

from .grid import UNIT_BITS, Cell, Digit, Grid, cell_name, unit_name
from .steps import HOUSE_ORDER, Candidates, Step, bits, cells_text, digit_boards, digits_text

# The techniques whose steps are placements read off a pattern (the rater's extra term leaves
# them out with the singles).
DIRECT_TECHNIQUES = frozenset({"direct-pointing", "direct-hidden-pair", "direct-hidden-triple"})

_LINES, _BOXES = range(18), range(18, 27)

# For each box (by unit index), its six lines, each with the two other boxes the line crosses.
_BOX_LINES: dict[int, tuple[tuple[int, tuple[int, ...]], ...]] = {
    box: tuple(
        (line, tuple(b for b in _BOXES if b != box and UNIT_BITS[b] & UNIT_BITS[line]))
        for line in _LINES
        if UNIT_BITS[box] & UNIT_BITS[line]
    )
    for box in _BOXES
}
_SUBSET_NAMES = {2: "pair", 3: "triple"}


def direct_pointing(digits: Grid, cands: Candidates) -> Step | None:
    """A digit whose places in a box lie in one line, which leaves another box along that line
    one place for it."""
    boards = digit_boards(cands)
    for box in _BOXES:
        for digit in range(1, 10):
            board = boards[digit]
            inside = board & UNIT_BITS[box]
            if not inside & (inside - 1):
                continue  # placed, or a hidden single
            for line, others in _BOX_LINES[box]:
                if inside & ~UNIT_BITS[line]:
                    continue
                for other in others:
                    there = board & UNIT_BITS[other]
                    left = there & ~UNIT_BITS[line]
                    if there & (there - 1) and left and not left & (left - 1):
                        cell = left.bit_length() - 1
                        return _pointing_step(box, line, other, tuple(bits(inside)), digit, cell)
    return None


def _pointing_step(box: int, line: int, other: int, used: tuple[Cell, ...], digit: Digit, cell: Cell) -> Step:
    return Step(
        "direct-pointing",
        (box, line, other),
        used + (cell,),
        (digit,),
        placements=((cell, digit),),
        explanation=(
            f"In {unit_name(box)}, {digit} can only go in {unit_name(line)} ({cells_text(used, 'or')}), so no "
            f"other cell in {unit_name(line)} can hold {digit}. That leaves {digit} one place in "
            f"{unit_name(other)}: {cell_name(cell)}, so it goes there."
        ),
    )


# The last position's first direct hidden pair and triple. The two finders run one after the
# other on the same position, so one search serves both. The entry is one tuple, read and
# replaced whole, so a thread never sees one position's key with another's steps.
_last: tuple[tuple[int, ...], dict[int, Step | None]] | None = None


def _hidden_subset_to_single(cands: Candidates, size: int) -> Step | None:
    """The first `size` digits of a house confined to `size` cells that leave another digit of
    that house one place outside them."""
    global _last
    key = tuple(cands)
    cached = _last
    if cached is None or cached[0] != key:
        cached = _last = (key, _first_hidden_subsets(cands))
    return cached[1][size]


def _first_hidden_subsets(cands: Candidates) -> dict[int, Step | None]:
    """The first direct hidden pair and the first direct hidden triple, houses in HOUSE_ORDER."""
    found: dict[int, Step | None] = {2: None, 3: None}
    boards = digit_boards(cands)
    for unit in HOUSE_ORDER:
        places = [board & UNIT_BITS[unit] for board in boards]
        # A digit with one place is a hidden single, found before this; the subset needs two or
        # more, and another digit must have two or more places for one of them to be left.
        counts = [p.bit_count() for p in places]
        for size in (2, 3):
            if found[size] is not None:
                continue
            pool = [d for d in range(1, 10) if 2 <= counts[d] <= size]
            if len(pool) < size or sum(1 for n in counts if n >= 2) <= size:
                continue
            found[size] = _subset_to_single(unit, places, counts, pool, size)
        if found[2] is not None and found[3] is not None:
            break
    return found


def _subset_to_single(unit: int, places: list[int], counts: list[int], pool: list[int], size: int) -> Step | None:
    """In one house, the first `size` digits of `pool` held in `size` cells that leave another
    digit one place."""
    for held in combinations(pool, size):
        spots = 0
        for d in held:
            spots |= places[d]
        if spots.bit_count() != size:
            continue
        for digit in range(1, 10):
            if counts[digit] < 2 or digit in held:
                continue
            left = places[digit] & ~spots
            if left and not left & (left - 1):
                return _hidden_step(unit, tuple(bits(spots)), held, digit, left.bit_length() - 1)
    return None


def _hidden_step(unit: int, subset: tuple[Cell, ...], held: tuple[Digit, ...], digit: Digit, cell: Cell) -> Step:
    return Step(
        f"direct-hidden-{_SUBSET_NAMES[len(held)]}",
        (unit,),
        subset + (cell,),
        held,
        placements=((cell, digit),),
        explanation=(
            f"In {unit_name(unit)}, the digits {digits_text(held)} can only go in {cells_text(subset)}, so "
            f"those cells hold them and nothing else. That leaves {digit} one place in {unit_name(unit)}: "
            f"{cell_name(cell)}, so it goes there."
        ),
    )


def direct_hidden_pair(digits: Grid, cands: Candidates) -> Step | None:
    """Two digits of a house confined to two cells, which leaves a third digit one place there."""
    return _hidden_subset_to_single(cands, 2)


def direct_hidden_triple(digits: Grid, cands: Candidates) -> Step | None:
    """Three digits of a house confined to three cells, which leaves a fourth digit one place there."""
    return _hidden_subset_to_single(cands, 3)
