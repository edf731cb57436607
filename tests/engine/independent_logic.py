"""A deliberately plain logical solver, written apart from the engine, that the tests trust instead.

Each empty cell keeps a Python set of candidate digits. Every technique is a sweep over the board
that removes candidates or places digits and says whether it changed anything; the sweeps of the
allowed families run until none of them changes anything. Sound deductions only ever shrink the
candidate sets, so the end state (their closure) does not depend on the order of the sweeps.
The unique rectangles are sound only for a puzzle with one solution, as every puzzle here has.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
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


def fish(size: int) -> Callable[[Board], bool]:
    """`size` rows whose places for a digit lie in `size` columns between them clear those columns
    (and the same with rows and columns swapped): an x-wing on two lines, a swordfish on three."""

    def sweep(board: Board) -> bool:
        changed = False
        for bases, covers, cover_of in ((ROWS, COLS, lambda c: c % 9), (COLS, ROWS, lambda c: c // 9)):
            for digit in DIGITS:
                # For each base line still missing the digit: which cover lines it may go in.
                spots = {
                    b: {cover_of(c) for c in board.places(line, digit)}
                    for b, line in enumerate(bases)
                    if digit in board.missing(line)
                }
                for chosen in combinations(spots, size):
                    cover_ids = set().union(*(spots[b] for b in chosen))
                    if len(cover_ids) == size:
                        base_cells = {c for b in chosen for c in bases[b]}
                        for k in cover_ids:
                            changed |= board.remove(set(covers[k]) - base_cells, [digit])
        return changed

    sweep.__name__ = {2: "x_wings", 3: "swordfish", 4: "jellyfish"}[size]
    return sweep


x_wings = fish(2)


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


def xyz_wings(board: Board) -> bool:
    """A pivot {x, y, z} seeing pincers {x, z} and {y, z}: z goes from every cell seeing all three."""
    changed = False
    for pivot in range(81):
        if len(board.cands[pivot]) != 3:
            continue
        for a, b in combinations(sorted(PEERS[pivot]), 2):
            pincers = (board.cands[a], board.cands[b])
            if all(len(p) == 2 and p <= board.cands[pivot] for p in pincers) and pincers[0] != pincers[1]:
                changed |= board.remove(PEERS[pivot] & PEERS[a] & PEERS[b], pincers[0] & pincers[1])
    return changed


def strong_links(board: Board, digit: int) -> list[tuple[int, int]]:
    """Every (a, b), both ways round, where a and b are a house's only two places for `digit`."""
    links = []
    for unit in UNITS:
        spots = board.places(unit, digit)
        if len(spots) == 2:
            a, b = spots
            links += [(a, b), (b, a)]
    return links


def two_link_chains(board: Board) -> bool:
    """Skyscraper, two-string kite, turbot fish: strong links a = b and c = d on a digit, b seeing
    c, four different cells: a or d holds the digit, so no cell seeing both can."""
    changed = False
    for digit in DIGITS:
        links = strong_links(board, digit)
        for a, b in links:
            for c, d in links:
                if c in PEERS[b] and len({a, b, c, d}) == 4:
                    changed |= board.remove(PEERS[a] & PEERS[d], [digit])
    return changed


def empty_rectangles(board: Board) -> bool:
    """A box whose places for a digit lie on one of its rows and one of its columns, not on one
    alone, and a line outside the box with two places, one on that column (row): where the other
    place's column (row) crosses the box's row (column), outside the box, the digit can't go."""
    changed = False
    for digit in DIGITS:
        for box in BOXES:
            inside = set(board.places(box, digit))
            if len(inside) < 2:
                continue
            for r, c in {divmod(cell, 9) for cell in box}:
                on_row = {x for x in inside if x // 9 == r}
                on_col = {x for x in inside if x % 9 == c}
                if inside != on_row | on_col or inside in (on_row, on_col):
                    continue
                # A row link with one end on column c, and a column link with one end on row r.
                for lines, on_arm, target_of in (
                    (ROWS, lambda x: x % 9 == c, lambda far: r * 9 + far % 9),
                    (COLS, lambda x: x // 9 == r, lambda far: far // 9 * 9 + c),
                ):
                    for line in lines:
                        spots = board.places(line, digit)
                        if len(spots) != 2 or set(line) & set(box):
                            continue
                        for near, far in (spots, spots[::-1]):
                            if on_arm(near) and target_of(far) not in box:
                                changed |= board.remove([target_of(far)], [digit])
    return changed


# Rectangles whose corners lie in two boxes: the ones that could swap two digits in a solution.
RECTANGLES = [
    (r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2)
    for r1, r2 in combinations(range(9), 2)
    for c1, c2 in combinations(range(9), 2)
    if len({(r // 3, c // 3) for r in (r1, r2) for c in (c1, c2)}) == 2
]


def rectangles(board: Board, floor_size: int) -> Iterator[tuple[set[int], list[int], list[int]]]:
    """Each (pair, floor, roof) of a rectangle in two boxes whose four corners all hold the pair,
    `floor_size` of them (the floor) nothing else; a floor of two shares a row or a column."""
    for corners in RECTANGLES:
        pairs = {frozenset(board.cands[c]) for c in corners if len(board.cands[c]) == 2}
        for pair in pairs:
            floor = [c for c in corners if board.cands[c] == pair]
            roof = [c for c in corners if c not in floor]
            if len(floor) != floor_size or not all(pair <= board.cands[c] for c in roof):
                continue
            if floor_size == 2 and floor[0] // 9 != floor[1] // 9 and floor[0] % 9 != floor[1] % 9:
                continue
            yield set(pair), floor, roof


def houses_of(*cells: int) -> list[list[int]]:
    """The houses holding every one of `cells`."""
    return [unit for unit in UNITS if all(c in unit for c in cells)]


def unique_rectangles_1(board: Board) -> bool:
    """Three corners hold only {a, b}: the fourth can't be a or b."""
    changed = False
    for pair, _, roof in rectangles(board, 3):
        changed |= board.remove(roof, pair)
    return changed


def unique_rectangles_2(board: Board) -> bool:
    """The roof's two corners both hold only {a, b, c}: one of them is c, so no cell seeing both is."""
    changed = False
    for pair, _, (p, q) in rectangles(board, 2):
        extra = board.cands[p] - pair
        if board.cands[p] == board.cands[q] and len(extra) == 1:
            changed |= board.remove(PEERS[p] & PEERS[q], extra)
    return changed


def unique_rectangles_3(board: Board) -> bool:
    """The roof's extra digits act as one cell of a house holding both roof corners: with 1-3 more
    cells of that house they make a naked subset, whose digits leave the rest of the house."""
    changed = False
    for pair, _, (p, q) in rectangles(board, 2):
        extras = (board.cands[p] | board.cands[q]) - pair
        for house in houses_of(p, q):
            others = [c for c in board.empty(house) if c not in (p, q)]
            for size in (1, 2, 3):
                for group in combinations(others, size):
                    digits = extras.union(*(board.cands[c] for c in group))
                    if len(digits) == size + 1:
                        changed |= board.remove(set(others) - set(group), digits)
    return changed


def unique_rectangles_4(board: Board) -> bool:
    """In a house holding both roof corners, a has no other place: one of them is a, so neither is b."""
    changed = False
    for pair, _, (p, q) in rectangles(board, 2):
        for house in houses_of(p, q):
            for a in pair:
                if set(board.places(house, a)) == {p, q}:
                    changed |= board.remove([p, q], pair - {a})
    return changed


FAMILIES: dict[str, list[Callable[[Board], bool]]] = {
    "easy": [naked_singles, hidden_singles],
}
FAMILIES["medium"] = FAMILIES["easy"] + [locked_candidates, naked_subsets(2), hidden_subsets(2)]
FAMILIES["hard"] = FAMILIES["medium"] + [
    x_wings,
    naked_subsets(3),
    fish(3),
    hidden_subsets(3),
    xy_wings,
    xyz_wings,
    two_link_chains,
    empty_rectangles,
    unique_rectangles_1,
    unique_rectangles_2,
    unique_rectangles_3,
    unique_rectangles_4,
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
