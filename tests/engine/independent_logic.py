"""A deliberately plain logical solver, written apart from the engine, that the tests trust instead.

Each empty cell keeps a Python set of candidate digits. Every technique is a sweep over the board
that removes candidates or places digits and says whether it changed anything; the sweeps of the
allowed families run until none of them changes anything. Sound deductions only ever shrink the
candidate sets, so the end state (their closure) does not depend on the order of the sweeps.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

ROWS = [[r * 9 + c for c in range(9)] for r in range(9)]
COLS = [[r * 9 + c for r in range(9)] for c in range(9)]
BOXES = [[(br * 3 + a) * 9 + bc * 3 + b for a in range(3) for b in range(3)] for br in range(3) for bc in range(3)]
UNITS = ROWS + COLS + BOXES
PEERS = [{p for unit in UNITS if i in unit for p in unit} - {i} for i in range(81)]
DIGITS = range(1, 10)


class Board:
    """Placed digits (0 for empty) and, for each empty cell, the digits it may still take."""

    def __init__(self, givens: list[int]) -> None:
        self.values = [0] * 81
        self.cands: list[set[int]] = [set(DIGITS) for _ in range(81)]
        for cell, digit in enumerate(givens):
            if digit:
                self.place(cell, digit)

    def place(self, cell: int, digit: int) -> None:
        self.values[cell] = digit
        self.cands[cell] = set()
        for peer in PEERS[cell]:
            self.cands[peer].discard(digit)

    def remove(self, cells, digits) -> bool:
        """Take `digits` out of the candidates of every cell in `cells`; True if any went."""
        changed = False
        for cell in cells:
            before = len(self.cands[cell])
            self.cands[cell] -= set(digits)
            changed |= len(self.cands[cell]) != before
        return changed

    def empty(self, unit) -> list[int]:
        return [c for c in unit if not self.values[c]]

    def missing(self, unit) -> list[int]:
        placed = {self.values[c] for c in unit}
        return [d for d in DIGITS if d not in placed]

    def places(self, unit, digit: int) -> list[int]:
        return [c for c in unit if digit in self.cands[c]]

    def solved(self) -> bool:
        return all(self.values)


# --- easy ---------------------------------------------------------------------------------------


def naked_singles(board: Board) -> bool:
    changed = False
    for cell in range(81):
        if not board.values[cell] and len(board.cands[cell]) == 1:
            board.place(cell, next(iter(board.cands[cell])))
            changed = True
    return changed


def hidden_singles(board: Board) -> bool:
    changed = False
    for unit in UNITS:
        for digit in board.missing(unit):
            spots = board.places(unit, digit)
            if len(spots) == 1:
                board.place(spots[0], digit)
                changed = True
    return changed


# --- medium -------------------------------------------------------------------------------------


def locked_candidates(board: Board) -> bool:
    """Pointing (a box's places for a digit all in one line) and claiming (the other way round)."""
    changed = False
    for box in BOXES:
        for line in ROWS + COLS:
            shared = set(box) & set(line)
            if not shared:
                continue
            for digit in DIGITS:
                in_box = set(board.places(box, digit))
                in_line = set(board.places(line, digit))
                if in_box and in_box <= shared:
                    changed |= board.remove(set(line) - shared, [digit])
                if in_line and in_line <= shared:
                    changed |= board.remove(set(box) - shared, [digit])
    return changed


def naked_subsets(size: int) -> Callable[[Board], bool]:
    """`size` empty cells of a unit holding only `size` digits between them: no other cell of
    the unit can take those digits."""

    def sweep(board: Board) -> bool:
        changed = False
        for unit in UNITS:
            empty = board.empty(unit)
            for group in combinations(empty, size):
                digits = set().union(*(board.cands[c] for c in group))
                if len(digits) == size:
                    changed |= board.remove(set(empty) - set(group), digits)
        return changed

    sweep.__name__ = f"naked_subsets_{size}"
    return sweep


def hidden_subsets(size: int) -> Callable[[Board], bool]:
    """`size` missing digits of a unit that fit only in `size` of its cells: those cells can
    take no other digit."""

    def sweep(board: Board) -> bool:
        changed = False
        for unit in UNITS:
            for digits in combinations(board.missing(unit), size):
                cells = {c for c in unit if board.cands[c] & set(digits)}
                if len(cells) == size:
                    for cell in cells:
                        others = board.cands[cell] - set(digits)
                        changed |= board.remove([cell], others)
        return changed

    sweep.__name__ = f"hidden_subsets_{size}"
    return sweep


# --- hard ---------------------------------------------------------------------------------------


def x_wings(board: Board) -> bool:
    """Two rows whose places for a digit lie in the same two columns clear those columns (and
    the same with rows and columns swapped)."""
    changed = False
    for bases, covers, cover_of in ((ROWS, COLS, lambda c: c % 9), (COLS, ROWS, lambda c: c // 9)):
        for digit in DIGITS:
            # For each base line still missing the digit: which cover lines it may go in.
            spots = {
                b: {cover_of(c) for c in board.places(line, digit)}
                for b, line in enumerate(bases)
                if digit in board.missing(line)
            }
            for b1, b2 in combinations(spots, 2):
                cover_ids = spots[b1] | spots[b2]
                if len(cover_ids) == 2:
                    base_cells = set(bases[b1]) | set(bases[b2])
                    for k in cover_ids:
                        changed |= board.remove(set(covers[k]) - base_cells, [digit])
    return changed


def xy_wings(board: Board) -> bool:
    """A pivot {x, y} seeing pincers {x, z} and {y, z}: z goes from every cell seeing both pincers."""
    changed = False
    # Pairs are looked up afresh at each step: an elimination earlier in the sweep may shrink one.
    for pivot in range(81):
        if len(board.cands[pivot]) != 2:
            continue
        x, y = sorted(board.cands[pivot])
        for a in PEERS[pivot]:
            if len(board.cands[a]) != 2 or x not in board.cands[a] or y in board.cands[a]:
                continue
            z = next(iter(board.cands[a] - {x}))
            for b in PEERS[pivot]:
                if board.cands[b] == {y, z}:
                    changed |= board.remove(PEERS[a] & PEERS[b], [z])
    return changed


FAMILIES: dict[str, list[Callable[[Board], bool]]] = {
    "easy": [naked_singles, hidden_singles],
}
FAMILIES["medium"] = FAMILIES["easy"] + [locked_candidates, naked_subsets(2), hidden_subsets(2)]
FAMILIES["hard"] = FAMILIES["medium"] + [
    naked_subsets(3),
    hidden_subsets(3),
    naked_subsets(4),
    hidden_subsets(4),
    x_wings,
    xy_wings,
]


def closure(givens: list[int], allowed: str, without: tuple[str, ...] = ()) -> Board:
    """The board once no family of `allowed` or below (less any named in `without`) changes it."""
    families = [f for f in FAMILIES[allowed] if f.__name__ not in without]
    board = Board(givens)
    while not board.solved():
        # Cheapest first, back to the start after any change: only for speed, not for the result.
        if not any(family(board) for family in families):
            break
    return board


def solves_with(givens: list[int], allowed: str) -> bool:
    """Whether the families of tier `allowed` ('easy', 'medium', 'hard') and below solve the grid."""
    return closure(givens, allowed).solved()
