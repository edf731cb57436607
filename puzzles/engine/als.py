"""Almost locked sets: ALS-XZ, in the shape Sukaku Explainer rates, a cell and a set.

An almost locked set (ALS) is a group of N empty cells in one house whose candidates together
number N + 1; a single cell with two candidates is the smallest. Take any one of its digits away
and the rest are locked: the N cells then hold exactly the N digits left.

ALS-XZ joins two such sets A and B that share no cell through a restricted common digit x: every
cell of A that could be x sees every cell of B that could be x, so at most one of them holds x.
The other then has x taken away and is locked, holding all its other digits. So if both also hold
a digit z, z is in A or in B, and a cell outside them that sees every z of both can't be z.

The finder takes A a cell of two candidates, x and z, and B a set of three or four cells: Sukaku
Explainer's WXYZ- and VWXYZ-wings, with its figures. Two larger sets make no step here, as they
make none in Sukaku Explainer, which reaches those positions only by chains (docs/algorithms.md
has the evidence).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .grid import (
    BIT,
    CELL_BIT,
    CELLS,
    DIGITS_OF,
    PEER_BITS,
    POPCOUNT,
    UNITS,
    UNITS_OF,
    Cell,
    Digit,
    Grid,
    Mask,
    cell_name,
)
from .steps import HOUSE_ORDER, Candidates, Step, bits, digit_boards, removals_text

# Sets of up to four cells: a cell and a set of three make Sukaku Explainer's WXYZ-wing, a cell and
# a set of four its VWXYZ-wing.
MAX_ALS_SIZE = 4
WING_SIZES = (3, 4)
# Sukaku Explainer's figures (WXYZWingHint.java, VWXYZWingHint.java): a base by the set's cells,
# plus 0.1 for each step `RANGE` stands above the distance of the set's fullest cell's count of
# candidates from three (SE rates a middling count harder than either end).
BASE = {3: 5.5, 4: 6.2}
RANGE = {3: 1, 4: 2}


@dataclass(frozen=True, slots=True)
class Als:
    """An almost locked set: its house, cells (an 81-bit set and a tuple), digits, and for each
    digit d the cells of the set holding d (`places[d]`) and the cells outside that see them
    all (`seen[d]`)."""

    house: int
    board: int
    cells: tuple[Cell, ...]
    mask: Mask
    places: tuple[int, ...]
    seen: tuple[int, ...]


def almost_locked_sets(cands: Candidates, max_size: int = MAX_ALS_SIZE) -> list[Als]:
    """Every ALS of 1 to `max_size` cells, smallest first, houses boxes first; a set lying in two
    houses (a box and a line) is listed once, under the house met first."""
    found: list[Als] = []
    known: set[int] = set()
    for house in HOUSE_ORDER:
        empty = tuple(c for c in UNITS[house] if cands[c])
        for cells, mask in _groups(empty, cands, 0, (), 0, max_size):
            board = sum(CELL_BIT[c] for c in cells)
            if board not in known:
                known.add(board)
                found.append(_als(house, cells, board, mask, cands))
    found.sort(key=lambda als: len(als.cells))
    return found


def _groups(
    empty: tuple[Cell, ...], cands: Candidates, start: int, chosen: tuple[Cell, ...], mask: Mask, max_size: int
) -> Iterator[tuple[tuple[Cell, ...], Mask]]:
    """The groups of `empty` cells (extending `chosen`, from index `start`) with one candidate
    more than cells; a branch stops once its digits outnumber what `max_size` cells allow."""
    for i in range(start, len(empty)):
        cells = chosen + (empty[i],)
        joined = mask | cands[empty[i]]
        count = POPCOUNT[joined]
        if count > max_size + 1:
            continue
        if count == len(cells) + 1:
            yield cells, joined
        if len(cells) < max_size:
            yield from _groups(empty, cands, i + 1, cells, joined, max_size)


def _als(house: int, cells: tuple[Cell, ...], board: int, mask: Mask, cands: Candidates) -> Als:
    """An Als with its per-digit places and the cells that see all of them."""
    places = [0] * 10
    seen = [0] * 10
    for d in DIGITS_OF[mask]:
        where = 0
        sees = (1 << 81) - 1
        for c in cells:
            if cands[c] >> (d - 1) & 1:
                where |= CELL_BIT[c]
                sees &= PEER_BITS[c]
        places[d] = where
        seen[d] = sees & ~board
    return Als(house, board, cells, mask, tuple(places), tuple(seen))


def als_xz(digits: Grid, cands: Candidates) -> Step | None:
    """A cell of two candidates x and z and an almost locked set of three or four cells holding
    both, every x of the set seeing the cell: the cell or the set holds z, so a cell seeing every
    z of both can't be z. The lowest-rated such pattern is given, the first found of those."""
    sets = [s for s in almost_locked_sets(cands) if len(s.cells) in WING_SIZES]
    if not sets:
        return None
    boards = digit_boards(cands)
    by_pair: dict[Mask, list[Als]] = {}
    for als in sets:
        for pair in _pairs(als.mask):
            by_pair.setdefault(pair, []).append(als)
    best: tuple[float, Als, Als, Digit, Digit, int] | None = None
    for cell in CELLS:
        mask = cands[cell]
        if POPCOUNT[mask] != 2 or mask not in by_pair:
            continue
        pivot = _als(UNITS_OF[cell][2], (cell,), CELL_BIT[cell], mask, cands)
        for als in by_pair[mask]:
            if als.board & pivot.board:
                continue
            figure = wing_figure(len(als.cells), max(POPCOUNT[cands[c]] for c in als.cells))
            if best and figure >= best[0]:
                continue
            for x, z in (DIGITS_OF[mask], DIGITS_OF[mask][::-1]):
                if als.places[x] & ~pivot.seen[x]:
                    continue
                targets = boards[z] & pivot.seen[z] & als.seen[z]
                if targets:
                    best = (figure, pivot, als, x, z, targets)
                    break
    if best is None:
        return None
    figure, pivot, als, x, z, targets = best
    return _step(pivot, als, x, z, targets, figure)


def wing_figure(cells: int, fullest: int) -> float:
    """The difficulty of a cell and a set of `cells` cells whose fullest cell has `fullest`
    candidates: 5.5 or 5.6 for three cells, 6.2 to 6.4 for four."""
    return round(BASE[cells] + (RANGE[cells] - abs(3 - fullest)) * 0.1, 1)


def _pairs(mask: Mask) -> list[Mask]:
    """Every two-digit mask inside `mask`."""
    digits = DIGITS_OF[mask]
    return [BIT[a] | BIT[b] for i, a in enumerate(digits) for b in digits[i + 1 :]]


def _step(a: Als, b: Als, x: Digit, z: Digit, targets: int, figure: float) -> Step:
    """The ALS-XZ step for sets a and b joined by x, removing z from `targets`."""
    elims = tuple((c, z) for c in bits(targets))
    houses = (a.house,) if a.house == b.house else (a.house, b.house)
    return Step(
        "als-xz",
        houses,
        a.cells + b.cells,
        tuple(sorted((x, z))),
        eliminations=elims,
        explanation=(
            f"{_als_text(a)} and {_als_text(b)} each hold one digit more than they have cells. "
            f"Every {x} of the first sees every {x} of the second, so only one of them can hold {x}, "
            f"and the other must then hold all of its other digits: one of them must hold {z}, so a "
            f"cell that sees every {z} of both can't be {z}: {removals_text(elims)}."
        ),
        difficulty=figure,
    )


def _als_text(als: Als) -> str:
    """'r1c1, r1c2 (1, 4, 7)' or 'r5c2 (4, 7)'."""
    return f"{', '.join(cell_name(c) for c in als.cells)} ({', '.join(map(str, DIGITS_OF[als.mask]))})"
