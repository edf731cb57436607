"""walk(): the positions of a solve, each with the step rate() takes from it."""

import pytest

from puzzles.engine import InvalidGrid, rate, walk
from puzzles.engine.finders import FINDER_OF

from .test_rater import EASY, top1465

HARD = top1465(3)[2]


@pytest.mark.parametrize("givens", [EASY, HARD, top1465(2)[1]])
def test_walk_takes_the_steps_rate_takes(givens):
    moments = list(walk(givens))
    assert [m.step for m in moments] == rate(givens).steps
    first = moments[0]
    assert "".join(map(str, first.digits)) == givens.replace(".", "0")


def test_each_position_is_where_its_technique_is_found():
    for moment in walk(HARD):
        finder = FINDER_OF.get(moment.step.technique)
        if finder is None:  # trial and error: no finder
            continue
        found = finder(list(moment.digits), list(moment.cands))
        assert found is not None and found.technique == moment.step.technique


def test_a_grid_with_two_solutions_is_refused():
    with pytest.raises(InvalidGrid):
        next(walk("." * 81))
