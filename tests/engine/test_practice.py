"""Practice's checker: every instance of a technique in a position, and the judge of an answer."""

from __future__ import annotations

import pytest

from puzzles.engine import TECHNIQUE_BY_NAME, Step, instances, judge, places
from puzzles.engine.practice import _untouched

from . import independent_logic as logic
from .practice_positions import WHERE, practice_position

TECHNIQUES = sorted(WHERE)

# For the techniques the independent solver knows: the sweep that makes the same removals.
SWEEPS = {
    "pointing": logic.locked_candidates,
    "claiming": logic.locked_candidates,
    "naked-pair": logic.naked_subsets(2),
    "naked-triple": logic.naked_subsets(3),
    "naked-quad": logic.naked_subsets(4),
    "hidden-pair": logic.hidden_subsets(2),
    "hidden-triple": logic.hidden_subsets(3),
    "hidden-quad": logic.hidden_subsets(4),
    "x-wing": logic.fish(2),
    "swordfish": logic.fish(3),
    "jellyfish": logic.fish(4),
    "xy-wing": logic.xy_wings,
    "xyz-wing": logic.xyz_wings,
    "skyscraper": logic.two_link_chains,
    "two-string-kite": logic.two_link_chains,
    "turbot-fish": logic.two_link_chains,
    "empty-rectangle": logic.empty_rectangles,
    "unique-rectangle-1": logic.unique_rectangles_1,
    "unique-rectangle-2": logic.unique_rectangles_2,
    "unique-rectangle-3": logic.unique_rectangles_3,
    "unique-rectangle-4": logic.unique_rectangles_4,
}


def _board(digits, cands) -> logic.Board:
    board = logic.Board([0] * 81)
    board.values = list(digits)
    board.cands = [{d for d in range(1, 10) if mask >> (d - 1) & 1} for mask in cands]
    return board


def _removals_of_sweep(technique: str, digits, cands) -> set[tuple[int, int]]:
    board = _board(digits, cands)
    before = [set(c) for c in board.cands]
    SWEEPS[technique](board)
    return {(cell, d) for cell in range(81) for d in before[cell] - board.cands[cell]}


def test_the_positions_cover_every_technique_from_hard_down_and_six_beyond():
    tiers = {name: TECHNIQUE_BY_NAME[name].tier for name in TECHNIQUES}
    hard_down = {t.name for t in TECHNIQUE_BY_NAME.values() if t.tier in ("easy", "medium", "hard")}
    assert hard_down <= set(TECHNIQUES)
    assert sum(1 for tier in tiers.values() if tier in ("expert", "extreme")) >= 6


@pytest.mark.parametrize("technique", TECHNIQUES)
def test_every_instance_found_is_true_and_the_walks_own_step_is_among_them(technique):
    moment, solution, _ = practice_position(technique)
    assert moment.step.technique == technique
    found = instances(list(moment.digits), list(moment.cands), technique)
    assert found, technique
    keys = {(frozenset(s.placements), frozenset(s.eliminations)) for s in found}
    assert (frozenset(moment.step.placements), frozenset(moment.step.eliminations)) in keys
    for step in found:
        assert step.technique == technique
        assert step.placements or step.eliminations
        assert all(solution[c] == d for c, d in step.placements)
        assert all(solution[c] != d and moment.cands[c] >> (d - 1) & 1 for c, d in step.eliminations)
        assert bool(step.placements) == bool(moment.step.placements)
        if places(technique):
            assert step.placements
        if technique in SWEEPS:
            # What the instance removes, an independent solver's sweep of that pattern removes too.
            assert set(step.eliminations) <= _removals_of_sweep(technique, moment.digits, moment.cands)


def test_a_position_with_several_pointings_lists_them_all_once():
    moment, _, _ = practice_position("pointing")
    found = instances(list(moment.digits), list(moment.cands), "pointing")
    every = _removals_of_sweep("pointing", moment.digits, moment.cands)
    assert len(found) == len({frozenset(s.eliminations) for s in found})
    # The independent sweep's removals are all made by the instances found (pointing and
    # claiming share a sweep, so only the pointing part is compared).
    assert set().union(*(set(s.eliminations) for s in found)) <= every


def test_a_pattern_that_a_cleared_candidate_bears_on_is_not_taken_for_an_instance():
    everything = [0b111111111] * 81
    x_wing = Step("x-wing", (0, 4), (1, 7, 37, 43), (5,), eliminations=((10, 5),))
    assert _untouched(x_wing, frozenset({(80, 5)}), everything)  # far away
    assert _untouched(x_wing, frozenset({(5, 3)}), everything)  # in its row, another digit
    assert not _untouched(x_wing, frozenset({(4, 5)}), everything)  # a third place for 5 in row 1
    assert not _untouched(x_wing, frozenset({(37, 2)}), everything)  # in one of its cells
    # A naked pair of r4c1 and r4c2 (cells 27, 28): only their candidates make it, and it removes
    # its digits from the cells that see both.
    pair = [0] * 81
    pair[27] = pair[28] = 0b11
    naked = Step("naked-pair", (3,), (27, 28), (1, 2), eliminations=((29, 1),))
    assert _untouched(naked, frozenset({(54, 1)}), pair)  # r7c1 sees r4c1 only
    assert not _untouched(naked, frozenset({(30, 2)}), pair)  # the pair would remove it too
    assert not _untouched(naked, frozenset({(27, 2)}), pair)


def test_singles_are_listed_outright_one_per_placement():
    moment, _, _ = practice_position("hidden-single")
    found = instances(list(moment.digits), list(moment.cands), "hidden-single")
    assert len({s.placements for s in found}) == len(found) >= 1


def test_trial_and_error_has_no_instances_to_check():
    moment, _, _ = practice_position("x-wing")
    with pytest.raises(ValueError, match="not a technique with a finder"):
        instances(list(moment.digits), list(moment.cands), "trial-and-error")


# --- the judge ----------------------------------------------------------------------------------


def _judge(technique, **answer):
    moment, solution, _ = practice_position(technique)
    return judge(list(moment.digits), list(moment.cands), technique, solution, **answer), moment, solution


@pytest.mark.parametrize("technique", TECHNIQUES)
def test_the_walks_own_step_is_judged_right(technique):
    moment, _, _ = practice_position(technique)
    step = moment.step
    placement = step.placements[0] if step.placements else None
    verdict, _, _ = _judge(technique, eliminations=step.eliminations, placement=placement)
    assert verdict.outcome == "right"
    assert verdict.instance is not None and verdict.message.startswith("Right")


def test_some_of_an_instances_removals_is_partly_right_and_says_how_many_are_left():
    technique = next(t for t in TECHNIQUES if len(practice_position(t)[0].step.eliminations) >= 2)
    moment, _, _ = practice_position(technique)
    first = moment.step.eliminations[0]
    verdict, _, _ = _judge(technique, eliminations=[first])
    assert verdict.outcome == "partly"
    assert f"removes {len(verdict.left)} more" in verdict.message
    assert set(verdict.left) | {first} == set(verdict.instance.eliminations)


def test_a_wrong_mark_is_named_with_why():
    verdict, moment, solution = _judge("x-wing", eliminations=[])
    assert verdict.outcome == "wrong" and "at least one" in verdict.message
    # The cell's own answer, marked for removal.
    cell = next(c for c in range(81) if moment.cands[c])
    verdict, _, _ = _judge("x-wing", eliminations=[(cell, solution[cell])])
    assert verdict.outcome == "wrong"
    (pair, why), *_ = verdict.wrong
    assert pair == (cell, solution[cell]) and "is the answer in row" in why


def test_a_candidate_the_cell_does_not_have_is_wrong():
    moment, _, _ = practice_position("x-wing")
    filled = next(c for c in range(81) if not moment.cands[c])
    verdict, _, _ = _judge("x-wing", eliminations=[(filled, 1)])
    assert verdict.outcome == "wrong" and "has no candidate 1" in verdict.wrong[0][1]


def test_a_true_elimination_no_instance_makes_is_wrong_and_says_so():
    moment, solution, _ = practice_position("x-wing")
    made = {p for s in instances(list(moment.digits), list(moment.cands), "x-wing") for p in s.eliminations}
    other = next(
        (c, d)
        for c in range(81)
        for d in range(1, 10)
        if moment.cands[c] >> (d - 1) & 1 and solution[c] != d and (c, d) not in made
    )
    verdict, _, _ = _judge("x-wing", eliminations=[*moment.step.eliminations, other])
    assert verdict.outcome == "wrong"
    assert [p for p, _ in verdict.wrong] == [other]
    assert "no X-wing here removes it" in verdict.wrong[0][1]


def test_a_placement_is_judged_for_a_technique_that_places():
    moment, solution, _ = practice_position("naked-single")
    verdict, _, _ = _judge("naked-single", placement=moment.step.placements[0])
    assert verdict.outcome == "right"
    cell = next(c for c in range(81) if moment.cands[c] and bin(moment.cands[c]).count("1") > 1)
    wrong = next(d for d in range(1, 10) if moment.cands[cell] >> (d - 1) & 1 and d != solution[cell])
    verdict, _, _ = _judge("naked-single", placement=(cell, wrong))
    assert verdict.outcome == "wrong" and "is not the answer" in verdict.message


def test_the_wrong_kind_of_answer_is_explained():
    verdict, _, _ = _judge("x-wing", placement=(0, 1))
    assert verdict.outcome == "wrong" and "removes candidates" in verdict.message
    verdict, _, _ = _judge("hidden-single", eliminations=[(0, 1)])
    assert verdict.outcome == "wrong" and "places a digit" in verdict.message


def test_a_hidden_pair_is_touched_only_by_its_own_digits_in_its_own_house():
    everything = [0b111111111] * 81
    # 4 and 9 only in r3c9 and r7c9 (cells 26, 62) of column 9 (unit 17).
    hidden = Step("hidden-pair", (17,), (26, 62), (4, 9), eliminations=((26, 6),))
    assert _untouched(hidden, frozenset({(21, 9)}), everything)  # row 3, not column 9
    assert not _untouched(hidden, frozenset({(44, 9)}), everything)  # a third place for 9 in column 9


def _hidden_pairs(moment) -> set[frozenset]:
    """Every hidden pair of a position, by plain search: two digits of a house in the same two
    cells, with what it removes from them."""
    from itertools import combinations

    found = set()
    for unit in logic.UNITS:
        held = {d for c in unit for d in range(1, 10) if moment.cands[c] >> (d - 1) & 1}
        for pair in combinations(sorted(held), 2):
            cells = [c for c in unit if any(moment.cands[c] >> (d - 1) & 1 for d in pair)]
            if len(cells) == 2:
                removed = frozenset(
                    (c, d) for c in cells for d in range(1, 10) if moment.cands[c] >> (d - 1) & 1 and d not in pair
                )
                if removed:
                    found.add(removed)
    return found


def test_the_hidden_pairs_a_plain_search_finds_are_all_listed():
    from puzzles.engine import walk

    from .test_rater import top1465

    checked = 0
    for givens in top1465(12):
        for moment in walk(givens):
            if moment.step.technique != "hidden-pair":
                continue
            listed = {
                frozenset(s.eliminations) for s in instances(list(moment.digits), list(moment.cands), "hidden-pair")
            }
            assert _hidden_pairs(moment) <= listed
            checked += 1
    assert checked >= 10
