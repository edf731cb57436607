"""The day's leaderboard, a player's percentile, and flagged solves in the admin."""

import datetime

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from puzzles.leaderboard import clock, leaderboard_for, median_time, standing_of
from puzzles.models import Solve

from .factories import log_in, make_solve, solve_through_api

pytestmark = pytest.mark.django_db

SOLVES = reverse("admin:puzzles_solve_changelist")


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


def test_a_solve_under_the_floor_is_flagged_kept_off_the_board_and_listed_for_admins(
    client, daily, admin_client, settings
):
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
