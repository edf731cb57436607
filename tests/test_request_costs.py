"""What the pages players open most cost the database: a ceiling on the queries of the home page,
the results and a submit, so that a change which makes them read more fails here (bench/costs.py
measures their CPU; docs/performance.md has the figures)."""

from __future__ import annotations

import datetime

import pytest
import time_machine
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.utils import timezone

from puzzles.fairplay.ranking import CHECKING, NO_RECORD
from puzzles.models import TIER_ORDER, Attempt, Solve

from .factories import log_in, make_daily, make_established, make_solve, player_digits, post, solve_through_api, url

pytestmark = pytest.mark.django_db

NAVIGATION = {"HTTP_SEC_FETCH_MODE": "navigate", "HTTP_SEC_FETCH_DEST": "document"}


@pytest.fixture
def day(daily):
    """Today's five dailies and yesterday's, with a field of ranked solves on today's easy one."""
    yesterday = daily.date - datetime.timedelta(days=1)
    for tier in TIER_ORDER[1:]:
        make_daily(daily.date, tier)
    for tier in TIER_ORDER:
        make_daily(yesterday, tier)
    for n in range(25):
        solve = make_solve(daily, f"solver{n}", 200 + 7 * n, solved_at=timezone.now() - datetime.timedelta(hours=1))
        if n % 2:
            make_established(solve.user)
    return daily


def played(client: Client, daily) -> None:
    """The logged-in player's solve of today's easy daily and of yesterday's, and a start on two more."""
    with time_machine.travel(timezone.now(), tick=False) as clock:
        solve_through_api(client, daily, 300, clock=clock)
    for attempt_daily in daily.__class__.objects.exclude(pk=daily.pk)[:3]:
        post(client, url(attempt_daily, "beat"), {"phase": "open"})


def session_reads() -> int:
    """The queries a logged-in request makes for its session and user when there is no shared cache
    (Redis) to keep them in: `make run`'s default, and CI's SQLite pass."""
    from django.conf import settings

    return 0 if settings.SHARED_CACHE else 2


def test_a_players_home_page_asks_the_database_a_few_questions(client, day, django_assert_max_num_queries):
    user = log_in(client, "ada")
    played(client, day)
    assert Attempt.objects.filter(user=user).count() >= 3
    client.get("/")  # the caches warm, as they are on a running site
    # The player's attempts at today's and yesterday's dailies (their streak is kept while their
    # solves stay the same, and whether they are in a league while their memberships do).
    with django_assert_max_num_queries(1 + session_reads()):
        page = client.get("/").content.decode()
    assert "Solved in 5:00" in page


def test_a_visitors_home_page_asks_the_database_nothing_once_cached(day, django_assert_max_num_queries):
    visitor = Client()
    visitor.get("/")
    with django_assert_max_num_queries(0):
        assert visitor.get("/").status_code == 200


def test_the_results_ask_the_database_a_few_questions_however_many_solved(client, day, django_assert_max_num_queries):
    log_in(client, "ada")
    played(client, day)
    address = f"/daily/{day.date.isoformat()}/easy/results/"
    client.get(address, **NAVIGATION)
    # The solve with its review, the player's recent solves (the share's streak is kept under
    # them) and the day's board's fingerprint, in one (the board itself, which places the player
    # too, is cached while it holds).
    with django_assert_max_num_queries(1 + session_reads()):
        page = client.get(address, **NAVIGATION).content.decode()
    assert "solver0" in page and "Solved in" in page


def test_a_submit_asks_the_database_a_bounded_number_of_questions(client, day, django_assert_max_num_queries):
    log_in(client, "ada")
    with time_machine.travel(timezone.now(), tick=False) as clock:
        post(client, url(day, "beat"), {"phase": "open"})
        clock.shift(200)
        post(client, url(day, "beat"), {})
        version = client.get(url(day, "state")).json()["version"]
        # On PostgreSQL one statement: the position, the event and the solve, with the record's
        # bound. Elsewhere the record's bound, the lock, the position, the event, the solve (and
        # the transaction's two). The judge reads nothing here: it runs after the answer.
        statements = 1 if connection.vendor == "postgresql" else 7
        with django_assert_max_num_queries(statements + session_reads()):
            answer = post(client, url(day, "submit"), {"version": version, "digits": player_digits()})
    assert answer.json()["solved"] is True
    assert Solve.objects.filter(user__username="ada").exists()


def test_the_kept_board_marks_the_row_of_whoever_asks_and_no_one_elses(day):
    address = f"/daily/{day.date.isoformat()}/easy/results/"
    pages = {}
    for name in ("solver0", "solver1", "solver2"):
        player = Client()
        log_in(player, name)
        pages[name] = player.get(address, **NAVIGATION).content.decode()
    for name, page in pages.items():
        assert page.count("(you)") == 1
        marked = page.split('<tr class="is-player" aria-current="true">', 1)[1].split("</tr>", 1)[0]
        assert f'<th scope="row">{name}' in marked


def test_a_submit_sends_nothing_to_the_broker_the_sweep_finds_its_solve(
    client, day, monkeypatch, django_capture_on_commit_callbacks
):
    from puzzles.fairplay import judge
    from puzzles.pipeline import tasks

    sent: list[tuple] = []
    for task in (tasks.follow_up_solve, tasks.review_solve, tasks.rate_solves, tasks.judge_waiting):
        monkeypatch.setattr(task, "delay", lambda *args, name=task.name: sent.append((name, *args)))
        monkeypatch.setattr(task, "apply_async", lambda *args, name=task.name, **kw: sent.append((name, *args)))
    log_in(client, "ada")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        assert solve_through_api(client, day, 120, judged=False)["solved"]
    assert sent == [] and callbacks == []
    solve = Solve.objects.get(user__username="ada")
    assert solve.unranked == CHECKING and judge.waiting() == [solve.pk]


def test_the_follow_up_reviews_the_solve_and_brings_the_ratings_up_to_it(client, day):
    from puzzles.models import RatingChange, SolveReview
    from puzzles.pipeline.tasks import follow_up_solve

    log_in(client, "ada")
    with time_machine.travel(timezone.now() + datetime.timedelta(hours=1), tick=False) as clock:
        solve_through_api(client, day, 300, clock=clock, judged=False)
    solve = Solve.objects.get(user__username="ada")
    assert not SolveReview.objects.exists() and not RatingChange.objects.exists()  # nothing ran on the request
    assert solve.unranked == CHECKING  # nor the judge
    assert follow_up_solve(solve.pk) is True
    solve.refresh_from_db()
    assert solve.unranked == NO_RECORD  # judged first (the test client sends no moves)
    assert SolveReview.objects.filter(solve=solve).exists()
    assert RatingChange.objects.filter(solve__daily=day).exists()  # the day's clean solves are rated
    assert follow_up_solve(solve.pk) is True  # again, as a second delivery would: harmless
    assert SolveReview.objects.filter(solve=solve).count() == 1
    assert follow_up_solve(10**9) is False  # a solve gone: nothing to review, the ratings still caught up


def test_a_ranked_players_results_below_the_top_ask_a_few_questions(day, django_assert_max_num_queries):
    make_solve(day, "slow", 900, solved_at=timezone.now() - datetime.timedelta(minutes=30))
    player = Client()
    log_in(player, "slow")
    address = f"/daily/{day.date.isoformat()}/easy/results/"
    player.get(address, **NAVIGATION)
    # The solve with its review, the player's recent solves, the board's fingerprint (the board
    # places the solve) and the player's rating (the "new" mark on their own row), in one.
    with django_assert_max_num_queries(1 + session_reads()):
        page = player.get(address, **NAVIGATION).content.decode()
    assert "Rank 26 of 26." in page and page.count("(you)") == 1
    new = '<span class="results-new">new'
    assert f"slow {new}" in page  # no rating yet: new
    make_established(User.objects.get(username="slow"))
    with django_assert_max_num_queries(1 + session_reads()):
        page = player.get(address, **NAVIGATION).content.decode()
    assert f"slow {new}" not in page and 'slow <span class="results-you">(you)</span>' in page  # established
