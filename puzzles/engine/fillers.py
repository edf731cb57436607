"""Filling an empty grid with a random complete solution: the four documented methods.

docs/algorithms.md describes each one and credits the write-up it follows.

Each filler takes the random source it may use (`rng`) and returns a full grid with the figures
of how it got there. All four keep, for every row, column and box, a mask of the digits already
used there, so a cell's candidates are ``ALL & ~(row | column | box)``: one expression instead
of a walk over twenty peers. Digits are unique within a unit, so XOR both sets and clears a
digit's bit, which makes taking a placement back as cheap as making it.

- potential-array: the "Potential Array" of candidate lists; forced singles first, else a random
  empty cell takes a random candidate; an empty list starts the whole grid again.
- row-by-row: a random first row, then each row from its cells' possibilities, fewest first,
  least-shared value after the third; an impasse rolls back the row above.
- band-backtrack: cell by cell from the top left, random allowed values; a dead end restarts
  the current band of three rows.
- diagonal-boxes: the three diagonal boxes at random, then fewest-candidates-first with a random
  candidate; a board left with empty cells is thrown away.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import asdict, dataclass

from .grid import ALL, BIT, BOX_OF, BOXES, COL_OF, DIGITS_OF, PEERS, POPCOUNT, ROW_OF, Grid, Mask

Masks = list[Mask]  # nine used-digit masks, one per row, column or box
Row = list[int]  # nine digits, left to right


@dataclass
class FillStats:
    """How one fill went: which filler, and how much work and starting over it took."""

    filler: str
    restarts: int = 0  # the grid emptied and begun again, or a finished board thrown away
    rollbacks: int = 0  # rows or bands taken back and refilled
    steps: int = 0  # digits placed, counting those later taken back
    fallbacks: int = 0  # rollbacks reaching further than the source's own rule

    def to_dict(self) -> dict[str, int | str]:
        """Plain values for JSON and logs."""
        return asdict(self)


Filler = Callable[[random.Random], tuple[Grid, FillStats]]


def _toggle_digit(row_used: Masks, col_used: Masks, box_used: Masks, cell: int, d: int) -> None:
    """Flip digit d in the masks of the cell's row, column and box: add it, or take it back."""
    bit = BIT[d]
    row_used[ROW_OF[cell]] ^= bit
    col_used[COL_OF[cell]] ^= bit
    box_used[BOX_OF[cell]] ^= bit


# --- potential-array (see docs/algorithms.md) -------------------------------------------------


def _until_complete(
    name: str, attempt: Callable[[random.Random, FillStats], Grid | None], rng: random.Random
) -> tuple[Grid, FillStats]:
    """Repeat a from-scratch attempt until one completes, counting each failure as a restart."""
    stats = FillStats(name)
    while True:
        grid = attempt(rng, stats)
        if grid is not None:
            return grid, stats
        stats.restarts += 1


def potential_array(rng: random.Random) -> tuple[Grid, FillStats]:
    """Place forced singles, else a random candidate in a random cell; restart on an empty list."""
    return _until_complete("potential-array", _potential_array_attempt, rng)


def _potential_array_attempt(rng: random.Random, stats: FillStats) -> Grid | None:
    """One try from a blank grid: the full grid, or None once some cell's list is empty."""
    grid = [0] * 81
    potential = [ALL] * 81  # the Potential Array: each cell's list, as a mask
    # The empty cells, with each one's index in that list, so a random one is found and
    # dropped in constant time (swap with the last).
    empty = list(range(81))
    index = list(range(81))
    singles: list[int] = []  # empty cells whose list has come down to one number
    while empty:
        if singles:
            cell = singles.pop()
            d = DIGITS_OF[potential[cell]][0]
        else:
            cell = empty[rng.randrange(len(empty))]
            d = rng.choice(DIGITS_OF[potential[cell]])
        grid[cell] = d
        potential[cell] = BIT[d]
        stats.steps += 1
        last = empty.pop()
        if last != cell:
            empty[index[cell]] = last
            index[last] = index[cell]
        # Stripping the digit from the row, column and box lists leaves exactly the array a
        # full recalculation would give, at a small part of the cost.
        bit = BIT[d]
        for p in PEERS[cell]:
            if not grid[p] and potential[p] & bit:
                left = potential[p] ^ bit
                if not left:
                    return None
                potential[p] = left
                if POPCOUNT[left] == 1:
                    singles.append(p)
    return grid


# --- row-by-row (see docs/algorithms.md) ------------------------------------------------------

# The source writes a cell's sorted possibilities as one number ([1, 3, 5, 8] -> 1358) and
# fills the cell with the smallest number first: fewest possibilities, then the lowest digits.
# An empty list reads as 0, so a cell with no possibility comes first and is found at once.
_ROW_KEY: tuple[int, ...] = tuple(int("".join(map(str, DIGITS_OF[m])) or "0") for m in range(512))
_RANDOM_PICKS = 3  # the first three cells filled in a row take a random value
# A regenerated row that keeps coming out equal to one that already failed says the rows above
# leave little choice: after this many, take one more row back.
_ROW_REPEATS = 8


def row_by_row(rng: random.Random) -> tuple[Grid, FillStats]:
    """A random first row, then each row from its possibilities; an impasse redoes the row above."""
    stats = FillStats("row-by-row")
    rows: list[Row] = []
    col_used = [0] * 9
    box_used = [0] * 9
    # For each row, the versions of it that led to an impasse below, under the rows now above
    # it: the row is regenerated "with different numbers than before".
    failed: list[set[tuple[int, ...]]] = [set() for _ in range(9)]
    repeats = 0
    while len(rows) < 9:
        r = len(rows)
        if r == 0:
            row: Row | None = _random_row(rng, stats)
        else:
            row = _possible_row(r, col_used, box_used, rng, stats)
        if row is not None and tuple(row) in failed[r]:
            repeats += 1
            if repeats < _ROW_REPEATS:
                continue
            stats.fallbacks += 1
            row = None  # treat as an impasse: the rows above get the blame
        if row is None:
            repeats = 0
            if r == 0:  # unreachable in practice: 9! first rows; forget the failures and go on
                failed[0].clear()
                stats.restarts += 1
                continue
            stats.rollbacks += 1
            failed[r].clear()  # those failures were under the row now being taken back
            above = rows.pop()
            failed[r - 1].add(tuple(above))
            _toggle_row(r - 1, above, col_used, box_used)
            continue
        repeats = 0
        rows.append(row)
        _toggle_row(r, row, col_used, box_used)
    return [d for row in rows for d in row], stats


def _random_row(rng: random.Random, stats: FillStats) -> Row:
    """The first row: a random permutation of 1-9."""
    row = list(range(1, 10))
    rng.shuffle(row)
    stats.steps += 9
    return row


def _toggle_row(r: int, row: Row, col_used: Masks, box_used: Masks) -> None:
    """Add row r's digits to the column and box masks, or take them out if already there."""
    band = 3 * (r // 3)
    for c, d in enumerate(row):
        col_used[c] ^= BIT[d]
        box_used[band + c // 3] ^= BIT[d]


def _possible_row(r: int, col_used: Masks, box_used: Masks, rng: random.Random, stats: FillStats) -> Row | None:
    """Row r filled fewest-possibilities-first under the rows above, or None at an impasse."""
    band = 3 * (r // 3)
    possible = [ALL & ~(col_used[c] | box_used[band + c // 3]) for c in range(9)]
    row = [0] * 9
    open_cells = list(range(9))
    for filled in range(9):
        cell = min(open_cells, key=lambda c: _ROW_KEY[possible[c]])
        mask = possible[cell]
        if not mask:
            return None
        open_cells.remove(cell)
        digits = DIGITS_OF[mask]
        if filled < _RANDOM_PICKS:
            d = rng.choice(digits)
        else:
            d = _least_shared(digits, [possible[c] for c in open_cells], rng)
        row[cell] = d
        stats.steps += 1
        bit = BIT[d]
        for c in open_cells:
            possible[c] &= ~bit
    return row


def _least_shared(digits: tuple[int, ...], others: Masks, rng: random.Random) -> int:
    """The digit found in the fewest of the other cells' possibilities; ties at random."""
    if len(digits) == 1:
        return digits[0]
    counts = [sum(1 for m in others if m & BIT[d]) for d in digits]
    fewest = min(counts)
    best = [d for d, n in zip(digits, counts) if n == fewest]
    return best[0] if len(best) == 1 else rng.choice(best)


# --- band-backtrack (see docs/algorithms.md) --------------------------------------------------

# The source goes back to the first row of the current band and never further, and calls that
# unproven. It does hold: once rows 1-3 are complete the grid can always be finished (a full top
# band has completions), and once rows 1-6 are, the bottom band always fits, since each stack's
# three columns then miss disjoint triples and a 3-regular bipartite graph of columns and
# digits always splits into three rows. So a band restart never faces a dead position and only
# bad luck makes it repeat; the cap below only bounds that bad luck.
#
# Dead ends tolerated in one band before the band above is redone too. The bottom band's tries
# have a long tail (bench/engine.py counts restarts and rollbacks); a lower cap saved no time in
# measurement, so it is set to trim only that tail.
_BAND_RETRIES = 100


def band_backtrack(rng: random.Random) -> tuple[Grid, FillStats]:
    """Random allowed values cell by cell; a dead end restarts the band, too many the band above."""
    stats = FillStats("band-backtrack")
    grid = [0] * 81
    row_used = [0] * 9
    col_used = [0] * 9
    box_used = [0] * 9
    dead_ends = [0, 0, 0]  # per band, since the band was last begun from a fresh band above
    cell = 0
    while cell < 81:
        mask = ALL & ~(row_used[ROW_OF[cell]] | col_used[COL_OF[cell]] | box_used[BOX_OF[cell]])
        if mask:
            d = rng.choice(DIGITS_OF[mask])
            grid[cell] = d
            _toggle_digit(row_used, col_used, box_used, cell, d)
            stats.steps += 1
            cell += 1
            continue
        band = cell // 27
        dead_ends[band] += 1
        if band and dead_ends[band] > _BAND_RETRIES:
            stats.fallbacks += 1
            dead_ends[band] = 0
            band -= 1
        # Going back to the top band empties the grid: count it as a restart, not a rollback.
        if band:
            stats.rollbacks += 1
        else:
            stats.restarts += 1
        start = band * 27
        for c in range(start, cell):
            _toggle_digit(row_used, col_used, box_used, c, grid[c])
            grid[c] = 0
        cell = start
    return grid, stats


# --- diagonal-boxes (see docs/algorithms.md) --------------------------------------------------

_DIAGONAL = (BOXES[0], BOXES[4], BOXES[8])  # three boxes that share no row or column


def diagonal_boxes(rng: random.Random) -> tuple[Grid, FillStats]:
    """Seed the diagonal boxes, then fewest-candidates-first; discard a board left unfinished."""
    return _until_complete("diagonal-boxes", _diagonal_boxes_attempt, rng)


def _diagonal_boxes_attempt(rng: random.Random, stats: FillStats) -> Grid | None:
    """One board: complete, or None when an empty cell is left without candidates."""
    grid = [0] * 81
    row_used = [0] * 9
    col_used = [0] * 9
    box_used = [0] * 9
    for box in _DIAGONAL:
        digits = list(range(1, 10))
        rng.shuffle(digits)
        for cell, d in zip(box, digits):
            grid[cell] = d
            _toggle_digit(row_used, col_used, box_used, cell, d)
        stats.steps += 9
    empty = [c for c in range(81) if not grid[c]]
    while empty:
        best = -1
        best_mask = 0
        fewest = 10
        for cell in empty:
            mask = ALL & ~(row_used[ROW_OF[cell]] | col_used[COL_OF[cell]] | box_used[BOX_OF[cell]])
            n = POPCOUNT[mask]
            if not n:
                # Candidates only ever shrink, so this cell stays empty and the source would
                # discard the board at the end; stopping here gives the same outcome sooner.
                return None
            if n < fewest:
                best, best_mask, fewest = cell, mask, n
                if n == 1:
                    break
        d = rng.choice(DIGITS_OF[best_mask])
        grid[best] = d
        _toggle_digit(row_used, col_used, box_used, best, d)
        stats.steps += 1
        empty.remove(best)
    return grid


# --- registry ---------------------------------------------------------------------------------

FILLERS: dict[str, Filler] = {
    "potential-array": potential_array,
    "row-by-row": row_by_row,
    "band-backtrack": band_backtrack,
    "diagonal-boxes": diagonal_boxes,
}
DEFAULT_FILLER = "diagonal-boxes"  # the fastest of the four in bench/engine.py


def fill(rng: random.Random, filler: str = DEFAULT_FILLER) -> tuple[Grid, FillStats]:
    """A random full grid from the named filler, with its stats; ValueError for an unknown name."""
    try:
        method = FILLERS[filler]
    except KeyError:
        raise ValueError(f"unknown filler {filler!r}; known fillers: {', '.join(FILLERS)}") from None
    return method(rng)
