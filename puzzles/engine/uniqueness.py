"""Uniqueness techniques: steps that hold only because the puzzle has exactly one solution.

A deadly pattern is four open cells at the corners of a rectangle (two rows, two columns and
exactly two boxes) that could all hold only the same two digits a and b. Whatever the rest of
the grid holds, those four cells could then swap their a's and b's and give a second solution.
A puzzle with one solution can't end that way, so at least one corner holds something else.
The unique rectangles (types 1 to 4) turn that fact into eliminations; a BUG+1 (every open cell
down to two candidates, one cell to three) turns the same idea into a placement.

None of these steps is sound for a puzzle with several solutions: the rater checks that the
puzzle has exactly one solution before it trusts them, and every caller must do the same.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from .grid import (
    BIT,
    BOX_OF,
    CELL_BIT,
    CELLS,
    DIGITS_OF,
    POPCOUNT,
    UNIT_BITS,
    UNITS,
    UNITS_OF,
    Cell,
    Grid,
    Mask,
    cell_name,
    unit_name,
)
from .steps import (
    HOUSE_ORDER,
    Candidates,
    Pair,
    Step,
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

Cells = tuple[Cell, ...]
Corners = tuple[Cell, Cell, Cell, Cell]  # r1c1, r1c2, r2c1, r2c2 of a rectangle, in that order


def _rectangles() -> tuple[Corners, ...]:
    """Every rectangle whose four cells lie in exactly two boxes, top-left corner first."""
    found = []
    for r1, r2 in combinations(range(9), 2):
        for c1, c2 in combinations(range(9), 2):
            corners = (r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2)
            if len({BOX_OF[c] for c in corners}) == 2:
                found.append(corners)
    return tuple(found)


_RECTANGLES = _rectangles()


def _rectangles_by_pair() -> dict[tuple[Cell, Cell], tuple[int, ...]]:
    """For each two cells (lower first), the rectangles (by index) that have both as corners."""
    found: dict[tuple[Cell, Cell], list[int]] = {}
    for i, corners in enumerate(_RECTANGLES):
        for a, b in combinations(corners, 2):
            found.setdefault((a, b), []).append(i)
    return {pair: tuple(rects) for pair, rects in found.items()}


_RECTANGLES_WITH = _rectangles_by_pair()

# The reason every explanation gives, once the rectangle's cells and digits are named.
_DEADLY = "the four cells could swap their {a}s and {b}s and the puzzle would have two solutions; it has one"


def shared_houses(a: Cell, b: Cell) -> tuple[int, ...]:
    """The houses holding both cells, boxes first."""
    return tuple(u for u in HOUSE_ORDER if u in UNITS_OF[a] and u in UNITS_OF[b])


def _houses(corners: Corners, first: int) -> tuple[int, ...]:
    """The rectangle's houses (its two boxes, rows and columns), starting with `first`."""
    mine = {u for c in corners for u in UNITS_OF[c]}
    return (first,) + tuple(u for u in HOUSE_ORDER if u in mine and u != first)


def _candidate_rectangles(cands: Candidates, floor_size: int) -> Iterator[tuple[Corners, Mask, Cells, Cells]]:
    """Each (corners, pair mask, floor, roof): all four corners open and holding the pair, and
    exactly `floor_size` of them (the floor) holding nothing else. With a floor of two, the
    floor shares a row or column, so the roof (the other two) shares the opposite one.

    A floor has two cells holding the same two digits, so only the rectangles through two such
    cells are read, in the order of the full list."""
    same_pair: dict[Mask, list[Cell]] = {}
    for cell, mask in enumerate(cands):
        if POPCOUNT[mask] == 2:
            same_pair.setdefault(mask, []).append(cell)
    chosen: set[int] = set()
    for cells in same_pair.values():
        for a, b in combinations(cells, 2):
            chosen.update(_RECTANGLES_WITH.get((a, b), ()))
    for index in sorted(chosen):
        corners = _RECTANGLES[index]
        p, q, r, t = corners
        w, x, y, z = cands[p], cands[q], cands[r], cands[t]
        common = w & x & y & z
        if POPCOUNT[common] < 2:
            continue
        for pair in sorted({m for m in (w, x, y, z) if POPCOUNT[m] == 2 and m & common == m}):
            floor = tuple(c for c in corners if cands[c] == pair)
            if len(floor) != floor_size:
                continue
            roof = tuple(c for c in corners if c not in floor)
            if floor_size == 2 and not shared_houses(*floor):
                continue
            yield corners, pair, floor, roof


# --- unique rectangles ------------------------------------------------------------------------


def unique_rectangle_1(digits: Grid, cands: Candidates) -> Step | None:
    """Three corners of a rectangle hold only {a,b}: the fourth can't be a or b."""
    for corners, pair, floor, (target,) in _candidate_rectangles(cands, 3):
        a, b = DIGITS_OF[pair]
        elims = ((target, a), (target, b))
        return Step(
            "unique-rectangle-1",
            _houses(corners, UNITS_OF[target][2]),
            corners,
            (a, b),
            eliminations=elims,
            explanation=(
                f"{cells_text(floor)} can only be {a} or {b}. If {cell_name(target)} were {a} or {b} "
                f"too, {_DEADLY.format(a=a, b=b)}, so {removals_text(elims)}."
            ),
        )
    return None


def unique_rectangle_2(digits: Grid, cands: Candidates) -> Step | None:
    """Two corners in a line hold only {a,b}, the other two only {a,b,c}: one of those is c, so
    a cell seeing both can't be."""
    boards: list[int] | None = None
    for corners, pair, floor, roof in _candidate_rectangles(cands, 2):
        extra = cands[roof[0]] & ~pair
        if POPCOUNT[extra] != 1 or cands[roof[1]] != cands[roof[0]]:
            continue
        if boards is None:
            boards = digit_boards(cands)
        c = DIGITS_OF[extra][0]
        targets = seen_by_all(roof, boards[c])
        if not targets:
            continue
        elims = tuple((t, c) for t in targets)
        a, b = DIGITS_OF[pair]
        p, q = (cell_name(r) for r in roof)
        line = next(u for u in shared_houses(*roof) if u < 18)
        return Step(
            "unique-rectangle-2",
            _houses(corners, line),
            corners,
            (a, b, c),
            eliminations=elims,
            explanation=(
                f"{cells_text(floor)} can only be {a} or {b}, and {p} and {q} only {a}, {b} or {c}. "
                f"If neither {p} nor {q} were {c}, {_DEADLY.format(a=a, b=b)}, so one of them is {c} "
                f"and a cell that sees both can't be: {removals_text(elims)}."
            ),
        )
    return None


def unique_rectangle_3(digits: Grid, cands: Candidates) -> Step | None:
    """Two corners hold only {a,b}; the other two, sharing a house, hold extra digits that act
    as one cell and with 1-3 more cells of that house make a naked subset. The smallest wins."""
    for size in (1, 2, 3):
        for corners, pair, floor, roof in _candidate_rectangles(cands, 2):
            extras = (cands[roof[0]] | cands[roof[1]]) & ~pair
            found = roof_subset(cands, roof, extras, size)
            if found is None:
                continue
            subset, union, houses, elims = found
            a, b = DIGITS_OF[pair]
            p, q = (cell_name(r) for r in roof)
            held = DIGITS_OF[union]
            members = join_words(["That cell"] + [f"{cell_name(c)} ({pencil(cands[c])})" for c in subset])
            return Step(
                "unique-rectangle-3",
                houses + tuple(u for u in _houses(corners, houses[0]) if u not in houses),
                corners + subset,
                tuple(sorted({a, b, *held})),
                eliminations=elims,
                explanation=(
                    f"{cells_text(floor)} can only be {a} or {b}. If {p} and {q} were {a} or {b} as "
                    f"well, {_DEADLY.format(a=a, b=b)}, so one of them is {pencil(extras)}. {members} "
                    f"hold {digits_text(held)} between them, so no other cell in {houses_text(houses)} "
                    f"can: {removals_text(elims)}."
                ),
                difficulty=round(4.5 + 0.1 * size, 1),
            )
    return None


def roof_subset(
    cands: Candidates, roof: Cells, extras: Mask, size: int
) -> tuple[Cells, Mask, tuple[int, ...], tuple[Pair, ...]] | None:
    """`size` cells of a house holding both roof cells that, with the roof's extra digits as one
    more cell, hold `size` + 1 digits and clear some: (the cells, their digits, the houses they
    clear, the eliminations)."""
    shared = shared_houses(*roof)
    for house in shared:
        pool = [c for c in UNITS[house] if cands[c] and c not in roof and POPCOUNT[cands[c] | extras] <= size + 1]
        for subset in combinations(pool, size):
            union = extras
            for c in subset:
                union |= cands[c]
            if POPCOUNT[union] != size + 1:
                continue
            skip = set(subset) | set(roof)
            # Every house holding the roof and the subset loses the subset's digits.
            houses = (house,) + tuple(u for u in shared if u != house and all(u in UNITS_OF[c] for c in subset))
            touched = sorted({c for u in houses for c in UNITS[u] if c not in skip and cands[c] & union})
            if touched:
                return subset, union, houses, tuple((c, d) for c in touched for d in DIGITS_OF[cands[c] & union])
    return None


def unique_rectangle_4(digits: Grid, cands: Candidates) -> Step | None:
    """Two corners hold only {a,b}; in a house holding the other two, a can go nowhere else:
    one of them is a, so neither can be b."""
    boards: list[int] | None = None
    for corners, pair, floor, roof in _candidate_rectangles(cands, 2):
        if boards is None:
            boards = digit_boards(cands)
        both = CELL_BIT[roof[0]] | CELL_BIT[roof[1]]
        for house in shared_houses(*roof):
            for a, b in (DIGITS_OF[pair], DIGITS_OF[pair][::-1]):
                if boards[a] & UNIT_BITS[house] != both:
                    continue
                elims = ((roof[0], b), (roof[1], b))
                p, q = (cell_name(r) for r in roof)
                return Step(
                    "unique-rectangle-4",
                    _houses(corners, house),
                    corners,
                    tuple(sorted((a, b))),
                    eliminations=elims,
                    explanation=(
                        f"{cells_text(floor)} can only be {a} or {b}, and in {unit_name(house)}, {a} can "
                        f"only go in {p} or {q}, so one of them is {a}. If the other were {b}, "
                        f"{_DEADLY.format(a=min(a, b), b=max(a, b))}, so {removals_text(elims)}."
                    ),
                )
    return None


# --- bivalue universal grave ------------------------------------------------------------------


def bug_plus_one(digits: Grid, cands: Candidates) -> Step | None:
    """Every open cell has two candidates but one with three, and every digit two places in
    each house but one digit three in that cell's houses: that cell holds that digit."""
    spare = -1
    for cell in CELLS:
        count = POPCOUNT[cands[cell]]
        if count == 3 and spare < 0:
            spare = cell
        elif count and count != 2:
            return None
    if spare < 0:
        return None
    boards = digit_boards(cands)
    mine = UNITS_OF[spare]
    extra = 0
    for unit in range(27):
        for d in range(1, 10):
            places = (boards[d] & UNIT_BITS[unit]).bit_count()
            if places == 3 and unit in mine:
                extra |= BIT[d]
            elif places not in (0, 2):
                return None
    # The spare digit has three places in each of the cell's houses, and no other digit has.
    if POPCOUNT[extra] != 1 or not extra & cands[spare]:
        return None
    digit = DIGITS_OF[extra][0]
    for unit in mine:
        if (boards[digit] & UNIT_BITS[unit]).bit_count() != 3:
            return None
    name = cell_name(spare)
    row, col, box = mine
    return Step(
        "bug-plus-one",
        cell_houses(spare),
        (spare,),
        (digit,),
        placements=((spare, digit),),
        explanation=(
            f"Every open cell but {name} has two candidates left, and every digit has two places in "
            f"each house except {digit}, which has three in {unit_name(row)}, {unit_name(col)} and "
            f"{unit_name(box)}. If {name} ({pencil(cands[spare])}) weren't {digit}, every digit would have "
            f"two places in every house and every cell two candidates, a deadly pattern with no "
            f"solution or several; the puzzle has one, so {name} is {digit}."
        ),
    )
