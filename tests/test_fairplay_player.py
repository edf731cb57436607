"""A solve judged against its player (fairplay/against.py), a floor only established players make
(ranking.by_established), the provisional mark on the leaderboard, and the review queue's history.

The easy puzzle's rating is settled at 1100 (`settled`) and a settled player of 1500 is expected
in 3:10 on it (ratings/contest.py); person() places a digit every `gap` seconds, 49 of them.
"""

import datetime

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from puzzles.fairplay import judge, ranking, words
from puzzles.models import Attempt, PuzzleRating, RatingChange, Solve
from puzzles.pipeline import tasks
from puzzles.results.leaderboard import leaderboard_for

from .factories import log_in, make_daily, make_established, make_paced_record, make_solve

pytestmark = pytest.mark.django_db

T0 = datetime.datetime(2026, 11, 22, 12, 0, tzinfo=datetime.UTC)


@pytest.fixture
def settled(daily):
    """The daily's puzzle rated by the day's solves so far: 1100, with a small deviation."""
    return PuzzleRating.objects.create(puzzle=daily.puzzle, rating=1100, deviation=60, solves=20)


def person(daily, name: str, gap: float, established: bool = False) -> Solve:
    """A judged solve with a person's record, a digit every `gap` seconds, by an account two days old."""
    joined = timezone.now() - datetime.timedelta(days=2)
    user = User.objects.get_or_create(username=name, defaults={"date_joined": joined})[0]
    if established:
        make_established(user)
    attempt = Attempt.objects.create(user=user, daily=daily, started_at=T0)
    end = make_paced_record(attempt, T0, gap)
    solve = Solve.objects.create(
        attempt=attempt, user=user, daily=daily, seconds=(end - T0).total_seconds(), solved_at=timezone.now()
    )
    judge.solve_judge(solve)
    judge.held_again_after(solve.pk)  # what the solve's follow-up (the beat's sweep) does after the answer
    return solve


def test_a_solve_far_faster_than_its_players_rating_allows_is_held_and_says_why(daily, settled):
    solve = person(daily, "ada", gap=0.8, established=True)  # 39 s where 3:10 was expected: +550 points
    assert solve.flagged and solve.held == ranking.PAST_HISTORY
    assert words.reasons_for_you(solve) == [
        "it was far faster than your own recent solves, so it is held until an admin checks it"
    ]


def test_a_good_day_within_the_players_history_is_ranked(daily, settled):
    solve = person(daily, "ada", gap=2.0, established=True)  # 98 s where 3:10 was expected: +230 points
    assert not solve.flagged and solve.held == "" and Solve.objects.ranked().exists()


def rated_back_then(username: str, rating: float, days_ago: int) -> None:
    """A rated solve of `username`'s `days_ago` days back, after which their rating was `rating`."""
    day = timezone.localdate() - datetime.timedelta(days=days_ago)
    past = make_solve(make_daily(day), username, 300)
    past.solved_at = timezone.now() - datetime.timedelta(days=days_ago)
    past.save(update_fields=["solved_at"])
    User.objects.filter(pk=past.user_id).update(date_joined=past.solved_at)
    RatingChange.objects.create(
        solve=past, user=past.user, puzzle=past.daily.puzzle, solved_at=past.solved_at, seconds=300, score=0.5,
        expected_seconds=300, player_before=[rating, 60, 0.06], player_after=[rating, 60, 0.06],
        puzzle_before=[1100, 60, 0.06], puzzle_after=[1100, 60, 0.06],
    )  # fmt: skip


def test_a_good_day_is_held_when_the_player_climbed_to_their_rating_within_the_history_window(daily, settled):
    rated_back_then("ada", 1200, days_ago=20)  # 300 points below the rating she has now
    solve = person(daily, "ada", gap=2.0, established=True)  # +230 points above 1500: +530 above 1200
    assert solve.held == ranking.PAST_HISTORY


def test_a_good_day_of_a_player_whose_rating_held_steady_is_ranked(daily, settled):
    rated_back_then("ada", 1500, days_ago=20)
    solve = person(daily, "ada", gap=2.0, established=True)
    assert not solve.flagged


def test_a_new_players_solve_ahead_of_every_established_player_of_the_day_is_held(daily):
    bot = person(daily, "bot", gap=1.0)  # 49 s, from a player with no rating, before any established one
    assert not bot.flagged
    person(daily, "steady", gap=2.0, established=True)  # 98 s, the day's fastest established time
    bot.refresh_from_db()  # decided again: ahead of it
    assert bot.held == ranking.PAST_FIELD
    assert "faster than the day's fastest time by an established player" in words.held_because(bot)
    # 93 s: a few seconds ahead is enough; a margin under 1 ranked it first, as a bot reading the
    # leaderboard's "new" marks would aim.
    assert person(daily, "quick", gap=1.9).held == ranking.PAST_FIELD
    assert not person(daily, "behind", gap=2.1).flagged  # 103 s: behind the fastest established time


def test_the_day_is_decided_again_by_the_solves_follow_up_task_not_on_its_submit(daily):
    bot = person(daily, "bot", gap=1.0)  # 49 s, before any established player
    joined = timezone.now() - datetime.timedelta(days=2)
    steady = User.objects.create(username="steady", date_joined=joined)
    make_established(steady)
    attempt = Attempt.objects.create(user=steady, daily=daily, started_at=T0)
    end = make_paced_record(attempt, T0, 2.0)
    solve = Solve.objects.create(
        attempt=attempt, user=steady, daily=daily, seconds=(end - T0).total_seconds(), solved_at=timezone.now()
    )
    judge.solve_judge(solve)  # the submit: its own verdict only
    bot.refresh_from_db()
    assert not bot.flagged
    tasks.follow_up_solve(solve.pk)
    bot.refresh_from_db()
    assert bot.held == ranking.PAST_FIELD


def test_the_ratings_sweep_decides_todays_holds_again(daily):
    bot = person(daily, "bot", gap=1.0)
    make_established(make_solve(daily, "steady", 98).user)  # no follow-up ran for this one
    bot.refresh_from_db()
    assert not bot.flagged
    tasks.rate_solves()
    bot.refresh_from_db()
    assert bot.held == ranking.PAST_FIELD


def test_slow_solves_from_fresh_accounts_do_not_move_the_days_floor(daily, settings):
    settings.DAY_FLOOR_FRACTION, settings.DAY_FLOOR_MIN_SOLVES = 0.35, 20
    for n in range(25):
        make_solve(daily, f"sybil{n}", 600)  # ranked, but by accounts with no rated history
    assert ranking.floor_of(person(daily, "honest", gap=2.0, established=True)) == (20.0, ranking.UNDER_FLOOR)
    assert not Solve.objects.get(user__username="honest").flagged


def test_slow_solves_from_accounts_that_farmed_establishment_do_not_raise_the_days_floor(daily, settings):
    settings.DAY_FLOOR_FRACTION, settings.DAY_FLOOR_RANK, settings.DAY_FLOOR_MIN_SOLVES = 0.35, 3, 20
    for n in range(3):
        make_established(make_solve(daily, f"quick{n}", 120 + n).user)
    for n in range(25):  # established by slow clean solves, then slow again: a median of 900 s
        make_established(make_solve(daily, f"farmer{n}", 900).user)
    solve = person(daily, "honest", gap=1.5, established=True)  # 73 s: under 0.35 x 900, over 0.35 x 122
    assert ranking.floor_of(solve) == (pytest.approx(0.35 * 122), ranking.UNDER_DAY)
    assert not solve.flagged


def test_a_held_solve_is_released_when_the_established_players_lower_the_days_floor(daily, settings):
    settings.DAY_FLOOR_FRACTION, settings.DAY_FLOOR_MIN_SOLVES = 0.35, 20
    for n in range(20):
        make_established(make_solve(daily, f"slow{n}", 600).user)
    held = person(daily, "honest", gap=2.0, established=True)  # 98 s, under 0.35 x 600 s
    assert held.held == ranking.UNDER_DAY
    for n in range(21):
        make_established(make_solve(daily, f"fast{n}", 100).user)
    assert judge.held_again(daily) == 1
    assert not Solve.objects.get(pk=held.pk).flagged and Solve.objects.ranked().filter(pk=held.pk).exists()


def test_the_leaderboard_marks_a_provisional_rating_as_new_in_words_a_screen_reader_says(client, daily):
    make_established(make_solve(daily, "veteran", 300).user)
    make_solve(daily, "newcomer", 200)
    rows = {row.username: row.provisional for row in leaderboard_for(daily).rows}
    assert rows == {"newcomer": True, "veteran": False}
    log_in(client, "veteran")
    body = client.get(reverse("puzzles:results", args=[daily.date, daily.difficulty])).content.decode()
    mark = '<span class="results-new">new<span class="visually-hidden"> player: provisional rating</span></span>'
    assert f"newcomer {mark}" in body and f"veteran {mark}" not in body


def test_the_review_queue_shows_the_players_history_beside_the_held_solve(daily, settled, admin_client):
    User.objects.create(username="ada", date_joined=timezone.now() - datetime.timedelta(days=2))
    yesterday = make_daily(daily.date - datetime.timedelta(days=1))
    past = make_solve(yesterday, "ada", 200, solved_at=timezone.now() - datetime.timedelta(days=1))
    RatingChange.objects.create(
        solve=past,
        user=past.user,
        puzzle=yesterday.puzzle,
        solved_at=past.solved_at,
        seconds=200,
        score=0.9,
        expected_seconds=190,
        player_before=[1480, 70, 0.06],
        player_after=[1500, 60, 0.06],
        puzzle_before=[1100, 300, 0.06],
        puzzle_after=[1090, 290, 0.06],
    )
    held = person(daily, "ada", gap=0.8, established=True)
    page = admin_client.get(reverse("admin:puzzles_solve_change", args=[held.pk])).content.decode()
    assert "history: its time implies a performance over 2 of the player&#x27;s rating deviations" in page
    assert "1500 ± 60 after 10 rated solves (established)" in page
    assert "<td>3:20</td><td>3:10</td><td>1500 ± 60</td>" in page
    assert "49 digits; median gap 0.80 s; longest gaps" in page and "Watch the replay" in page
