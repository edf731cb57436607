"""Chains: simple colouring and the x-chain on one digit, and the xy-chain of two-candidate cells.

Each finder takes a pencil-marked position (see steps.py) and returns one Step, or None: simple
colouring its first, the chains their shortest. Every finder here is sound for every solution of
the position: it never removes a digit that some solution puts in that cell.
"""

from __future__ import annotations

from .grid import (
    BIT,
    CELL_BIT,
    CELLS,
    DIGIT_OF_BIT,
    DIGITS_OF,
    PEER_BITS,
    POPCOUNT,
    UNITS_OF,
    Cell,
    Digit,
    Grid,
    cell_name,
    unit_name,
)
from .steps import Candidates, Step, bits, digit_boards, group_text, pencil, removals_text, seen_by_all, strong_links


def simple_colouring(digits: Grid, cands: Candidates) -> Step | None:
    """Two-colour a digit's chain of conjugate pairs: a colour seen twice in a house is false,
    and a cell seeing both colours can't hold the digit."""
    boards = digit_boards(cands)
    for digit in range(1, 10):
        board = boards[digit]
        links = strong_links(board)
        coloured: set[Cell] = set()
        for start in sorted(links):
            if start in coloured:
                continue
            colour = {start: 0}
            order = [start]
            houses: list[int] = []
            for cell in order:  # grows as the walk finds new cells
                for other, unit in links[cell]:
                    if unit not in houses:
                        houses.append(unit)
                    if other not in colour:
                        colour[other] = 1 - colour[cell]
                        order.append(other)
            coloured.update(order)
            groups = (
                tuple(sorted(c for c in order if colour[c] == 0)),
                tuple(sorted(c for c in order if colour[c] == 1)),
            )
            sides = [0, 0]
            for c in order:
                sides[colour[c]] |= CELL_BIT[c]
            step = _colour_wrap(digit, groups, sides, houses) or _colour_trap(digit, board, groups, sides, houses)
            if step:
                return step
    return None


def _colour_wrap(
    digit: Digit, groups: tuple[tuple[Cell, ...], ...], sides: list[int], houses: list[int]
) -> Step | None:
    """Two cells of one colour in a house: that colour can't be the digit."""
    for side in (0, 1):
        for c in groups[side]:
            clash = PEER_BITS[c] & sides[side]
            if clash:
                a, b = sorted((c, (clash & -clash).bit_length() - 1))
                unit = next(u for u in UNITS_OF[a] if u in UNITS_OF[b])
                elims = tuple((x, digit) for x in sorted(groups[side]))
                return Step(
                    "simple-colouring",
                    (unit,) + tuple(h for h in houses if h != unit),
                    groups[0] + groups[1],
                    (digit,),
                    eliminations=elims,
                    explanation=(
                        f"Linking the only two places for {digit} in houses, either "
                        f"{group_text(groups[side], digit)} or {group_text(groups[1 - side], digit)}, "
                        f"but {cell_name(a)} and {cell_name(b)} share {unit_name(unit)}, so the first "
                        f"group can't be: {removals_text(elims)}."
                    ),
                )
    return None


def _colour_trap(
    digit: Digit, board: int, groups: tuple[tuple[Cell, ...], ...], sides: list[int], houses: list[int]
) -> Step | None:
    """A cell outside the chain that sees both colours can't be the digit."""
    seen = [0, 0]
    for side in (0, 1):
        for c in groups[side]:
            seen[side] |= PEER_BITS[c]
    targets = tuple(bits(board & seen[0] & seen[1] & ~(sides[0] | sides[1])))
    if not targets:
        return None
    elims = tuple((c, digit) for c in targets)
    first = targets[0]
    a = next(c for c in groups[0] if PEER_BITS[first] >> c & 1)
    b = next(c for c in groups[1] if PEER_BITS[first] >> c & 1)
    return Step(
        "simple-colouring",
        tuple(houses),
        groups[0] + groups[1],
        (digit,),
        eliminations=elims,
        explanation=(
            f"Linking the only two places for {digit} in houses, either {group_text(groups[0], digit)} "
            f"or {group_text(groups[1], digit)}; {cell_name(first)} sees {cell_name(a)} and "
            f"{cell_name(b)}, one from each group, so it can't be {digit}: {removals_text(elims)}."
        ),
    )


def x_chain(digits: Grid, cands: Candidates) -> Step | None:
    """The shortest chain on one digit that alternates conjugate pairs (=) and cells that see
    each other (-), from a strong link to a strong link: one end holds the digit, so cells
    seeing both ends can't."""
    boards = digit_boards(cands)
    best: tuple[int, Digit, list[Cell], tuple[Cell, ...]] | None = None
    for digit in range(1, 10):
        board = boards[digit]
        links = strong_links(board)
        if len(links) < 4:
            continue
        linked = 0
        for c in links:
            linked |= CELL_BIT[c]
        for start in sorted(links):
            limit = best[0] if best else 99
            found = _x_chain_from(start, board, links, linked, limit)
            if found and (best is None or len(found[0]) < best[0]):
                best = (len(found[0]), digit, found[0], found[1])
    if best is None:
        return None
    _, digit, path, targets = best
    elims = tuple((c, digit) for c in targets)
    words = [cell_name(path[0])]
    for i in range(1, len(path)):
        words.append(("= " if i % 2 else "- ") + cell_name(path[i]))
    houses = tuple(next(u for u in UNITS_OF[path[i]] if u in UNITS_OF[path[i + 1]]) for i in range(len(path) - 1))
    return Step(
        "x-chain",
        houses,
        tuple(path),
        (digit,),
        eliminations=elims,
        explanation=(
            f"Along {' '.join(words)}, where = joins the only two places for {digit} in a house and - "
            f"joins cells that see each other, if {cell_name(path[0])} isn't {digit} then "
            f"{cell_name(path[-1])} is, so a cell that sees both ends can't be {digit}: "
            f"{removals_text(elims)}."
        ),
    )


def _x_chain_from(
    start: Cell, board: int, links: dict[Cell, list[tuple[Cell, int]]], linked: int, limit: int
) -> tuple[list[Cell], tuple[Cell, ...]] | None:
    """A shortest x-chain (as a path of cells, under `limit` cells) from `start` with eliminations."""
    # Breadth first over cells that would hold the digit if `start` did not; each hop is a weak
    # link to a linked cell followed by its strong link, so a path always ends on a strong link.
    parent: dict[Cell, tuple[Cell, Cell] | None] = {}  # on-cell -> (previous on-cell, off-cell)
    layer = []
    for other, _ in links[start]:
        if other not in parent:
            parent[other] = None
            layer.append(other)
    length = 2
    while layer and length < limit:
        for end in layer:
            targets = board & PEER_BITS[start] & PEER_BITS[end]
            if targets and end != start:
                return _x_path(start, end, parent), tuple(bits(targets))
        if length + 2 >= limit:
            return None
        length += 2
        nxt = []
        for on in layer:
            for off in bits(PEER_BITS[on] & linked):
                for other, _ in links[off]:
                    if other not in parent and other != start:
                        parent[other] = (on, off)
                        nxt.append(other)
        layer = nxt
    return None


def _x_path(start: Cell, end: Cell, parent: dict[Cell, tuple[Cell, Cell] | None]) -> list[Cell]:
    """The cells of an x-chain from `start` to `end`, rebuilt from the walk's parents."""
    path = [end]
    hop = parent[end]
    while hop is not None:
        on, off = hop
        path += [off, on]
        hop = parent[on]
    path.append(start)
    return path[::-1]


def xy_chain(digits: Grid, cands: Candidates) -> Step | None:
    """The shortest chain of two-candidate cells, each seeing the next and sharing a digit with
    it: if the first cell isn't x the last one is, so cells seeing both ends can't be x."""
    bivalue = [c for c in CELLS if POPCOUNT[cands[c]] == 2]
    if len(bivalue) < 3:
        return None
    bivalue_bits = 0
    for c in bivalue:
        bivalue_bits |= CELL_BIT[c]
    boards = digit_boards(cands)
    best: list[tuple[Cell, Digit]] | None = None
    for start in bivalue:
        for x in DIGITS_OF[cands[start]]:
            limit = len(best) if best else 99
            path = _xy_chain_from(start, x, cands, bivalue_bits, boards[x], limit)
            if path and (best is None or len(path) < len(best)):
                best = path
    if best is None:
        return None
    start, end = best[0][0], best[-1][0]
    x = DIGIT_OF_BIT[cands[start] & ~BIT[best[0][1]]]
    targets = seen_by_all((start, end), boards[x])
    elims = tuple((c, x) for c in targets)
    cells = tuple(c for c, _ in best)
    chain = " - ".join(f"{cell_name(c)} ({pencil(cands[c])})" for c in cells)
    houses = tuple(next(u for u in UNITS_OF[cells[i]] if u in UNITS_OF[cells[i + 1]]) for i in range(len(cells) - 1))
    return Step(
        "xy-chain",
        houses,
        cells,
        (x,),
        eliminations=elims,
        explanation=(
            f"In the chain {chain}, each cell sees the next, so if {cell_name(start)} isn't {x}, "
            f"each following cell is forced and {cell_name(end)} is {x}; a cell that sees both ends "
            f"can't be {x}: {removals_text(elims)}."
        ),
    )


def _xy_chain_from(
    start: Cell, x: Digit, cands: Candidates, bivalue_bits: int, x_board: int, limit: int
) -> list[tuple[Cell, Digit]] | None:
    """A shortest xy-chain (cells with the digit each would hold) from `start` assumed not x."""
    first = (start, DIGIT_OF_BIT[cands[start] & ~BIT[x]])
    parent: dict[tuple[Cell, Digit], tuple[Cell, Digit] | None] = {first: None}
    layer = [first]
    length = 1
    while layer and length + 1 < limit:
        length += 1
        nxt = []
        for state in layer:
            cell, value = state
            bit = BIT[value]
            for other in bits(PEER_BITS[cell] & bivalue_bits):
                mask = cands[other]
                if not mask & bit or other == start:
                    continue
                now = (other, DIGIT_OF_BIT[mask & ~bit])
                if now in parent:
                    continue
                parent[now] = state
                if now[1] == x and x_board & PEER_BITS[start] & PEER_BITS[other]:
                    path = [now]
                    back = parent[now]
                    while back is not None:
                        path.append(back)
                        back = parent[back]
                    return path[::-1]
                nxt.append(now)
        layer = nxt
    return None
