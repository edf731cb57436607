"""A fresh install in a real browser (issue 45): the empty archive says why, and an archive board
says it is late and not ranked, fitting a phone upright and on its side; axe-clean."""

from __future__ import annotations

import datetime

import pytest

from puzzles.models import site_today
from tests.browser.axe import assert_accessible
from tests.browser.pages import LOOKS, assert_fits
from tests.browser.test_board_layout import PHONE_ON_ITS_SIDE
from tests.factories import make_daily

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("look", ["light", "dark-phone"])
def test_the_empty_archive_of_a_first_start_says_why(chromium, live_server, look):
    context = chromium.new_context(**LOOKS[look])
    try:
        page = context.new_page()
        page.goto(live_server.url + "/archive/")
        assert "still being made" in page.inner_text("#archive-empty")
        assert_accessible(page, f"empty archive, {look}")
    finally:
        context.close()


@pytest.mark.parametrize("look", ["light", "dark-phone", "on its side"])
def test_an_archive_board_says_it_is_not_ranked_and_fits(chromium, live_server, look):
    daily = make_daily(site_today() - datetime.timedelta(days=2))
    context = chromium.new_context(**(PHONE_ON_ITS_SIDE if look == "on its side" else LOOKS[look]))
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/daily/{daily.date.isoformat()}/{daily.difficulty}/")
        page.wait_for_selector("#sudoku[data-ready]")
        assert page.is_visible("#sudoku-past") and "not ranked" in page.inner_text("#sudoku-title")
        assert_fits(page, f"archive board, {look}")
        if look != "on its side":
            assert_accessible(page, f"archive board, {look}")
    finally:
        context.close()


HEADER_LINKS = """() => [...document.querySelectorAll('.site-header a, .site-header button')]
  .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
  .map((e) => e.textContent.trim()).filter((t) => t && t !== 'Skip to content')"""


def test_the_board_pages_header_has_the_same_links_as_every_other_page(chromium, live_server, todays_easy):
    from django.contrib.auth.models import User

    from tests.browser.pages import log_in

    ada = User.objects.create_user("ada_header")
    context = chromium.new_context(viewport={"width": 1400, "height": 900})
    try:
        log_in(context, live_server.url, ada)
        page = context.new_page()
        page.goto(live_server.url + "/archive/")
        elsewhere = page.evaluate(HEADER_LINKS)
        page.goto(f"{live_server.url}/daily/{todays_easy.date.isoformat()}/easy/")
        page.wait_for_selector("#sudoku[data-ready=true]")
        on_the_board = page.evaluate(HEADER_LINKS)
        assert "Reminders" in elsewhere
        assert on_the_board == elsewhere
    finally:
        context.close()
