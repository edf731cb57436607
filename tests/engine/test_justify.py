"""Why a player's digit could go where they put it (engine/justify.py): a single when it is one, the
steps that lead to a single when it needs them, a guess when no technique gets there, and a
position that keeps what its steps removed."""

from __future__ import annotations

from pathlib import Path

from puzzles.engine import Position, justify, single_for, solve, walk
from puzzles.engine.grid import BIT, PEERS, UNITS, as_grid, candidates

BENCH = Path(__file__).resolve().parents[2] / "bench"
TOP1465 = (BENCH / "top1465.txt").read_text().split()
EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
# From the Sudoku Exchange bank (bench/se_rated.txt): its walk meets an X-wing on 4s in rows 3 and
# 5, which leaves r9c8 the only place for 4 in box 9.
X_WING = "000102600000050290900006003300600900100030008007008005400500002026040000005203000"
R9C8 = 79


def test_a_digit_that_is_a_hidden_single_in_its_box_is_justified_by_that_alone():
    first = next(iter(walk(EASY)))
    (cell, digit), unit = first.step.placements[0], first.step.houses[0]
    found = justify(list(first.digits), list(first.cands), cell, digit)
    assert found.steps is not None and [s.technique for s in found.steps] == ["hidden-single"]
    assert found.steps[0].houses == (unit,) and found.technique == "hidden-single"
    # Worked out apart from the engine: every other empty cell of its house sees the digit.
    grid = as_grid(EASY)
    assert all(grid[c] != digit for c in UNITS[unit])
    others = [c for c in UNITS[unit] if c != cell and not grid[c]]
    assert all(any(grid[p] == digit for p in PEERS[c]) for c in others)


def test_a_cell_with_one_candidate_left_and_no_hidden_single_is_a_naked_single():
    digits = as_grid(EASY)
    cands = [0] * 81
    cands[0] = BIT[4]
    for c in (1, 9, 10):  # 4 could go elsewhere in the box and both lines: not a hidden single
        cands[c] = BIT[4] | BIT[5]
    digits[0] = digits[1] = digits[9] = digits[10] = 0
    step = single_for(digits, cands, 0, 4)
    assert step is not None and step.technique == "naked-single" and step.placements == ((0, 4),)


def test_a_placement_that_needs_an_x_wing_gets_it_before_its_single():
    moment = next(m for m in walk(X_WING) if m.step.technique == "x-wing")
    assert solve(X_WING)[R9C8] == 4
    assert single_for(list(moment.digits), list(moment.cands), R9C8, 4) is None
    found = justify(list(moment.digits), list(moment.cands), R9C8, 4)
    assert found.steps is not None
    assert [s.technique for s in found.steps] == ["x-wing", "hidden-single"]
    assert found.technique == "x-wing"
    assert found.steps[0].explanation.startswith("In rows 3 and 5, 4 can only go in columns 4 and 7")
    assert found.steps[-1].placements == ((R9C8, 4),)
    # What the X-wing removed is in the candidates it hands back, and nothing of the solution.
    solution = solve(X_WING)
    assert all(found.cands[c] & BIT[solution[c]] for c in range(81) if not moment.digits[c])
    assert not found.cands[78] & BIT[4]  # r9c7


def test_a_placement_no_technique_reaches_is_a_guess():
    # top-1465's second puzzle: its walk is stuck with every technique and tries r2c1's 9.
    moment = next(m for m in walk(TOP1465[1]) if m.step.technique == "trial-and-error")
    (cell, digit) = moment.step.placements[0]
    found = justify(list(moment.digits), list(moment.cands), cell, digit)
    assert found.steps is None and found.technique == ""


def test_a_digit_the_cell_cannot_hold_is_never_justified():
    first = next(iter(walk(EASY)))
    (cell, digit) = first.step.placements[0]
    wrong = next(d for d in range(1, 10) if d != digit)
    assert justify(list(first.digits), list(first.cands), cell, wrong).steps is None


def test_a_position_keeps_what_its_steps_removed_even_after_a_digit_is_erased():
    position = Position(X_WING)
    for moment in walk(X_WING):
        if moment.step.technique == "x-wing":
            break
        for cell, digit in moment.step.placements:
            position.justify(cell, digit)
            position.place(cell, digit)
    found = position.justify(R9C8, 4)
    assert found.technique == "x-wing" and not position.cands[78] & BIT[4]
    position.place(R9C8, 4)
    position.erase(R9C8)
    assert position.cands[R9C8] & BIT[4] and not position.cands[78] & BIT[4]
    # Paid for once: the same placement is now a single straight away.
    assert [s.technique for s in position.justify(R9C8, 4).steps or ()] == ["hidden-single"]


def test_a_placement_a_single_not_yet_written_leads_to_starts_with_that_single():
    # From EASY's givens, r4c8's 7 is no single, but writing box 6's hidden 6 in r4c9 makes it one.
    digits = as_grid(EASY)
    found = justify(digits, candidates(digits), 34, 7)
    assert found.steps is not None and [s.placements for s in found.steps] == [((35, 6),), ((34, 7),)]
    assert found.technique == "hidden-single"
    # The 6 written in the head is not kept: r4c9 keeps its other candidates, as the player's notes do.
    assert found.cands[35] & ~BIT[6] and not digits[35]
    solution = solve(EASY)
    assert all(found.cands[c] & BIT[solution[c]] for c in range(81) if not digits[c])
