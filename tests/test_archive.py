"""The archive: history.py's calendar and statuses, and the /archive/ page (views/pages.py) that
shows a month of past dailies with the player's status on each."""

from __future__ import annotations

import datetime
import re

import pytest
import time_machine
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from puzzles.models import Attempt, Solve
from puzzles.results import history

from .factories import log_in, make_daily, solve_through_api

pytestmark = pytest.mark.django_db

UTC = datetime.UTC
TODAY = datetime.date(2026, 3, 18)  # a Wednesday; 1 March 2026 is a Sunday
NOON = datetime.datetime(2026, 3, 18, 12, tzinfo=UTC)


def archive(client, day: datetime.date = TODAY):
    return client.get(f"/archive/{day:%Y}/{day:%m}/")


def statuses(response) -> dict[tuple[datetime.date, str], str | None]:
    """(date, difficulty) -> the status description the page was given, for every shown daily."""
    return {
        (entry.daily.date, entry.daily.difficulty): entry.status.description if entry.status else None
        for week in response.context["weeks"]
        for cell in week
        if cell
        for entry in cell.entries
    }


@pytest.fixture
def frozen():
    with time_machine.travel(NOON, tick=False) as clock:
        yield clock


# --- the calendar (pure) ----------------------------------------------------------------------


def test_a_month_is_laid_out_in_weeks_from_monday_padded_outside_the_month():
    weeks = history.month_weeks(datetime.date(2026, 3, 1))
    assert weeks[0] == [None] * 6 + [datetime.date(2026, 3, 1)]
    assert weeks[1][0] == datetime.date(2026, 3, 2) and weeks[1][0].weekday() == 0
    assert weeks[-1] == [datetime.date(2026, 3, 30), datetime.date(2026, 3, 31)] + [None] * 5
    assert sum(day is not None for week in weeks for day in week) == 31


def test_months_that_do_not_exist_have_no_start():
    assert history.month_start(2026, 13) is None
    assert history.month_start(2026, 0) is None
    assert history.month_start(0, 1) is None
    assert history.previous_month(datetime.date(1, 1, 1)) is None
    assert history.next_month(datetime.date(2026, 12, 1)) == datetime.date(2027, 1, 1)


def test_a_status_comes_from_the_attempt_and_its_solve():
    user = User.objects.create_user("ada")
    daily = make_daily(TODAY)
    assert history.play_status(None).code == "not-started"
    attempt = Attempt.objects.create(user=user, daily=daily)
    assert history.play_status(Attempt.objects.select_related("solve").get()).code == "in-progress"
    Solve.objects.create(attempt=attempt, user=user, daily=daily, seconds=60, assisted=True, late=True)
    status = history.play_status(Attempt.objects.select_related("solve").get())
    assert status.code == "solved"
    assert status.description == "solved, with hints or checks, played late"


def test_the_calendar_leaves_out_dailies_after_today():
    today, tomorrow = make_daily(TODAY), make_daily(TODAY + datetime.timedelta(days=1))
    weeks = history.archive_weeks(datetime.date(2026, 3, 1), TODAY, [today, tomorrow], None)
    shown = [entry.daily for week in weeks for cell in week if cell for entry in cell.entries]
    assert shown == [today]


# --- the page ---------------------------------------------------------------------------------


def test_the_archive_opens_on_the_current_month_in_the_sites_time_zone(client, frozen, settings):
    assert client.get("/archive/").url == "/archive/2026/03/"
    frozen.move_to(datetime.datetime(2026, 3, 31, 12, tzinfo=UTC))
    assert client.get("/archive/").url == "/archive/2026/03/"
    settings.TIME_ZONE = "Pacific/Kiritimati"  # UTC+14: already 1 April there
    assert client.get("/archive/").url == "/archive/2026/04/"


def test_each_daily_shows_the_players_status_in_words(client, frozen):
    user = log_in(client)
    days = [TODAY - datetime.timedelta(days=n) for n in range(5)]
    untouched, opened, solved, assisted, late = (make_daily(day) for day in days)
    for daily in (opened, solved, assisted, late):
        Attempt.objects.create(user=user, daily=daily)
    for daily, flags in ((solved, {}), (assisted, {"assisted": True}), (late, {"late": True})):
        attempt = Attempt.objects.get(daily=daily)
        Solve.objects.create(attempt=attempt, user=user, daily=daily, seconds=245, **flags)

    response = archive(client)
    assert statuses(response) == {
        (untouched.date, "easy"): "not started",
        (opened.date, "easy"): "in progress",
        (solved.date, "easy"): "solved",
        (assisted.date, "easy"): "solved, with hints or checks",
        (late.date, "easy"): "solved, played late",
    }
    page = response.content.decode()
    # Not colour alone: the words are in the page for screen readers, beside a symbol.
    assert '<span class="visually-hidden">: solved, played late</span>' in page
    assert '<span class="visually-hidden">: solved, with hints or checks</span>' in page
    assert f'href="/daily/{late.date.isoformat()}/easy/"' in page


def test_each_day_lists_its_difficulties_easiest_first_with_links(client, frozen):
    for difficulty in ("extreme", "easy", "hard"):
        make_daily(TODAY - datetime.timedelta(days=1), difficulty)
    page = archive(client).content.decode()
    links = re.findall(r'href="/daily/2026-03-17/(\w+)/"', page)
    assert links == ["easy", "hard", "extreme"]


def test_the_calendar_is_a_table_with_a_caption_and_day_headers_monday_first(client, frozen):
    make_daily(TODAY)  # a month with puzzles (an empty one says why instead: test_fresh_site.py)
    page = archive(client).content.decode()
    assert "<caption" in page and "Puzzles of March 2026" in page
    headers = re.findall(r'<th scope="col"><abbr title="(\w+)">', page)
    assert headers == ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    assert 'aria-current="date"' in page


def test_anonymous_visitors_see_the_calendar_without_statuses(client, frozen):
    other = User.objects.create_user("bob")
    daily = make_daily(TODAY - datetime.timedelta(days=1))
    Attempt.objects.create(user=other, daily=daily)
    response = archive(client)
    assert response.status_code == 200
    assert statuses(response) == {(daily.date, "easy"): None}
    page = response.content.decode()
    assert "in progress" not in page and "status-icon" not in page
    assert f'href="/daily/{daily.date.isoformat()}/easy/"' in page


def test_one_player_never_sees_another_players_status(client, frozen):
    other = User.objects.create_user("bob")
    daily = make_daily(TODAY - datetime.timedelta(days=1))
    attempt = Attempt.objects.create(user=other, daily=daily)
    Solve.objects.create(attempt=attempt, user=other, daily=daily, seconds=100)
    log_in(client)
    assert statuses(archive(client)) == {(daily.date, "easy"): "not started"}


def test_future_dates_are_never_shown_even_when_published_ahead(client, frozen):
    log_in(client)
    tomorrow = make_daily(TODAY + datetime.timedelta(days=1))
    later = make_daily(datetime.date(2026, 3, 31))
    make_daily(TODAY)
    response = archive(client)
    page = response.content.decode()
    assert "/daily/2026-03-19/" not in page and "/daily/2026-03-31/" not in page
    assert "/daily/2026-03-18/easy/" in page
    assert {day for day, _ in statuses(response)} == {TODAY}
    assert tomorrow.pk and later.pk


@pytest.mark.parametrize("address", ["/archive/2026/04/", "/archive/2027/01/", "/archive/9999/12/"])
def test_a_month_after_the_current_one_is_a_friendly_404(client, frozen, address):
    make_daily(datetime.date(2026, 4, 1))
    response = client.get(address)
    assert response.status_code == 404
    assert b"No puzzle here" in response.content


@pytest.mark.parametrize(
    "address",
    [
        "/archive/2026/13/",
        "/archive/2026/00/",
        "/archive/0000/01/",
        "/archive/2026/3/",
        "/archive/26/03/",
        "/archive/2026/ab/",
    ],
)
def test_a_malformed_month_is_a_friendly_404(client, frozen, address):
    response = client.get(address)
    assert response.status_code == 404
    assert b"No puzzle here" in response.content


def test_month_links_go_back_to_the_first_puzzles_and_never_past_this_month(client, frozen):
    make_daily(datetime.date(2026, 1, 20))
    current = archive(client)
    assert current.context["next"] is None
    assert 'href="/archive/2026/02/"' in current.content.decode()
    assert 'href="/archive/2026/04/"' not in current.content.decode()
    february = client.get("/archive/2026/02/").content.decode()
    assert 'href="/archive/2026/01/"' in february and 'href="/archive/2026/03/"' in february
    january = client.get("/archive/2026/01/")
    assert january.context["previous"] is None  # nothing was published before January
    assert 'rel="prev"' not in january.content.decode()


def test_the_archive_makes_the_same_queries_for_a_busy_month_as_for_a_quiet_one(client, frozen):
    user = log_in(client)

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert archive(client).status_code == 200
        return len(queries)

    first = make_daily(datetime.date(2026, 3, 1))
    Attempt.objects.create(user=user, daily=first)
    archive(client)  # session and user now in the cache, if there is a shared one
    quiet = count()
    for n in range(2, 18):
        for difficulty in ("easy", "hard"):
            daily = make_daily(datetime.date(2026, 3, n), difficulty)
            attempt = Attempt.objects.create(user=user, daily=daily)
            if n % 2:
                Solve.objects.create(attempt=attempt, user=user, daily=daily, seconds=n * 10)
    assert count() == quiet


# --- playing late -----------------------------------------------------------------------------


def test_solving_yesterdays_daily_today_is_recorded_late_and_shown_so(client, frozen):
    log_in(client)
    yesterday = make_daily(TODAY - datetime.timedelta(days=1))
    todays = make_daily(TODAY)
    assert solve_through_api(client, yesterday, 90, clock=frozen)["solved"] is True
    assert solve_through_api(client, todays, 60, clock=frozen)["solved"] is True

    assert Solve.objects.get(daily=yesterday).late is True
    assert Solve.objects.get(daily=todays).late is False
    response = archive(client)
    assert statuses(response)[(yesterday.date, "easy")] == "solved, played late"
    assert statuses(response)[(todays.date, "easy")] == "solved"


def test_a_daily_solved_before_midnight_in_the_sites_zone_is_not_late(client, frozen, settings):
    settings.TIME_ZONE = "America/New_York"  # noon UTC on the 18th is 8 am there
    log_in(client)
    daily = make_daily(TODAY)
    frozen.move_to(datetime.datetime(2026, 3, 19, 3, 30, tzinfo=UTC))  # 23:30 on the 18th in New York
    solve_through_api(client, daily)
    assert Solve.objects.get().late is False
