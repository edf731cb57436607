"""Clearing a full grid down to a minimal puzzle with one solution.

The goal, clear until no clue can go, is the second step of the Ossudo post that band-backtrack
also follows (see docs/algorithms.md).

Clues leave in a random order; a removal stands only if the puzzle keeps exactly one solution.
One pass is enough for minimality: a clue that had to stay when it was tried must stay in every
later, smaller puzzle too, since taking clues away never removes a solution.
"""

from __future__ import annotations

import random

from .grid import (
    ALL,
    BIT,
    CELL_BIT,
    CELLS,
    COL_OF,
    COLS,
    FULL_BOARD,
    PEER_BITS,
    ROW_OF,
    ROWS,
    UNIT_BITS,
    UNITS_OF,
    Grid,
    InvalidGrid,
    as_grid,
    is_complete_solution,
)
from .solver import Boards, boards_of, has_other_solution

Reach = dict[int, int]  # state_from_boards' memory of each digit board's peers

SYMMETRIES = ("none", "rotational", "mirror")
_SET_CELLS = 12  # the largest unavoidable set worth listing (unavoidable_sets)

# For each cell, the cells of its band (three rows of boxes) and its stack (three columns).
_NEAR: tuple[int, ...] = tuple(
    sum(CELL_BIT[x] for x in CELLS if ROW_OF[x] // 3 == ROW_OF[c] // 3 or COL_OF[x] // 3 == COL_OF[c] // 3)
    for c in CELLS
)


def _partner(cell: int, symmetry: str) -> int:
    """The cell that must match `cell` under a symmetry (itself on the axis or centre)."""
    if symmetry == "rotational":
        return 80 - cell
    if symmetry == "mirror":
        return ROW_OF[cell] * 9 + 8 - COL_OF[cell]
    return cell


def symmetry_groups(symmetry: str) -> list[tuple[int, ...]]:
    """The cells grouped so that each group is kept or cleared together."""
    if symmetry not in SYMMETRIES:
        raise ValueError(f"unknown symmetry {symmetry!r}; choose one of {', '.join(SYMMETRIES)}")
    groups: list[tuple[int, ...]] = []
    for cell in CELLS:
        other = _partner(cell, symmetry)
        if other >= cell:
            groups.append((cell,) if other == cell else (cell, other))
    return groups


def symmetry_of(givens: Grid) -> str:
    """The symmetry of a clue pattern in the clearer's names: 'rotational', 'mirror' or 'none'."""
    for name in ("rotational", "mirror"):
        if all(bool(givens[c]) == bool(givens[_partner(c, name)]) for c in CELLS):
            return name
    return "none"


def _forced(placed: Boards, cell: int, digit: int) -> bool:
    """Whether the givens alone force `digit` into the empty `cell` (a naked or hidden single).

    A cheap test that settles most removals while the puzzle still has many clues, before any
    search is needed.
    """
    seen_digits = 0
    peers = PEER_BITS[cell]
    for d in range(9):
        if placed[d] & peers:
            seen_digits |= 1 << d
    if seen_digits | BIT[digit] == ALL:
        return True
    filled = 0
    for board in placed:
        filled |= board
    blocked = filled
    rest = placed[digit - 1]
    while rest:
        low = rest & -rest
        blocked |= PEER_BITS[low.bit_length() - 1]
        rest ^= low
    open_cells = ~blocked
    bit = CELL_BIT[cell]
    return any(open_cells & UNIT_BITS[u] == bit for u in UNITS_OF[cell])


def unavoidable_sets(solution: Grid) -> list[int]:
    """Small unavoidable sets of a full grid, as bitboards: every puzzle of this grid keeps a
    clue in each one, since the cells of a set can be refilled into a second solution.

    Two kinds are found, each cheaply: the sets two digits can trade places in
    (_digit_swaps), and the sets two rows of a band, or two columns of a stack, can trade
    their cells in (_line_swaps). Sets of more than _SET_CELLS cells are left out: they are
    seldom the first to lose their last clue, and listing them costs more than they save.
    """
    found = _digit_swaps(boards_of(solution)) + _line_swaps(solution)
    return [cells for cells in found if cells.bit_count() <= _SET_CELLS]


def _digit_swaps(solution_boards: Boards) -> list[int]:
    """The smallest sets of cells two digits can trade places in, keeping every house whole.

    A cell's partners are the other digit's cells among its peers (one in its row, one in its
    column, one in its box); each set is a connected group of partners, so it holds both
    digits in every house it meets.
    """
    found: list[int] = []
    for a in range(9):
        for b in range(a + 1, 9):
            left = solution_boards[a] | solution_boards[b]
            while left:
                group = frontier = left & -left
                while frontier:
                    low = frontier & -frontier
                    frontier ^= low
                    cell = low.bit_length() - 1
                    own = solution_boards[a] if solution_boards[a] & low else solution_boards[b]
                    new = (left & ~own) & PEER_BITS[cell] & ~group
                    group |= new
                    frontier |= new
                found.append(group)
                left &= ~group
    return found


def _line_swaps(solution: Grid) -> list[int]:
    """The smallest sets of cells two rows of one band (or two columns of one stack) can trade.

    Trading the cells of rows r and s in some columns keeps those columns and the band's boxes
    whole; the rows stay whole when both hold the same digits there. Following column c to
    the column where s holds r's digit of c closes a cycle of such columns. Cycles of two are
    left out: they are rectangles of two digits, which _digit_swaps finds already.
    """
    found: list[int] = []
    for lines in (ROWS, COLS):
        for first in range(0, 9, 3):
            for r, s in ((first, first + 1), (first, first + 2), (first + 1, first + 2)):
                one, other = lines[r], lines[s]
                where_in_other = {solution[cell]: i for i, cell in enumerate(other)}
                left = set(range(9))
                while left:
                    i = start = left.pop()
                    cycle = 0
                    while True:
                        cycle |= CELL_BIT[one[i]] | CELL_BIT[other[i]]
                        left.discard(i)
                        i = where_in_other[solution[one[i]]]
                        if i == start:
                            break
                    if cycle.bit_count() > 4:
                        found.append(cycle)
    return found


def _sets_by_cell(sets: list[int]) -> list[list[int]]:
    """For each cell, the unavoidable sets it lies in."""
    by_cell: list[list[int]] = [[] for _ in CELLS]
    for cells in sets:
        rest = cells
        while rest:
            low = rest & -rest
            by_cell[low.bit_length() - 1].append(cells)
            rest ^= low
    return by_cell


def _leaves_a_set_bare(sets_of: list[list[int]], filled: int, group: tuple[int, ...]) -> bool:
    """Whether taking the group out left an unavoidable set without any clue (so the clues stay)."""
    return any(not filled & bare for cell in group for bare in sets_of[cell])


def _differs_somewhere(placed: Boards, group: tuple[int, ...], solution: Grid, reach: Reach) -> bool:
    """Whether the givens allow a solution that differs from `solution` in a cell of the group.

    Any second solution must differ from the known one in a removed cell, so for each removed
    cell in turn we ask for a solution that differs there while agreeing on the earlier ones.
    """
    trial = placed[:]
    for cell in group:
        digit = solution[cell]
        if has_other_solution(trial, cell, digit, reach):
            return True
        trial[digit - 1] |= CELL_BIT[cell]
    return False


def _stays_unique(
    placed: Boards, group: tuple[int, ...], solution: Grid, solution_boards: Boards, reach: Reach
) -> bool:
    """Whether the puzzle, with the group's clues already taken out of `placed`, is still unique.

    Two shortcuts come before the full search (after clear() has looked for a bare unavoidable
    set). A removed clue that the other givens force back (a naked or hidden single) is safe.
    And many second solutions differ from the first only near the removed cell, so we first
    look for one with every cell outside the removed cells' bands and stacks pinned to the
    known solution: a small search that settles some of the clues that must stay. `reach` is
    the searches' shared memory (state_from_boards).
    """
    if all(_forced(placed, c, solution[c]) for c in group):
        return True
    near = 0
    for cell in group:
        near |= _NEAR[cell]
    pinned = [p | (s & ~near) for p, s in zip(placed, solution_boards)]
    if _differs_somewhere(pinned, group, solution, reach):
        return False
    return not _differs_somewhere(placed, group, solution, reach)


def clear(solution: Grid | str, rng: random.Random, symmetry: str = "none") -> Grid:
    """clear(solution, rng, symmetry='none') -> the givens of a minimal puzzle with that solution.

    With a symmetry, clues leave in symmetric groups and the result is minimal among such
    removals (a single clue of a pair might still go on its own).
    """
    grid = as_grid(solution)
    if not is_complete_solution(grid):
        raise InvalidGrid("clearing starts from a complete, valid grid")
    groups = symmetry_groups(symmetry)
    rng.shuffle(groups)
    solution_boards = boards_of(grid)
    sets_of = _sets_by_cell(unavoidable_sets(grid))
    reach: Reach = {}
    placed = solution_boards[:]
    filled = FULL_BOARD
    for group in groups:
        for cell in group:
            placed[grid[cell] - 1] &= ~CELL_BIT[cell]
            filled &= ~CELL_BIT[cell]
        # A bare unavoidable set proves the clues must stay without a search.
        if _leaves_a_set_bare(sets_of, filled, group) or not _stays_unique(placed, group, grid, solution_boards, reach):
            for cell in group:
                placed[grid[cell] - 1] |= CELL_BIT[cell]
                filled |= CELL_BIT[cell]
    givens = [0] * 81
    for d, board in enumerate(placed):
        while board:
            low = board & -board
            givens[low.bit_length() - 1] = d + 1
            board ^= low
    return givens
