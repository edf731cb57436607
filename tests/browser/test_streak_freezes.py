"""The streak freezes in a real browser: on /stats/ and the home page of a player with one saved and
a day covered, axe finds nothing in any look, the figure is named and fits a phone, and saved and
empty places differ in shape (a snowflake in a solid ring, a dashed ring), not in colour alone."""

from __future__ import annotations

import datetime
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from puzzles.models import site_today
from tests.browser.axe import assert_accessible
from tests.browser.pages import LOOKS, assert_fits, log_in
from tests.factories import make_daily, make_solve

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ONE_DAY = datetime.timedelta(days=1)


@pytest.fixture(params=LOOKS)
def look(request) -> str:
    return request.param


@pytest.fixture
def grace(db) -> User:
    """Fourteen days played (two freezes earned), the day before yesterday missed (one spent),
    yesterday played: a streak of 15 with one freeze saved, today still to play."""
    today = site_today()
    played = [today - n * ONE_DAY for n in range(3, 17)] + [today - ONE_DAY]
    for day in played:
        noon = timezone.make_aware(datetime.datetime.combine(day, datetime.time(12)))
        make_solve(make_daily(day), "grace", 250, solved_at=noon)
    return User.objects.get(username="grace")


@pytest.fixture
def browse(chromium, live_server, look) -> Callable:
    contexts = []

    def open_page(path: str, user: User):
        context = chromium.new_context(**LOOKS[look])
        contexts.append(context)
        log_in(context, live_server.url, user)
        page = context.new_page()
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
        return page

    yield open_page
    for context in contexts:
        context.close()


def test_stats_show_the_saved_freeze_and_the_covered_day_accessibly(browse, look, grace):
    page = browse("/stats/", grace)
    figure = page.get_by_role("img", name="1 of 2 streak freezes saved")
    assert figure.is_visible()
    # A saved place draws a snowflake; an empty one only its dashed ring.
    assert figure.locator("g").count() == 2
    assert figure.locator("g").nth(0).locator("path").count() == 1
    assert figure.locator("g").nth(1).locator("path").count() == 0
    assert figure.locator("g").nth(1).locator("circle").get_attribute("stroke-dasharray")
    assert page.locator(".streaks dd").first.inner_text() == "15 days"
    covered = (site_today() - 2 * ONE_DAY).isoformat()
    assert (
        page.get_by_role("list", name="Day covered by a freeze in this streak:")
        .locator(f"time[datetime='{covered}']")
        .count()
        == 1
    )
    assert (
        "1 streak freeze saved: a missed day won't break your streak." in page.locator(".streak-freezes").inner_text()
    )
    assert_fits(page, f"stats, {look}")
    assert_accessible(page, f"stats with a freeze, {look}")


def test_the_home_record_says_what_the_saved_freeze_does_accessibly(browse, look, grace, todays_easy):
    page = browse("/", grace)
    line = page.locator(".home-freezes")
    assert line.is_visible()
    assert "1 streak freeze saved: a missed day won't break your streak." in line.inner_text()
    assert "A freeze covered" in line.inner_text()
    box = line.locator(".freeze-figure").bounding_box()
    assert box and box["width"] > box["height"] > 0  # two places side by side, drawn at the text's size
    assert_fits(page, f"home, {look}")
    assert_accessible(page, f"home with a freeze, {look}")
