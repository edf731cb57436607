"""The reminder pages in a real browser: the settings page offers the browser's own time zone, is
usable from the keyboard alone, and axe finds nothing on it or on the unsubscribe pages, in every
look (light and dark, desktop and phone)."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User

from puzzles.accounts.reminder_mail import unsubscribe_token
from puzzles.models import Reminder
from tests.browser.axe import assert_accessible
from tests.browser.pages import DESKTOP, LOOKS, log_in

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def ada(db) -> User:
    return User.objects.create_user("ada", "ada@example.com")


@pytest.mark.parametrize("look", list(LOOKS))
def test_the_reminder_pages_are_accessible_in_every_look(chromium, live_server, ada, look):
    context = chromium.new_context(**LOOKS[look])
    try:
        log_in(context, live_server.url, ada)
        page = context.new_page()
        page.goto(live_server.url + "/account/reminders/")
        assert_accessible(page, f"reminder settings without an address, {look}")
        # Turned on without a verified address: the errors, named for a screen reader.
        page.check("#id_email")
        page.click("main button[type=submit]")
        page.wait_for_selector(".field-error")
        assert_accessible(page, f"reminder settings with an error, {look}")

        token = unsubscribe_token(ada.pk)
        page.goto(f"{live_server.url}/reminders/stop/{token}/")
        assert_accessible(page, f"unsubscribe page, {look}")
        page.click("main button[type=submit]")
        page.wait_for_selector("text=Reminders stopped")
        assert_accessible(page, f"unsubscribed page, {look}")
        page.goto(f"{live_server.url}/reminders/stop/{token}x/")
        assert_accessible(page, f"unsubscribe page with a bad link, {look}")
    finally:
        context.close()


def test_the_settings_page_offers_the_browsers_zone_and_works_from_the_keyboard(chromium, live_server, ada, settings):
    settings.TIME_ZONE = "UTC"
    EmailAddress.objects.create(user=ada, email="ada@example.com", verified=True, primary=True)
    context = chromium.new_context(timezone_id="Pacific/Auckland", **DESKTOP)
    try:
        log_in(context, live_server.url, ada)
        page = context.new_page()
        page.goto(live_server.url + "/account/reminders/")
        assert page.input_value("#id_time_zone") == "Pacific/Auckland"
        assert page.is_visible("[data-guess-zone]")

        page.focus("#id_email")
        page.keyboard.press("Space")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == "id_hour"
        page.select_option("#id_hour", "7")  # a select takes its value from the keyboard natively
        page.focus("#id_hour")
        for _ in range(3):  # the hour, the zone, then the button
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.type") == "submit":
                break
        assert page.evaluate("document.activeElement.type") == "submit"
        page.keyboard.press("Enter")
        page.wait_for_selector(".notice-success")
        assert "07:00, Pacific/Auckland" in page.inner_text(".notice-success")
    finally:
        context.close()
    reminder = Reminder.objects.get(user=ada)
    assert (reminder.email, reminder.hour, reminder.time_zone) == (True, 7, "Pacific/Auckland")
