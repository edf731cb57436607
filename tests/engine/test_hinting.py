"""What a hint shows beside its step: notes that leave out candidates (every one named, never the
cell's own digit alone), a position's candidates, and the single a step leaves behind."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzles.engine import Step, next_step, position_candidates, single_after, solve
from puzzles.engine.grid import PEERS, UNITS, UNITS_OF, as_grid

TOP1465 = [line for line in (Path(__file__).resolve().parents[2] / "bench" / "top1465.txt").read_text().split()]
# top-1465's 64th: r5c3 (cell 38) starts with candidates 3 4 6 8 9, and needs its 9.
EXPERT = TOP1465[63]
R5C3 = 38
EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"


def board_candidates(givens: str, digits: list[int], cell: int) -> set[int]:
    """Worked out here, apart from the engine: the digits no peer of the cell shows."""
    grid = as_grid(givens)
    shown = {grid[p] or digits[p] for p in PEERS[cell]}
    return set(range(1, 10)) - shown


def test_notes_that_leave_out_several_candidates_name_every_one_not_only_the_answer():
    assert solve(EXPERT)[R5C3] == 9 and set(position_candidates(EXPERT)[R5C3]) == {3, 4, 6, 8, 9}
    notes = [""] * 81
    notes[R5C3] = "1234"  # 1 and 2 are ruled out by the board; 6, 8 and 9 are left out
    step = next_step(EXPERT, None, notes)
    assert step.technique == "missing-candidate" and step.cells == (R5C3,)
    assert step.digits == (6, 8, 9)
    assert step.explanation == (
        "Your notes for r5c3 leave out 6, 8 and 9, but nothing on the board rules them out there: put them back."
    )


def test_notes_that_leave_out_only_the_cells_digit_name_it():
    notes = [""] * 81
    notes[R5C3] = "34678"
    step = next_step(EXPERT, None, notes)
    assert step.digits == (9,) and "leave out 9" in step.explanation and "put it back" in step.explanation


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 40), st.floats(0, 0.7), st.data())
def test_a_missing_candidate_step_never_names_only_the_answer_when_more_is_missing(index, filled, data):
    givens = TOP1465[index]
    solution = solve(givens)
    empty = [c for c, given in enumerate(as_grid(givens)) if not given]
    digits = [0] * 81
    for cell in empty[: int(len(empty) * filled)]:
        digits[cell] = solution[cell]
    notes = [""] * 81
    open_cells = [c for c in empty if not digits[c]]
    for cell in data.draw(st.lists(st.sampled_from(open_cells), max_size=8, unique=True)):
        notes[cell] = "".join(str(d) for d in data.draw(st.sets(st.integers(1, 9), min_size=1, max_size=6)))
    # At least one cell whose notes leave out its own digit, and some others besides.
    target = data.draw(st.sampled_from(open_cells))
    others = data.draw(st.sets(st.integers(1, 9).filter(lambda d: d != solution[target]), min_size=1, max_size=8))
    notes[target] = "".join(str(d) for d in sorted(others))
    step = next_step(givens, digits, notes)
    assert step is not None and step.technique == "missing-candidate"
    (cell,) = step.cells
    left_out = board_candidates(givens, digits, cell) - {int(d) for d in notes[cell]}
    assert solution[cell] in left_out
    assert set(step.digits) == left_out
    if len(left_out) > 1:
        assert len(step.digits) > 1


def test_a_positions_candidates_are_the_notes_narrowed_by_the_board_or_else_the_boards():
    digits = [0] * 81
    notes = [""] * 81
    notes[0] = "1247"  # r1c1 of EASY: the board leaves 4 and 5 (and 1, 2, 7 are ruled out)
    cands = position_candidates(EASY, digits, notes)
    assert cands[0] == (4,)
    assert set(cands[1]) == board_candidates(EASY, digits, 1)
    assert cands[2] == ()  # a given


def test_a_placement_step_leads_to_its_own_placement():
    step = next_step(EASY)
    single = single_after(EASY, None, None, step)
    assert single.placements == step.placements


def _two_candidate_cell(givens: str) -> tuple[int, int, int]:
    """A cell with two candidates on the bare grid: (cell, its digit, the other)."""
    solution = solve(givens)
    cands = position_candidates(givens)
    cell = next(c for c in range(81) if len(cands[c]) == 2)
    other = next(d for d in cands[cell] if d != solution[cell])
    return cell, solution[cell], other


def test_an_elimination_that_leaves_one_candidate_leads_to_that_placement():
    cell, digit, other = _two_candidate_cell(EASY)
    step = Step("pointing", (UNITS_OF[cell][2],), (cell,), (other,), eliminations=((cell, other),))
    single = single_after(EASY, None, None, step)
    assert single.placements == ((cell, digit),) and single.technique == "naked-single"
    assert single.explanation == f"That leaves {digit} as the only candidate in r{cell // 9 + 1}c{cell % 9 + 1}."


def test_an_elimination_that_leaves_one_place_in_a_house_leads_to_that_placement():
    solution = solve(EXPERT)
    cands = position_candidates(EXPERT)
    # A digit with two places in a box: remove it from the wrong one.
    for unit in UNITS[18:]:
        for d in range(1, 10):
            places = [c for c in unit if d in cands[c]]
            if len(places) == 2 and all(len(cands[c]) > 2 for c in places):
                right = next((c for c in places if solution[c] == d), None)
                if right is None:
                    continue
                wrong = next(c for c in places if c != right)
                step = Step("pointing", (UNITS_OF[wrong][2],), (wrong,), (d,), eliminations=((wrong, d),))
                single = single_after(EXPERT, None, None, step)
                assert single.placements == ((right, d),) and single.technique == "hidden-single"
                assert "only place for" in single.explanation
                return
    raise AssertionError("no box with a digit in two places")


def test_a_step_that_leaves_no_single_leads_nowhere_and_an_unsound_one_never_places_a_wrong_digit():
    cell, digit, _ = _two_candidate_cell(EASY)
    step = Step("pointing", (UNITS_OF[cell][2],), (cell,), (digit,), eliminations=((cell, digit),))
    single = single_after(EASY, None, None, step)
    assert single is None or solve(EASY)[single.placements[0][0]] == single.placements[0][1]
