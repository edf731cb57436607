"""Generated puzzles, checked by code written apart from the engine.

Uniqueness and minimality come from the plain backtracking counter in independent.py; the tier
comes from the plain logical solver in independent_logic.py. Because the closure of a set of
sound techniques does not depend on the order they are tried in, a puzzle the engine rates
tier T must be solved by T's technique families and not by those of the tier below.
"""

from __future__ import annotations

import math
import random
from functools import cache
from pathlib import Path

import pytest

from puzzles.engine.catalogue import TECHNIQUES
from puzzles.engine.clearer import clear
from puzzles.engine.families import FAMILIES, FAMILY_SHARE, family_keeps, family_stock
from puzzles.engine.fillers import FILLERS, fill
from puzzles.engine.generator import Generated, GenerationGaveUp, generate, generate_stream
from puzzles.engine.grid import format_grid
from puzzles.engine.rater import TIERS, rate, tier_of
from puzzles.engine.solver import solve

from . import independent, independent_logic
from .independent_logic import Board, closure, solves_with

TOP1465 = Path(__file__).resolve().parents[2] / "bench" / "top1465.txt"

# How many puzzles of each tier to make and check; every one is checked in full.
COUNTS = {"easy": 20, "medium": 20, "hard": 16, "expert": 12, "extreme": 10}
BELOW = {"medium": "easy", "hard": "medium", "expert": "hard", "extreme": "hard"}
SYMMETRY_CHOICES = ("none", "rotational", "mirror")


def _cases() -> list[tuple[str, int, str, str]]:
    """(tier, seed, filler, symmetry) for every puzzle, turning the fillers and symmetries over."""
    fillers = sorted(FILLERS)
    cases = []
    for rank, (tier, n) in enumerate(COUNTS.items()):
        for i in range(n):
            cases.append((tier, 1000 * rank + i, fillers[i % len(fillers)], SYMMETRY_CHOICES[i % 3]))
    return cases


CASES = _cases()
CASE_IDS = [f"{tier}-{seed}-{filler}-{symmetry}" for tier, seed, filler, symmetry in CASES]


@cache
def made(tier: str, seed: int, filler: str, symmetry: str) -> Generated:
    return generate(tier, random.Random(seed), filler=filler, symmetry=symmetry)


def partner(cell: int, symmetry: str) -> int:
    row, col = divmod(cell, 9)
    if symmetry == "rotational":
        return (8 - row) * 9 + (8 - col)
    assert symmetry == "mirror"
    return row * 9 + (8 - col)


# --- the generated puzzles ----------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_every_generated_puzzle_has_one_solution_and_it_is_the_one_reported(case):
    g = made(*case)
    assert independent.count(g.givens, 2) == 1
    # With one solution, the reported grid is it when it is valid and keeps every given.
    assert independent.is_valid_solution(g.solution)
    assert all(given in (0, digit) for given, digit in zip(g.givens, g.solution))
    assert (g.rating.tier, g.filler, g.symmetry) == (case[0], case[2], case[3])


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_every_generated_puzzle_is_minimal_or_keeps_its_symmetry(case):
    g = made(*case)
    symmetry = case[3]
    if symmetry == "none":
        assert independent.is_minimal(g.givens), format_grid(g.givens)
    else:
        for cell in range(81):
            assert bool(g.givens[cell]) == bool(g.givens[partner(cell, symmetry)]), (
                f"{symmetry} symmetry broken at cell {cell}: {format_grid(g.givens)}"
            )


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_the_independent_logic_agrees_with_the_tier_of_every_generated_puzzle(case):
    g = made(*case)
    tier = case[0]
    puzzle = format_grid(g.givens)
    if tier in ("easy", "medium", "hard"):
        assert solves_with(g.givens, tier), f"{puzzle} rated {tier} but {tier} logic does not solve it"
    if tier in BELOW:
        lower = BELOW[tier]
        assert not solves_with(g.givens, lower), f"{puzzle} rated {tier} but {lower} logic solves it"
    if tier == "extreme":
        assert tier_of(g.rating.hardest) == "extreme"  # a forcing chain, or trial and error
    else:
        assert not any(tier_of(name) == "extreme" for name in g.rating.techniques)


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_every_rating_step_replayed_on_the_givens_is_sound_and_ends_at_the_solution(case):
    g = made(*case)
    assert g.rating.complete
    board = list(g.givens)
    for n, step in enumerate(g.rating.steps):
        for cell, digit in step.placements:
            assert board[cell] == 0, f"step {n} ({step.technique}) places into a filled cell {cell}"
            assert digit == g.solution[cell], f"step {n} ({step.technique}) places {digit} in cell {cell}"
            board[cell] = digit
        for cell, digit in step.eliminations:
            assert digit != g.solution[cell], f"step {n} ({step.technique}) removes {digit} from cell {cell}"
    assert board == g.solution


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_rating_the_givens_again_without_a_ceiling_gives_the_tier_generate_reported(case):
    g = made(*case)
    again = rate(g.givens)
    assert again.tier == g.rating.tier
    assert again.complete


def test_the_same_seed_generates_the_same_puzzle():
    for tier, filler, symmetry in [("medium", "row-by-row", "none"), ("expert", "potential-array", "mirror")]:
        first = generate(tier, random.Random(77), filler=filler, symmetry=symmetry)
        second = generate(tier, random.Random(77), filler=filler, symmetry=symmetry)
        assert (first.givens, first.solution, first.tries) == (second.givens, second.solution, second.tries)
        assert first.rating.techniques == second.rating.techniques


def test_it_refuses_an_unknown_difficulty_filler_or_symmetry():
    with pytest.raises(ValueError, match="difficulty"):
        generate("impossible", random.Random(1))
    with pytest.raises(ValueError, match="filler"):
        generate("easy", random.Random(1), filler="by-hand")
    with pytest.raises(ValueError, match="symmetry"):
        generate("easy", random.Random(1), symmetry="diagonal")


def test_it_gives_up_once_max_tries_are_spent():
    gave_up = 0
    for seed in range(20):
        try:
            g = generate("extreme", random.Random(seed), max_tries=1)
        except GenerationGaveUp:
            gave_up += 1
        else:
            assert g.tries == 1 and g.rating.tier == "extreme"
    # About one try in three is extreme, so twenty single tries cannot all succeed.
    assert gave_up > 0
    with pytest.raises(GenerationGaveUp):
        generate("easy", random.Random(1), max_tries=0)


def test_the_dictionary_form_reports_the_puzzle_it_describes():
    g = made(*CASES[0])
    out = g.to_dict()
    assert out["givens"] == format_grid(g.givens)
    assert out["solution"] == format_grid(g.solution)
    assert out["difficulty"] == g.rating.tier == CASES[0][0]
    assert out["clues"] == sum(1 for d in g.givens if d)
    assert (out["filler"], out["symmetry"]) == (CASES[0][2], CASES[0][3])


# --- the independent logical solver itself ------------------------------------------------------


def assert_sound(givens: list[int], solution: list[int], allowed: str) -> bool:
    """Every solution digit is still placed or still a candidate after the closure; returns solved."""
    board = closure(givens, allowed)
    for cell in range(81):
        if board.values[cell]:
            assert board.values[cell] == solution[cell], f"{allowed} placed a wrong digit in cell {cell}"
        else:
            assert solution[cell] in board.cands[cell], f"{allowed} removed the answer from cell {cell}"
    return board.solved()


def test_the_independent_logic_never_removes_an_answer_from_cleared_puzzles():
    for seed in range(25):
        rng = random.Random(seed)
        solution, _ = fill(rng)
        givens = clear(solution, rng)
        solved = [assert_sound(givens, solution, tier) for tier in ("easy", "medium", "hard")]
        # Each tier's families include the tier below's, so it solves at least as much.
        assert solved == sorted(solved)


def test_the_independent_logic_never_removes_an_answer_from_very_hard_puzzles():
    # These go beyond the hard families, so every family gets many chances to go wrong.
    lines = [line.strip() for line in TOP1465.read_text().splitlines() if line.strip()][:15]
    for line in lines:
        givens = [0 if ch in ".0" else int(ch) for ch in line]
        solution = solve(givens)
        assert independent.is_valid_solution(solution)
        assert all(g in (0, s) for g, s in zip(givens, solution))
        assert_sound(givens, solution, "hard")


def test_the_independent_logic_solves_a_singles_puzzle_with_singles_alone():
    puzzle = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
    givens = [int(ch) for ch in puzzle]
    assert solves_with(givens, "easy")
    board = closure(givens, "easy")
    assert independent.is_valid_solution(board.values)


def open_board() -> Board:
    """An empty grid with every digit still possible everywhere, to build a position on."""
    return Board([0] * 81)


def strike(board: Board, cells, digits) -> None:
    for cell in cells:
        board.cands[cell] -= set(digits)


def test_a_naked_single_is_placed_and_leaves_its_peers():
    board = open_board()
    board.cands[40] = {7}
    assert independent_logic.naked_singles(board)
    assert board.values[40] == 7
    assert all(7 not in board.cands[p] for p in independent_logic.PEERS[40])


def test_a_hidden_single_is_placed_where_its_box_has_no_other_place():
    board = open_board()
    strike(board, [c for c in independent_logic.BOXES[0] if c != 10], [9])
    assert independent_logic.hidden_singles(board)
    assert board.values[10] == 9


def test_pointing_clears_the_rest_of_the_line_and_claiming_the_rest_of_the_box():
    board = open_board()
    strike(board, [9, 10, 11, 18, 19, 20], [4])  # box 1's 4s only in row 1
    assert independent_logic.locked_candidates(board)
    assert all(4 not in board.cands[c] for c in range(3, 9))
    assert all(4 in board.cands[c] for c in (0, 1, 2, 12, 27))

    board = open_board()
    strike(board, range(2, 9), [4])  # row 1's 4s only in r1c1 and r1c2
    assert independent_logic.locked_candidates(board)
    assert all(4 not in board.cands[c] for c in (9, 10, 11, 18, 19, 20))
    assert all(4 in board.cands[c] for c in (0, 1, 27, 12))


def test_a_naked_pair_clears_its_digits_from_the_rest_of_its_row():
    board = open_board()
    board.cands[0] = {1, 2}
    board.cands[5] = {1, 2}
    assert independent_logic.naked_subsets(2)(board)
    assert all(not board.cands[c] & {1, 2} for c in (1, 2, 3, 4, 6, 7, 8))
    assert board.cands[0] == board.cands[5] == {1, 2}
    assert {1, 2} <= board.cands[9]  # same box as r1c1 but not a pair there


def test_a_hidden_pair_clears_the_other_digits_from_its_two_cells():
    board = open_board()
    strike(board, [0, 1, 2, 4, 5, 6, 7], [6, 7])
    board.cands[3] = {1, 6, 7}
    board.cands[8] = {2, 6, 7, 9}
    assert independent_logic.hidden_subsets(2)(board)
    assert board.cands[3] == board.cands[8] == {6, 7}


def test_a_naked_triple_clears_its_digits_from_the_rest_of_its_column():
    board = open_board()
    board.cands[0], board.cands[36], board.cands[72] = {1, 2}, {2, 3}, {1, 3}
    assert not independent_logic.naked_subsets(2)(board)
    assert independent_logic.naked_subsets(3)(board)
    assert all(not board.cands[r * 9] & {1, 2, 3} for r in (1, 2, 3, 5, 6, 7))


def test_a_hidden_quad_clears_the_other_digits_from_its_four_cells():
    board = open_board()
    row = independent_logic.ROWS[8]
    quad = [72, 74, 76, 78]
    strike(board, [c for c in row if c not in quad], [1, 2, 3, 4])
    assert not independent_logic.hidden_subsets(3)(board)
    assert independent_logic.hidden_subsets(4)(board)
    assert all(board.cands[c] == {1, 2, 3, 4} for c in quad)


@pytest.mark.parametrize("across", [True, False], ids=["rows", "columns"])
def test_an_x_wing_clears_its_digit_from_the_two_lines_it_covers(across):
    def at(line: int, k: int) -> int:
        return line * 9 + k if across else k * 9 + line

    board = open_board()
    for line in (0, 4):
        strike(board, [at(line, k) for k in range(9) if k not in (1, 7)], [5])
    assert independent_logic.x_wings(board)
    for line in range(9):
        kept = line in (0, 4)
        assert (5 in board.cands[at(line, 1)]) == kept and (5 in board.cands[at(line, 7)]) == kept
        assert 5 in board.cands[at(line, 2)] or line in (0, 4)


def test_an_xy_wing_clears_the_shared_digit_where_both_pincers_see():
    board = open_board()
    board.cands[0] = {1, 2}  # pivot r1c1
    board.cands[5] = {1, 3}  # pincer r1c6
    board.cands[45] = {2, 3}  # pincer r6c1
    assert independent_logic.xy_wings(board)
    assert 3 not in board.cands[50]  # r6c6 sees both pincers
    assert all(3 in board.cands[c] for c in (4, 46, 49, 51))


# --- aiming at a hardest technique, and at the family held least ---------------------------------


def test_the_families_split_the_hard_tier_of_the_catalogue_exactly():
    hard = [t.name for t in TECHNIQUES if t.tier == "hard"]
    named = [t for techniques in FAMILIES["hard"].values() for t in techniques]
    assert sorted(named) == sorted(hard)  # every hard technique once, nothing else
    assert set(FAMILIES) <= set(TIERS)


def test_a_generated_puzzle_aimed_at_techniques_has_its_hardest_among_them():
    aim = {"xy-wing", "xyz-wing"}
    g = generate("hard", random.Random(3), aim=aim)
    assert g.rating.hardest in aim and g.rating.tier == "hard"
    assert independent.count(g.givens, 2) == 1 and independent.is_minimal(g.givens)


def test_the_stock_counts_puzzles_by_the_family_of_their_hardest_technique():
    stock = family_stock("hard", ["x-wing", "xy-wing", "skyscraper", "naked-triple", "swordfish", None, "bogus"])
    assert stock == {"fish": 2, "subsets": 1, "wings": 1, "one-digit patterns": 1, "uniqueness": 0}
    assert family_stock("hard", []) == dict.fromkeys(FAMILIES["hard"], 0)


def test_a_pool_keeps_the_first_of_each_family_while_it_has_room():
    stock = {"fish": 0, "subsets": 0, "wings": 0, "one-digit patterns": 9, "uniqueness": 0}
    assert family_keeps("swordfish", stock, target=10)
    assert not family_keeps("swordfish", stock | {"one-digit patterns": 10}, target=10)


def test_a_pool_holds_a_place_for_each_family_it_lacks():
    stock = {"fish": 0, "subsets": 1, "wings": 2, "one-digit patterns": 3, "uniqueness": 1}
    assert family_keeps("xy-wing", stock, target=9)  # 7 held, a place held for fish, one to spare
    assert not family_keeps("xy-wing", stock | {"wings": 3}, target=9)  # the last place is fish's
    assert family_keeps("x-wing", stock | {"wings": 3}, target=9)


def test_no_family_fills_more_than_its_share_of_the_pool():
    share = math.ceil(FAMILY_SHARE * 20)
    stock = {"fish": 1, "subsets": 1, "wings": 2, "one-digit patterns": share - 1, "uniqueness": 1}
    assert family_keeps("skyscraper", stock, target=20)
    full = stock | {"one-digit patterns": share}
    assert not family_keeps("skyscraper", full, target=20) and family_keeps("xy-wing", full, target=20)


def test_without_aiming_a_pool_keeps_any_puzzle_it_has_room_for():
    stock = {"fish": 0, "subsets": 0, "wings": 0, "one-digit patterns": 9, "uniqueness": 0}
    assert family_keeps("skyscraper", stock, target=10, aiming=False)
    assert not family_keeps("skyscraper", stock | {"wings": 1}, target=10, aiming=False)


def test_the_stream_starts_with_the_puzzle_generate_makes_and_counts_tries_from_the_one_before():
    plain = generate("hard", random.Random(0))
    stream = generate_stream("hard", random.Random(0))
    first, second = next(stream), next(stream)
    assert (first.givens, first.tries) == (plain.givens, plain.tries)
    assert second.rating.tier == "hard" and second.givens != first.givens
    assert len(second.fill_stats) == second.tries >= 1
    assert independent.count(second.givens, 2) == 1 and independent.is_minimal(second.givens)


def test_the_stream_refuses_an_unknown_difficulty_at_once():
    with pytest.raises(ValueError, match="unknown difficulty"):
        generate_stream("impossible", random.Random(0))
