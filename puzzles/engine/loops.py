"""Unique loops: the unique rectangle's deadly pattern stretched to a loop of six or eight cells.

A loop of open cells that all hold the same two digits a and b, in which every house holding one
of its cells holds exactly two, the next cells round the loop, could alternate a, b, a, b and
swap them: two solutions. A puzzle with one solution can't end that way, so a cell of the loop
holding more than the pair takes one of its extra digits, and the four types of unique rectangle
(uniqueness.py) turn that into eliminations the same way. Sound only for a puzzle with one
solution, as every uniqueness technique.
"""

from __future__ import annotations

from collections.abc import Iterator

from .grid import (
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
    cells_text,
    digit_boards,
    digits_text,
    houses_text,
    join_words,
    pencil,
    removals_text,
    seen_by_all,
)
from .uniqueness import roof_subset, shared_houses

Cells = tuple[Cell, ...]


# Sukaku Explainer's figures (UniqueLoopHint.java, its original rating): a loop of 6 cells 4.6,
# of 8 cells 4.7; its type 3 adds 0.1 for each cell of the naked subset besides the extra digits
# (UniqueLoopType3NakedHint.java). A loop of 10 cells is 5.0 there, past the hard tier's 4.8:
# no step past 4.8 is taken, so longer loops are left to the expert techniques.
_LOOP_FIGURE = {6: 4.6, 8: 4.7}
_LOOP_CEILING = 4.8


def _loops(cands: Candidates, pair: Mask) -> Iterator[Cells]:
    """Each loop of 6 or 8 open cells, all holding both digits of `pair`, in which every house
    holding one of its cells holds exactly two, one at an even place and one at an odd place of
    the loop; at most two of its cells hold more than the pair, unless every such cell holds one
    and the same extra digit. Shorter loops first; each loop once, from its lowest cell."""
    held = _loop_cells(cands, pair)
    if len(held) < 6:
        return
    found: dict[int, list[Cells]] = {length: [] for length in _LOOP_FIGURE}
    for start in sorted(held):
        count = [0] * 27
        parity = [0] * 27
        for u in UNITS_OF[start]:
            count[u] = 1
        _grow(cands, pair, held, [start], count, parity, found)
    for loops in found.values():
        yield from loops


def _loop_cells(cands: Candidates, pair: Mask) -> set[Cell]:
    """The cells holding both digits of `pair` that could be in a loop: each of their row,
    column and box holds another such cell, and so on until that holds of every one."""
    held = {c for c in CELLS if cands[c] & pair == pair}
    while True:
        alone = {c for c in held if any(sum(1 for o in UNITS[u] if o in held) < 2 for u in UNITS_OF[c])}
        if not alone:
            return held
        held -= alone


def _grow(
    cands: Candidates,
    pair: Mask,
    held: set[Cell],
    path: list[Cell],
    count: list[int],
    parity: list[int],
    found: dict[int, list[Cells]],
) -> None:
    """Adds to `found` (by length) the loops that extend `path` (see _loops) through a house of
    its last cell."""
    start, last, place = path[0], path[-1], len(path) % 2
    if len(path) in found and all(count[u] != 1 for c in path for u in UNITS_OF[c]):
        # Each loop is met twice, once each way round: keep the one whose second cell is lower.
        if path[1] < path[-1]:
            found[len(path)].append(tuple(path))
        return
    if len(path) == max(found):
        return
    for u in UNITS_OF[last]:
        if count[u] != 1:
            continue
        for nxt in UNITS[u]:
            if nxt <= start or nxt not in held or nxt in path:
                continue
            houses = UNITS_OF[nxt]
            if any(count[h] == 2 or (count[h] == 1 and parity[h] == place) for h in houses):
                continue
            path.append(nxt)
            if _few_extras(cands, pair, path):
                for h in houses:
                    count[h] += 1
                    parity[h] = place
                _grow(cands, pair, held, path, count, parity, found)
                for h in houses:
                    count[h] -= 1
                    parity[h] = 1 - place
            path.pop()


def _few_extras(cands: Candidates, pair: Mask, cells: list[Cell]) -> bool:
    """At most two of the cells hold more than the pair, or all that do hold one same extra digit."""
    extras = [cands[c] & ~pair for c in cells if cands[c] != pair]
    return len(extras) <= 2 or (POPCOUNT[extras[0]] == 1 and all(e == extras[0] for e in extras))


def unique_loop(digits: Grid, cands: Candidates) -> Step | None:
    """A loop of 6 or 8 cells holding {a,b}, each of its houses holding two of them, could swap
    its a's and b's unless a cell of it holds something else: as the unique rectangles (types 1
    to 4) say which. The easiest step wins: the shorter loop, then the lower type."""
    best: tuple[float, int, Step] | None = None
    pairs = sorted({m for m in cands if POPCOUNT[m] == 2})
    boards: list[int] | None = None
    for pair in pairs:
        for loop in _loops(cands, pair):
            if boards is None:
                boards = digit_boards(cands)
            found = _loop_step(cands, boards, pair, loop)
            if found is None:
                continue
            kind, step = found
            if step.difficulty <= _LOOP_CEILING and (best is None or (step.difficulty, kind) < best[:2]):
                best = step.difficulty, kind, step
        if best is not None and best[:2] == (_LOOP_FIGURE[6], 1):
            break
    return best[2] if best is not None else None


def _loop_step(cands: Candidates, boards: list[int], pair: Mask, loop: Cells) -> tuple[int, Step] | None:
    """The easiest step a unique loop gives, with its type (1 to 4), or None."""
    base = _LOOP_FIGURE[len(loop)]
    a, b = DIGITS_OF[pair]
    roof = tuple(c for c in loop if cands[c] != pair)
    floor = tuple(c for c in loop if cands[c] == pair)
    names = cells_text(loop)
    swap = f"the {len(loop)} cells {names} could swap their {a}s and {b}s and the puzzle would have two solutions; it has one"
    houses = tuple(u for u in HOUSE_ORDER if any(u in UNITS_OF[c] for c in loop))
    if len(roof) == 1:
        (target,) = roof
        elims: tuple[Pair, ...] = ((target, a), (target, b))
        step = Step(
            "unique-loop",
            (UNITS_OF[target][2],) + tuple(u for u in houses if u != UNITS_OF[target][2]),
            loop,
            (a, b),
            eliminations=elims,
            explanation=(
                f"{cells_text(floor)} can only be {a} or {b}, and each row, column and box holding one "
                f"of {names} holds two of them. If {cell_name(target)} were {a} or {b} too, {swap}, "
                f"so {removals_text(elims)}."
            ),
            difficulty=base,
        )
        return 1, step
    extras = 0
    for c in roof:
        extras |= cands[c] & ~pair
    if POPCOUNT[extras] == 1:
        c = DIGITS_OF[extras][0]
        targets = seen_by_all(roof, boards[c])
        if targets:
            elims = tuple((t, c) for t in targets)
            step = Step(
                "unique-loop",
                houses,
                loop,
                (a, b, c),
                eliminations=elims,
                explanation=(
                    f"Each row, column and box holding one of {names} holds two of them, and each can only "
                    f"be {a} or {b} but for {cells_text(roof)}, which can also be {c}. If none of those "
                    f"were {c}, {swap}, so one of them is {c} and a cell that sees them all can't be: "
                    f"{removals_text(elims)}."
                ),
                difficulty=base,
            )
            return 2, step
    if len(roof) != 2 or not shared_houses(*roof):
        return None
    p, q = (cell_name(r) for r in roof)
    both = CELL_BIT[roof[0]] | CELL_BIT[roof[1]]
    for house in shared_houses(*roof):
        for x, y in ((a, b), (b, a)):
            if boards[x] & UNIT_BITS[house] == both:
                elims = ((roof[0], y), (roof[1], y))
                step = Step(
                    "unique-loop",
                    (house,) + tuple(u for u in houses if u != house),
                    loop,
                    (a, b),
                    eliminations=elims,
                    explanation=(
                        f"{cells_text(floor)} can only be {a} or {b}, and each row, column and box holding "
                        f"one of {names} holds two of them. In {unit_name(house)}, {x} can only go in {p} "
                        f"or {q}, so one of them is {x}. If the other were {y}, {swap}, so "
                        f"{removals_text(elims)}."
                    ),
                    difficulty=base,
                )
                return 4, step
    for size in (1, 2, 3):
        figure = round(base + 0.1 * size, 1)
        if figure > _LOOP_CEILING:
            break
        found = roof_subset(cands, roof, extras, size)
        if found is None:
            continue
        subset, union, subset_houses, elims = found
        members = join_words(["That cell"] + [f"{cell_name(c)} ({pencil(cands[c])})" for c in subset])
        step = Step(
            "unique-loop",
            subset_houses + tuple(u for u in houses if u not in subset_houses),
            loop + subset,
            tuple(sorted({a, b, *DIGITS_OF[union]})),
            eliminations=elims,
            explanation=(
                f"{cells_text(floor)} can only be {a} or {b}, and each row, column and box holding one of "
                f"{names} holds two of them. If {p} and {q} were {a} or {b} as well, {swap}, so one of "
                f"them is {pencil(extras)}. {members} hold {digits_text(DIGITS_OF[union])} between them, "
                f"so no other cell in {houses_text(subset_houses)} can: {removals_text(elims)}."
            ),
            difficulty=figure,
        )
        return 3, step
    return None
