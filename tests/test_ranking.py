"""The ranking rule's one home (fairplay/ranking.py) and its words (fairplay/words.py): the pieces
the leaderboard, the leagues, the results page and the admin all call."""

from __future__ import annotations

from puzzles.fairplay import ranking, words
from puzzles.models import Solve


def test_equal_keys_share_the_first_ones_place():
    assert ranking.shared_ranks([10, 10, 11, 12, 12, 12, 13]) == [1, 1, 3, 4, 4, 4, 7]
    assert ranking.shared_ranks([(3, 100), (3, 100), (2, 50)]) == [1, 1, 3]
    assert ranking.shared_ranks([]) == []


def test_a_solve_in_hand_is_ranked_by_its_ranked_time_or_else_its_clock():
    assert ranking.rank_time(Solve(seconds=245.5, ranked_seconds=250.2)) == 250.2
    assert ranking.rank_time(Solve(seconds=245.5, ranked_seconds=None)) == 245.5


def test_every_reason_has_words_for_the_player_and_about_someone_else():
    for code in (*ranking.REASON_CODES, ranking.LATE, ranking.HELPED, ranking.DISQUALIFIED):
        assert words.reason(code) != code, code
        assert code in words.THEY, code
    assert ranking.HELD in words.THEY


def test_the_reasons_come_in_one_order_for_you_and_for_them():
    solve = Solve(seconds=300, late=True, assisted=True, unranked=ranking.TOO_FAST, review=Solve.Review.DISQUALIFIED)
    assert ranking.not_ranked_codes(solve) == [ranking.LATE, ranking.HELPED, ranking.TOO_FAST, ranking.DISQUALIFIED]
    assert words.reasons_for_you(solve) == [
        "you played it after its day",
        "you used hints or checks",
        words.reason(ranking.TOO_FAST),
        "it was disqualified after review",
    ]
    assert words.reasons_for_them(solve) == [
        "late",
        "with hints or checks",
        "not ranked: faster than a person",
        "disqualified",
    ]


def test_a_ranked_solve_has_no_reasons():
    solve = Solve(seconds=300)
    assert ranking.not_ranked_codes(solve) == []
    assert words.reasons_for_you(solve) == words.reasons_for_them(solve) == []


def test_an_approved_held_solve_is_not_held_any_more():
    held = Solve(seconds=30, flagged=True)
    assert ranking.not_ranked_codes(held) == [ranking.HELD]
    held.review = Solve.Review.APPROVED
    assert ranking.not_ranked_codes(held) == []
