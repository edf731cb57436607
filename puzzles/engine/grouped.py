"""Grouped one-digit patterns: the skyscraper, the two-string kite and the x-chain with a group
of cells standing for a cell at one end of a link.

A group is the two or three places of a digit in one box that also lie on one row or column.
"One of the group holds the digit" works like one cell holding it: a row whose places for a
digit lie in only two boxes is a strong link between its two parts (one of them holds it), a
box whose places lie on one row and one column is a strong link between the row's part and the
column's, and a group is weakly linked to every cell (or group) that sees all of its cells. A
node below is a single cell or a group, as an 81-bit set of cells.

The four-node chains a = b - c = d on two lines are found in one search for both shapes, as
patterns.py does for the plain ones; the x-chain is the shortest of three strong links or more,
through boxes as well. A four-node chain with a strong link in a box (Sukaku Explainer's grouped
turbot crane) is left out: its commonest form is the empty rectangle, and the walks of 800
top-1465 puzzles never took another as the step to make (docs/algorithms.md). Each pattern
counts here only with a group in it: without one it is the plain pattern's. Like every chain on
one digit they are sound for every solution.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from .catalogue import TECHNIQUE_BY_NAME
from .grid import CELL_BIT, PEER_BITS, UNIT_BITS, UNITS, UNITS_OF, Digit, Grid, cell_name, unit_name
from .steps import HOUSE_ORDER, Candidates, Step, bits, digit_boards, removals_text

Node = int  # an 81-bit set: one cell, or a group of two or three in one box and one line
Link = tuple[Node, Node, int]  # a strong link: its two nodes and its house

# The lines crossing each box (rows, then columns), by the box's house number.
_BOX_LINES: dict[int, tuple[int, ...]] = {
    box: tuple(sorted({UNITS_OF[c][0] for c in UNITS[box]}) + sorted({UNITS_OF[c][1] for c in UNITS[box]}))
    for box in range(18, 27)
}
# The three box segments of each line, by the line's house number.
_SEGMENTS: dict[int, tuple[int, ...]] = {
    line: tuple(UNIT_BITS[line] & UNIT_BITS[box] for box in range(18, 27) if UNIT_BITS[line] & UNIT_BITS[box])
    for line in range(18)
}
_SHAPES = ("grouped-skyscraper", "grouped-two-string-kite")
# A grouped x-chain of more strong links than this is past the expert ceiling and past what
# Sudoku Explainer looks for.
_MOST_LINKS = 6


# The last position's boards: the three finders run one after another on the same position.
# One tuple, read and replaced whole, so a thread never pairs one position's key with another's boards.
_last_boards: tuple[tuple[int, ...], list[int]] = ((), [])


def _boards(cands: Candidates) -> list[int]:
    """digit_boards(cands), kept for the next finder on the same position."""
    global _last_boards
    key = tuple(cands)
    cached = _last_boards
    if cached[0] == key:
        return cached[1]
    boards = digit_boards(cands)
    _last_boards = (key, boards)
    return boards


# --- nodes and links --------------------------------------------------------------------------


def _seen(node: Node) -> int:
    """The cells that see every cell of a node (never the node's own cells)."""
    seen = -1
    for c in bits(node):
        seen &= PEER_BITS[c]
    return seen


def _is_node(cells: int) -> bool:
    """True for one cell, or for cells inside one box and one line."""
    if cells & (cells - 1) == 0:
        return cells != 0
    first = (cells & -cells).bit_length() - 1
    row, col, box = UNITS_OF[first]
    return cells & ~UNIT_BITS[box] == 0 and (cells & ~UNIT_BITS[row] == 0 or cells & ~UNIT_BITS[col] == 0)


def _is_group(node: Node) -> bool:
    """True for a node of more than one cell."""
    return node & (node - 1) != 0


def grouped_links(board: int) -> list[Link]:
    """Every strong link of a digit's places (board) between two nodes, boxes first, plain ones
    (two cells) included: a house whose places are split into two nodes, one of which holds it."""
    links: list[Link] = []
    for unit in HOUSE_ORDER:
        places = board & UNIT_BITS[unit]
        if places & (places - 1) == 0:
            continue
        if unit < 18:
            parts = [places & seg for seg in _SEGMENTS[unit] if places & seg]
            if len(parts) == 2:
                links.append((parts[0], parts[1], unit))
            continue
        found: set[frozenset[int]] = set()
        for line in _BOX_LINES[unit]:
            part = places & UNIT_BITS[line]
            rest = places ^ part
            if part and rest and _is_node(rest) and (pair := frozenset((part, rest))) not in found:
                found.add(pair)
                links.append((part, rest, unit))
    return links


def _oriented(links: list[Link]) -> Iterator[tuple[Node, Node, int, bool]]:
    """Each link both ways round, with whether it has a group."""
    for a, b, house in links:
        grouped = _is_group(a) or _is_group(b)
        yield a, b, house, grouped
        yield b, a, house, grouped


def _low(node: Node) -> int:
    """A node's first cell."""
    return (node & -node).bit_length() - 1


# --- four-node chains -------------------------------------------------------------------------


def _shape(first: int, last: int) -> str:
    """The name of a grouped four-node chain by its two strong links' lines: two rows (or two
    columns) make a skyscraper, a row and a column a kite."""
    return "grouped-skyscraper" if first // 9 == last // 9 else "grouped-two-string-kite"


def _first_chain(cands: Candidates, shape: str) -> Step | None:
    """The first grouped four-node chain of the given shape that removes something, digits 1 to 9."""
    boards = _boards(cands)
    for digit in range(1, 10):
        step = _digit_chains(digit, boards[digit]).get(shape)
        if step is not None:
            return step
    return None


# A digit's places change in few steps of a solve, so its chains are kept by its places: the
# three finders, run one after another on a position, and the next positions share the search.
@lru_cache(maxsize=1024)
def _digit_chains(digit: Digit, board: int) -> dict[str, Step]:
    """The first grouped four-node chain of each shape on one digit's places."""
    found: dict[str, Step] = {}
    for shape, step in _chains(digit, board):
        found.setdefault(shape, step)
        if len(found) == len(_SHAPES):
            break
    return found


def _chains(digit: Digit, board: int) -> Iterator[tuple[str, Step]]:
    """Each grouped chain a = b - c = d on one digit that removes something, with its shape:
    a = b and c = d are strong links in different lines, every cell of c sees every cell of b,
    the four nodes share no cell and at least one link has a group."""
    links = [link for link in grouped_links(board) if link[2] < 18]
    if not any(_is_group(a) or _is_group(b) for a, b, _ in links):
        return
    seen: dict[Node, int] = {}
    for a, b, _ in links:
        seen[a] = seen.get(a) or _seen(a)
        seen[b] = seen.get(b) or _seen(b)
    # Second links by their first node's first cell: all of them, and the grouped ones alone
    # (which are all a plain first link can take).
    starting: tuple[dict[int, list[tuple[Node, Node, int]]], ...] = ({}, {})
    lows = [0, 0]
    for c, d, house, grouped in _oriented(links):
        for kind in (0, 1) if grouped else (0,):
            starting[kind].setdefault(_low(c), []).append((c, d, house))
            lows[kind] |= CELL_BIT[_low(c)]
    for a, b, first, grouped in _oriented(links):
        near_a = board & seen[a]
        if not near_a:
            continue
        kind = 0 if grouped else 1
        seen_b = seen[b]
        for x in bits(seen_b & lows[kind]):
            for c, d, last in starting[kind][x]:
                if last == first or c & ~seen_b or a & d or (a | d) & (b | c):
                    continue
                # A cell of the chain that sees both ends is left to the pointing that clears it.
                targets = near_a & seen[d] & ~(b | c)
                if targets:
                    shape = _shape(first, last)
                    yield shape, _chain_step(shape, digit, (a, b, c, d), (first, last), targets)


def node_text(node: Node) -> str:
    """'r3c4' for one cell; 'the group r3c4+r3c6' for a group."""
    mark = node_mark(node)
    return f"the group {mark}" if _is_group(node) else mark


def node_mark(node: Node) -> str:
    """'r3c4' for one cell, 'r3c4+r3c6' for a group: a node's name inside a chain."""
    return "+".join(cell_name(c) for c in bits(node))


def _capital(text: str) -> str:
    """'row 3' -> 'Row 3'."""
    return text[:1].upper() + text[1:]


def _weak_house(b: Node, c: Node, skyscraper: bool) -> int:
    """A house holding every cell of two weakly linked nodes: a line first in a skyscraper,
    else boxes first."""
    row, col, box = UNITS_OF[_low(b)]
    order = (row, col, box) if skyscraper else (box, row, col)
    return next(u for u in order if (b | c) & ~UNIT_BITS[u] == 0)


def _chain_step(shape: str, digit: Digit, nodes: tuple[Node, ...], houses: tuple[int, int], targets: int) -> Step:
    """The step for a grouped four-node chain, told as its two strong links and the nodes joining them."""
    a, b, c, d = nodes
    first, last = houses
    weak = _weak_house(b, c, shape == "grouped-skyscraper")
    elims = tuple((t, digit) for t in bits(targets))
    cells = tuple(cell for node in nodes for cell in bits(node))
    return Step(
        shape,
        (first, weak, last),
        cells,
        (digit,),
        eliminations=elims,
        explanation=(
            f"{_capital(unit_name(first))} has {digit} only in {node_text(a)} or {node_text(b)}, and "
            f"{unit_name(last)} only in {node_text(c)} or {node_text(d)}. As {node_text(b)} and "
            f"{node_text(c)} lie in {unit_name(weak)}, they can't both hold {digit}, so {node_text(a)} "
            f"or {node_text(d)} does, and a cell that sees all their cells can't be {digit}: "
            f"{removals_text(elims)}."
        ),
    )


def grouped_skyscraper(digits: Grid, cands: Candidates) -> Step | None:
    """A skyscraper whose lines' places for a digit lie in two boxes, one part or more a group:
    one of the two far ends holds the digit, so cells seeing all of both can't."""
    return _first_chain(cands, "grouped-skyscraper")


def grouped_two_string_kite(digits: Grid, cands: Candidates) -> Step | None:
    """A two-string kite (a row and a column linked through a box) with a group at one end or
    more: one of the two far ends holds the digit, so cells seeing all of both can't."""
    return _first_chain(cands, "grouped-two-string-kite")


# --- grouped x-chain --------------------------------------------------------------------------


def grouped_x_chain(digits: Grid, cands: Candidates) -> Step | None:
    """The shortest chain on one digit of three strong links or more between nodes, joined by
    weak links, with a group in it: one end holds the digit, so cells seeing all of both can't."""
    boards = _boards(cands)
    best: tuple[tuple[Node, ...], Digit, int] | None = None
    for digit in range(1, 10):
        found = _digit_x_chain(boards[digit])
        if found and (best is None or len(found[0]) < len(best[0])):
            best = (found[0], digit, found[1])
    if best is None:
        return None
    path, digit, targets = best
    return _x_chain_step(path, digit, targets)


@lru_cache(maxsize=1024)
def _digit_x_chain(board: int) -> tuple[tuple[Node, ...], int] | None:
    """The shortest grouped x-chain on one digit's places (board), with the cells it removes
    the digit from; None when there is none."""
    links = grouped_links(board)
    if len(links) < 3 or not any(_is_group(a) or _is_group(b) for a, b, _ in links):
        return None
    partners, hops = _graph(links)
    best: tuple[tuple[Node, ...], int] | None = None
    limit = 2 * _MOST_LINKS + 1
    for start in partners:
        if not board & _seen(start):
            continue
        found = _chain_from(start, board, partners[start], hops, limit)
        if found and (best is None or len(found[0]) < len(best[0])):
            best = found
            limit = len(found[0])
    return best


def _graph(links: list[Link]) -> tuple[dict[Node, list[Node]], dict[Node, list[tuple[Node, Node]]]]:
    """Each node's strong partners, and where from each node a weak link then a strong link
    lead: (the node it rules out, that node's partner, which then holds the digit)."""
    partners: dict[Node, list[Node]] = {}
    for a, b, _ in links:
        partners.setdefault(a, []).append(b)
        partners.setdefault(b, []).append(a)
    by_low: dict[int, list[Node]] = {}
    lows = 0
    for node in partners:
        by_low.setdefault(_low(node), []).append(node)
        lows |= CELL_BIT[_low(node)]
    hops: dict[Node, list[tuple[Node, Node]]] = {}
    for on in partners:
        seen = _seen(on)
        hops[on] = [
            (off, nxt)
            for x in bits(seen & lows)
            for off in by_low[x]
            if not off & ~seen
            for nxt in partners[off]
            if not nxt & on
        ]
    return partners, hops


def _chain_from(
    start: Node, board: int, partners: list[Node], hops: dict[Node, list[tuple[Node, Node]]], limit: int
) -> tuple[tuple[Node, ...], int] | None:
    """A shortest grouped x-chain (its nodes, under `limit` of them, at least six) from `start`,
    with the cells it removes the digit from; None when there is none."""
    # Breadth first over the nodes that would hold the digit if `start` did not, each with
    # whether the path to it has a group yet, and the cells the path has used (a chain passes
    # through a cell once).
    seen_start = _seen(start)
    first = (start, _is_group(start))
    parent: dict[tuple[Node, bool], tuple[tuple[Node, bool], Node] | None] = {first: None}
    used = {first: start}
    layer = [first]
    length = 0
    while layer and length + 2 < limit:
        length += 2
        nxt = []
        for state in layer:
            on, grouped = state
            # The first hop is the start's own strong link, with no weak link before it.
            steps = [(0, p) for p in partners] if length == 2 else hops[on]
            for off, node in steps:
                now = (node, grouped or _is_group(node) or _is_group(off))
                if now in parent or (node | off) & used[state]:
                    continue
                parent[now] = (state, off)
                used[now] = used[state] | node | off
                if now[1] and length >= 6 and (targets := board & seen_start & _seen(node) & ~used[now]):
                    return tuple(_path(now, parent)), targets
                nxt.append(now)
        layer = nxt
    return None


def _path(end: tuple[Node, bool], parent: dict[tuple[Node, bool], tuple[tuple[Node, bool], Node] | None]) -> list[Node]:
    """The nodes of a chain from its start to `end`, rebuilt from the walk's parents."""
    path = [end[0]]
    hop = parent[end]
    while hop is not None:
        state, off = hop
        if off:
            path.append(off)
        path.append(state[0])
        hop = parent[state]
    return path[::-1]


def _x_chain_step(path: tuple[Node, ...], digit: Digit, targets: int) -> Step:
    """The grouped x-chain's step, told along its nodes."""
    elims = tuple((t, digit) for t in bits(targets))
    words = [node_mark(path[0])]
    for i in range(1, len(path)):
        words.append(("= " if i % 2 else "- ") + node_mark(path[i]))
    group = next(node_mark(node) for node in path if _is_group(node))
    houses = tuple(
        next(u for u in UNITS_OF[_low(path[i])] if (path[i] | path[i + 1]) & ~UNIT_BITS[u] == 0)
        for i in range(len(path) - 1)
    )
    cells = tuple(cell for node in path for cell in bits(node))
    return Step(
        "grouped-x-chain",
        houses,
        cells,
        (digit,),
        eliminations=elims,
        explanation=(
            f"Along {' '.join(words)}, where = joins the only places for {digit} in a house, - joins "
            f"places that see each other, and a group such as {group} holds {digit} when one of its "
            f"cells does: if {node_text(path[0])} doesn't hold {digit} then {node_text(path[-1])} does, "
            f"so a cell that sees all their cells can't be {digit}: {removals_text(elims)}."
        ),
        difficulty=TECHNIQUE_BY_NAME["grouped-x-chain"].figure(len(path)),
    )
