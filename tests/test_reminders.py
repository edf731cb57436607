"""Reminders: the settings page, who is due at which hour in their own zone, the mail (through a
real SMTP conversation), one-click unsubscribe, and exactly once under two workers."""

from __future__ import annotations

import datetime
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest
import time_machine
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.core import mail, signing
from django.core.mail.backends.base import BaseEmailBackend
from django.test import Client

from puzzles.accounts import reminder_mail, reminders
from puzzles.accounts.guests import guest_create
from puzzles.models import TIER_ORDER, Attempt, Reminder, ReminderSent
from puzzles.pipeline import tasks
from sudokusite.settings import CELERY_BEAT_SCHEDULE, email_settings

from .concurrency import at_once, raised
from .factories import log_in, make_daily, make_solve
from .test_accounts import Mailbox, free_port

UTC = datetime.UTC
# 19:30 UTC on 10 March 2026: 08:30 on the 11th in Auckland (NZDT, +13), 12:30 on the 10th in Los
# Angeles (PDT since 8 March, -7). The site's zone is UTC: its day, the dailies', is the 10th.
NOW = datetime.datetime(2026, 3, 10, 19, 30, tzinfo=UTC)
SITE_DAY = datetime.date(2026, 3, 10)


@pytest.fixture(autouse=True)
def site_zone(settings):
    settings.TIME_ZONE = "UTC"
    settings.SITE_URL = "https://sudoku.example"


def make_reader(name: str, zone: str = "UTC", hour: int = 8, *, verified: bool = True, email: bool = True) -> User:
    """A player with reminders by email at `hour` in `zone`, and an address (verified or not)."""
    user = User.objects.create_user(name, f"{name}@example.com")
    EmailAddress.objects.create(user=user, email=f"{name}@example.com", verified=verified, primary=True)
    Reminder.objects.create(user=user, email=email, hour=hour, time_zone=zone)
    return user


def make_dailies(day: datetime.date = SITE_DAY) -> list:
    return [make_daily(day, tier) for tier in TIER_ORDER]


def send_at(moment: datetime.datetime, **options) -> reminders.RunReport:
    with time_machine.travel(moment, tick=False):
        return reminders.reminders_send(**options)


def recipients() -> list[str]:
    return sorted(address for message in mail.outbox for address in message.to)


# --- the unsubscribe token ----------------------------------------------------------------------


def test_an_unsubscribe_token_names_its_user_and_nothing_else_passes_for_one():
    token = reminder_mail.unsubscribe_token(42)
    assert reminder_mail.user_of_token(token) == 42
    for bad in (
        token[:-2] + ("AA" if not token.endswith("AA") else "BB"),  # tampered
        "not-a-token",
        signing.dumps({"user": 42, "list": "reminders"}),  # right data, no salt of its own
        signing.dumps({"user": 42, "list": "news"}, salt=reminder_mail.UNSUBSCRIBE_SALT),  # another list
        signing.dumps({"user": "42", "list": "reminders"}, salt=reminder_mail.UNSUBSCRIBE_SALT),
    ):
        with pytest.raises(reminder_mail.BadToken):
            reminder_mail.user_of_token(bad)


def test_an_unsubscribe_token_goes_stale():
    with time_machine.travel(NOW, tick=False):
        token = reminder_mail.unsubscribe_token(7)
    later = NOW + reminder_mail.UNSUBSCRIBE_MAX_AGE + datetime.timedelta(days=1)
    with time_machine.travel(later, tick=False), pytest.raises(reminder_mail.BadToken, match="too old"):
        reminder_mail.user_of_token(token)


# --- who is due ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_each_player_is_reminded_once_their_own_hour_has_come_on_their_own_day():
    make_dailies()
    make_reader("kiri", "Pacific/Auckland", hour=8)  # 08:30 there: due
    make_reader("tama", "Pacific/Auckland", hour=9)  # not yet
    make_reader("lou", "America/Los_Angeles", hour=12)  # 12:30 there: due
    make_reader("rae", "America/Los_Angeles", hour=13)  # not yet
    make_reader("uma", "UTC", hour=0)  # since midnight: due

    assert send_at(NOW).sent == 3
    assert recipients() == ["kiri@example.com", "lou@example.com", "uma@example.com"]
    claims = dict(ReminderSent.objects.values_list("user__username", "day"))
    assert claims == {
        "kiri": datetime.date(2026, 3, 11),  # Auckland is already on the 11th
        "lou": datetime.date(2026, 3, 10),
        "uma": datetime.date(2026, 3, 10),
    }

    # Half an hour later both 09:00 and 13:00 have come; nobody is reminded twice.
    mail.outbox.clear()
    assert send_at(NOW + datetime.timedelta(minutes=30)).sent == 2
    assert recipients() == ["rae@example.com", "tama@example.com"]
    mail.outbox.clear()
    assert send_at(NOW + datetime.timedelta(minutes=45)).sent == 0


@pytest.mark.django_db
def test_a_new_local_day_makes_a_player_due_again_at_their_hour():
    make_dailies()
    make_dailies(SITE_DAY + datetime.timedelta(days=1))
    make_reader("kiri", "Pacific/Auckland", hour=8)
    make_reader("lou", "America/Los_Angeles", hour=12)
    assert send_at(NOW).sent == 2
    # 11:00 UTC on the 11th: 00:00 on the 12th in Auckland (a new day, but 08:00 is hours away),
    # 04:00 on the 11th in Los Angeles (a new day, not yet noon).
    mail.outbox.clear()
    assert send_at(datetime.datetime(2026, 3, 11, 11, 0, tzinfo=UTC)).sent == 0
    # A day after the first run: both hours have come again, each on its own next day.
    assert send_at(NOW + datetime.timedelta(days=1)).sent == 2
    days = sorted(ReminderSent.objects.filter(user__username="kiri").values_list("day", flat=True))
    assert days == [datetime.date(2026, 3, 11), datetime.date(2026, 3, 12)]


@pytest.mark.django_db
def test_nobody_is_reminded_who_is_off_unverified_a_guest_inactive_or_has_played_today():
    dailies = make_dailies()
    make_reader("off", email=False)
    make_reader("unverified", verified=False)
    played = make_reader("played")
    Attempt.objects.create(user=played, daily=dailies[2])
    User.objects.filter(pk=make_reader("gone").pk).update(is_active=False)
    guest = guest_create()
    EmailAddress.objects.create(user=guest, email="guest@example.com", verified=True, primary=True)
    Reminder.objects.create(user=guest, email=True, hour=0, time_zone="UTC")
    make_reader("due")

    assert send_at(NOW).sent == 1
    assert recipients() == ["due@example.com"]
    # Only the player reminded holds a claim: the others stay free to be reminded once they qualify.
    assert list(ReminderSent.objects.values_list("user__username", flat=True)) == ["due"]


@pytest.mark.django_db
def test_a_player_who_played_yesterday_only_is_still_reminded():
    yesterday = make_dailies(SITE_DAY - datetime.timedelta(days=1))
    make_dailies()
    ada = make_reader("ada")
    Attempt.objects.create(user=ada, daily=yesterday[0])
    assert send_at(NOW).sent == 1


@pytest.mark.django_db
def test_without_todays_puzzles_nobody_is_reminded_or_claimed():
    make_reader("ada")
    assert send_at(NOW).sent == 0
    assert mail.outbox == [] and not ReminderSent.objects.exists()


@pytest.mark.django_db
def test_a_zone_no_longer_known_is_skipped_and_the_others_still_go(caplog):
    make_dailies()
    make_reader("ada")
    Reminder.objects.filter(user__username="ada").update(time_zone="Mars/Olympus_Mons")
    make_reader("bob")
    assert send_at(NOW).sent == 1 and recipients() == ["bob@example.com"]
    assert "Mars/Olympus_Mons" in caplog.text


class RefusingBackend(BaseEmailBackend):
    """A mail server that refuses every message."""

    def send_messages(self, email_messages):
        raise ConnectionRefusedError("refused")


@pytest.mark.django_db
def test_a_send_that_fails_is_logged_marked_and_not_retried_that_day(settings, caplog):
    make_dailies()
    make_reader("ada")
    settings.EMAIL_BACKEND = "tests.test_reminders.RefusingBackend"
    report = send_at(NOW)
    assert (report.sent, report.failed) == (0, 1)
    assert "was not sent" in caplog.text
    assert ReminderSent.objects.get().failed
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert send_at(NOW + datetime.timedelta(minutes=20)).sent == 0 and mail.outbox == []


class RefusingAfter(BaseEmailBackend):
    """A mail server that takes the first `taken` messages and refuses the rest with `error`."""

    taken = 0
    error: type[BaseException] = ConnectionRefusedError
    got: list = []

    def send_messages(self, email_messages):
        if len(RefusingAfter.got) >= RefusingAfter.taken:
            raise RefusingAfter.error("refused")
        RefusingAfter.got.extend(email_messages)
        return len(email_messages)


@pytest.mark.django_db
def test_a_server_refusing_several_in_a_row_stops_the_run_and_leaves_the_untried_due(settings, monkeypatch):
    make_dailies()
    for n in range(6):
        make_reader(f"p{n}")
    settings.EMAIL_BACKEND = "tests.test_reminders.RefusingAfter"
    monkeypatch.setattr(RefusingAfter, "got", [])
    monkeypatch.setattr(RefusingAfter, "taken", 1)
    report = send_at(NOW, batch=10)
    # p0 went; p1-p3 were refused (marked, not retried); p4 and p5 were never tried.
    assert (report.sent, report.failed, report.stopped) == (1, 3, True)
    claims = dict(ReminderSent.objects.values_list("user__username", "failed"))
    assert claims == {"p0": False, "p1": True, "p2": True, "p3": True}
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert send_at(NOW + datetime.timedelta(minutes=5)).sent == 2
    assert recipients() == ["p4@example.com", "p5@example.com"]


@pytest.mark.django_db
def test_the_soft_time_limit_leaves_the_untried_due_and_ends_the_task(settings, monkeypatch):
    from celery.exceptions import SoftTimeLimitExceeded

    make_dailies()
    for n in range(4):
        make_reader(f"p{n}")
    settings.EMAIL_BACKEND = "tests.test_reminders.RefusingAfter"
    monkeypatch.setattr(RefusingAfter, "got", [])
    monkeypatch.setattr(RefusingAfter, "taken", 2)
    monkeypatch.setattr(RefusingAfter, "error", SoftTimeLimitExceeded)
    with pytest.raises(SoftTimeLimitExceeded):
        send_at(NOW, batch=10)
    # p0 and p1 went; p2's message was cut short (perhaps sent: kept, so never twice); p3 is due again.
    claims = dict(ReminderSent.objects.values_list("user__username", "failed"))
    assert claims == {"p0": False, "p1": False, "p2": True}


@pytest.mark.integration
@pytest.mark.django_db
def test_when_the_mail_server_is_down_nobody_is_claimed_and_the_next_run_sends(settings):
    make_dailies()
    make_reader("ada")
    for name, value in email_settings(f"smtp://127.0.0.1:{free_port()}").items():  # nobody listens
        setattr(settings, name, value)
    report = send_at(NOW)
    assert (report.sent, report.stopped) == (0, True) and not ReminderSent.objects.exists()
    mailbox, controller = smtp_server(settings)
    try:
        assert send_at(NOW + datetime.timedelta(minutes=5)).sent == 1
    finally:
        controller.stop()
    assert len(mailbox.messages) == 1


@pytest.mark.django_db
def test_many_due_players_go_in_bounded_batches():
    make_dailies()
    for n in range(7):
        make_reader(f"p{n}")
    report = send_at(NOW, batch=3)
    assert (report.sent, report.batches) == (7, 3)
    assert len(set(recipients())) == 7


def test_the_task_runs_each_hour_on_the_hour():
    entry = CELERY_BEAT_SCHEDULE["send-reminders"]
    assert entry["task"] == tasks.send_reminders.name == "puzzles.tasks.send_reminders"
    assert entry["schedule"].minute == {0} and len(entry["schedule"].hour) == 24


@pytest.mark.django_db
def test_the_task_sends_and_reports():
    make_dailies()
    make_reader("ada")
    with time_machine.travel(NOW, tick=False):
        assert tasks.send_reminders() == {
            "sent": 1,
            "failed": 0,
            "batches": 1,
            "stopped": False,
            "pushed": 0,
            "push_failed": 0,
            "push_gone": 0,
            "capped": 0,
        }


# --- the mail, through a real SMTP conversation -------------------------------------------------


def smtp_server(settings):
    mailbox, port = Mailbox(), free_port()
    from aiosmtpd.controller import Controller

    controller = Controller(mailbox, hostname="127.0.0.1", port=port)
    controller.start()
    for name, value in email_settings(f"smtp://127.0.0.1:{port}").items():
        setattr(settings, name, value)
    return mailbox, controller


def parsed(raw: bytes) -> EmailMessage:
    return message_from_bytes(raw, policy=policy.default)  # type: ignore[return-value]


@pytest.mark.integration
@pytest.mark.django_db
def test_the_reminder_arrives_once_plain_and_html_and_its_one_click_unsubscribe_works(settings):
    dailies = make_dailies()
    ada = make_reader("ada", "Europe/Paris", hour=20)
    for days_ago in (1, 2):  # a streak of two days, today not yet played
        day = SITE_DAY - datetime.timedelta(days=days_ago)
        make_solve(make_daily(day), "ada", 300, solved_at=datetime.datetime.combine(day, datetime.time(12), UTC))
    mailbox, controller = smtp_server(settings)
    try:
        assert send_at(NOW).sent == 1  # 20:30 in Paris
        assert send_at(NOW + datetime.timedelta(minutes=10)).sent == 0  # run again: nothing
    finally:
        controller.stop()

    (raw,) = mailbox.messages
    message = parsed(raw)
    assert message["To"] == "ada@example.com" and message["From"] == settings.DEFAULT_FROM_EMAIL
    assert "2-day streak" in message["Subject"]
    stop_url = message["List-Unsubscribe"].strip().removeprefix("<").removesuffix(">")  # folded: a long line
    assert stop_url.startswith("https://sudoku.example/reminders/stop/")
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    plain = message.get_body(("plain",)).get_content()
    html = message.get_body(("html",)).get_content()
    for body in (plain, html):
        assert "2 days" in body and stop_url in body
        for daily in dailies:
            assert f"https://sudoku.example/daily/2026-03-10/{daily.difficulty}/" in body
            assert daily.puzzle.solution not in body and daily.puzzle.givens not in body
    assert [d.difficulty.capitalize() in plain for d in dailies] == [True] * 5

    # The link's GET shows a button and changes nothing; the provider's POST (no cookie, no CSRF
    # token, RFC 8058's body) turns the reminders off.
    path = stop_url.removeprefix(settings.SITE_URL)
    browser = Client(enforce_csrf_checks=True)
    with time_machine.travel(NOW + datetime.timedelta(hours=1), tick=False):  # the link is fresh
        page = browser.get(path)
        assert page.status_code == 200 and b"Stop the reminders" in page.content
        assert Reminder.objects.get(user=ada).email
        done = browser.post(path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded")
        assert done.status_code == 200 and b"Reminders stopped" in done.content
        assert not Reminder.objects.get(user=ada).email
        assert browser.post(path).status_code == 200  # twice is harmless

    # The next day, nothing goes.
    make_dailies(SITE_DAY + datetime.timedelta(days=1))
    mailbox, controller = smtp_server(settings)
    try:
        assert send_at(NOW + datetime.timedelta(days=1)).sent == 0
    finally:
        controller.stop()
    assert mailbox.messages == []


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["get", "post"])
def test_a_tampered_or_stale_unsubscribe_link_is_a_clear_400_and_changes_nothing(client, method):
    ada = make_reader("ada")
    token = reminder_mail.unsubscribe_token(ada.pk)
    tampered = token[:-3] + ("xyz" if not token.endswith("xyz") else "abc")
    for path in (f"/reminders/stop/{tampered}/", "/reminders/stop/%FF%FE/", f"/reminders/stop/{'a' * 3000}/"):
        response = getattr(client, method)(path)
        assert response.status_code == 400 and b"This link does not work" in response.content
    with time_machine.travel(datetime.datetime.now(UTC) + datetime.timedelta(days=400), tick=False):
        stale = getattr(client, method)(f"/reminders/stop/{token}/")
    assert stale.status_code == 400 and b"too old" in stale.content
    assert Reminder.objects.get(user=ada).email


@pytest.mark.django_db
def test_the_unsubscribe_link_refuses_other_methods_and_any_body(client):
    ada = make_reader("ada")
    path = f"/reminders/stop/{reminder_mail.unsubscribe_token(ada.pk)}/"
    assert client.put(path).status_code == 405
    assert client.delete(path).status_code == 405
    assert Reminder.objects.get(user=ada).email
    assert client.post(path, b"\xff\xfe{", content_type="application/json").status_code == 200
    assert not Reminder.objects.get(user=ada).email


# --- exactly once under two workers (PostgreSQL) ------------------------------------------------


@pytest.mark.postgres
@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_send_each_due_reminder_exactly_once(postgres, settings):
    make_dailies()
    readers = [make_reader(f"p{n:02d}", zone) for n, zone in enumerate(["UTC", "Pacific/Auckland"] * 20)]
    due = {u.email for u in readers}  # 19:30 in UTC, 08:30 in Auckland: every one of them
    mailbox, controller = smtp_server(settings)
    reports: list[reminders.RunReport] = []
    try:
        with time_machine.travel(NOW, tick=False):
            errors = raised(at_once(*[lambda: reports.append(reminders.reminders_send(batch=4))] * 2))
    finally:
        controller.stop()
    assert not errors
    got = [parsed(raw)["To"] for raw in mailbox.messages]
    assert sorted(got) == sorted(due) and len(got) == len(set(got)) == 40
    assert sum(r.sent for r in reports) == 40
    assert ReminderSent.objects.count() == 40


# --- the settings page --------------------------------------------------------------------------


def form(email: bool = True, hour: int = 7, zone: str = "Europe/Paris", **extra) -> dict:
    data = {"hour": str(hour), "time_zone": zone, **extra}
    if email:
        data["email"] = "on"
    return data


@pytest.mark.django_db
def test_the_settings_page_starts_off_in_the_sites_zone_and_offers_the_browsers(client, settings):
    settings.TIME_ZONE = "Europe/London"
    log_in(client, "ada")
    page = client.get("/account/reminders/")
    assert page.status_code == 200 and page["Cache-Control"].startswith("max-age=0")
    form_ = page.context["form"]
    assert form_.initial == {"email": False, "push": False, "hour": 8, "time_zone": "Europe/London"}
    assert b"js/reminders.js" in page.content and b"data-guess-zone" in page.content
    # Without a verified address the page says so, with the way to add one.
    assert b"Add an address" in page.content and b'href="/accounts/email/"' in page.content


@pytest.mark.django_db
def test_a_player_with_a_verified_address_turns_reminders_on_and_off(client):
    ada = log_in(client, "ada")
    EmailAddress.objects.create(user=ada, email="ada@example.com", verified=True, primary=True)
    assert b"reminders-no-address" not in client.get("/account/reminders/").content
    response = client.post("/account/reminders/", form(hour=6, zone="America/Los_Angeles"))
    assert response.status_code == 302 and response["Location"] == "/account/reminders/"
    reminder = Reminder.objects.get(user=ada)
    assert (reminder.email, reminder.hour, reminder.time_zone) == (True, 6, "America/Los_Angeles")
    page = client.get("/account/reminders/")
    assert b"06:00, America/Los_Angeles" in page.content and b"js/reminders.js" not in page.content
    client.post("/account/reminders/", form(email=False, hour=6, zone="America/Los_Angeles"))
    assert not Reminder.objects.get(user=ada).email


@pytest.mark.django_db
def test_email_cannot_be_turned_on_without_a_verified_address(client):
    ada = log_in(client, "ada")
    EmailAddress.objects.create(user=ada, email="ada@example.com", verified=False, primary=True)
    response = client.post("/account/reminders/", form())
    assert response.status_code == 400
    assert "verified address" in response.content.decode()
    assert not Reminder.objects.exists()
    # The notice names the address waiting for its link, and how to have it sent again.
    assert "We sent a link to ada@example.com" in response.content.decode()
    # The form comes back with the zone the player chose, not replaced by the browser's guess.
    assert b"data-guess-zone" not in response.content and b"js/reminders.js" not in response.content
    assert '<option value="Europe/Paris" selected>' in response.content.decode()
    # Choosing the hour with email off is fine.
    assert client.post("/account/reminders/", form(email=False)).status_code == 302


@pytest.mark.django_db
def test_the_zone_list_offers_places_and_keeps_a_players_old_alias(client):
    ada = log_in(client, "ada")
    options = client.get("/account/reminders/").context["form"].fields["time_zone"].choices
    names = {name for name, _ in options}
    assert {"UTC", "Europe/Paris", "America/Los_Angeles", "Pacific/Auckland"} <= names
    assert not names & {"US/Eastern", "GB-Eire", "Factory", "localtime", "Etc/GMT+5"}
    # A zone saved before, even an old alias, is still offered to its player and saves again.
    Reminder.objects.create(user=ada, email=False, hour=9, time_zone="US/Eastern")
    names = {name for name, _ in client.get("/account/reminders/").context["form"].fields["time_zone"].choices}
    assert "US/Eastern" in names
    assert client.post("/account/reminders/", form(email=False, hour=9, zone="US/Eastern")).status_code == 302


@pytest.mark.django_db
@pytest.mark.parametrize(
    "data",
    [
        form(zone="Mars/Olympus_Mons"),
        form(zone="../../etc/passwd"),
        form(zone=""),
        {**form(), "hour": "24"},
        {**form(), "hour": "-1"},
        {**form(), "hour": "seven"},
        {"email": "on"},
    ],
)
def test_the_form_refuses_a_bad_hour_or_zone_with_a_clear_error(client, data):
    ada = log_in(client, "ada")
    EmailAddress.objects.create(user=ada, email="ada@example.com", verified=True, primary=True)
    response = client.post("/account/reminders/", data)
    assert response.status_code == 400 and b'role="alert"' in response.content
    assert response.context["form"].errors
    assert not Reminder.objects.exists()


@pytest.mark.django_db
def test_the_settings_form_needs_its_csrf_token(client):
    browser = Client(enforce_csrf_checks=True)
    ada = log_in(browser, "ada")
    EmailAddress.objects.create(user=ada, email="ada@example.com", verified=True, primary=True)
    assert browser.post("/account/reminders/", form()).status_code == 403
    assert not Reminder.objects.exists()


@pytest.mark.django_db
def test_guests_and_visitors_are_asked_to_sign_up(client):
    assert client.get("/account/reminders/").status_code == 302  # to the log-in page
    guest = guest_create()
    client.force_login(guest)
    page = client.get("/account/reminders/")
    assert page.status_code == 200 and b"Reminders are for players with an account" in page.content
    assert client.post("/account/reminders/", form(email=False)).status_code == 403
    assert not Reminder.objects.exists()
    assert not reminders.can_email(guest)


@pytest.mark.django_db
def test_a_player_only_ever_changes_their_own_reminder(client):
    bob = make_reader("bob", "Asia/Tokyo", hour=9)
    ada = log_in(client, "ada")
    EmailAddress.objects.create(user=ada, email="ada@example.com", verified=True, primary=True)
    response = client.post(
        f"/account/reminders/?user={bob.pk}", form(email=False, user=bob.pk, user_id=bob.pk, pk=bob.reminder.pk)
    )
    assert response.status_code == 302
    bob_reminder = Reminder.objects.get(user=bob)
    assert (bob_reminder.email, bob_reminder.hour, bob_reminder.time_zone) == (True, 9, "Asia/Tokyo")
    assert Reminder.objects.get(user=ada).email is False
    assert client.get("/account/reminders/").context["form"].initial["time_zone"] == "Europe/Paris"


@pytest.mark.django_db
def test_the_account_menu_and_the_stats_page_link_to_the_reminders(client):
    log_in(client, "ada")
    for page in ("/stats/", "/archive/"):
        assert b'href="/account/reminders/"' in client.get(page, follow=True).content


@pytest.mark.django_db
def test_the_settings_page_refuses_other_methods(client):
    log_in(client, "ada")
    assert client.put("/account/reminders/").status_code == 405


@pytest.mark.django_db
def test_a_run_reads_one_query_per_reminder_and_a_few_per_batch():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    make_dailies()
    for n in range(4):
        make_reader(f"p{n}")
    with CaptureQueriesContext(connection) as four:
        send_at(NOW, batch=2)
    ReminderSent.objects.all().delete()
    for n in range(4, 8):
        make_reader(f"p{n}")
    with CaptureQueriesContext(connection) as eight:
        send_at(NOW, batch=2)
    # Four more players: four streaks and two more batches (claim: select, insert, read back,
    # and the transaction's own statements).
    assert len(eight) - len(four) <= 4 + 2 * 6


@pytest.mark.django_db
def test_the_settings_form_answers_any_body_with_a_400_not_a_500(client):
    log_in(client, "ada")
    for body, kind in ((b'{"email": true}', "application/json"), (b"\xff\xfe\x00", "text/plain"), (b"", "")):
        assert client.post("/account/reminders/", body, content_type=kind).status_code == 400
    assert not Reminder.objects.exists()
