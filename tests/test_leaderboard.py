"""The day's leaderboard, a player's percentile, and held solves in the admin."""

import datetime

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from puzzles.durations import format_duration
from puzzles.fairplay import judge, ranking, words
from puzzles.models import Attempt, Solve
from puzzles.results.leaderboard import day_board, leaderboard_for, median_time, standing_of

from .factories import judge_follow_up, log_in, make_paced_record, make_solve, solve_through_api

pytestmark = pytest.mark.django_db

SOLVES = reverse("admin:puzzles_solve_changelist")


def judged(daily, username: str, seconds: float, **verdict) -> Solve:
    """make_solve's solve with a fair-play verdict of the test's choosing (ranked_seconds, unranked ...)."""
    solve = make_solve(daily, username, seconds)
    Solve.objects.filter(pk=solve.pk).update(**verdict)
    solve.refresh_from_db()
    return solve


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
    make_solve(daily, "helped", 110, assisted=True)
    make_solve(daily, "robot", 3, flagged=True)
    board = leaderboard_for(daily, user_id=User.objects.get(username="helped").pk)
    assert [r.username for r in board.rows] == ["fair"]
    assert board.player_row is None and board.solvers == 1


def test_the_percentile_is_the_share_of_ranked_solvers_strictly_slower(daily):
    for name, seconds in [("a", 90), ("b", 90.5), ("c", 100), ("d", 120)]:
        make_solve(daily, name, seconds)
    make_solve(daily, "helped", 30, assisted=True)  # not ranked: not counted either way
    by_name = {s.user.username: standing_of(s) for s in Solve.objects.select_related("user", "daily")}
    assert (by_name["a"].percentile, by_name["a"].rank) == (50, 1)  # b ties with a
    assert by_name["c"].percentile == 25 and by_name["c"].rank == 3
    assert by_name["d"].percentile == 0
    assert by_name["a"].sentence == "Faster than 50% of today's solvers."


def test_a_standing_counted_from_the_days_board_is_the_one_the_database_counts(daily):
    times = [("a", 90), ("b", 90.5), ("c", 90.99), ("d", 100), ("e", 100.2), ("f", 120), ("g", 61)]
    for name, seconds in times:
        make_solve(daily, name, seconds)
    judged(daily, "fast", 200, ranked_seconds=75.5)  # ranked by its ranked time, not its clock
    make_solve(daily, "helped", 30, assisted=True)
    board = day_board(daily)
    for solve in Solve.objects.select_related("user", "daily"):
        assert standing_of(solve, board) == standing_of(solve), solve.user.username
        assert standing_of(solve, board, guest=False) == standing_of(solve)
    assert (board.median, board.solvers) == ranking.day_median(daily) == ((90.5 + 90.99) / 2, 8)


def test_an_unranked_solve_says_why(daily, settings):
    late = standing_of(make_solve(daily, "late", 300, late=True, assisted=True))
    assert not late.ranked and late.percentile is None
    assert "after its day" in late.sentence and "hints" in late.sentence
    flagged = standing_of(make_solve(daily, "quick", 5, flagged=True))
    assert "held until an admin checks it" in flagged.sentence
    assert format_duration(settings.LEADERBOARD_FLOOR_SECONDS["easy"]) in flagged.sentence
    unranked = standing_of(judged(daily, "script", 300, unranked=ranking.IN_SUBMIT))
    assert unranked.sentence == f"Not on the leaderboard: {words.reason(ranking.IN_SUBMIT)}."


def test_a_fastest_time_that_everyone_shares_is_said_so_not_faster_than_none(daily):
    """Rank 1 of 2 in the same second: "faster than 0%" would read as last."""
    standings = [standing_of(make_solve(daily, name, seconds)) for name, seconds in [("a", 78), ("b", 78.4)]]
    assert [(s.rank, s.percentile) for s in standings] == [(1, 0), (1, 0)]
    assert standings[1].sentence == "Tied for the fastest time today."
    assert standing_of(make_solve(daily, "c", 95)).sentence == "Faster than 0% of today's solvers."
    assert standing_of(Solve.objects.get(user__username="a")).sentence == "Faster than 33% of today's solvers."


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
    assert [format_duration(s) for s in (0, 59.9, 65, 3723)] == ["0:00", "0:59", "1:05", "1:02:03"]


# --- ranked time -------------------------------------------------------------------------


def test_the_board_ranks_by_the_ranked_time_and_falls_back_to_the_clock(daily):
    judged(daily, "blocked", 100, ranked_seconds=400)  # heartbeats blocked: the clock missed 300 s
    make_solve(daily, "old", 200)  # judged before the record of play
    me = judged(daily, "fair", 300, ranked_seconds=300.5)
    board = leaderboard_for(daily)
    assert [(r.rank, r.username, r.time) for r in board.rows] == [
        (1, "old", "3:20"),
        (2, "fair", "5:00"),
        (3, "blocked", "6:40"),
    ]
    assert median_time(daily) == (300.5, 3)
    standing = standing_of(Solve.objects.get(user__username="blocked"))
    assert (standing.rank, standing.percentile, standing.time, standing.ranked_time) == (3, 0, "1:40", "6:40")
    assert standing_of(me).ranked_time == ""  # reads as the clock: not said twice
    below = leaderboard_for(daily, user_id=User.objects.get(username="blocked").pk, top=1)
    assert (below.player_row.rank, below.player_row.time) == (3, "6:40")


# --- the floor and the admin ----------------------------------------------------------------


def played(daily, username: str, gap: float) -> Solve:
    """A solve judged from a person's record of play: a digit every `gap` seconds, by a settled account."""
    user = User.objects.create(username=username, date_joined=timezone.now() - datetime.timedelta(days=3))
    attempt = Attempt.objects.create(user=user, daily=daily, started_at=timezone.now())
    end = make_paced_record(attempt, attempt.started_at, gap)
    solve = Solve.objects.create(
        attempt=attempt, user=user, daily=daily, seconds=(end - attempt.started_at).total_seconds()
    )
    judge.solve_judge(solve)
    return solve


def test_a_solve_under_the_floor_is_held_kept_off_the_board_and_listed_for_admins(daily, admin_client, settings):
    settings.LEADERBOARD_FLOOR_SECONDS = {**settings.LEADERBOARD_FLOOR_SECONDS, "easy": 60}
    solve = played(daily, "speedy", gap=1.0)  # 49 s
    assert solve.flagged and solve.unranked == "" and solve.ranked_seconds == 49
    assert leaderboard_for(daily).rows == []
    page = admin_client.get(SOLVES).content.decode()
    assert "review=waiting" in page and "1 solve is held for review" in page
    held = admin_client.get(SOLVES + "?review=waiting").content.decode()
    assert "speedy" in held


def test_a_solve_over_the_floor_is_ranked(daily, settings):
    settings.LEADERBOARD_FLOOR_SECONDS = {**settings.LEADERBOARD_FLOOR_SECONDS, "easy": 20}
    played(daily, "steady", gap=2.0)
    assert [(r.username, r.time) for r in leaderboard_for(daily).rows] == [("steady", "1:38")]


def test_a_solve_through_the_api_is_checked_after_the_answer_then_judged(client, daily):
    # The test client sends no moves, as a script would not: recorded, not ranked.
    log_in(client, "script")
    assert solve_through_api(client, daily, 300, judged=False)["solved"] is True
    solve = Solve.objects.get()
    assert solve.unranked == ranking.CHECKING and solve.ranked_seconds is None  # the submit did not judge it
    assert not Solve.objects.ranked().exists() and not Solve.objects.rated().exists()
    assert standing_of(solve).checking and standing_of(solve).sentence == "Checking your time for the leaderboard…"
    [solve] = judge_follow_up(daily)
    assert solve.unranked == ranking.NO_RECORD and solve.ranked_seconds >= 300
    assert leaderboard_for(daily).rows == []
    assert judge.judge_waiting_one(solve.pk) is False  # judged once: a second delivery does nothing


def test_the_admin_keeps_times_and_verdicts_read_only_and_records_a_review(admin_client, daily):
    solve = make_solve(daily, "quick", 5, flagged=True)
    change = reverse("admin:puzzles_solve_change", args=[solve.pk])
    page = admin_client.get(change).content.decode()
    assert 'name="seconds"' not in page and 'name="solved_at_0"' not in page and 'name="flagged"' not in page
    assert 'name="review"' in page and "No record of play." in page and "Watch the replay" in page
    admin_client.post(change, {"review": "approved", "seconds": "1", "flagged": ""})
    solve.refresh_from_db()
    assert solve.seconds == 5 and solve.flagged and solve.review == "approved"
    assert [r.username for r in leaderboard_for(daily).rows] == ["quick"]
    assert admin_client.get(reverse("admin:puzzles_solve_add")).status_code == 403


def test_the_change_page_sums_up_the_record_of_play(admin_client, daily):
    solve = played(daily, "steady", gap=2.0)
    page = admin_client.get(reverse("admin:puzzles_solve_change", args=[solve.pk])).content.decode()
    assert "18 events: 1 page opened, 16 moves saved, 1 grid submitted." in page
    assert "49 moves." in page and "3, 3, 3" in page and "the record earns a rank" in page


def test_the_admin_approves_and_disqualifies_in_bulk(admin_client, daily):
    ids = [make_solve(daily, name, 5, flagged=True).pk for name in ("a", "b")]
    make_solve(daily, "c", 300)
    admin_client.post(SOLVES, {"action": "approve", "_selected_action": ids})
    assert set(Solve.objects.filter(review="approved").values_list("pk", flat=True)) == set(ids)
    assert [r.username for r in leaderboard_for(daily).rows] == ["a", "b", "c"]
    admin_client.post(SOLVES, {"action": "disqualify", "_selected_action": ids[:1]})
    assert [r.username for r in leaderboard_for(daily).rows] == ["b", "c"]
    held = admin_client.get(SOLVES + "?review=disqualified").content.decode()
    assert ">a<" in held and ">b<" not in held


def test_held_solves_waiting_for_review_are_listed_first(admin_client, daily):
    make_solve(daily, "approved", 5, flagged=True)
    Solve.objects.filter(user__username="approved").update(review="approved")
    make_solve(daily, "fair", 300)
    make_solve(daily, "waiting", 5, flagged=True, solved_at=timezone.now() - datetime.timedelta(hours=1))
    page = admin_client.get(SOLVES).content.decode()
    assert page.index(">waiting<") < min(page.index(">fair<"), page.index(">approved<"))
