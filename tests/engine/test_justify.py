"""What made a player's digit go where they put it, on the board they had (engine/justify.py): a
single when it is one, one step of the simplest technique that leaves it, the step the notes show
when they made it a single, and nothing when the board did not show it."""

from __future__ import annotations

from pathlib import Path

from puzzles.engine import board_candidates, justify, single_for, solve, usable_for, walk
from puzzles.engine.grid import BIT, PEERS, UNITS, as_grid

BENCH = Path(__file__).resolve().parents[2] / "bench"
TOP1465 = (BENCH / "top1465.txt").read_text().split()
EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
# From the Sudoku Exchange bank (bench/se_rated.txt): its walk meets an X-wing on 4s in rows 3 and
# 5, which leaves r9c8 the only place for 4 in box 9.
X_WING = "000102600000050290900006003300600900100030008007008005400500002026040000005203000"
R9C8 = 79
# Also from the bank, rated medium for its naked pairs: the first, in column 9, leaves r6c7 the
# only place for 5, but only once a pointing before it has taken 5 out of r3c9.
NAKED_PAIR = "048070120000602000000090000000040000309000402060000070001709300400503007530060019"
R6C7 = 51
# And one whose walk places r9c8's 5 by a direct hidden triple in column 8.
DIRECT = "006000700000709000008103900400000002800205001603000405040010060100000004002604100"


def moment_of(givens: str, technique: str):
    return next(m for m in walk(givens) if m.step.technique == technique)


def test_a_digit_that_is_a_hidden_single_in_its_box_is_made_by_that_alone():
    first = next(iter(walk(EASY)))
    (cell, digit), unit = first.step.placements[0], first.step.houses[0]
    found = justify(list(first.digits), cell, digit, "easy")
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


def test_a_placement_an_x_wing_leaves_is_credited_with_it_in_a_puzzle_whose_tier_has_one():
    moment = moment_of(X_WING, "x-wing")
    assert solve(X_WING)[R9C8] == 4
    assert single_for(list(moment.digits), list(moment.cands), R9C8, 4) is None
    found = justify(list(moment.digits), R9C8, 4, "hard", list(moment.cands))
    assert found.steps is not None and found.technique == "x-wing"
    assert [s.technique for s in found.steps] == ["x-wing", "hidden-single"]
    assert found.steps[0].explanation.startswith("In rows 3 and 5, 4 can only go in columns 4 and 7")
    assert found.steps[-1].placements == ((R9C8, 4),)
    # An X-wing is a hard technique: in a medium puzzle the same digit was placed ahead of the board.
    assert justify(list(moment.digits), R9C8, 4, "medium", list(moment.cands)).steps is None


def test_notes_that_already_took_out_what_the_x_wing_removes_credit_the_x_wing_not_the_single():
    moments = list(walk(X_WING))
    after = moments[moments.index(moment_of(X_WING, "x-wing")) + 1]  # the X-wing's removal made
    assert single_for(list(after.digits), list(after.cands), R9C8, 4) is not None
    found = justify(list(after.digits), R9C8, 4, "hard", list(after.cands))
    assert found.technique == "x-wing" and [s.technique for s in found.steps or ()] == ["x-wing", "hidden-single"]


def test_a_placement_two_steps_from_the_board_is_ahead_and_made_when_the_notes_show_the_first():
    moment = moment_of(NAKED_PAIR, "naked-pair")
    assert solve(NAKED_PAIR)[R6C7] == 5
    # From the digits alone it takes the pointing and then the pair: two steps.
    assert justify(list(moment.digits), R6C7, 5, "medium").steps is None
    # The player's notes, as the walk keeps its pencil marks, have the pointing's removal.
    found = justify(list(moment.digits), R6C7, 5, "medium", list(moment.cands))
    assert found.technique == "naked-pair"
    assert [s.technique for s in found.steps or ()] == ["naked-pair", "hidden-single"]


def test_a_hidden_triple_that_leaves_its_single_at_once_is_a_direct_hidden_triple():
    moment = next(m for m in walk(DIRECT) if m.step.technique == "direct-hidden-triple")
    ((cell, digit),) = moment.step.placements
    for notes in (None, list(moment.cands)):
        found = justify(list(moment.digits), cell, digit, "medium", notes)
        assert found.technique == "direct-hidden-triple"  # medium, where a plain hidden triple is hard


def test_a_placement_a_single_not_yet_written_leads_to_was_placed_ahead():
    # From EASY's givens, r4c8's 7 is no single, but writing box 6's hidden 6 in r4c9 makes it one.
    digits = as_grid(EASY)
    assert justify(digits, 34, 7, "easy").steps is None
    digits[35] = 6
    assert justify(digits, 34, 7, "easy").technique == "hidden-single"


def test_a_placement_no_technique_reaches_is_ahead_and_forcing_chains_never_make_one():
    # top-1465's second puzzle: its walk is stuck with every technique and tries r2c1's 9.
    moment = moment_of(TOP1465[1], "trial-and-error")
    (cell, digit) = moment.step.placements[0]
    found = justify(list(moment.digits), cell, digit, None, list(moment.cands))
    assert found.steps is None and found.technique == ""
    trying = {"forcing-chain", "nishio", "cell-forcing-chain", "unit-forcing-chain", "trial-and-error"}
    assert not trying & {t.name for t in usable_for(None)}
    assert usable_for("easy") == ()  # an easy puzzle's placements are singles or ahead
    assert {"pointing", "direct-hidden-triple"} <= {t.name for t in usable_for("medium")}
    assert "x-wing" not in {t.name for t in usable_for("medium")}


def test_a_digit_the_cell_cannot_hold_is_never_justified():
    first = next(iter(walk(EASY)))
    (cell, digit) = first.step.placements[0]
    wrong = next(d for d in range(1, 10) if d != digit)
    assert justify(list(first.digits), cell, wrong).steps is None


def test_notes_narrow_a_cells_candidates_unless_they_leave_none():
    digits = as_grid(EASY)
    bare = board_candidates(digits)
    assert (bare[1], bare[2], bare[3]) == (BIT[4] | BIT[5] | BIT[7] | BIT[8], 0, BIT[4] | BIT[9])
    notes = [0] * 81
    notes[1] = BIT[4] | BIT[8] | BIT[6]  # the 6 is ruled out by the digits: 4 and 8 are left
    notes[2] = BIT[1]  # a given's cell holds no candidates, whatever the notes
    notes[3] = BIT[6]  # nothing left: such notes count for nothing
    board = board_candidates(digits, notes)
    assert (board[1], board[2], board[3]) == (BIT[4] | BIT[8], 0, bare[3])
    assert board[4:] == bare[4:] and board[0] == bare[0]
