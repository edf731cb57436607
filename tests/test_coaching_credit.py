"""An honest review (coaching/review.py): a placement is credited with a technique only when that
technique made it on the board the player had, their digits and centre notes at that moment; a
placement nothing there made was placed ahead and credits nothing, on the page or in the skill
profile. Solves played through the board's API in real orders: row by row, and the logic's."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from puzzles.coaching.profile import skill_profile
from puzzles.coaching.review import REVIEW_VERSION
from puzzles.coaching.services import review_store, reviews_missing
from puzzles.engine import solve as solve_grid
from puzzles.engine import walk
from puzzles.models import Solve, SolveReview, TechniqueUse, site_today

from .coaching_factory import make_use, play_through
from .factories import EASY_GIVENS, EASY_SOLUTION, log_in, make_daily, make_known_puzzle, make_solve

pytestmark = pytest.mark.django_db

SINGLES = {"hidden-single", "naked-single"}
# From the Sudoku Exchange bank (bench/se_rated.txt), rated medium for its naked pairs: the first,
# in column 9, leaves r6c7 the only place for 5 once a pointing has taken 5 out of r3c9.
NAKED_PAIR = "048070120000602000000090000000040000309000402060000070001709300400503007530060019"
R6C7 = 51


def row_order(givens: str, solution: str) -> list[tuple[int, int]]:
    """Every empty cell in reading order, with the solution's digit."""
    return [(cell, int(solution[cell])) for cell in range(81) if givens[cell] == "0"]


def logical_order(givens: str) -> list[tuple[int, int]]:
    """The placements in the order the engine's own solve makes them."""
    return [pair for moment in walk(givens) for pair in moment.step.placements]


def singles_on(board: list[int]) -> set[tuple[int, int]]:
    """Every (cell, digit) a naked or a hidden single places on a board of digits alone, worked
    out here from the rules, apart from the engine."""
    houses = [[r * 9 + c for c in range(9)] for r in range(9)] + [[r * 9 + c for r in range(9)] for c in range(9)]
    houses += [[(b // 3 * 3 + i // 3) * 9 + b % 3 * 3 + i % 3 for i in range(9)] for b in range(9)]
    seen = [set() for _ in range(81)]
    for house in houses:
        digits = {board[c] for c in house}
        for c in house:
            seen[c] |= digits
    can = {c: set(range(1, 10)) - seen[c] for c in range(81) if not board[c]}
    found = {(c, next(iter(left))) for c, left in can.items() if len(left) == 1}
    for house in houses:
        for digit in range(1, 10):
            places = [c for c in house if c in can and digit in can[c]]
            if len(places) == 1:
                found.add((places[0], digit))
    return found


@pytest.fixture
def easy():
    return make_daily(site_today(), "easy", make_known_puzzle(EASY_GIVENS, EASY_SOLUTION, hardest="hidden-single"))


@pytest.fixture
def naked_pair():
    solution = "".join(map(str, solve_grid(NAKED_PAIR)))
    return make_daily(
        site_today(), "medium", make_known_puzzle(NAKED_PAIR, solution, tier="medium", hardest="naked-pair")
    )


def test_an_easy_filled_in_row_order_credits_singles_and_places_the_rest_ahead(client, easy):
    log_in(client)
    review = review_store(play_through(client, easy, row_order(EASY_GIVENS, EASY_SOLUTION)).pk)
    assert review is not None and len(review.placements) == EASY_GIVENS.count("0")
    board = [int(d) for d in EASY_GIVENS]
    for placed in review.placements:
        # Each one judged on the digits then: a single there is credited as one, the rest ahead.
        if (placed["cell"], placed["digit"]) in singles_on(board):
            assert placed["verdict"] == "logic" and placed["technique"] in SINGLES, placed
            assert placed["steps"][-1]["technique"] == placed["technique"]
        else:
            assert (placed["verdict"], placed["technique"], placed["steps"]) == ("ahead", "", []), placed
        board[placed["cell"]] = placed["digit"]
    verdicts = [p["verdict"] for p in review.placements]
    assert 0 < verdicts.count("ahead") < verdicts.count("logic")  # row order is mostly singles on an easy


def test_the_same_easy_in_the_logics_order_credits_a_single_for_every_digit(client, easy):
    log_in(client)
    review = review_store(play_through(client, easy, logical_order(EASY_GIVENS)).pk)
    assert review is not None
    assert {(p["verdict"], p["technique"]) for p in review.placements} <= {("logic", s) for s in SINGLES}
    assert TechniqueUse.objects.count() == EASY_GIVENS.count("0")


def test_the_skill_profile_counts_only_the_placements_credited_with_a_technique(client, easy):
    user = log_in(client)
    solve = play_through(client, easy, row_order(EASY_GIVENS, EASY_SOLUTION))
    review = review_store(solve.pk)
    assert review is not None
    credited = [p for p in review.placements if p["verdict"] == "logic"]
    skills = skill_profile(user).skills
    assert {s.technique for s in skills} <= SINGLES
    assert sum(s.uses for s in skills) == len(credited) < len(review.placements)


def test_a_naked_pair_the_notes_show_is_credited_and_without_notes_the_digit_was_placed_ahead(client, naked_pair):
    moments = list(walk(NAKED_PAIR))
    order = [pair for moment in moments for pair in moment.step.placements]
    pencil = {}  # before each placement, the pencil marks of the walk's position then
    for moment in moments:
        for pair in moment.step.placements:
            pencil[order.index(pair)] = moment.cands

    def notes(number: int) -> dict[int, str]:
        marks = pencil[number]
        return {c: "".join(str(d) for d in range(1, 10) if marks[c] >> (d - 1) & 1) for c in range(81)}

    at = next(i for i, (cell, _) in enumerate(order) if cell == R6C7)
    assert moments[[m.step.placements for m in moments].index(((R6C7, 5),)) - 1].step.technique == "naked-pair"
    solves = {}
    for name, kept in (("ned", None), ("nora", notes)):
        log_in(client, name)
        solves[name] = play_through(client, naked_pair, order, kept)
        review_store(solves[name].pk)

    def placed(name: str) -> dict:
        return SolveReview.objects.get(solve=solves[name]).placements[at]

    # Ned keeps no notes: from his digits the pair needs the pointing first, two steps ahead.
    assert (placed("ned")["cell"], placed("ned")["verdict"], placed("ned")["technique"]) == (R6C7, "ahead", "")
    # Nora's notes have the pointing's removal: the pair, then the single it leaves.
    assert placed("nora")["verdict"] == "logic" and placed("nora")["technique"] == "naked-pair"
    assert [s["technique"] for s in placed("nora")["steps"]] == ["naked-pair", "hidden-single"]
    assert "naked-pair" in {s.technique for s in skill_profile(solves["nora"].user).skills}
    assert "naked-pair" not in {s.technique for s in skill_profile(solves["ned"].user).skills}


def test_a_note_that_leaves_one_digit_makes_a_single_and_one_without_the_cells_digit_counts_for_nothing():
    from puzzles.coaching.review import review_timeline
    from puzzles.fairplay.replays import TimedMove, Timeline
    from puzzles.record_of_play.moves import Move

    assert (0, 4) not in singles_on([int(d) for d in EASY_GIVENS])  # r1c1's 4 is no single at the start

    def first_placement(note: str) -> dict:
        moves = [TimedMove(2_000, Move(0, "n", ((0, note),))), TimedMove(5_000, Move(0, "d", ((0, 4),)))]
        return review_timeline(Timeline(EASY_GIVENS, moves, end_ms=5_000), EASY_SOLUTION, "easy").placements[0]

    # The player's note says 4 alone: on their board it is a naked single.
    assert (first_placement("4")["verdict"], first_placement("4")["technique"]) == ("logic", "naked-single")
    # A note of 5 alone leaves out the cell's own 4: the review builds nothing on it.
    assert (first_placement("5")["verdict"], first_placement("5")["technique"]) == ("ahead", "")


def test_uses_of_a_review_made_by_older_rules_count_for_nothing_until_the_sweep_makes_it_again(client, easy):
    user = log_in(client)
    solve = play_through(client, easy, row_order(EASY_GIVENS, EASY_SOLUTION))
    Solve.objects.filter(pk=solve.pk).update(solved_at=timezone.now() - datetime.timedelta(days=40))
    make_use(solve, "nishio", 30)  # as the first rules credited a row-order solve
    SolveReview.objects.filter(solve=solve).update(version=REVIEW_VERSION - 1)
    assert skill_profile(user).skills == []
    # Forty days old, past the sweep's week for solves with no review, but its review is stale.
    long_ago = timezone.now() - datetime.timedelta(days=50)
    make_solve(make_daily(site_today() - datetime.timedelta(days=50)), "grace", 300, solved_at=long_ago)
    assert reviews_missing() == [solve.pk]  # a solve older still with no review at all is left
    review_store(solve.pk)
    assert "nishio" not in set(TechniqueUse.objects.filter(solve=solve).values_list("technique", flat=True))
    assert {s.technique for s in skill_profile(user).skills} <= SINGLES and reviews_missing() == []
