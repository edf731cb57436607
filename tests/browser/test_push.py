"""The push option in a real browser: not there without VAPID keys; with them, shown, asking the
browser nothing until it is ticked (saying on load whether this browser gets the notifications),
and a refusal said plainly. (Headless Chromium cannot truly
subscribe: tests/test_push.py sends through a local push service, tests/js/push.test.mjs covers
the grant.)"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from puzzles.accounts.push import new_vapid_keys
from puzzles.models import PushSubscription, Reminder
from tests.browser.axe import assert_accessible
from tests.browser.pages import LOOKS, log_in

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Counts the permission requests, and refuses them, as a player clicking "Block" would.
REFUSING = """
window.__asked = 0;
Notification.requestPermission = async () => { window.__asked += 1; return "denied"; };
"""


@pytest.mark.parametrize("look", list(LOOKS))
def test_the_push_option_asks_nothing_until_ticked_and_says_a_refusal_plainly(chromium, live_server, settings, look):
    ada = User.objects.create_user("ada", "ada@example.com")
    context = chromium.new_context(service_workers="allow", **LOOKS[look])
    try:
        log_in(context, live_server.url, ada)
        context.add_init_script(REFUSING)
        page = context.new_page()
        page.goto(live_server.url + "/account/reminders/")
        assert page.locator("#push-channel").count() == 0  # no keys: not offered

        settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = new_vapid_keys()
        page.goto(live_server.url + "/account/reminders/")
        page.wait_for_selector("#push-channel", state="visible")
        page.wait_for_load_state("load")
        assert page.evaluate("window.__asked") == 0
        assert_accessible(page, f"reminder settings with the push option, {look}")

        # Notifications on for the account, none for this browser: the page says so, asking nothing.
        Reminder.objects.create(user=ada, push=True, hour=8, time_zone="UTC")
        page.reload()
        page.wait_for_selector("#push-status:has-text('no notifications yet')")
        assert page.is_checked("#id_push") and page.evaluate("window.__asked") == 0
        page.focus("#id_push")
        page.keyboard.press("Space")  # unticked: this browser is forgotten, nothing asked
        page.wait_for_selector("#push-status:has-text('no more notifications')")
        assert page.evaluate("window.__asked") == 0
        page.keyboard.press("Space")  # ticked: now the browser is asked, and refuses
        page.wait_for_selector("#push-status:has-text('blocked')")
        assert page.evaluate("window.__asked") == 1
        assert not page.is_checked("#id_push")
        assert page.evaluate("document.activeElement.id") == "id_push"
        assert_accessible(page, f"reminder settings after a refusal, {look}")
    finally:
        context.close()
    assert not PushSubscription.objects.exists()
