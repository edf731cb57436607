"""bench/players.py's figures: Spearman's rank correlation, written in plain Python."""

from __future__ import annotations

import math

from bench.players import ranks, spearman


def test_tied_values_share_the_mean_of_their_ranks():
    assert ranks([30, 10, 20, 10]) == [4, 1.5, 3, 1.5]


def test_spearman_is_one_for_the_same_order_minus_one_reversed_and_pearsons_on_ranks_otherwise():
    assert spearman([1, 2, 3, 4], [10, 200, 3000, 40000]) == 1
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == -1
    # d = (0, 1, -1, 0): 1 - 6 * 2 / (4 * 15) = 0.8, the textbook formula without ties.
    assert math.isclose(spearman([1, 2, 3, 4], [1, 3, 2, 4]), 0.8)
    assert math.isnan(spearman([1, 2], [2, 1]))
