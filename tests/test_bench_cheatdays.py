"""bench/cheatdays/board.py's timelines: the simulated players write as the board does (a save
0.6 s after the last digit, at most 3 s after the first unsaved one; the last digits in the
submit; ticks in silences while the page is visible, none after a close). No database: the
simulation itself takes minutes (bench/cheat.py --days), so only its board is tested here."""

from __future__ import annotations

import random

import pytest

from bench.cheatdays.board import SAVE_AT_MOST, TICK_EVERY, Step, board_writes, paced, with_ticks


def test_digits_a_second_or_more_apart_are_saved_one_by_one_and_the_last_goes_in_the_submit():
    steps = board_writes([(10, 5.0), (11, 7.0), (12, 9.5)], ticks=False)
    assert [(s.kind, [c for c, _ in s.cells]) for s in steps] == [
        ("open", []),
        ("save", [10]),
        ("save", [11]),
        ("submit", [12]),
    ]
    assert [s.at for s in steps] == pytest.approx([0.0, 5.6, 7.6, 9.8])


def test_a_quick_run_of_digits_is_saved_together_within_three_seconds_of_the_first():
    placed = [(cell, 1.0 + 0.5 * n) for n, cell in enumerate(range(20, 30))]  # a digit every 0.5 s
    saves = [s for s in board_writes(placed, ticks=False) if s.kind == "save"]
    assert all(1 <= len(s.cells) <= 7 for s in saves)
    assert all(s.at - s.cells[0][1] <= SAVE_AT_MOST + 1e-9 for s in saves)


def test_silences_get_ticks_while_visible_and_none_after_a_close():
    closed = 2.5 * TICK_EVERY
    steps = with_ticks([Step(0.0, "open"), Step(closed, "close"), Step(closed + 100, "save", [(1, closed + 99)])])
    assert [s.at for s in steps if s.kind == "tick"] == [TICK_EVERY, 2 * TICK_EVERY]


def test_paced_digits_end_at_the_time_aimed_at_in_the_order_given():
    placed = paced((3, 1, 2), 90.0, random.Random(1), first=10.0)
    assert [cell for cell, _ in placed] == [3, 1, 2]
    assert placed[-1][1] == pytest.approx(90.0)
    assert 10.0 < placed[0][1] < placed[1][1] < placed[2][1]
