"""What every technique finder shares: the Step it returns, the position it reads, and the
words and bit tricks the finders have in common.

A position is two lists of 81 ints: the digits placed (0 for an empty cell) and each cell's
candidate mask (bit d - 1 for digit d, 0 for a filled cell), as a player with full pencil marks
would keep them. A finder only reads a position; apply() carries a step out. The catalogue of
techniques, with their tiers and difficulties, is data in catalogue.py; the finders are in a
module for each family (singles, subsets, fish, wings, chains, patterns, uniqueness, als,
forcing, direct), bound to the catalogue's names in finders.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .catalogue import TECHNIQUE_BY_NAME
from .grid import (
    BIT,
    CELL_BIT,
    DIGITS_OF,
    PEER_BITS,
    PEERS,
    POPCOUNT,
    UNIT_BITS,
    UNITS_OF,
    Cell,
    Digit,
    Grid,
    Mask,
    cell_name,
    unit_name,
)

Candidates = list[Mask]  # 81 masks, 0 for a filled cell
Pair = tuple[Cell, Digit]  # a placement or an elimination
Finder = Callable[[Grid, Candidates], "Step | None"]

# People scan boxes before lines, so every search visits boxes first, then rows, then columns.
HOUSE_ORDER: tuple[int, ...] = tuple(range(18, 27)) + tuple(range(18))


# --- steps ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Step:
    """One move of a solver: what it used, what it placed or removed, and why, in one sentence.

    houses[0] is where to look first, for a staged hint; placements and eliminations are
    (cell, digit) pairs.
    """

    technique: str
    houses: tuple[int, ...]
    cells: tuple[Cell, ...]
    digits: tuple[Digit, ...]
    placements: tuple[Pair, ...] = ()
    eliminations: tuple[Pair, ...] = ()
    explanation: str = ""
    # On the Sudoku Explainer scale (docs/algorithms.md); 0 means the technique's own figure.
    # Set by finders whose steps differ in difficulty, such as chains by their length.
    difficulty: float = 0.0

    @property
    def tier(self) -> str | None:
        """The technique's tier, or None for a check such as 'wrong-digit'."""
        technique = TECHNIQUE_BY_NAME.get(self.technique)
        return technique.tier if technique else None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form: houses and cells carry both their index and their name."""
        return {
            "technique": self.technique,
            "tier": self.tier,
            "houses": [{"index": u, "name": unit_name(u)} for u in self.houses],
            "cells": [{"index": c, "name": cell_name(c)} for c in self.cells],
            "digits": list(self.digits),
            "placements": [_pair_dict(c, d) for c, d in self.placements],
            "eliminations": [_pair_dict(c, d) for c, d in self.eliminations],
            "explanation": self.explanation,
        }


def _pair_dict(cell: Cell, digit: Digit) -> dict[str, Any]:
    """{'cell': index, 'name': 'r1c1', 'digit': d} for one placement or elimination."""
    return {"cell": cell, "name": cell_name(cell), "digit": digit}


def place(digits: Grid, cands: Candidates, cell: Cell, digit: Digit) -> None:
    """Write a digit and strike it from the candidates of the cell's peers."""
    digits[cell] = digit
    cands[cell] = 0
    keep = ~BIT[digit]
    for p in PEERS[cell]:
        cands[p] &= keep


def apply(step: Step, digits: Grid, cands: Candidates) -> None:
    """Carry out a step's placements and eliminations on a position, in place."""
    for cell, digit in step.placements:
        place(digits, cands, cell, digit)
    for cell, digit in step.eliminations:
        cands[cell] &= ~BIT[digit]


# --- wording ----------------------------------------------------------------------------------


def join_words(words: Sequence[str], last: str = "and") -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {last} " + words[-1]


def cells_text(cells: Sequence[Cell], last: str = "and") -> str:
    """Cell names joined for a sentence."""
    return join_words([cell_name(c) for c in cells], last)


def digits_text(digits: Sequence[Digit], last: str = "and") -> str:
    """Digits joined for a sentence."""
    return join_words([str(d) for d in digits], last)


def houses_text(houses: Sequence[int], last: str = "or") -> str:
    """House names joined for a sentence."""
    return join_words([unit_name(u) for u in houses], last)


def removals_text(eliminations: Sequence[Pair]) -> str:
    """'remove 4 and 9 from r2c1 and r2c5; 9 from r2c8': cells that lose the same digits go together."""
    by_cell: dict[Cell, list[Digit]] = {}
    for cell, digit in eliminations:
        by_cell.setdefault(cell, []).append(digit)
    groups: dict[tuple[Digit, ...], list[Cell]] = {}
    for cell, lost in by_cell.items():
        groups.setdefault(tuple(lost), []).append(cell)
    parts = [f"{digits_text(lost)} from {cells_text(cells)}" for lost, cells in groups.items()]
    # Semicolons keep the groups apart when a group's own digits or cells already use commas.
    return "remove " + "; ".join(parts)


def group_text(cells: Sequence[Cell], digit: Digit) -> str:
    """'r1c1 is 4', 'r1c1 and r2c2 are both 4', 'r1c1, r2c2 and r3c3 are all 4'."""
    verb = {1: "is", 2: "are both"}.get(len(cells), "are all")
    return f"{cells_text(cells)} {verb} {digit}"


def pencil(mask: Mask) -> str:
    """A cell's candidates for a sentence: '3 or 6'."""
    return digits_text(DIGITS_OF[mask], "or")


# --- small helpers ----------------------------------------------------------------------------


def bits(board: int) -> Iterator[Cell]:
    """The cells of an 81-bit set, lowest first."""
    while board:
        low = board & -board
        yield low.bit_length() - 1
        board ^= low


def digit_boards(cands: Candidates) -> list[int]:
    """For each digit (index d), the 81-bit set of cells where it is still a candidate."""
    boards = [0] * 10
    for cell, mask in enumerate(cands):
        if mask:
            bit = CELL_BIT[cell]
            for d in DIGITS_OF[mask]:
                boards[d] |= bit
    return boards


def unions(masks: Sequence[Mask], size: int) -> Iterator[tuple[tuple[int, ...], Mask]]:
    """Each choice of `size` indexes whose 9-bit masks join to exactly `size` bits, in order.

    Pruning on the union's size as it grows keeps quads cheap: most branches die at the
    second or third mask.
    """
    last = len(masks)

    def extend(start: int, chosen: tuple[int, ...], union: Mask) -> Iterator[tuple[tuple[int, ...], Mask]]:
        need = size - len(chosen)
        for i in range(start, last - need + 1):
            joined = union | masks[i]
            if POPCOUNT[joined] > size:
                continue
            if need == 1:
                yield chosen + (i,), joined
            else:
                yield from extend(i + 1, chosen + (i,), joined)

    return extend(0, (), 0)


def common_houses(cells: Sequence[Cell], first: int) -> tuple[int, ...]:
    """The houses holding every one of `cells`, starting with `first`."""
    shared = set(UNITS_OF[cells[0]])
    for c in cells[1:]:
        shared &= set(UNITS_OF[c])
    return (first,) + tuple(u for u in HOUSE_ORDER if u in shared and u != first)


def cell_houses(cell: Cell) -> tuple[int, ...]:
    """A cell's box, row and column, box first."""
    row, col, box = UNITS_OF[cell]
    return (box, row, col)


def seen_by_all(cells: Sequence[Cell], board: int) -> tuple[Cell, ...]:
    """The cells of `board` that see every one of `cells` (never those cells themselves)."""
    for c in cells:
        board &= PEER_BITS[c]
    return tuple(bits(board))


def strong_links(board: int) -> dict[Cell, list[tuple[Cell, int]]]:
    """For one digit's cells, each cell's conjugate partners: the other place in a house that
    has exactly two places for the digit, with that house."""
    links: dict[Cell, list[tuple[Cell, int]]] = {}
    for unit in HOUSE_ORDER:
        both = board & UNIT_BITS[unit]
        if both.bit_count() == 2:
            a, b = bits(both)
            links.setdefault(a, []).append((b, unit))
            links.setdefault(b, []).append((a, unit))
    return links


def chain_difficulty(base: float, length: int) -> float:
    """A chain's difficulty: its base plus 0.1 each time its length passes 4, 6, 8, 12, 16, 24,
    32, 48 ... (each threshold alternately half and a third more than the last), the way the
    Sudoku Explainer rating makes a longer chain harder."""
    added, ceiling, half = 0.0, 4, True
    while length > ceiling:
        added += 0.1
        ceiling = ceiling * 3 // 2 if half else ceiling * 4 // 3
        half = not half
    return round(base + added, 1)
