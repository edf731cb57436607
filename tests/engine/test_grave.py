"""The BUG+n (Sukaku Explainer's BUG types 2 and 3): rated as Sukaku Explainer rates it, pinned to
the learn page's position, and checked against the solution on every position of the walks of
puzzles that need one.

The puzzles are from bench/se_rated.txt, where Sukaku Explainer's hardest step is a BUG of type
2 or 3 (its names and ratings in the comments, checked with its serate on 2026-11-26).
"""

from __future__ import annotations

import pytest

from puzzles.engine import rate, walk
from puzzles.engine.finders import LOGICAL
from puzzles.engine.grave import bug_plus_n
from puzzles.engine.grid import as_grid, candidates
from puzzles.engine.rater import easiest_step
from puzzles.engine.solver import solve

from .practice_positions import _lines

# (givens, our score)
RATED = [
    # 5.7, "BUG type 2"
    ("000000407702000090059700030000186002004090600300254000030001920090000704801000000", 571),
    # 5.8, "BUG type 3" with a naked pair
    ("002010000006300020083600054200000030005103700030000005610009540050004900000080600", 581),
    # 5.9, "BUG type 3" with a naked triple
    ("000000000000913000800000005030809050007000400280704013140206089000000000370080042", 590),
    # 6.0, "BUG type 3" with a naked quad
    ("000000000710008320026000074049001000250080037000500180430000750067400018000000000", 602),
]


@pytest.mark.parametrize(("givens", "score"), RATED)
def test_a_puzzle_sukaku_explainer_solves_with_a_bug_of_type_2_or_3_is_expert_here_at_its_figure(givens, score):
    rating = rate(givens)
    assert (rating.tier, rating.hardest, rating.score) == ("expert", "bug-plus-n", score)


# The learn page's position (puzzles/learn/examples.json): top-1465, puzzle 692, as the walk of
# its solve reached it when the example was found.
LEARN_DIGITS = "028071930900230718731089050810064000370120060000090100493810005287053001156042000"
LEARN_CANDS = [
    48,
    0,
    0,
    24,
    0,
    0,
    0,
    0,
    40,
    0,
    40,
    24,
    0,
    0,
    48,
    0,
    0,
    0,
    0,
    0,
    0,
    40,
    0,
    0,
    10,
    0,
    34,
    0,
    0,
    258,
    20,
    0,
    0,
    20,
    66,
    322,
    0,
    0,
    264,
    0,
    0,
    144,
    144,
    0,
    264,
    48,
    40,
    18,
    68,
    0,
    192,
    0,
    136,
    14,
    0,
    0,
    0,
    0,
    0,
    96,
    34,
    66,
    0,
    0,
    0,
    0,
    288,
    0,
    0,
    40,
    264,
    0,
    0,
    0,
    0,
    320,
    0,
    0,
    132,
    384,
    68,
]


def test_it_finds_a_type_3_at_the_learn_pages_position():
    givens = _lines()[691]  # top-1465, puzzle 692
    solution = solve(as_grid(givens))
    assert solution is not None
    digits = [int(ch) for ch in LEARN_DIGITS]
    assert all(g in (0, d) for g, d in zip(as_grid(givens), digits))
    assert all(d in (0, s) for d, s in zip(digits, solution))
    assert all(not m or m >> (s - 1) & 1 for m, s in zip(LEARN_CANDS, solution))
    step = bug_plus_n(digits, list(LEARN_CANDS))
    assert step is not None and step == easiest_step(digits, list(LEARN_CANDS), LOGICAL)
    assert step.difficulty == 5.9 and step.eliminations == ((44, 4),)
    assert "no solution or several; the puzzle has one" in step.explanation


def test_no_step_contradicts_the_solution_on_the_walks_of_bug_puzzles():
    fired = 0
    for givens, _ in RATED:
        solution = solve(as_grid(givens))
        assert solution is not None
        for moment in walk(givens, solution):
            step = bug_plus_n(list(moment.digits), list(moment.cands))
            if step is None:
                continue
            fired += 1
            assert step.eliminations and 5.7 <= step.difficulty <= 6.0
            assert all(solution[c] != d for c, d in step.eliminations), step
    assert fired >= len(RATED)


def test_it_finds_nothing_on_a_fresh_puzzle():
    grid = as_grid(RATED[0][0])
    assert bug_plus_n(grid, candidates(grid)) is None
