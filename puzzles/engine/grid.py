"""The engine's vocabulary: cells, units, peers, digit masks, and the text format at the edges.

A grid is a list of 81 ints, row by row, 0 for an empty cell. A set of candidate digits is a
9-bit mask: bit ``d - 1`` stands for digit ``d``. The tables below are built once at import.
"""

from __future__ import annotations

from collections.abc import Iterable

Cell = int  # 0..80, row-major
Digit = int  # 1..9, 0 for empty
Mask = int  # 9-bit set of digits
Grid = list[int]

ALL: Mask = 0x1FF
CELLS = range(81)

ROW_OF: tuple[int, ...] = tuple(c // 9 for c in CELLS)
COL_OF: tuple[int, ...] = tuple(c % 9 for c in CELLS)
BOX_OF: tuple[int, ...] = tuple((c // 27) * 3 + (c % 9) // 3 for c in CELLS)

ROWS: tuple[tuple[Cell, ...], ...] = tuple(tuple(r * 9 + c for c in range(9)) for r in range(9))
COLS: tuple[tuple[Cell, ...], ...] = tuple(tuple(r * 9 + c for r in range(9)) for c in range(9))
BOXES: tuple[tuple[Cell, ...], ...] = tuple(tuple(c for c in CELLS if BOX_OF[c] == b) for b in range(9))
# Units 0-8 are rows, 9-17 columns, 18-26 boxes.
UNITS: tuple[tuple[Cell, ...], ...] = ROWS + COLS + BOXES
UNITS_OF: tuple[tuple[int, int, int], ...] = tuple((ROW_OF[c], 9 + COL_OF[c], 18 + BOX_OF[c]) for c in CELLS)
PEERS: tuple[tuple[Cell, ...], ...] = tuple(
    tuple(sorted({p for u in UNITS_OF[c] for p in UNITS[u]} - {c})) for c in CELLS
)

# Per-cell and per-unit sets as 81-bit integers, for bitboard arithmetic.
CELL_BIT: tuple[int, ...] = tuple(1 << c for c in CELLS)
PEER_BITS: tuple[int, ...] = tuple(sum(1 << p for p in PEERS[c]) for c in CELLS)
UNIT_BITS: tuple[int, ...] = tuple(sum(1 << c for c in unit) for unit in UNITS)
FULL_BOARD: int = (1 << 81) - 1

BIT: tuple[Mask, ...] = (0,) + tuple(1 << (d - 1) for d in range(1, 10))  # BIT[d]
POPCOUNT: tuple[int, ...] = tuple(bin(m).count("1") for m in range(512))
DIGITS_OF: tuple[tuple[Digit, ...], ...] = tuple(
    tuple(d for d in range(1, 10) if m & (1 << (d - 1))) for m in range(512)
)
DIGIT_OF_BIT: dict[Mask, Digit] = {1 << (d - 1): d for d in range(1, 10)}


class InvalidGrid(ValueError):
    """A grid that cannot be a Sudoku position; the message says what is wrong and where."""


def unit_name(unit: int) -> str:
    """A person's name for unit 0..26: 'row 3', 'column 5', 'box 9'."""
    if unit < 9:
        return f"row {unit + 1}"
    if unit < 18:
        return f"column {unit - 8}"
    return f"box {unit - 17}"


def cell_name(cell: Cell) -> str:
    """The usual short name of a cell: r1c1 is the top-left one."""
    return f"r{ROW_OF[cell] + 1}c{COL_OF[cell] + 1}"


def conflicts(grid: Grid) -> list[tuple[Cell, Cell]]:
    """Pairs of cells (a < b) that hold the same digit in one row, column or box."""
    pairs: set[tuple[Cell, Cell]] = set()
    for unit in UNITS:
        seen: dict[Digit, Cell] = {}
        for c in unit:
            d = grid[c]
            if d:
                if d in seen:
                    pairs.add((seen[d], c))
                else:
                    seen[d] = c
    return sorted(pairs)


def parse(text: str) -> Grid:
    """Parse 81 characters ('1'-'9', '0' or '.' for empty) into a grid, or raise InvalidGrid.

    Whitespace is ignored, so a grid written as nine lines parses too.
    """
    if not isinstance(text, str):
        raise InvalidGrid(f"a grid must be text, not {type(text).__name__}")
    chars = "".join(text.split())
    for i, ch in enumerate(chars):
        if ch not in "0123456789.":
            where = f"row {i // 9 + 1}, column {i % 9 + 1}" if i < 81 else f"position {i + 1}"
            raise InvalidGrid(f"unexpected character {ch!r} at {where}; use 1-9, and 0 or . for empty")
    if len(chars) != 81:
        raise InvalidGrid(f"a grid has 81 cells, this one has {len(chars)}")
    grid = [0 if ch == "." else int(ch) for ch in chars]
    for a, b in conflicts(grid)[:1]:
        unit = next(u for u in UNITS_OF[a] if u in UNITS_OF[b])
        raise InvalidGrid(f"two {grid[a]}s in {unit_name(unit)}: {cell_name(a)} and {cell_name(b)}")
    return grid


def as_grid(grid: Iterable[int] | str) -> Grid:
    """A checked copy of a grid given as text or as 81 ints; raises InvalidGrid like parse()."""
    if isinstance(grid, str):
        return parse(grid)
    try:
        cells = [int(d) for d in grid]
    except (TypeError, ValueError):
        raise InvalidGrid("a grid must be text or a sequence of 81 digits") from None
    if len(cells) != 81:
        raise InvalidGrid(f"a grid has 81 cells, this one has {len(cells)}")
    for i, d in enumerate(cells):
        if not 0 <= d <= 9:
            raise InvalidGrid(f"unexpected value {d} at row {i // 9 + 1}, column {i % 9 + 1}")
    return parse(format_grid(cells))


def format_grid(grid: Iterable[int]) -> str:
    """The 81-character exchange form of a grid, '0' for empty."""
    return "".join(str(d) for d in grid)


def is_complete_solution(grid: Grid) -> bool:
    """True when every cell holds a digit and every unit holds each digit once."""
    return len(grid) == 81 and all(sorted(grid[c] for c in unit) == list(range(1, 10)) for unit in UNITS)


def candidates(grid: Grid) -> list[Mask]:
    """Each cell's candidate mask from the digits placed (0 for a filled cell)."""
    cands = [0] * 81
    for c in CELLS:
        if not grid[c]:
            seen = 0
            for p in PEERS[c]:
                seen |= BIT[grid[p]]
            cands[c] = ALL & ~seen
    return cands
