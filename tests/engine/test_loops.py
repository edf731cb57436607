"""The unique loop: pinned to real positions, rated as Sukaku Explainer rates it, and checked
against the solution on every position of the walks of puzzles that need one.

The puzzles are from bench/se_rated.txt, where Sukaku Explainer's hardest step is a unique loop
(its names and ratings in the comments, checked with its serate on 2026-11-26).
"""

from __future__ import annotations

import pytest

from puzzles.engine import rate, walk
from puzzles.engine.grid import as_grid, candidates
from puzzles.engine.loops import unique_loop
from puzzles.engine.solver import solve

from .practice_positions import practice_position

# (givens, Sukaku Explainer's rating and hardest step, our score)
RATED = [
    # 4.6, "Unique Loop 6 type 2"
    ("004000390120000000003042806000053089000201000310860000701620900000000038045000200", 461),
    # 4.7, "Unique Loop 8 type 1"
    ("800749003020000010030080090001000200079000830200000005003204900000000000700603001", 474),
    # 4.8, "Unique Loop 6 type 3" with a naked triple
    ("020016005000000400306000207600075040000000000080230006207000604005000000100590070", 488),
]


@pytest.mark.parametrize(("givens", "score"), RATED)
def test_a_puzzle_sukaku_explainer_solves_with_a_unique_loop_is_hard_here_at_its_figure(givens, score):
    rating = rate(givens)
    assert (rating.tier, rating.hardest, rating.score) == ("hard", "unique-loop", score)


@pytest.mark.parametrize("second", [False, True])
def test_it_finds_a_six_cell_loop_at_the_practice_positions(second):
    moment, solution, _ = practice_position("unique-loop", second)
    step = unique_loop(list(moment.digits), list(moment.cands))
    assert step is not None and step.technique == "unique-loop"
    assert step == moment.step
    assert len(step.cells) == 6 and step.difficulty == 4.6
    assert all(solution[c] != d for c, d in step.eliminations)
    assert "two solutions; it has one" in step.explanation


def test_a_loop_has_every_house_it_touches_holding_two_of_its_cells():
    moment, _, _ = practice_position("unique-loop")
    step = moment.step
    houses = [u for c in step.cells for u in (c // 9, 9 + c % 9, 18 + (c // 27) * 3 + (c % 9) // 3)]
    assert all(houses.count(u) == 2 for u in houses)


def test_no_loop_step_contradicts_the_solution_on_the_walks_of_loop_puzzles():
    fired = 0
    for givens, _ in RATED:
        solution = solve(as_grid(givens))
        assert solution is not None
        for moment in walk(givens, solution):
            step = unique_loop(list(moment.digits), list(moment.cands))
            if step is None:
                continue
            fired += 1
            assert step.eliminations and step.difficulty <= 4.8
            assert all(solution[c] != d for c, d in step.eliminations), step
    assert fired >= len(RATED)


def test_it_finds_nothing_on_a_fresh_puzzle():
    grid = as_grid(RATED[0][0])
    assert unique_loop(grid, candidates(grid)) is None
