"""The moves of the record of play: as the board sends them, checked, and packed to be stored.

A move is one change the board made to one layer of some cells, as the player made it: a digit
typed in three selected cells, a corner note added or taken away, a colour, an erase, the
candidates filled in, an undo. It carries the layer ("d" digits, "c" corner notes, "n" centre
notes, "k" colours), each changed cell with what the layer holds there after the move (a digit,
0 for none; or the set of notes or colours, "" for none), and its age: how many milliseconds
before the write that carries it the player made it. The server stamps the write's arrival, so a
move's time is the arrival less its age, never earlier than the write before (fairplay/ranking.py).

On the wire, in a save's or the submit's JSON body::

    "moves": [[age_ms, layer, [[cell, value], ...]], ...]   # oldest first: ages never grow

Stored packed, 6 bytes a move and 3 a cell: an age (4 bytes), the layer (1), the number of
cells (1), then each cell (1) and its value (2: a digit, or nine bits for a set).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from itertools import pairwise
from typing import NamedTuple

LAYERS = ("d", "c", "n", "k")  # digits, corner notes, centre notes, colours
MOVES_PER_WRITE = 500  # a write carries at most this many moves (the board sends far fewer)
MAX_AGE_MS = 24 * 3600 * 1000  # a move kept offline at most a day before its write
_HEAD = struct.Struct(">IBB")
_CELL = struct.Struct(">BH")


class BadMoves(ValueError):
    """Moves the board cannot have sent; the message says what is wrong."""


class Move(NamedTuple):
    """A tuple, not a dataclass: a year of play is some 100,000 of them to decode (the export's)."""

    age_ms: int
    layer: str
    # (cell, value): a digit 0-9 on layer "d", else the cell's set as ascending digits ("" for none).
    cells: tuple[tuple[int, int | str], ...]

    def wire(self) -> list:
        """The move as the board sends it (and as a replay reads it)."""
        return [self.age_ms, self.layer, [list(pair) for pair in self.cells]]


def _whole(value: object, low: int, high: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadMoves(f"{what} must be a whole number from {low} to {high}")
    return value


def _set_of(value: object) -> str:
    """A set of notes or colours: digits 1-9, each at most once, in any order; returned ascending."""
    if (
        not isinstance(value, str)
        or len(value) > 9
        or not set(value) <= set("123456789")
        or len(set(value)) != len(value)
    ):
        raise BadMoves("a note or colour set must be distinct digits 1 to 9")
    return "".join(sorted(value))


def _move(raw: object) -> Move:
    if not isinstance(raw, list) or len(raw) != 3:
        raise BadMoves("each move must be [age_ms, layer, [[cell, value], ...]]")
    age, layer, pairs = raw
    age = _whole(age, 0, MAX_AGE_MS, "a move's age")
    if layer not in LAYERS:
        raise BadMoves(f"a move's layer must be one of {', '.join(LAYERS)}")
    if not isinstance(pairs, list) or not 1 <= len(pairs) <= 81:
        raise BadMoves("a move changes from 1 to 81 cells")
    cells: list[tuple[int, int | str]] = []
    for pair in pairs:
        if not isinstance(pair, list) or len(pair) != 2:
            raise BadMoves("each changed cell must be [cell, value]")
        cell = _whole(pair[0], 0, 80, "a cell")
        value = _whole(pair[1], 0, 9, "a digit") if layer == "d" else _set_of(pair[1])
        cells.append((cell, value))
    if len({cell for cell, _ in cells}) != len(cells):
        raise BadMoves("a move names each cell once")
    return Move(age, layer, tuple(cells))


def moves_clean(raw: object) -> list[Move]:
    """The moves of a write's body (None or absent: none), checked, or BadMoves."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise BadMoves("moves must be a list")
    if len(raw) > MOVES_PER_WRITE:
        raise BadMoves(f"a write carries at most {MOVES_PER_WRITE} moves")
    moves = [_move(item) for item in raw]
    if any(later.age_ms > earlier.age_ms for earlier, later in pairwise(moves)):
        raise BadMoves("moves go oldest first: a move's age is never more than the one before")
    return moves


def _mask(value: int | str) -> int:
    return value if isinstance(value, int) else sum(1 << (int(d) - 1) for d in value)


# Each nine-bit set as its digits, ascending: decoding a set is a look-up.
_SETS = tuple("".join(str(d) for d in range(1, 10) if mask >> (d - 1) & 1) for mask in range(512))


def pack(moves: Sequence[Move]) -> bytes:
    """The moves in their stored form."""
    out = bytearray()
    for move in moves:
        out += _HEAD.pack(move.age_ms, LAYERS.index(move.layer), len(move.cells))
        for cell, value in move.cells:
            out += _CELL.pack(cell, _mask(value))
    return bytes(out)


def unpack(data: bytes | memoryview) -> list[Move]:
    """The moves of their stored form (pack's inverse)."""
    data = bytes(data)
    moves, at = [], 0
    while at < len(data):
        age, layer_index, count = _HEAD.unpack_from(data, at)
        at += _HEAD.size
        end = at + count * _CELL.size
        pairs = _CELL.iter_unpack(data[at:end])
        layer = LAYERS[layer_index]
        cells = tuple(pairs) if layer == "d" else tuple((cell, _SETS[mask & 511]) for cell, mask in pairs)
        moves.append(Move(age, layer, cells))
        at = end
    return moves
