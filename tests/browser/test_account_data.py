"""A player's data in a real browser, on a desktop and on a phone: from the account page they
download their data (a JSON file with their play in it), change their name, see their devices,
read the privacy page, and delete the account; every page axe-clean, the header's name and the
footer's links there to reach it."""

from __future__ import annotations

import datetime
import json

import pytest
from django.contrib.auth.models import User

from puzzles.models import Solve
from tests.browser.axe import assert_accessible
from tests.browser.pages import LOOKS, PASSWORD, assert_fits
from tests.factories import make_daily, make_solve

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FLOW_LOOKS = ("light", "dark-phone")


def logged_in_page(chromium, base: str, look: str):
    """A browser in `look`, logged in as ada through the log-in form (so the session is one of
    the account's signed-in devices)."""
    context = chromium.new_context(accept_downloads=True, **LOOKS[look])
    page = context.new_page()
    page.goto(base + "/accounts/login/")
    page.fill("#id_login", "ada")
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(base + "/")
    return context, page


@pytest.mark.parametrize("look", FLOW_LOOKS)
def test_a_player_downloads_their_data_and_deletes_their_account(chromium, live_server, look, settings):
    ada = User.objects.create_user("ada", "ada@example.com", PASSWORD)
    daily = make_daily(datetime.date(2026, 11, 1))
    make_solve(daily, "ada", 321)
    context, page = logged_in_page(chromium, live_server.url, look)
    try:
        # The footer reaches the account page from any page.
        page.click("footer >> text=Your account")
        page.wait_for_url(live_server.url + "/account/")
        assert_accessible(page, f"account page, {look}")
        assert_fits(page, f"account page, {look}")

        with page.expect_download() as download:
            page.click("text=Download my data")
        data = json.loads(open(download.value.path(), encoding="utf-8").read())
        assert data["account"]["username"] == "ada"
        assert download.value.suggested_filename.endswith(".json")

        page.goto(live_server.url + "/privacy/")
        assert_accessible(page, f"privacy page, {look}")
        assert_fits(page, f"privacy page, {look}")
        page.goto(live_server.url + "/accounts/sessions/")
        assert page.is_visible("text=This device")
        assert_accessible(page, f"devices page, {look}")
        page.goto(live_server.url + "/account/username/")
        page.fill("#id_username", "a1da")  # reads as nobody's
        page.fill("#id_username", "ada!")
        page.click("main button[type=submit]")
        page.wait_for_selector(".field-error")
        assert_accessible(page, f"username page with an error, {look}")

        page.goto(live_server.url + "/account/")
        page.click("text=Delete my account")
        page.wait_for_url(live_server.url + "/account/delete/")
        assert_accessible(page, f"deletion page, {look}")
        page.fill("#id_password", "not my password")
        page.click("main button[type=submit]")
        page.wait_for_selector(".field-error")
        assert_accessible(page, f"deletion page with a wrong password, {look}")
        assert User.objects.filter(pk=ada.pk).exists()
        page.fill("#id_password", PASSWORD)
        page.click("main button[type=submit]")
        page.wait_for_selector("text=Your account is deleted")
        assert_accessible(page, f"deleted page, {look}")
    finally:
        context.close()
    assert not User.objects.filter(pk=ada.pk).exists() and not Solve.objects.exists()
