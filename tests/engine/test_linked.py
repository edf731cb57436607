"""The forcing chain of strong and weak links (linked.py), pinned to real positions and checked
against the solution while solving puzzles that need it.

Positions are written as in test_forcing.py: the puzzle, the board and its pencil marks. FIRES
is from the first puzzle of top-1465, PLACES from a generated extreme puzzle (seed 1001), each
where the rater, with the forcing chain in the catalogue, takes one.
"""

from __future__ import annotations

import pytest

from puzzles.engine import rate
from puzzles.engine.finders import find_step
from puzzles.engine.linked import CHAIN_BASE, X_CHAIN_BASE, forcing_chain
from puzzles.engine.solver import solve
from puzzles.engine.steps import Step

from .test_forcing import NISHIO, Case

FIRES = Case(
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
    "400030000000600800000000001000050090080000600070200000000192700513000942927040100",
    (
        ". 569 1268 5789 . 1578 25 2567 5679 1237 359 12 . 127 459 . 2357 34579 23678 3569 268 45789 "
        "278 45789 345 23567 . 1236 346 1246 378 . 13678 23 . 378 123 . 59 479 17 13479 . 12357 357 "
        "136 . 59 . 168 13689 345 1358 3458 68 46 468 . . . . 35 35 . . . 78 678 678 . . . . . . 35 "
        ". 35 . 68 68"
    ),
)
PLACES = Case(
    "000409050800060000000002000200004006004100800090076003013000208060000070900050000",
    "020489050800060000000002080200004006604100800190076003513047208460000070900050000",
    (
        "37 . 16 . . . 1367 . 17 . 45 19 357 . 135 13479 2349 12479 37 45 169 357 13 . 13469 . 1479 . "
        "378 578 3589 39 . 1579 19 . . 37 . . 239 35 . 29 2579 . . 58 258 . . 45 24 . . . . 69 . . . "
        "69 . . . 28 239 1239 138 1359 . 159 . 78 278 236 . 138 134 1346 14"
    ),
)


@pytest.mark.parametrize("case", [FIRES, PLACES])
def test_the_pinned_positions_are_true_to_their_puzzle(case):
    solution = solve([int(ch) if ch != "." else 0 for ch in case.givens.replace("0", ".")])
    digits, cands = case.position()
    assert solution is not None and len(cands) == 81
    assert all(d in (0, s) for d, s in zip(digits, solution))
    assert all(not m or m >> (s - 1) & 1 for m, s in zip(cands, solution))


def test_a_chain_from_a_true_assumption_back_to_it_false_removes_the_candidate():
    step = forcing_chain(*FIRES.position())
    assert step == Step(
        "forcing-chain",
        (19, 0, 14),
        (5, 6, 33, 30, 75, 77),
        (2, 3, 5),
        eliminations=((5, 5),),
        explanation=(
            "If r1c6 is 5, then r1c7 isn't 5, so r1c7 is 2 (its other candidate), so r4c7 isn't 2, so "
            "r4c7 is 3 (its other candidate), and after 4 more links like these, r1c6 isn't 5. So r1c6 "
            "can't be 5: remove 5 from r1c6."
        ),
        # Ten candidates along it, a length of eight: past 4 and 6.
        difficulty=7.2,
    )


def test_a_chain_from_a_false_assumption_back_to_it_true_places_the_digit():
    step = forcing_chain(*PLACES.position())
    assert step is not None
    assert step.placements == ((40, 2),) and not step.eliminations
    assert step.explanation == (
        "If r5c5 isn't 2, then r8c5 is 2 (the other place for 2 in column 5), so r8c3 isn't 2, so r8c3 "
        "is 8 (its other candidate), so r6c3 isn't 8, so r6c4 is 8 (the other place for 8 in row 6), so "
        "r6c4 isn't 2, so r5c5 is 2 (the other place for 2 in box 5). So r5c5 is 2, and it goes there."
    )
    assert step.difficulty == CHAIN_BASE + 0.1


def test_it_finds_no_chain_where_only_nishio_helps_and_leaves_its_inputs_alone():
    digits, cands = NISHIO.position()
    before = (list(digits), list(cands))
    assert forcing_chain(digits, cands) is None
    assert (digits, cands) == before


def test_the_rater_takes_a_forcing_chain_before_a_nishio():
    assert X_CHAIN_BASE < CHAIN_BASE < 7.5
    step = find_step(*FIRES.position())
    assert step is not None and step.technique == "forcing-chain"


def test_every_forcing_chain_the_rater_takes_is_true_to_the_solution():
    rating = rate(PLACES.givens)
    solution = solve([int(ch) for ch in PLACES.givens])
    assert solution is not None
    chains = [s for s in rating.steps if s.technique == "forcing-chain"]
    assert chains, "the puzzle needs forcing chains"
    for step in chains:
        assert all(solution[c] == d for c, d in step.placements)
        assert all(solution[c] != d for c, d in step.eliminations)
        assert 7.0 <= step.difficulty <= 7.4
