"""Hints that never leak and always act: notes that leave out candidates are named in full (never
the answer alone), a board without notes gets the candidates that matter drawn and a one-press
action at the end, and cells are named as people read them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzles import engine
from puzzles.engine import Step
from puzzles.play.hint_answers import LAST_STAGE, HintResult, peoples_words

from .factories import EASY_GIVENS, EASY_SOLUTION, make_daily, make_known_puzzle, post, url

TOP1465 = [line for line in (Path(__file__).resolve().parents[1] / "bench" / "top1465.txt").read_text().split()]
# top-1465's 64th: r5c3 (cell 38) starts with candidates 3 4 6 8 9 and needs its 9, as the
# issue's r5c3 had 3 5 6 7 8 and needed its 7.
EXPERT = TOP1465[63]
R5C3 = 38
NO_NOTES = [""] * 81
# What a hint's words may hold besides the digits it names: houses and cells.
PLACES = re.compile(r"\b(row|column|box) [1-9]\b|\br[1-9]c[1-9]\b")


def as_zeros(givens: str) -> str:
    return "".join(str(d) for d in engine.as_grid(givens))


def named_digits(text: str) -> set[int]:
    """The digits a hint's words name, once its houses and cells are taken out."""
    return {int(ch) for ch in PLACES.sub("", text) if ch.isdigit()}


def stages(givens: str, digits: str, centre: list[str]) -> list[dict]:
    """Every stage of the hint for a position, as the API would answer them."""
    step = engine.next_step(givens, [int(d) for d in digits], centre)
    return [HintResult(stage, step, 1, givens, digits, centre).to_dict() for stage in range(1, LAST_STAGE + 1)]


# --- no leak --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_issues_case_names_every_missing_candidate_a_stage_at_a_time(player):
    from puzzles.models import site_today

    givens = as_zeros(EXPERT)
    solution = "".join(str(d) for d in engine.solve(givens))
    daily = make_daily(site_today(), "expert", make_known_puzzle(givens, solution, tier="expert"))
    centre = list(NO_NOTES)
    centre[R5C3] = "1234"
    payload = {"digits": "0" * 81, "corner": NO_NOTES, "centre": centre}
    first, second, third = (post(player, url(daily, "hint"), payload).json() for _ in range(3))
    assert first["kind"] == "missing-candidate" and first["message"].startswith("A note is missing in box 4")
    assert named_digits(first["message"]) == set()
    assert second["cell"]["name"] == "r5c3" and "row 5, column 3 (r5c3)" in second["message"]
    assert named_digits(second["message"]) == set()
    assert third["missing"] == {"cell": R5C3, "digits": [6, 8, 9]}
    assert "leave out 6, 8 and 9" in third["explanation"] and "put them back" in third["explanation"]
    assert named_digits(third["explanation"]) == {6, 8, 9}
    # One press puts them back, beside the player's own notes.
    assert third["action"] == {
        "kind": "notes",
        "label": "Put them back",
        "notes": [{"cell": R5C3, "digits": "1234689"}],
    }


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 30), st.floats(0, 0.6), st.data())
def test_no_stage_ever_names_only_the_answer_of_a_cell_whose_notes_leave_out_more(index, filled, data):
    givens = as_zeros(TOP1465[index])
    solution = engine.solve(givens)
    empty = [c for c, g in enumerate(givens) if g == "0"]
    digits = ["0"] * 81
    for cell in empty[: int(len(empty) * filled)]:
        digits[cell] = str(solution[cell])
    open_cells = [c for c in empty if digits[c] == "0"]
    centre = list(NO_NOTES)
    for cell in data.draw(st.lists(st.sampled_from(open_cells), min_size=1, max_size=10, unique=True)):
        centre[cell] = "".join(sorted(data.draw(st.sets(st.sampled_from("123456789"), min_size=1, max_size=7))))
    position = "".join(digits)
    for answer in stages(givens, position, centre):
        if answer["kind"] != "missing-candidate":
            continue
        cell = answer["unit"]["cells"][0] if answer["stage"] == 1 else answer["cell"]["index"]
        left_out = set(engine.position_candidates(givens, [int(d) for d in position])[cell]) - {
            int(d) for d in centre[cell]
        }
        named = named_digits(answer["message"])
        if answer["stage"] < LAST_STAGE:
            assert named == set(), answer["message"]
            continue
        assert solution[cell] in left_out
        assert named == left_out and set(answer["missing"]["digits"]) == left_out
        if len(left_out) > 1:
            assert named != {solution[cell]}
        (notes,) = answer["action"]["notes"]
        assert set(notes["digits"]) == set(centre[cell]) | {str(d) for d in left_out}


# --- always act -----------------------------------------------------------------------------


def past_the_singles(givens: str) -> tuple[str, Step]:
    """The position a player reaches with singles alone, no notes, and the step after it."""
    digits = [0] * 81
    while True:
        step = engine.next_step(givens, digits, None)
        if step is None or step.technique not in ("naked-single", "hidden-single"):
            return "".join(map(str, digits)), step
        for cell, digit in step.placements:
            digits[cell] = digit


@pytest.mark.parametrize("index", range(0, 40, 3))
def test_a_step_on_a_board_without_notes_draws_its_candidates_and_ends_in_one_press(index):
    givens = as_zeros(TOP1465[index])
    solution = engine.solve(givens)
    digits, step = past_the_singles(givens)
    last = stages(givens, digits, NO_NOTES)[-1]
    assert last["kind"] == "step" and last["final"]
    cands = engine.position_candidates(givens, [int(d) for d in digits])
    drawn = {entry["cell"]: entry["digits"] for entry in last.get("candidates", [])}
    about = set(step.cells) | {c for c, _ in step.eliminations} | {c for c, _ in step.placements}
    for cell in about:
        if givens[cell] == "0" and digits[cell] == "0":
            assert drawn[cell] == list(cands[cell])  # the board's candidates, never the answer alone
    action = last["action"]
    if step.placements:
        ((cell, digit),) = step.placements
        assert (action["kind"], action["cell"], action["digit"]) == ("place", cell, digit)
    if action["kind"] == "place":
        assert solution[action["cell"]] == action["digit"]
        assert (
            action["label"]
            == f"Place {action['digit']} in row {action['cell'] // 9 + 1}, column {action['cell'] % 9 + 1}"
        )
    else:
        assert action == {"kind": "notes", "label": "Fill these notes", "notes": action["notes"]} and action["notes"]
        removed = set(step.eliminations)
        for entry in action["notes"]:
            kept = [int(d) for d in entry["digits"]]
            assert set(kept) == {d for d in cands[entry["cell"]] if (entry["cell"], d) not in removed}
            assert solution[entry["cell"]] in kept


def test_an_elimination_that_leaves_a_single_says_so_and_offers_the_placement():
    cands = engine.position_candidates(EASY_GIVENS)
    cell = next(c for c in range(81) if len(cands[c]) == 2)
    digit = int(EASY_SOLUTION[cell])
    other = next(d for d in cands[cell] if d != digit)
    step = Step("pointing", (18,), (cell,), (other,), eliminations=((cell, other),), explanation="A made-up step.")
    last = HintResult(3, step, 1, EASY_GIVENS, "0" * 81, NO_NOTES).to_dict()
    where = f"row {cell // 9 + 1}, column {cell % 9 + 1}"
    assert last["action"] == {"kind": "place", "cell": cell, "digit": digit, "label": f"Place {digit} in {where}"}
    assert last["then"] == f"That leaves {digit} as the only candidate in {where} (r{cell // 9 + 1}c{cell % 9 + 1})."


def test_notes_the_player_keeps_are_not_drawn_and_the_action_removes_from_them():
    cands = engine.position_candidates(EASY_GIVENS)
    cell = next(c for c in range(81) if len(cands[c]) >= 3)
    digit = int(EASY_SOLUTION[cell])
    others = [d for d in cands[cell] if d != digit]
    centre = list(NO_NOTES)
    centre[cell] = "".join(str(d) for d in cands[cell])
    step = Step("x-chain", (18,), (cell,), (others[0],), eliminations=((cell, others[0]),))
    last = HintResult(3, step, 1, EASY_GIVENS, "0" * 81, centre).to_dict()
    assert "candidates" not in last
    kept = "".join(str(d) for d in cands[cell] if d != others[0])
    assert last["action"] == {"kind": "notes", "label": "Remove these notes", "notes": [{"cell": cell, "digits": kept}]}


def test_a_wrong_digit_ends_in_erasing_it():
    digits = "1" + "0" * 80  # r1c1 is 4
    last = stages(EASY_GIVENS, digits, NO_NOTES)[-1]
    assert last["action"] == {"kind": "erase", "cell": 0, "label": "Erase the 1 in row 1, column 1"}


# --- people's words -------------------------------------------------------------------------


def test_cells_are_named_in_full_with_the_short_form_taught_at_the_first():
    text = "In column 2, 5 and 6 can only go in r1c2 and r7c2, so remove 1 and 2 from r1c2."
    assert peoples_words(text) == (
        "In column 2, 5 and 6 can only go in row 1, column 2 (r1c2) and r7c2, so remove 1 and 2 from r1c2."
    )
    taught = {"r1c2"}
    assert peoples_words("r7c2 too", taught) == "r7c2 too"
    assert peoples_words("r5c6 sees every digit but 4.") == "Row 5, column 6 (r5c6) sees every digit but 4."
    # Never nested in parentheses: the first cell that stands in the sentence itself is named in full.
    assert peoples_words("in column 7 (r7c7 or r9c7), so r5c9 (1, 2) and r5c8 hold") == (
        "in column 7 (r7c7 or r9c7), so r5c9 (1, 2) and row 5, column 8 (r5c8) hold"
    )


def test_houses_are_said_plainly():
    about = engine.technique_about("hidden-pair")
    assert "house" in about and "house" not in peoples_words(about)
    assert "row, column or box" in peoples_words(about)


@pytest.mark.django_db
def test_a_step_links_to_its_technique_in_the_guide(client):
    step = engine.next_step(EASY_GIVENS)
    guide = HintResult(2, step, 1, EASY_GIVENS).to_dict()["technique"]["guide"]
    assert guide == f"/learn/{step.technique}/"
    assert client.get(guide).status_code == 200


def test_a_mistake_carries_no_guide_link():
    from puzzles.play.hint_answers import technique_guide

    assert technique_guide("wrong-digit") is None and technique_guide("missing-candidate") is None


def test_a_single_on_a_board_without_notes_draws_its_cells_candidate_and_offers_the_placement():
    last = stages(EASY_GIVENS, "0" * 81, NO_NOTES)[-1]
    assert last["placements"] == [{"cell": 41, "name": "r5c6", "digit": 4}]
    assert last["candidates"] == [{"cell": 41, "digits": [4]}]
    assert last["action"] == {"kind": "place", "cell": 41, "digit": 4, "label": "Place 4 in row 5, column 6"}
    assert "then" not in last  # the step is the placement: nothing follows it
