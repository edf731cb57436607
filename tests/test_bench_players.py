"""bench/players.py's figure: Spearman's rank correlation (bench/harness, tested with bench/rating.py
in tests/engine/test_rating_bench.py), NaN where it is undefined, so a verdict on it is plainly no."""

from __future__ import annotations

import math

from bench.players import rho


def test_the_rank_correlation_is_pearsons_on_the_ranks():
    assert rho([1, 2, 3, 4], [10, 200, 3000, 40000]) == 1
    assert rho([1, 2, 3, 4], [4, 3, 2, 1]) == -1
    # d = (0, 1, -1, 0): 1 - 6 * 2 / (4 * 15) = 0.8, the textbook formula without ties.
    assert math.isclose(rho([1, 2, 3, 4], [1, 3, 2, 4]), 0.8)


def test_without_pairs_or_variation_it_is_nan_and_never_passes_a_target():
    assert math.isnan(rho([1], [2]))
    assert math.isnan(rho([1, 1, 1], [1, 2, 3]))
    assert not rho([5, 5], [1, 2]) >= 0.9
