"""playlog.py: the board's moves checked at the edge, and packed and unpacked without loss."""

from __future__ import annotations

import pytest

from puzzles.record_of_play.moves import MOVES_PER_WRITE, BadMoves, Move, moves_clean, pack, unpack

WIRE = [
    [5200, "d", [[0, 4], [9, 4]]],  # a 4 in two selected cells
    [3100, "c", [[1, "7"], [2, "17"]]],  # a corner 7 added to both
    [3100, "n", [[30, "9531"]]],  # centre notes, sent in any order
    [900, "k", [[40, ""]]],  # a colour taken off
    [0, "d", [[0, 0]]],  # an erase
]


def test_the_boards_moves_come_out_checked_with_sets_in_order():
    moves = moves_clean(WIRE)
    assert moves[0] == Move(5200, "d", ((0, 4), (9, 4)))
    assert moves[2].cells == ((30, "1359"),)
    assert [m.wire() for m in moves][1] == [3100, "c", [[1, "7"], [2, "17"]]]


def test_no_moves_is_an_empty_list():
    assert moves_clean(None) == [] and moves_clean([]) == []


def test_packing_keeps_every_move_in_six_bytes_and_three_a_cell():
    moves = moves_clean(WIRE)
    data = pack(moves)
    assert len(data) == 6 * len(moves) + 3 * sum(len(m.cells) for m in moves)
    assert unpack(data) == moves
    assert unpack(memoryview(data)) == moves  # as PostgreSQL's driver hands a BinaryField back
    assert unpack(b"") == []


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ({"age": 1}, "a list"),
        ([[1, "d"]], "each move"),
        ([[-1, "d", [[0, 1]]]], "age"),
        ([[True, "d", [[0, 1]]]], "age"),
        ([[1, "x", [[0, 1]]]], "layer"),
        ([[1, "d", []]], "1 to 81"),
        ([[1, "d", [[81, 1]]]], "cell"),
        ([[1, "d", [[0, 10]]]], "digit"),
        ([[1, "d", [[0, "1"]]]], "digit"),
        ([[1, "c", [[0, 5]]]], "set"),
        ([[1, "c", [[0, "11"]]]], "set"),
        ([[1, "c", [[0, "0"]]]], "set"),
        ([[1, "d", [[3, 1], [3, 2]]]], "once"),
        ([[1, "d", [[0, 1]]], [2, "d", [[1, 1]]]], "oldest first"),
        ([[0, "d", [[0, 1]]]] * (MOVES_PER_WRITE + 1), "at most"),
    ],
)
def test_moves_the_board_cannot_have_sent_are_refused_with_the_reason(raw, says):
    with pytest.raises(BadMoves, match=says):
        moves_clean(raw)
