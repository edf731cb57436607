"""The day's leaderboard, a player's percentile, flagged solves in the admin, and the receipt."""

import datetime

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from puzzles import engine, receipt
from puzzles.leaderboard import clock, leaderboard_for, median_time, standing_of
from puzzles.models import Attempt, Solve, site_today

from .factories import (
    EASY_SOLUTION,
    log_in,
    make_daily,
    make_puzzle,
    make_solve,
    solve_through_api,
    url,
)

pytestmark = pytest.mark.django_db

SOLUTION = EASY_SOLUTION
SOLVES = reverse("admin:puzzles_solve_changelist")


def results_url(daily):
    return reverse("puzzles:results", args=[daily.date, daily.difficulty])


# --- the leaderboard ------------------------------------------------------------------------


def test_the_leaderboard_ranks_by_time_and_equal_times_share_a_rank(daily):
    now = timezone.now()
    make_solve(daily, "slow", 120)
    make_solve(daily, "ada", 90.0, solved_at=now)
    make_solve(daily, "grace", 90.4, solved_at=now - datetime.timedelta(minutes=5))  # shown as 1:30 too
    make_solve(daily, "linus", 100)
    board = leaderboard_for(daily)
    assert [(r.rank, r.username, r.time) for r in board.rows] == [
        (1, "ada", "1:30"),
        (1, "grace", "1:30"),
        (3, "linus", "1:40"),
        (4, "slow", "2:00"),
    ]
    assert board.solvers == 4 and board.player_row is None


def test_equal_seconds_are_listed_by_who_solved_first(daily):
    now = timezone.now()
    make_solve(daily, "later", 60, solved_at=now)
    make_solve(daily, "earlier", 60, solved_at=now - datetime.timedelta(minutes=1))
    assert [(r.rank, r.username) for r in leaderboard_for(daily).rows] == [(1, "earlier"), (1, "later")]


def test_the_board_shows_the_top_and_the_players_own_row_below_it(daily):
    for i, name in enumerate(["a", "b", "c", "d"]):
        make_solve(daily, name, 60 + i * 10)
    me = make_solve(daily, "me", 300)
    board = leaderboard_for(daily, user_id=me.user_id, top=2)
    assert [r.username for r in board.rows] == ["a", "b"]
    assert board.player_row.rank == 5 and board.player_row.is_player and board.player_row.username == "me"
    inside = leaderboard_for(daily, user_id=User.objects.get(username="b").pk, top=2)
    assert inside.player_row is None and inside.rows[1].is_player


def test_late_hinted_and_flagged_solves_stay_off_the_board(daily):
    make_solve(daily, "fair", 200)
    make_solve(daily, "archive", 100, late=True)
    make_solve(daily, "helped", 110, hinted=True)
    make_solve(daily, "robot", 3, flagged=True)
    board = leaderboard_for(daily, user_id=User.objects.get(username="helped").pk)
    assert [r.username for r in board.rows] == ["fair"]
    assert board.player_row is None and board.solvers == 1


def test_the_percentile_is_the_share_of_ranked_solvers_strictly_slower(daily):
    for name, seconds in [("a", 90), ("b", 90.5), ("c", 100), ("d", 120)]:
        make_solve(daily, name, seconds)
    make_solve(daily, "helped", 30, hinted=True)  # not ranked: not counted either way
    by_name = {s.user.username: standing_of(s) for s in Solve.objects.select_related("user", "daily")}
    assert (by_name["a"].percentile, by_name["a"].rank) == (50, 1)  # b ties with a
    assert by_name["c"].percentile == 25 and by_name["c"].rank == 3
    assert by_name["d"].percentile == 0
    assert by_name["a"].sentence == "Faster than 50% of today's solvers."


def test_an_unranked_solve_says_why(daily, settings):
    late = standing_of(make_solve(daily, "late", 300, late=True, hinted=True))
    assert not late.ranked and late.percentile is None
    assert "after its day" in late.sentence and "hints" in late.sentence
    flagged = standing_of(make_solve(daily, "quick", 5, flagged=True))
    assert "too fast" in flagged.sentence and clock(settings.LEADERBOARD_FLOOR_SECONDS["easy"]) in flagged.sentence


def test_the_only_ranked_solver_is_told_so(daily):
    assert standing_of(make_solve(daily, "first", 300)).sentence == "You're the only ranked solver so far."


def test_the_median_counts_only_ranked_solves(daily):
    assert median_time(daily) == (None, 0)
    for name, seconds in [("a", 100), ("b", 300), ("c", 200)]:
        make_solve(daily, name, seconds)
    make_solve(daily, "robot", 1, flagged=True)
    assert median_time(daily) == (200, 3)
    make_solve(daily, "d", 400)
    assert median_time(daily) == (250, 4)


def test_clock_shows_whole_seconds_like_the_board():
    assert [clock(s) for s in (0, 59.9, 65, 3723)] == ["0:00", "0:59", "1:05", "1:02:03"]


# --- the floor and the admin ----------------------------------------------------------------


def test_a_solve_under_the_floor_is_flagged_kept_off_the_board_and_listed_for_admins(client, daily, admin_client, settings):
    settings.LEADERBOARD_FLOOR_SECONDS = {**settings.LEADERBOARD_FLOOR_SECONDS, "easy": 60}
    log_in(client, "speedy")
    assert solve_through_api(client, daily, 30)["solved"] is True
    solve = Solve.objects.get()
    assert solve.flagged and solve.seconds == 30
    assert leaderboard_for(daily).rows == []
    page = admin_client.get(SOLVES).content.decode()
    assert "flagged__exact=1" in page and "1 flagged solve is faster than the floor" in page
    flagged = admin_client.get(SOLVES + "?flagged__exact=1").content.decode()
    assert "speedy" in flagged


def test_a_solve_over_the_floor_is_ranked(client, daily, settings):
    settings.LEADERBOARD_FLOOR_SECONDS = {**settings.LEADERBOARD_FLOOR_SECONDS, "easy": 20}
    log_in(client, "steady")
    solve_through_api(client, daily, 30)
    assert [r.username for r in leaderboard_for(daily).rows] == ["steady"]


def test_the_admin_keeps_solve_times_read_only_and_may_clear_a_flag(admin_client, daily):
    solve = make_solve(daily, "quick", 5, flagged=True)
    change = reverse("admin:puzzles_solve_change", args=[solve.pk])
    page = admin_client.get(change).content.decode()
    assert 'name="seconds"' not in page and 'name="solved_at_0"' not in page and 'name="flagged"' in page
    admin_client.post(change, {"flagged": "", "seconds": "1"})
    solve.refresh_from_db()
    assert solve.seconds == 5 and not solve.flagged
    assert admin_client.get(reverse("admin:puzzles_solve_add")).status_code == 403


def test_the_admin_action_clears_flags_in_bulk(admin_client, daily):
    ids = [make_solve(daily, name, 5, flagged=True).pk for name in ("a", "b")]
    admin_client.post(SOLVES, {"action": "clear_flag", "_selected_action": ids})
    assert not Solve.objects.filter(flagged=True).exists()
    assert [r.username for r in leaderboard_for(daily).rows] == ["a", "b"]


# --- the receipt ----------------------------------------------------------------------------


def test_the_results_are_a_404_until_the_player_has_solved_the_puzzle(client, daily):
    anonymous = client.get(results_url(daily))
    assert anonymous.status_code == 404 and b"Solve the puzzle first" in anonymous.content
    make_solve(daily, "someone-else", 100)  # another player's solve unlocks nothing for us
    log_in(client, "ada")
    client.get(url(daily))  # started, not solved
    response = client.get(results_url(daily))
    assert response.status_code == 404
    body = response.content.decode()
    assert "Solve the puzzle first" in body
    for secret in ("Hardest", "single", "someone-else", "leaderboard</h3>", SOLUTION):
        assert secret not in body


def test_the_results_show_the_receipt_leaderboard_and_percentile_after_the_solve(client, daily):
    make_solve(daily, "rival", 400)
    make_solve(daily, "ace", 100)
    me = log_in(client, "ada")
    assert solve_through_api(client, daily, 200)["solved"] is True
    response = client.get(results_url(daily))
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith("<section") and "<html" not in body and 'id="sudoku-results"' in body
    assert "Solved in <span class=\"results-time\">3:20</span>" in body
    assert "Faster than 33% of today&#x27;s solvers." in body
    # The techniques as stored, with friendly names and counts, and the hardest step's wording.
    assert "Naked single" in body and "used</span> 49<span" in body
    assert "Hardest step" in body and "r5c6 sees every digit but 4" in body
    assert "median time for easy: <strong>3:20</strong> (3 ranked solves)" in body
    # The leaderboard, with the player's own row marked.
    assert "<caption>" in body and body.index("ace") < body.index("ada") < body.index("rival")
    assert 'class="is-player" aria-current="true"><td>2</td>' in body
    assert response["Cache-Control"].startswith("max-age=0")
    assert Solve.objects.get(user=me).seconds == 200


def test_the_results_explain_why_an_unranked_solve_is_not_on_the_board(client, daily):
    me = log_in(client, "ada")
    attempt = Attempt.objects.create(user=me, daily=daily)
    Solve.objects.create(attempt=attempt, user=me, daily=daily, seconds=500, hinted=True)
    body = client.get(results_url(daily)).content.decode()
    assert "Not on the leaderboard: you used hints." in body
    assert "No ranked solves yet" in body


def test_results_of_a_puzzle_that_is_not_served_are_a_404(client, daily):
    log_in(client, "ada")
    tomorrow = site_today() + datetime.timedelta(days=1)
    assert client.get(f"/daily/{tomorrow.isoformat()}/easy/results/").status_code == 404
    assert client.get(f"/daily/{daily.date.isoformat()}/nonsense/results/").status_code == 404
    assert client.post(results_url(daily)).status_code == 405


def test_the_receipt_names_the_hardest_technique_in_engine_order_and_why(daily):
    medium = make_daily(daily.date, "medium", make_puzzle("medium", 1))
    made = receipt.receipt_for(medium)
    names = [t.name for t in made.techniques]
    assert names == [t.name for t in engine.rater.TECHNIQUES if t.name in medium.puzzle.techniques]
    assert made.hardest.name == medium.puzzle.hardest and made.hardest.explanation
    rating = engine.rate(medium.puzzle.givens)
    assert made.hardest.explanation == next(s.explanation for s in rating.steps if s.technique == made.hardest.name)
    assert "Medium" in made.why and "medium technique" in made.why
    assert made.steps == sum(medium.puzzle.techniques.values())


def test_the_hardest_step_is_cached_per_puzzle_and_the_page_survives_a_broken_cache(daily, monkeypatch):
    first = receipt.hardest_step(daily.puzzle)

    def no_rating(*args, **kwargs):
        raise AssertionError("rated again instead of using the cache")

    monkeypatch.setattr(receipt.engine, "rate", no_rating)
    assert receipt.hardest_step(daily.puzzle) == first
    monkeypatch.undo()

    class BrokenCache:
        def get(self, *args, **kwargs):
            raise ConnectionError("cache is down")

        set = get

    monkeypatch.setattr(receipt, "cache", BrokenCache())
    assert receipt.hardest_step(daily.puzzle) == first
