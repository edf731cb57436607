"""Ratings from real play (puzzles/ratings/): Glicko-2 against Glickman's worked example, a solve's
time as a contest's result, and the ledger that keeps the ratings in solve order whatever order
the solves arrive in and however often it runs."""

from __future__ import annotations

import datetime
import itertools
import random
import threading
import time

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.db import connection, connections, transaction

from puzzles.fairplay.ranking import expected_of
from puzzles.models import Attempt, PlayerRating, PuzzleRating, RatingChange, Solve
from puzzles.ratings import contest, glicko2
from puzzles.ratings.ledger import ratings_catch_up

from .factories import make_daily, make_solve

NOW = datetime.datetime(2026, 11, 20, 22, 0, tzinfo=datetime.UTC)

# Who solved which daily (by index), in how many seconds, how many minutes before NOW.
PLAYS = [
    ("ada", 0, 240, 300),
    ("bob", 0, 900, 290),
    ("cy", 1, 1500, 280),
    ("ada", 1, 700, 270),
    ("dee", 0, 180, 260),
    ("bob", 2, 2400, 250),
    ("cy", 0, 400, 240),
    ("dee", 2, 1100, 230),
    ("ada", 2, 1300, 220),
    ("dee", 1, 650, 210),
]


def snapshot() -> dict:
    """Every rating with a rated solve, as exact numbers, by player name and puzzle."""
    players = {
        r.user.username: (r.rating, r.deviation, r.volatility, r.solves)
        for r in PlayerRating.objects.filter(solves__gt=0).select_related("user")
    }
    puzzles = {
        r.puzzle.givens: (r.rating, r.deviation, r.volatility, r.solves)
        for r in PuzzleRating.objects.filter(solves__gt=0)
    }
    return {"players": players, "puzzles": puzzles}


@pytest.fixture
def dailies(db) -> list:
    day = NOW.date()
    return [make_daily(day, tier) for tier in ("easy", "medium", "hard")]


def play(dailies: list, plays=PLAYS) -> list[Solve]:
    return [
        make_solve(dailies[index], name, seconds, solved_at=NOW - datetime.timedelta(minutes=ago))
        for name, index, seconds, ago in plays
    ]


# --- Glicko-2 and the contest -------------------------------------------------------------------


def test_glicko2_gives_glickmans_worked_example():
    player = (1500.0, 200.0, 0.06)
    games = [((1400.0, 30.0, 0.06), 1.0), ((1550.0, 100.0, 0.06), 0.0), ((1700.0, 300.0, 0.06), 0.0)]
    rating, deviation, volatility = glicko2.rate(player, games)
    # Glickman rounds each step to a few places; these are his figures to his precision.
    assert rating == pytest.approx(1464.06, abs=0.02)
    assert deviation == pytest.approx(151.52, abs=0.01)
    assert volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_rating_period_without_games_only_widens_the_deviation():
    rating, deviation, volatility = glicko2.rate((1600.0, 100.0, 0.06), [])
    assert (rating, volatility) == (1600.0, 0.06) and 100 < deviation < 101


def test_the_expected_time_scores_what_glicko_expects_and_falls_as_the_player_rises(settings):
    settings.RATING_REFERENCE_SECONDS, settings.RATING_SPREAD = 600.0, 2.0
    assert contest.score(600) == 0.5 and contest.expected_seconds(1500, 1500) == 600
    for player, puzzle in [(1500, 1500), (1800, 1400), (1200, 1900)]:
        glicko_one = 1 / (1 + 10 ** (-(player - puzzle) / 400))
        assert contest.score(contest.expected_seconds(player, puzzle)) == pytest.approx(glicko_one)
    times = [contest.expected_seconds(player, 1500) for player in range(800, 2400, 50)]
    assert all(later < earlier for earlier, later in itertools.pairwise(times))
    harder = [contest.expected_seconds(1500, puzzle) for puzzle in range(800, 2400, 50)]
    assert all(later > earlier for earlier, later in itertools.pairwise(harder))
    assert contest.score(0) < 1 and contest.score(10**9) > 0 and contest.score(10**9) < contest.score(10**8)


# --- the ledger ---------------------------------------------------------------------------------


def test_a_solve_faster_than_expected_raises_the_player_and_lowers_the_puzzle(dailies):
    solve = make_solve(dailies[1], "ada", 120, solved_at=NOW)
    assert ratings_catch_up(NOW) == 1
    player, puzzle = PlayerRating.objects.get(user__username="ada"), PuzzleRating.objects.get(puzzle=dailies[1].puzzle)
    prior_rating = contest.prior("medium")[0]
    change = RatingChange.objects.get(solve=solve)
    assert change.expected_seconds == pytest.approx(contest.expected_seconds(1500, prior_rating))
    assert change.expected_seconds > 120
    assert player.rating > 1500 and puzzle.rating < prior_rating
    assert player.deviation < 350 and (player.solves, puzzle.solves) == (1, 1)
    assert change.player_before == [1500, 350, 0.06] and change.player_after[0] == player.rating


def test_a_slow_solve_lowers_the_player_and_raises_the_puzzle(dailies):
    make_solve(dailies[0], "ada", 3600, solved_at=NOW)
    ratings_catch_up(NOW)
    assert PlayerRating.objects.get().rating < 1500
    assert PuzzleRating.objects.get().rating > contest.prior("easy")[0]


def test_catching_up_twice_changes_nothing_the_second_time(dailies):
    play(dailies)
    assert ratings_catch_up(NOW) == len(PLAYS)
    first = snapshot()
    changes = list(RatingChange.objects.order_by("solve_id").values_list("solve_id", "player_after", "puzzle_after"))
    assert ratings_catch_up(NOW) == 0
    assert snapshot() == first
    assert (
        list(RatingChange.objects.order_by("solve_id").values_list("solve_id", "player_after", "puzzle_after"))
        == changes
    )


def test_solves_arriving_in_any_order_give_exactly_the_same_ratings(dailies):
    play(dailies)
    ratings_catch_up(NOW)
    in_order = snapshot()
    for seed in (1, 2):
        for model in (Attempt, PlayerRating, PuzzleRating):  # an attempt takes its solve and change
            model.objects.all().delete()
        shuffled = PLAYS[:]
        random.Random(seed).shuffle(shuffled)
        assert shuffled != PLAYS
        for one in shuffled:  # each arrives on its own and the task runs after it
            play(dailies, [one])
            ratings_catch_up(NOW)
        assert snapshot() == in_order
    assert len(in_order["players"]) == 4 and len(in_order["puzzles"]) == 3


def test_a_disqualified_solve_is_wound_out_as_if_it_had_never_counted(dailies):
    solves = play(dailies)
    ratings_catch_up(NOW)
    with_it = snapshot()
    cheat = solves[1]  # bob's first: everything after it is wound back and played again
    Solve.objects.filter(pk=cheat.pk).update(flagged=True, review=Solve.Review.DISQUALIFIED)
    assert ratings_catch_up(NOW) == len(PLAYS) - 2
    wound_out = snapshot()
    assert not RatingChange.objects.filter(solve=cheat).exists()
    for model in (RatingChange, PlayerRating, PuzzleRating):
        model.objects.all().delete()
    ratings_catch_up(NOW)
    assert wound_out == snapshot() != with_it


def test_a_hinted_solve_moves_no_rating_and_one_from_the_archive_does(dailies):
    make_solve(dailies[0], "ada", 200, solved_at=NOW, assisted=True)
    make_solve(dailies[1], "bob", 200, solved_at=NOW, late=True)  # from the archive: it counts
    assert ratings_catch_up(NOW) == 1
    assert list(PlayerRating.objects.values_list("user__username", flat=True)) == ["bob"]


def test_a_solve_rated_after_the_rewind_window_is_applied_last_without_winding_back(dailies, settings):
    settings.RATING_REWIND_HOURS = 48
    play(dailies)
    ratings_catch_up(NOW)
    old = make_solve(dailies[0], "eve", 300, solved_at=NOW - datetime.timedelta(hours=60))
    assert ratings_catch_up(NOW) == 1  # only itself: nothing was wound back to make room for it
    assert RatingChange.objects.get(solve=old).solved_at == NOW
    assert ratings_catch_up(NOW) == 0


def test_a_players_expected_time_comes_from_the_stored_ratings(dailies):
    puzzle = dailies[0].puzzle
    ada = User.objects.create_user("ada")
    assert contest.expected_seconds_for(ada, puzzle) is None
    assert contest.expected_seconds_for(AnonymousUser(), puzzle) is None
    make_solve(dailies[1], "ada", 200, solved_at=NOW)
    ratings_catch_up(NOW)
    mine = PlayerRating.objects.get(user=ada).rating
    # The easy puzzle has no rated solve: its tier's prior stands in.
    assert contest.expected_seconds_for(ada, puzzle) == pytest.approx(contest.expected_seconds(mine, 1100))
    make_solve(dailies[0], "bob", 100, solved_at=NOW)
    ratings_catch_up(NOW + datetime.timedelta(minutes=1))
    played = PuzzleRating.objects.get(puzzle=puzzle).rating
    assert contest.expected_seconds_for(ada, puzzle) == pytest.approx(contest.expected_seconds(mine, played))


def test_the_ranking_rules_read_a_solves_expected_time_from_the_ratings_before_it(dailies):
    make_solve(dailies[1], "ada", 200, solved_at=NOW - datetime.timedelta(minutes=5))
    ratings_catch_up(NOW)
    before = contest.expected_seconds_for(User.objects.get(username="ada"), dailies[0].puzzle)
    solve = make_solve(dailies[0], "ada", 60, solved_at=NOW)
    assert expected_of(solve) == pytest.approx(before)  # not applied yet: the stored ratings
    ratings_catch_up(NOW + datetime.timedelta(minutes=1))
    # Applied, the ratings have moved on; the rules still read what was expected before it.
    assert contest.expected_seconds_for(solve.user, dailies[0].puzzle) != pytest.approx(before)
    assert expected_of(solve) == pytest.approx(before)
    assert expected_of(make_solve(dailies[0], "newcomer", 300, solved_at=NOW)) is None


# --- locking (PostgreSQL) -----------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_catch_up_waits_for_the_one_holding_the_lock_and_then_applies_nothing_twice(postgres, dailies):
    play(dailies)
    holding, release = threading.Event(), threading.Event()
    applied: list[int] = []

    def hold() -> None:
        try:
            with transaction.atomic():
                applied.append(ratings_catch_up(NOW))
                holding.set()
                release.wait(timeout=30)  # set below, once the other is seen waiting on the lock
        finally:
            connections.close_all()

    def follow() -> None:
        try:
            applied.append(ratings_catch_up(NOW))
        finally:
            connections.close_all()

    first = threading.Thread(target=hold)
    first.start()
    assert holding.wait(timeout=30)
    second = threading.Thread(target=follow)
    second.start()
    waiting = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
    with connection.cursor() as cursor:
        for _ in range(300):  # a condition, not a time: the second catch-up queued behind the lock
            cursor.execute(waiting)
            if cursor.fetchone()[0] == 1:
                break
            time.sleep(0.05)
        else:
            pytest.fail("the second catch-up never waited on the lock")
    release.set()
    first.join(timeout=30)
    second.join(timeout=30)
    assert applied == [len(PLAYS), 0]
    assert RatingChange.objects.count() == len(PLAYS)
