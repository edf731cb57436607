"""A player's statistics: history.py's times per difficulty, completion, chart and streaks, and the
/stats/ page (views/pages.py) that shows them."""

from __future__ import annotations

import datetime
import re

import pytest
import time_machine
from django.contrib.auth.models import User

from puzzles.durations import duration_or_dash, format_duration
from puzzles.models import Attempt, Solve
from puzzles.results import chart as solve_times
from puzzles.results import history

from .factories import log_in, make_daily, solve_through_api

UTC = datetime.UTC
D = datetime.date
ONE_DAY = datetime.timedelta(days=1)


def at_noon(day: datetime.date) -> datetime.datetime:
    return datetime.datetime(day.year, day.month, day.day, 12, tzinfo=UTC)


# --- times (pure) -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0, "0:00"),
        (5, "0:05"),
        (245, "4:05"),
        (245.4, "4:05"),
        (59.6, "0:59"),
        (600, "10:00"),
        (3599.4, "59:59"),
        (3599.6, "59:59"),
        (3723, "1:02:03"),
        (36000, "10:00:00"),
        (-3, "0:00"),
    ],
)
def test_times_read_like_a_clock(seconds, text):
    assert format_duration(seconds) == text


def test_a_missing_time_is_a_dash():
    assert duration_or_dash(None) == "—"
    assert duration_or_dash(65) == "1:05"


def test_the_median_is_the_middle_time_or_the_mean_of_the_two_middle_ones():
    assert history.median([]) is None
    assert history.median([7]) == 7
    assert history.median([300, 100, 200]) == 200
    assert history.median([400, 100, 300, 200]) == 250


def test_stats_of_a_difficulty_from_known_times():
    stats = history.difficulty_stats("easy", started=5, times=[300, 240, 420, 600])
    assert (stats.solved, stats.started) == (4, 5)
    assert stats.best == 240
    assert stats.median == 360
    assert stats.mean == 390


def test_stats_of_a_difficulty_never_played_are_empty():
    stats = history.difficulty_stats("hard", started=0, times=[])
    assert stats.solved == 0 and stats.best is None and stats.median is None and stats.mean is None


# --- streaks (pure) ---------------------------------------------------------------------------


def test_only_a_puzzle_solved_on_its_own_day_counts_towards_a_streak():
    assert history.streak_day(D(2026, 3, 1), D(2026, 3, 1), late=False) == D(2026, 3, 1)
    assert history.streak_day(D(2026, 3, 1), D(2026, 3, 2), late=False) is None
    assert history.streak_day(D(2026, 3, 1), D(2026, 3, 1), late=True) is None


def test_consecutive_days_make_a_streak_and_a_gap_breaks_it():
    days = {D(2026, 3, 1), D(2026, 3, 2), D(2026, 3, 3), D(2026, 3, 5), D(2026, 3, 6)}
    assert history.streaks(days, today=D(2026, 3, 6)) == history.Streaks(current=2, best=3)


def test_the_current_streak_is_alive_until_a_whole_day_is_missed():
    days = [D(2026, 3, 1), D(2026, 3, 2)]
    assert history.streaks(days, today=D(2026, 3, 2)).current == 2  # solved today
    assert history.streaks(days, today=D(2026, 3, 3)).current == 2  # today still to play
    assert history.streaks(days, today=D(2026, 3, 4)) == history.Streaks(current=0, best=2)


def test_no_days_no_streak():
    assert history.streaks([], today=D(2026, 3, 1)) == history.Streaks(0, 0)


def test_streaks_cross_month_and_year_ends():
    days = {D(2025, 12, 31), D(2026, 1, 1), D(2026, 2, 28), D(2026, 3, 1)}
    assert history.streaks(days, today=D(2026, 3, 1)) == history.Streaks(current=2, best=2)


# --- the chart (pure) -------------------------------------------------------------------------


def test_the_chart_puts_a_point_per_solve_oldest_left_and_slower_higher():
    points = [
        solve_times.ChartPoint(D(2026, 3, 10), 600),
        solve_times.ChartPoint(D(2026, 3, 1), 120),
        solve_times.ChartPoint(D(2026, 3, 10), 240, assisted=True),
    ]
    chart = solve_times.solve_chart(points)
    assert len(chart.points) == 3
    xs = [p.x for p in chart.points]
    assert xs[0] == chart.left and xs[1] == xs[2] == chart.right
    first, *later = chart.points
    slow, quick = sorted(later, key=lambda p: p.point.seconds, reverse=True)
    assert slow.y < quick.y < first.y <= chart.bottom  # SVG's y grows downwards
    assert chart.top <= min(p.y for p in chart.points)


def test_the_chart_time_axis_starts_at_zero_with_round_clock_labels():
    chart = solve_times.solve_chart(
        [solve_times.ChartPoint(D(2026, 3, 1), 130), solve_times.ChartPoint(D(2026, 3, 5), 590)]
    )
    labels = [t.label for t in chart.y_ticks]
    assert labels == ["0:00", "2:00", "4:00", "6:00", "8:00", "10:00"]
    assert chart.y_ticks[0].position == chart.bottom and chart.y_ticks[-1].position == chart.top
    assert [t.label for t in chart.x_ticks] == ["1 Mar 2026", "3 Mar 2026", "5 Mar 2026"]


def test_a_single_solve_sits_in_the_middle_of_the_chart():
    chart = solve_times.solve_chart([solve_times.ChartPoint(D(2026, 3, 1), 3723)])
    assert chart.points[0].x == (chart.left + chart.right) / 2
    assert [t.label for t in chart.x_ticks] == ["1 Mar 2026"]
    assert [t.label for t in chart.y_ticks] == ["0:00", "15:00", "30:00", "45:00", "1:00:00", "1:15:00"]


def test_the_chart_summary_says_what_it_shows():
    points = [solve_times.ChartPoint(D(2026, 3, 1), 245), solve_times.ChartPoint(D(2026, 3, 4), 3723)]
    assert solve_times.chart_summary(points) == (
        "2 solves from 1 Mar 2026 to 4 Mar 2026; fastest 4:05, slowest 1:02:03, most recent 1:02:03."
    )


# --- the page ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_stats_page_needs_a_login(client):
    response = client.get("/stats/")
    assert response.status_code == 302
    assert response.url == "/accounts/login/?next=/stats/"


@pytest.mark.django_db
def test_the_page_shows_each_difficultys_times_and_completion(client):
    user = log_in(client)
    day = D(2026, 3, 1)
    for n, seconds in enumerate([300, 240, 420, 600]):
        daily = make_daily(day + n * ONE_DAY)
        attempt = Attempt.objects.create(user=user, daily=daily)
        Solve.objects.create(attempt=attempt, user=user, daily=daily, seconds=seconds, solved_at=at_noon(daily.date))
    Attempt.objects.create(user=user, daily=make_daily(day + 9 * ONE_DAY))  # started, never solved
    hard = make_daily(day, "hard")
    Solve.objects.create(
        attempt=Attempt.objects.create(user=user, daily=hard),
        user=user,
        daily=hard,
        seconds=3723,
        solved_at=at_noon(day + ONE_DAY),
        late=True,
        assisted=True,
    )

    response = client.get("/stats/")
    assert response.status_code == 200
    rows = {d["stats"].difficulty: d for d in response.context["difficulties"]}
    easy = rows["easy"]
    assert (easy["stats"].solved, easy["stats"].started) == (4, 5)
    assert (easy["best"], easy["median"], easy["mean"]) == ("4:00", "6:00", "6:30")
    assert rows["hard"]["best"] == "1:02:03"
    assert rows["medium"]["stats"].solved == 0 and rows["medium"]["chart"] is None

    page = response.content.decode()
    assert "4 of 5" in page and "(80%)" in page and "1:02:03" in page
    # One chart per difficulty played, described for screen readers, a mark per solve.
    assert page.count('role="img"') == 2 + 1  # and the streak freezes' figure
    assert 'aria-labelledby="chart-easy-title chart-easy-desc"' in page
    assert '<desc id="chart-easy-desc">4 solves from 1 Mar 2026 to 4 Mar 2026' in page
    start = page.index('id="chart-easy-title"')
    easy_chart = page[start : page.index("</svg>", start)]
    assert len(re.findall(r'class="point', easy_chart)) == 4
    assert "How streaks are counted" in page and "archive never count" in page


@pytest.mark.django_db
def test_the_chart_markup_is_not_localised(client, settings):
    settings.USE_THOUSAND_SEPARATOR = True
    settings.LANGUAGE_CODE = "de"
    user = log_in(client)
    daily = make_daily(D(2026, 3, 1))
    Solve.objects.create(
        attempt=Attempt.objects.create(user=user, daily=daily),
        user=user,
        daily=daily,
        seconds=100.5,
        solved_at=at_noon(daily.date),
    )
    page = client.get("/stats/").content.decode()
    for coordinate in re.findall(r' c[xy]="([^"]*)"', page):
        float(coordinate)  # a decimal comma would break the drawing


@pytest.mark.django_db
def test_one_player_never_sees_another_players_statistics(client):
    other = User.objects.create_user("bob")
    daily = make_daily(D(2026, 3, 1))
    Solve.objects.create(
        attempt=Attempt.objects.create(user=other, daily=daily),
        user=other,
        daily=daily,
        seconds=777,
        solved_at=at_noon(daily.date),
    )
    log_in(client)
    response = client.get("/stats/")
    assert all(d["stats"].started == 0 and d["chart"] is None for d in response.context["difficulties"])
    assert response.context["streaks"] == history.Streaks(0, 0)
    assert "12:57" not in response.content.decode()


# --- streaks through the site, with frozen time -----------------------------------------------


@pytest.fixture
def days():
    """Four consecutive dailies (easy and medium each day), D1 to D4."""
    first = D(2026, 3, 10)
    return [{tier: make_daily(first + n * ONE_DAY, tier) for tier in ("easy", "medium")} for n in range(4)]


def streaks_on(client, day: datetime.date, clock) -> history.Streaks:
    clock.move_to(at_noon(day))
    return client.get("/stats/").context["streaks"]


@pytest.mark.django_db
def test_streaks_follow_the_days_puzzles_are_solved_on(client, days):
    log_in(client)
    d1, d2, d3, d4 = days
    with time_machine.travel(at_noon(d1["easy"].date), tick=False) as clock:
        solve_through_api(client, d1["easy"], 100, clock=clock)
        assert streaks_on(client, d1["easy"].date, clock) == history.Streaks(1, 1)

        clock.move_to(at_noon(d2["easy"].date))
        solve_through_api(client, d2["easy"], 100, clock=clock)
        solve_through_api(client, d2["medium"], 100, clock=clock)  # a second solve that day counts once
        assert streaks_on(client, d2["easy"].date, clock) == history.Streaks(2, 2)

        # D3's puzzle solved on D4 (from the archive) does not make the streak 3 ...
        clock.move_to(at_noon(d4["easy"].date))
        solve_through_api(client, d3["easy"], 100, clock=clock)
        assert Solve.objects.get(daily=d3["easy"]).late is True
        assert streaks_on(client, d4["easy"].date, clock) == history.Streaks(0, 2)

        # ... and D4's own puzzle solved on D4 starts a new one.
        solve_through_api(client, d4["easy"], 100, clock=clock)
        assert streaks_on(client, d4["easy"].date, clock) == history.Streaks(1, 2)


@pytest.mark.django_db
def test_the_current_streak_is_alive_the_next_day_and_broken_the_day_after(client, days):
    log_in(client)
    d1, d2 = days[0]["easy"], days[1]["easy"]
    with time_machine.travel(at_noon(d1.date), tick=False) as clock:
        solve_through_api(client, d1, 100, clock=clock)
        clock.move_to(at_noon(d2.date))
        solve_through_api(client, d2, 100, clock=clock)
        assert streaks_on(client, d2.date + ONE_DAY, clock) == history.Streaks(2, 2)
        assert streaks_on(client, d2.date + 2 * ONE_DAY, clock) == history.Streaks(0, 2)


@pytest.mark.django_db
def test_a_streak_day_follows_midnight_in_the_sites_time_zone(client, days, settings):
    settings.TIME_ZONE = "Pacific/Auckland"  # UTC+13 in March
    log_in(client)
    d1, d2 = days[0]["easy"], days[1]["easy"]
    # 11:30 UTC on D1 is 00:30 on D2 in Auckland: D1's puzzle is late, D2's is on time.
    with time_machine.travel(datetime.datetime.combine(d1.date, datetime.time(11, 30), UTC), tick=False) as clock:
        solve_through_api(client, d1, 100, clock=clock)
        solve_through_api(client, d2, 100, clock=clock)
        assert Solve.objects.get(daily=d1).late is True
        assert client.get("/stats/").context["streaks"] == history.Streaks(1, 1)
        # Just before midnight at the end of D3 in Auckland, D2 was yesterday: the streak lives ...
        clock.move_to(datetime.datetime.combine(d2.date + ONE_DAY, datetime.time(10, 59), UTC))
        assert client.get("/stats/").context["streaks"].current == 1
        # ... and two minutes later it is D4 there, and the streak is broken.
        clock.move_to(datetime.datetime.combine(d2.date + ONE_DAY, datetime.time(11, 1), UTC))
        assert client.get("/stats/").context["streaks"].current == 0
