"""Almost locked sets: ALS-XZ.

An almost locked set (ALS) is a group of N empty cells in one house whose candidates together
number N + 1; a single cell with two candidates is the smallest. Take any one of its digits away
and the rest are locked: the N cells then hold exactly the N digits left.

ALS-XZ joins two such sets A and B that share no cell through a restricted common digit x: every
cell of A that could be x sees every cell of B that could be x, so at most one of them holds x.
The other then has x taken away and is locked, holding all its other digits. So if both also hold
a digit z, z is in A or in B, and a cell outside them that sees every z of both can't be z.

Its difficulty grows with its cells, and is lower when one cell of the pattern sees all the
others: that is the shape of the WXYZ- and VWXYZ-wings, which Sukaku Explainer knows by name and
rates below the chains it needs for other shapes (docs/algorithms.md has the figures and the
evidence).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .catalogue import EXPERT_CEILING
from .grid import CELL_BIT, DIGITS_OF, PEER_BITS, POPCOUNT, UNITS, Cell, Digit, Grid, Mask, cell_name
from .steps import HOUSE_ORDER, Candidates, Step, bits, digit_boards, removals_text

# Sets of up to four cells keep the search quick; larger ones rarely add a step that a chain
# finder wouldn't find anyway.
MAX_ALS_SIZE = 4
# The difficulty on the Sudoku Explainer scale: FIGURE up to four cells, GROWTH for each cell more,
# WINGLESS more when no cell of the pattern sees all the others, never past EXPERT_CEILING.
FIGURE, GROWTH, WINGLESS = 5.6, 0.7, 0.4


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
    """Two almost locked sets with a restricted common digit x and another common digit z: one
    of the two holds z, so a cell seeing every z of both can't be z. The easiest pair is given:
    the fewest cells, and of those a wing-shaped one."""
    sets = almost_locked_sets(cands)
    if len(sets) < 2:
        return None
    boards = digit_boards(cands)
    # For each digit, the sets holding it indexed by their first cell that could hold it: the
    # partner B for a restricted digit x must have all its x-cells among those seen by A's x-cells,
    # so looking up the cells of that set finds every partner without trying all pairs.
    by_first: list[dict[Cell, list[int]]] = [{} for _ in range(10)]
    for i, als in enumerate(sets):
        for d in DIGITS_OF[als.mask]:
            first = (als.places[d] & -als.places[d]).bit_length() - 1
            by_first[d].setdefault(first, []).append(i)
    # (cells, wingless) orders the pairs as their figures do; sets come smallest first.
    best: tuple[tuple[int, bool], int, int, Digit, Digit, int] | None = None
    for i, a in enumerate(sets):
        if best and (len(a.cells) + 1, False) >= best[0]:
            break
        for x in DIGITS_OF[a.mask]:
            reach = a.seen[x] & boards[x]
            for first in bits(reach):
                for j in by_first[x].get(first, ()):
                    b = sets[j]
                    if j == i or b.board & a.board or b.places[x] & ~a.seen[x]:
                        continue
                    size = len(a.cells) + len(b.cells)
                    if best and (size, False) >= best[0]:
                        continue
                    for z in DIGITS_OF[a.mask & b.mask]:
                        if z == x:
                            continue
                        targets = boards[z] & a.seen[z] & b.seen[z]
                        if targets:
                            shape = (size, not _wing_shaped(a.board | b.board))
                            if not best or shape < best[0]:
                                best = (shape, i, j, x, z, targets)
                            break
    if best is None:
        return None
    (size, wingless), i, j, x, z, targets = best
    return _step(sets[i], sets[j], x, z, targets, als_figure(size, wingless))


def als_figure(cells: int, wingless: bool) -> float:
    """The difficulty of an ALS-XZ of `cells` cells, wing-shaped or not."""
    return round(min(EXPERT_CEILING, FIGURE + GROWTH * max(0, cells - 4) + (WINGLESS if wingless else 0.0)), 1)


def _wing_shaped(board: int) -> bool:
    """True when one cell of the 81-bit set sees all the others."""
    return any(not board & ~(PEER_BITS[c] | CELL_BIT[c]) for c in bits(board))


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
