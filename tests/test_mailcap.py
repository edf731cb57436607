"""Mail no one can aim at a stranger (puzzles/accounts/mailcap.py, adapter.py): nothing for a reset
to an unknown address, one cap per recipient over every mail the site sends (resets,
verifications, reminders), and every link in a mail on SITE_URL whatever the request's Host."""

from __future__ import annotations

import datetime
import logging
import re

import pytest
import time_machine
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from puzzles.accounts.mailcap import mailbox, mailbox_id
from puzzles.models import Reminder, ReminderSent

from .test_accounts import PASSWORD, sign_up
from .test_reminders import NOW, make_dailies, send_at

pytestmark = pytest.mark.django_db

SITE = "https://sudoku.example"
# Midnight UTC on 26 November 2025: the hours below stay inside one day's count.
MIDNIGHT = datetime.datetime(2025, 11, 26, tzinfo=datetime.UTC)


@pytest.fixture(autouse=True)
def site(settings):
    settings.SITE_URL = SITE
    settings.TIME_ZONE = "UTC"


def make_ada(*, verified: bool = True) -> User:
    user = User.objects.create_user("ada", "ada@example.com", password=PASSWORD)
    EmailAddress.objects.create(user=user, email="ada@example.com", primary=True, verified=verified)
    return user


def reset(email: str, client: Client | None = None, **extra: str):
    return (client or Client()).post("/accounts/password/reset/", {"email": email}, **extra)


def sent_to(address: str) -> int:
    return sum(1 for message in mail.outbox if [a.lower() for a in message.to] == [address])


def test_a_reset_for_an_unknown_address_sends_nothing_and_answers_as_for_a_known_one():
    make_ada()
    known, unknown = reset("ada@example.com"), reset("nobody@example.com")
    assert [m.to for m in mail.outbox] == [["ada@example.com"]]
    assert (
        (known.status_code, known["Location"])
        == (unknown.status_code, unknown["Location"])
        == (
            302,
            "/accounts/password/reset/done/",
        )
    )
    assert Client().get(known["Location"]).content == Client().get(unknown["Location"]).content


def test_the_fourth_mail_in_an_hour_to_one_address_is_not_sent_whatever_its_kind(caplog):
    make_dailies(NOW.date())
    ada = make_ada()
    Reminder.objects.create(user=ada, email=True, hour=8, time_zone="UTC")
    with time_machine.travel(NOW - datetime.timedelta(minutes=20), tick=False):
        assert reset("ada@example.com").status_code == 302  # 1: a reset
        # 2 and 3: verification mails, to the same mailbox however it is spelled.
        assert sign_up(Client(), "ada2", "ADA@example.com").status_code == 302
        assert sign_up(Client(), "ada3", "ada+sudoku@example.com").status_code == 302
        assert len(mail.outbox) == 3
        capped = reset("Ada@Example.com")  # 4: another reset, not sent, and the page says nothing
        assert (capped.status_code, capped["Location"]) == (302, "/accounts/password/reset/done/")
        assert len(mail.outbox) == 3
    caplog.set_level(logging.INFO)
    report = send_at(NOW)  # 4 again: the day's reminder, skipped; the run goes on
    assert len(mail.outbox) == 3 and (report.sent, report.capped) == (0, 1)
    assert "ada@example.com" not in caplog.text.lower() and "not sent" in caplog.text
    # The day's claim is kept: a later run, the hour past, does not send it after all.
    assert ReminderSent.objects.filter(user=ada).count() == 1
    assert send_at(NOW + datetime.timedelta(hours=2)).sent == 0 and len(mail.outbox) == 3


def test_a_reminder_over_its_cap_is_skipped_and_the_others_still_go():
    make_dailies(NOW.date())
    for name in ("ada", "bob"):
        user = User.objects.create_user(name, f"{name}@example.com")
        EmailAddress.objects.create(user=user, email=f"{name}@example.com", primary=True, verified=True)
        Reminder.objects.create(user=user, email=True, hour=8, time_zone="UTC")
    with time_machine.travel(NOW - datetime.timedelta(minutes=5), tick=False):
        for _ in range(3):
            reset("ada@example.com")
    mail.outbox.clear()
    report = send_at(NOW)
    assert (report.sent, report.capped, report.failed) == (1, 1, 0)
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]


def test_an_address_added_and_sent_its_link_again_and_again_gets_three_mails_an_hour():
    client = Client()
    client.force_login(make_ada())
    start = MIDNIGHT + datetime.timedelta(hours=5)
    with time_machine.travel(start, tick=False):
        client.post("/accounts/email/", {"action_add": "", "email": "victim@example.com"})
    for n in range(1, 12):  # allauth's own limit lets one through every 3 minutes
        with time_machine.travel(start + datetime.timedelta(minutes=5 * n), tick=False):
            client.post("/accounts/email/", {"action_send": "", "email": "victim@example.com"})
    assert sent_to("victim@example.com") == 3


def test_an_address_counts_as_its_mailbox():
    assert mailbox(" Ada+Sudoku@Example.COM ") == mailbox("ada@example.com") == "ada@example.com"
    assert mailbox("A.Da+x@googlemail.com") == mailbox("ada@gmail.com") == "ada@gmail.com"
    assert mailbox("a.da@example.com") != mailbox("ada@example.com")  # dots matter elsewhere
    assert mailbox_id("ADA@example.com") == mailbox_id("ada@example.com") != mailbox_id("bob@example.com")


def test_the_eleventh_mail_in_a_day_to_one_address_is_not_sent():
    make_ada()
    for hour in range(4):
        with time_machine.travel(MIDNIGHT + datetime.timedelta(hours=hour, minutes=10), tick=False):
            for _ in range(3):
                reset("ada@example.com")
            assert sent_to("ada@example.com") == min(3 * (hour + 1), 10)
    # The next day starts afresh.
    with time_machine.travel(MIDNIGHT + datetime.timedelta(days=1, minutes=10), tick=False):
        reset("ada@example.com")
    assert sent_to("ada@example.com") == 11


def test_the_caps_are_settings(settings):
    make_ada()
    settings.MAIL_CAP_PER_HOUR, settings.MAIL_CAP_PER_DAY = 1, 10
    with time_machine.travel(MIDNIGHT, tick=False):
        reset("ada@example.com")
        reset("ada@example.com")
    assert sent_to("ada@example.com") == 1
    settings.MAIL_CAP_PER_HOUR, settings.MAIL_CAP_PER_DAY = 5, 2
    with time_machine.travel(MIDNIGHT + datetime.timedelta(hours=1), tick=False):
        reset("ada@example.com")
        reset("ada@example.com")
    assert sent_to("ada@example.com") == 2  # one in the first hour, one in the second: two that day


def links_in(text: str) -> list[str]:
    return re.findall(r"https?://[^\s\"'<>]+", text)


def test_every_link_in_account_mails_is_on_the_site_address_whatever_the_host(settings):
    settings.ALLOWED_HOSTS = ["testserver", "evil.example"]
    make_ada()
    reset("ada@example.com", HTTP_HOST="evil.example")
    sign_up(Client(), "grace", "grace@example.com", HTTP_HOST="evil.example")
    assert [m.to for m in mail.outbox] == [["ada@example.com"], ["grace@example.com"]]
    for message in mail.outbox:
        bodies = [message.body, *(content for content, _ in getattr(message, "alternatives", []))]
        links = [link for body in bodies for link in links_in(body)]
        assert links and all(link == SITE or link.startswith(f"{SITE}/") for link in links), links
        assert "evil.example" not in " ".join([message.subject, *bodies])
    # The links work: the reset's opens its form, the verification's verifies.
    reset_link = links_in(mail.outbox[0].body)[0].removeprefix(SITE)
    assert Client().get(reset_link, follow=True).status_code == 200
    Client().post(links_in(mail.outbox[1].body)[0].removeprefix(SITE))
    assert EmailAddress.objects.get(email="grace@example.com").verified


def test_with_the_cache_down_a_reset_still_goes_uncounted(settings):
    from .test_cache import DEAD_REDIS, SHORT

    settings.CACHES = {
        "default": {"BACKEND": "sudokusite.cache.ForgivingRedisCache", "LOCATION": DEAD_REDIS, **SHORT},
        "local": settings.CACHES["local"],
    }
    make_ada()
    for _ in range(4):
        assert reset("ada@example.com").status_code == 302
    assert sent_to("ada@example.com") == 4  # no count to hold them: a cap that fails stays open
