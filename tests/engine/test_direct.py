"""The direct steps (a pointing or hidden subset read straight off as a placement): each pinned
to a real position where it is the easiest step, each placement checked against the solution
on every position of the rater's path through rated puzzles, and the ratings they give puzzles
Sudoku Explainer rates by them.

The positions are points on the rater's path through puzzles of bench/se_rated.txt where
nothing easier applies; the candidates there are the ones the placed digits leave, so a
position is its givens and its digits.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from puzzles.engine import direct
from puzzles.engine.finders import FINDER_OF, LOGICAL, find_step, trial_and_error
from puzzles.engine.grid import BIT, UNITS, as_grid, candidates
from puzzles.engine.rater import next_step, rate
from puzzles.engine.solver import solve
from puzzles.engine.steps import apply

SE_RATED = Path(__file__).resolve().parents[2] / "bench" / "se_rated.txt"
FINDERS = {
    "direct-pointing": direct.direct_pointing,
    "direct-hidden-pair": direct.direct_hidden_pair,
    "direct-hidden-triple": direct.direct_hidden_triple,
}


@dataclass(frozen=True)
class Pinned:
    givens: str
    digits: str
    placement: tuple[int, int]
    explanation: str

    def board(self) -> list[int]:
        return [int(ch) for ch in self.digits]


PINNED = {
    "direct-pointing": Pinned(
        givens="000401000003000900061000240007090400050000010008703500080030060100000003500020004",
        digits="005401000003050901061309245017090400050000010008713520080030062100000053536020094",
        placement=(44, 7),
        explanation=(
            "In box 9, 7 can only go in column 7 (r7c7, r8c7 or r9c7), so no other cell in column 7 can "
            "hold 7. That leaves 7 one place in box 6: r5c9, so it goes there."
        ),
    ),
    "direct-hidden-pair": Pinned(
        givens="000600010080520079000340208000002090200000005010400000703065000690037040020004000",
        digits="952678314384521679100349258400002090200000405010400000743065000690037540020004000",
        placement=(78, 7),
        explanation=(
            "In box 9, the digits 3 and 6 can only go in r9c8 and r9c9, so those cells hold them and "
            "nothing else. That leaves 7 one place in box 9: r9c7, so it goes there."
        ),
    ),
    "direct-hidden-triple": Pinned(
        givens="000210500010000030000305740031060050050000070080090120068902000070000080002031000",
        digits="000210500015040030020385741231060050050120070080590120068972015170050080502831007",
        placement=(1, 4),
        explanation=(
            "In box 1, the digits 3, 7 and 8 can only go in r1c1, r1c3 and r2c1, so those cells hold "
            "them and nothing else. That leaves 4 one place in box 1: r1c2, so it goes there."
        ),
    ),
}


def _places(cands: list[int], house: int, digit: int) -> set[int]:
    return {c for c in UNITS[house] if cands[c] & BIT[digit]}


def _check_direct(step, cands: list[int]) -> None:
    """Read a direct step's pattern off its position without the finders: the pattern's cells,
    then the one cell the pattern leaves for the placed digit."""
    ((cell, digit),) = step.placements
    assert step.eliminations == ()
    assert step.cells[-1] == cell
    pattern = set(step.cells[:-1])
    if step.technique == "direct-pointing":
        box, line, other = step.houses
        assert box >= 18 and line < 18 and other >= 18 and step.digits == (digit,)
        assert _places(cands, box, digit) == pattern and pattern <= set(UNITS[line])
        there = _places(cands, other, digit)
        assert len(there) >= 2 and there - set(UNITS[line]) == {cell}
    else:
        size = {"direct-hidden-pair": 2, "direct-hidden-triple": 3}[step.technique]
        (house,) = step.houses
        spots = set().union(*(_places(cands, house, d) for d in step.digits))
        assert len(step.digits) == size and spots == pattern and len(spots) == size
        assert digit not in step.digits
        there = _places(cands, house, digit)
        assert len(there) >= 2 and there - spots == {cell}


@pytest.mark.parametrize("name", list(PINNED))
def test_each_direct_step_is_pinned_where_it_is_the_easiest_step(name):
    case = PINNED[name]
    board = case.board()
    cands = candidates(board)
    solution = solve(as_grid(case.givens))
    assert all(d in (0, solution[c]) for c, d in enumerate(board))
    for easier in LOGICAL:
        if easier.name == name:
            break
        assert FINDER_OF[easier.name](board, cands) is None, f"{easier.name} applies before {name}"
    step = next_step(case.givens, board)
    assert step.technique == name
    assert step.placements == (case.placement,) and step.explanation == case.explanation
    assert solution[case.placement[0]] == case.placement[1]
    _check_direct(step, cands)


def test_a_direct_step_places_its_digit_and_keeps_none_of_the_eliminations_behind_it():
    case = PINNED["direct-pointing"]
    board = case.board()
    cands = candidates(board)
    step = next_step(case.givens, board)
    apply(step, board, cands)
    assert board[44] == 7
    # The pointing's other 7s in column 7 (outside box 9) stay pencilled in.
    assert cands == candidates(board)


def _puzzles(count: int) -> list[str]:
    lines = [line.split() for line in SE_RATED.read_text().splitlines() if line and not line.startswith("#")]
    return [grid for grid, _ in lines[:count]]


def test_every_direct_step_on_the_rated_path_of_many_puzzles_places_the_solutions_digit():
    """Each finder is asked at every position of the path, whether or not the rater takes it."""
    seen = dict.fromkeys(FINDERS, 0)
    for puzzle in _puzzles(120):
        grid = as_grid(puzzle)
        solution = solve(grid)
        digits, cands = grid[:], candidates(grid)
        while 0 in digits:
            for name, finder in FINDERS.items():
                step = finder(digits, cands)
                if step is not None:
                    assert step.technique == name
                    ((cell, digit),) = step.placements
                    assert solution[cell] == digit, step.explanation
                    _check_direct(step, cands)
                    seen[name] += 1
            step = find_step(digits, cands) or trial_and_error(digits, cands, solution)
            apply(step, digits, cands)
    assert all(seen.values()), seen


def test_no_direct_step_is_found_on_a_solved_grid():
    solution = solve(as_grid(PINNED["direct-pointing"].givens))
    cands = candidates(solution)
    assert all(finder(solution, cands) is None for finder in FINDERS.values())


# Puzzles Sukaku Explainer rates 2.5 (bench/se_rated.txt): each needs one direct hidden triple
# here, where before it needed a naked pair (3.0).
RATED_2_5 = [
    "000210500010000030000305740031060050050000070080090120068902000070000080002031000",
    "000603000003209400000040000031000290450000071020000060240000089000050000600407002",
    "304801607000375000000000000050904030600080001038000790000030000080609040006000900",
]


@pytest.mark.parametrize("puzzle", RATED_2_5)
def test_a_puzzle_rated_2_5_for_a_direct_hidden_triple_is_rated_the_same_here(puzzle):
    rating = rate(puzzle)
    assert rating.tier == "medium" and rating.hardest == "direct-hidden-triple"
    assert rating.techniques["direct-hidden-triple"] == 1
    assert 250 <= rating.score < 260


def test_a_puzzle_that_needs_a_plain_pointing_scores_above_one_a_direct_step_solves():
    # Both rated by Sukaku Explainer: 2.6 (a pointing) and 2.5 (a direct hidden triple).
    pointing = rate("000000000003702800060354090089000160070645030000000000040000070200506004000010000")
    triple = rate(RATED_2_5[0])
    assert pointing.hardest == "pointing" and pointing.tier == triple.tier == "medium"
    assert pointing.score > triple.score
