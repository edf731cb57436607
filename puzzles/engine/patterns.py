"""Short one-digit patterns built on strong links, and the w-wing, which joins two cells with a
strong link.

A strong link is a house with exactly two places left for a digit: one of the two holds it. The
skyscraper, the two-string kite and the turbot fish are the four-cell chains strong - weak -
strong on one digit (the x-chain finds the longer ones): one of the chain's ends holds the
digit, so no cell that sees both ends can. They differ only in the houses they use, and players
know them by those names. The empty rectangle uses a box where the digit is confined to one row
and one column in place of a strong link. Each finder returns the first step it finds, digits
1 to 9 in turn, boxes before rows before columns.
"""

from __future__ import annotations

from collections.abc import Iterator

from .grid import (
    BOX_OF,
    CELL_BIT,
    CELLS,
    COL_OF,
    DIGIT_OF_BIT,
    PEER_BITS,
    POPCOUNT,
    ROW_OF,
    UNIT_BITS,
    UNITS,
    UNITS_OF,
    Cell,
    Digit,
    Grid,
    cell_name,
    unit_name,
)
from .steps import (
    HOUSE_ORDER,
    Candidates,
    Step,
    bits,
    cells_text,
    digit_boards,
    pencil,
    removals_text,
    seen_by_all,
    strong_links,
)

# A four-cell chain a = b - c = d on one digit: a = b and c = d are strong links, b sees c.
Chain = tuple[Cell, Cell, Cell, Cell]

_ROWS, _COLS = range(9), range(9, 18)


# --- four-cell chains -------------------------------------------------------------------------


def _shared(a: Cell, b: Cell) -> tuple[int, ...]:
    """The houses two cells share, box first."""
    row, col, box = UNITS_OF[a]
    return tuple(u for u in (box, row, col) if u in UNITS_OF[b])


def _strong_in(a: Cell, b: Cell, board: int) -> tuple[int, ...]:
    """The houses (box first) in which a and b are the digit's only two places."""
    pair = CELL_BIT[a] | CELL_BIT[b]
    return tuple(u for u in _shared(a, b) if board & UNIT_BITS[u] == pair)


def _chains(board: int) -> Iterator[tuple[Chain, int]]:
    """Every chain a = b - c = d of four different cells on one digit whose ends a and d are
    both seen by some other place of the digit, with those places as an 81-bit set; strong
    links taken boxes first."""
    links = strong_links(board)
    linked = 0
    for c in links:
        linked |= CELL_BIT[c]
    for unit in HOUSE_ORDER:
        pair = board & UNIT_BITS[unit]
        if pair.bit_count() != 2:
            continue
        x, y = bits(pair)
        for a, b in ((x, y), (y, x)):
            for c in bits(PEER_BITS[b] & linked):
                if c == a:
                    continue
                for d, _ in links[c]:
                    if d in (a, b):
                        continue
                    targets = board & PEER_BITS[a] & PEER_BITS[d]
                    if targets:
                        yield (a, b, c, d), targets


def _in_lines(a: Cell, b: Cell, board: int, lines: range) -> bool:
    """True when a and b are the digit's only two places in one of `lines` (rows or columns)."""
    return any(u in lines for u in _strong_in(a, b, board))


def _shape(chain: Chain, board: int) -> str:
    """Which named pattern a four-cell chain is: 'skyscraper', 'two-string-kite', 'x-wing' (a
    rectangle, left to the x-wing) or 'turbot-fish' for any other."""
    a, b, c, d = chain
    for lines, cross in ((_ROWS, COL_OF), (_COLS, ROW_OF)):
        if _in_lines(a, b, board, lines) and _in_lines(c, d, board, lines) and cross[b] == cross[c]:
            return "x-wing" if cross[a] == cross[d] else "skyscraper"
    if BOX_OF[b] == BOX_OF[c] and BOX_OF[a] != BOX_OF[b] and BOX_OF[d] != BOX_OF[c]:
        for first, second in ((_ROWS, _COLS), (_COLS, _ROWS)):
            if _in_lines(a, b, board, first) and _in_lines(c, d, board, second):
                return "two-string-kite"
    return "turbot-fish"


_SHAPES = ("skyscraper", "two-string-kite", "turbot-fish")

# The last position's first chain of each shape. The three finders run one after another on the
# same position, so one search serves all three. The entry is one tuple, read and replaced whole,
# so a thread never sees one position's key with another's chains.
_last: tuple[tuple[int, ...], dict[str, Step | None]] | None = None


def _first_chain(cands: Candidates, shape: str) -> Step | None:
    """The first four-cell chain of the given shape that removes something."""
    global _last
    key = tuple(cands)
    cached = _last
    if cached is not None and cached[0] == key:
        return cached[1][shape]
    found: dict[str, Step | None] = {}
    boards = digit_boards(cands)
    for digit in range(1, 10):
        for chain, targets in _chains(boards[digit]):
            kind = _shape(chain, boards[digit])
            if kind in _SHAPES and kind not in found:
                found[kind] = _chain_step(kind, digit, chain, targets, boards[digit])
        if len(found) == len(_SHAPES):
            break
    result = {kind: found.get(kind) for kind in _SHAPES}
    _last = (key, result)
    return result[shape]


def _chain_step(shape: str, digit: Digit, chain: Chain, targets: int, board: int) -> Step:
    """The step for a four-cell chain, told as its two strong links and the cells joining them."""
    a, b, c, d = chain
    first = _link_house(a, b, board, shape)
    last = _link_house(c, d, board, shape)
    weak = _weak_house(b, c, shape)
    elims = tuple((t, digit) for t in bits(targets))
    return Step(
        shape,
        (first, weak, last),
        chain,
        (digit,),
        eliminations=elims,
        explanation=(
            f"{_capital(unit_name(first))} has only two places for {digit} ({cell_name(a)} and "
            f"{cell_name(b)}), and {unit_name(last)} has only two ({cell_name(c)} and {cell_name(d)}). "
            f"{cell_name(b)} and {cell_name(c)} share {unit_name(weak)}, so at most one of them is "
            f"{digit} and at least one of {cell_name(a)} and {cell_name(d)} is; a cell that sees both "
            f"can't be {digit}: {removals_text(elims)}."
        ),
    )


def _link_house(a: Cell, b: Cell, board: int, shape: str) -> int:
    """The house to name for a strong link: a line in a skyscraper or kite, else boxes first."""
    houses = _strong_in(a, b, board)
    if shape != "turbot-fish":
        houses = tuple(u for u in houses if u < 18)
    return houses[0]


def _weak_house(b: Cell, c: Cell, shape: str) -> int:
    """The house two cells share: the box in a kite, the line in a skyscraper, else boxes first."""
    shared = _shared(b, c)
    if shape == "skyscraper":
        shared = tuple(u for u in shared if u < 18)
    return shared[0]


def _capital(text: str) -> str:
    """'row 3' -> 'Row 3'."""
    return text[:1].upper() + text[1:]


def skyscraper(digits: Grid, cands: Candidates) -> Step | None:
    """Two parallel lines with two places each for a digit, one end of each on a common
    crossing line: one of the two other ends (the tops) holds it, so cells seeing both can't."""
    return _first_chain(cands, "skyscraper")


def two_string_kite(digits: Grid, cands: Candidates) -> Step | None:
    """A row and a column with two places each for a digit, one end of each in the same box:
    one of the two other ends holds it, so cells seeing both can't."""
    return _first_chain(cands, "two-string-kite")


def turbot_fish(digits: Grid, cands: Candidates) -> Step | None:
    """Any other four-cell chain strong - weak - strong on one digit, most often with a strong
    link in a box: one end holds the digit, so cells seeing both ends can't."""
    return _first_chain(cands, "turbot-fish")


# --- empty rectangle --------------------------------------------------------------------------


def empty_rectangle(digits: Grid, cands: Candidates) -> Step | None:
    """A box whose places for a digit all lie on one row and one column of it (not on one line
    alone), and a strong link outside the box with one end on that row (or column): where the
    link's other end's line crosses the box's column (row), the digit can't go."""
    boards = digit_boards(cands)
    for digit in range(1, 10):
        board = boards[digit]
        for box in range(18, 27):
            inside = board & UNIT_BITS[box]
            if inside.bit_count() < 2:
                continue
            for cross in UNITS[box]:
                row, col = ROW_OF[cross], 9 + COL_OF[cross]
                arm_row, arm_col = inside & UNIT_BITS[row], inside & UNIT_BITS[col]
                if inside & ~(arm_row | arm_col) or arm_row == inside or arm_col == inside:
                    continue
                step = _rectangle_link(digit, board, box, row, col, inside)
                if step:
                    return step
    return None


def _rectangle_link(digit: Digit, board: int, box: int, row: int, col: int, inside: int) -> Step | None:
    """The first strong link outside `box` that, with the box's row and column, removes a digit."""
    box_cells = UNIT_BITS[box]
    # A column link with an end on the box's row: its other end's row meets the box's column.
    # A row link with an end on the box's column: its other end's column meets the box's row.
    for link_lines, near_line, far_line in ((_ROWS, col, row), (_COLS, row, col)):
        for line in link_lines:
            pair = board & UNIT_BITS[line]
            if pair.bit_count() != 2 or UNIT_BITS[line] & box_cells:
                continue
            one, two = bits(pair)
            for near, far in ((one, two), (two, one)):
                if not UNIT_BITS[near_line] >> near & 1:
                    continue
                target = _crossing(far, far_line)
                # Inside the box the target would only move the digit within the cross.
                if box_cells >> target & 1 or not board >> target & 1:
                    continue
                return _rectangle_step(digit, box, row, col, inside, line, near, far, far_line, target)
    return None


def _crossing(cell: Cell, line: int) -> Cell:
    """The cell where `cell`'s line of the other kind (row for a column, column for a row) meets `line`."""
    if line < 9:
        return line * 9 + COL_OF[cell]
    return ROW_OF[cell] * 9 + (line - 9)


def _rectangle_step(
    digit: Digit, box: int, row: int, col: int, inside: int, line: int, near: Cell, far: Cell, arm: int, target: Cell
) -> Step:
    """The empty rectangle's step, told as what would go wrong if the target held the digit."""
    held = tuple(bits(inside))
    elims = ((target, digit),)
    other_arm = row if arm == col else col
    return Step(
        "empty-rectangle",
        (box, line, other_arm, arm),
        held + (near, far),
        (digit,),
        eliminations=elims,
        explanation=(
            f"In {unit_name(box)}, {digit} can only go in {unit_name(row)} or {unit_name(col)} "
            f"({cells_text(held, 'or')}), and {unit_name(line)} has only two places for {digit}, "
            f"{cell_name(near)} and {cell_name(far)}. If {cell_name(target)} were {digit}, "
            f"{cell_name(far)} couldn't be, so {cell_name(near)} would be, which rules out "
            f"{unit_name(other_arm)} in {unit_name(box)}, while {cell_name(target)} rules out "
            f"{unit_name(arm)}, leaving {unit_name(box)} no place for {digit}: "
            f"{removals_text(elims)}."
        ),
    )


# --- w-wing -----------------------------------------------------------------------------------


def w_wing(digits: Grid, cands: Candidates) -> Step | None:
    """Two cells holding only x and y, apart, joined by a strong link on x with one end seeing
    each: if one cell isn't y it is x, which pushes y into the other, so cells seeing both
    can't be y."""
    bivalue = [c for c in CELLS if POPCOUNT[cands[c]] == 2]
    if len(bivalue) < 2:
        return None
    boards = digit_boards(cands)
    for x in range(1, 10):
        holders = [c for c in bivalue if cands[c] >> (x - 1) & 1]
        if len(holders) < 2:
            continue
        for unit in HOUSE_ORDER:
            pair = boards[x] & UNIT_BITS[unit]
            if pair.bit_count() != 2:
                continue
            p, q = bits(pair)
            for a in holders:
                if not PEER_BITS[a] >> p & 1:
                    continue
                for b in holders:
                    # Cells that see each other are a naked pair, not a w-wing.
                    if b == a or cands[b] != cands[a] or not PEER_BITS[b] >> q & 1 or PEER_BITS[a] >> b & 1:
                        continue
                    y = DIGIT_OF_BIT[cands[a] & ~(1 << (x - 1))]
                    targets = seen_by_all((a, b), boards[y])
                    if targets:
                        return _w_wing_step(cands, x, y, unit, a, b, p, q, targets)
    return None


def _w_wing_step(
    cands: Candidates, x: Digit, y: Digit, unit: int, a: Cell, b: Cell, p: Cell, q: Cell, targets: tuple[Cell, ...]
) -> Step:
    """The w-wing's step, told from the first cell's side."""
    elims = tuple((t, y) for t in targets)
    return Step(
        "w-wing",
        (unit, _shared(a, p)[0], _shared(b, q)[0]),
        (a, b, p, q),
        (x, y),
        eliminations=elims,
        explanation=(
            f"{cell_name(a)} and {cell_name(b)} both hold only {pencil(cands[a])}, and {unit_name(unit)} "
            f"has only two places for {x}, {cell_name(p)} (seeing {cell_name(a)}) and {cell_name(q)} "
            f"(seeing {cell_name(b)}). If {cell_name(a)} isn't {y} it is {x}, so {cell_name(p)} isn't "
            f"{x}, {cell_name(q)} is, and {cell_name(b)} is {y}; either way one of the two is {y}, so a "
            f"cell that sees both can't be: {removals_text(elims)}."
        ),
    )
