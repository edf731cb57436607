"""The skill profile and the rating on /stats/: figures from known TechniqueUse and RatingChange
rows, the techniques not met yet with a past daily that needs each, in a few queries whatever
the number of techniques."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from puzzles.coaching.profile import skill_profile, sparkline, trend_of, weekly_medians
from puzzles.models import site_today
from puzzles.results.played import player_history

from .coaching_factory import make_rating_change, make_use
from .factories import log_in, make_daily, make_known_puzzle, make_solve

pytestmark = pytest.mark.django_db

DAY = datetime.timedelta(days=1)


def days_ago(n: int) -> datetime.datetime:
    return timezone.now() - n * DAY


def test_the_profile_counts_each_technique_and_its_median_time_easiest_first(daily):
    solve = make_solve(daily, "ada", 600)
    for seconds in (4, 6, 20):
        make_use(solve, "hidden-single", seconds)
    make_use(solve, "x-wing", 150)
    make_use(solve, "naked-pair", 40)
    make_use(solve, "naked-pair", 60)
    profile = skill_profile(solve.user)
    assert [(s.technique, s.uses, s.median) for s in profile.skills] == [
        ("hidden-single", 3, "0:06"),
        ("naked-pair", 2, "0:50"),
        ("x-wing", 1, "2:30"),
    ]
    assert {u.technique for u in profile.unmet}.isdisjoint({"hidden-single", "naked-pair", "x-wing"})
    assert profile.unmet[0].technique == "naked-single" and profile.unmet[0].about  # the easiest first, with its line


def test_a_technique_found_quicker_lately_reads_faster_and_draws_its_weeks():
    today = datetime.date(2026, 11, 26)
    times = [(today - 40 * DAY, 90.0), (today - 45 * DAY, 100.0), (today - 50 * DAY, 80.0)]
    times += [(today - 2 * DAY, 30.0), (today - 9 * DAY, 40.0), (today - 3 * DAY, 35.0)]
    assert trend_of(times, today) == "faster"
    assert trend_of(times[:4], today) == ""  # one recent find is no trend
    weeks = weekly_medians(times, today)
    assert weeks == [80.0, 100.0, 90.0, None, None, None, 40.0, 32.5]
    line = sparkline(weeks)
    assert line is not None and line.summary.endswith(": 1:20, 1:40, 1:30, 0:40, 0:32.")
    assert line.points.count(",") == 5


def test_each_unmet_technique_links_the_latest_past_daily_that_needs_it(daily):
    today = site_today()
    older = make_daily(today - 9 * DAY, "medium")
    older.puzzle.techniques = {"naked-single": 30, "pointing": 2}
    older.puzzle.save()
    newer = make_daily(today - 2 * DAY, "medium")
    newer.puzzle.techniques = {"pointing": 1}
    newer.puzzle.save()
    future = make_daily(today, "medium", make_known_puzzle(daily.puzzle.givens[::-1], daily.puzzle.solution[::-1]))
    future.puzzle.techniques = {"hidden-single": 1}
    future.puzzle.save()
    solve = make_solve(daily, "ada", 100)
    profile = skill_profile(solve.user, today)
    found = {u.technique: u.example for u in profile.unmet}
    assert found["pointing"] == newer and found["naked-single"] == older
    assert found["hidden-single"] is None  # today's puzzle is no past daily


def test_the_profile_takes_two_queries_whatever_the_number_of_techniques(daily, django_assert_num_queries):
    solve = make_solve(daily, "ada", 600)
    for name in ("hidden-single", "naked-single", "pointing", "claiming", "naked-pair", "x-wing", "xy-wing"):
        make_use(solve, name, 30)
    with django_assert_num_queries(2):
        profile = skill_profile(solve.user)
    assert len(profile.skills) == 7


def test_the_rating_history_follows_each_rated_solve_in_order(daily, django_assert_num_queries):
    first = make_daily(site_today() - 3 * DAY)
    second = make_daily(site_today() - 2 * DAY)
    make_rating_change(make_solve(second, "ada", 200, solved_at=days_ago(2)), 1580, 1500, deviation=120)
    make_rating_change(make_solve(first, "ada", 300, solved_at=days_ago(3)), 1540, 1500, deviation=200)
    make_rating_change(make_solve(daily, "ada", 250), 1620, 1500, deviation=80)
    standing = player_history(make_solve(daily, "bob", 10).user)
    assert standing is None  # no rated solve yet
    from django.contrib.auth.models import User

    ada = User.objects.get(username="ada")
    with django_assert_num_queries(2):  # the rating, and every change at once
        standing = player_history(ada)
    assert standing is not None and standing.shown == "1620 ± 80" and standing.solves == 3
    assert standing.chart is not None
    assert "from 1540 to 1620, highest 1620, lowest 1540" in standing.chart.summary
    xs = [float(point.split(",")[0]) for point in standing.chart.line.split()]
    assert xs == sorted(xs) and len(xs) == 3


def test_stats_shows_the_rating_the_techniques_and_those_not_met_yet(client, daily):
    solve = make_solve(daily, "ada", 600)
    make_use(solve, "hidden-single", 12)
    make_rating_change(solve, 1620, 1500, deviation=80)
    log_in(client, "ada")
    page = client.get("/stats/").content.decode()
    assert "1620 ± 80" in page and "rated solve" in page
    assert 'id="skill-hidden-single"' in page and "0:12" in page
    assert 'id="unmet-naked-single"' in page and "/learn/naked-single/" in page
    assert "solve a puzzle without hints or checks to get one" not in page


def test_stats_of_a_new_player_say_what_will_come(client, db):
    log_in(client, "newcomer")
    page = client.get("/stats/").content.decode()
    assert "You have no rating yet" in page and "once a solve of yours has been reviewed" in page
