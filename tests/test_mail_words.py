"""Every mail the site sends is greeted and signed with the site's name and its address
(settings.SITE_URL), never the host a request came in on: allauth's (the site's own
templates/account/email/) and the reminders."""

from __future__ import annotations

import datetime

import pytest
from allauth.account.adapter import get_adapter
from allauth.core.context import request_context
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client, RequestFactory

from puzzles.accounts.reminder_mail import Recipient, reminder_message

from .test_accounts import PASSWORD, sign_up

pytestmark = pytest.mark.django_db

SITE = "https://sudoku.example"
HOST = "127.0.0.1:8400"  # the host a local run is reached on: no mail may name it


@pytest.fixture(autouse=True)
def site(settings):
    settings.SITE_URL = SITE


def browser() -> Client:
    return Client(HTTP_HOST=HOST)


def password_reset() -> None:
    User.objects.create_user("ada", "ada@example.com", password=PASSWORD)
    assert browser().post("/accounts/password/reset/", {"email": "ada@example.com"}).status_code == 302


def confirmation() -> None:
    assert sign_up(browser(), "grace", "grace@example.com").status_code == 302


def account_exists() -> None:
    # Sent when a sign-up gives an address an account has (allauth's enumeration guard, which the
    # site's "strict" setting leaves to the verification): asked of the adapter, as allauth does.
    request = RequestFactory(HTTP_HOST=HOST).post("/accounts/signup/")
    with request_context(request):
        get_adapter(request).send_account_already_exists_mail("ada@example.com")


@pytest.mark.parametrize("send", [password_reset, confirmation, account_exists])
def test_an_account_mail_is_greeted_and_signed_by_the_site_at_its_address(send):
    send()
    (message,) = mail.outbox
    lines = message.body.splitlines()
    assert lines[-2:] == ["Daily Sudoku", SITE]
    assert lines[0] == "Hello from Daily Sudoku,"
    assert "127.0.0.1" not in message.body and ":8400" not in message.body
    assert f"{SITE}/accounts/" in message.body  # its link, on the site's address too
    assert message.subject.startswith("[Daily Sudoku] ")


def test_each_account_mail_says_what_it_is_for_in_the_sites_words():
    confirmation()
    password_reset()
    account_exists()
    confirm, reset, exists = mail.outbox
    assert "The account grace on Daily Sudoku gave this address as its own." in confirm.body
    assert "reset the password of your account, ada." in reset.body
    assert "tried to sign up with this address, ada@example.com, but an account here has it" in exists.body
    assert [confirm.subject, reset.subject, exists.subject] == [
        "[Daily Sudoku] Confirm your email address",
        "[Daily Sudoku] Reset your password",
        "[Daily Sudoku] You have an account already",
    ]


def test_a_reminder_names_the_site_and_is_signed_with_its_address():
    message = reminder_message(
        Recipient(1, "ada", "ada@example.com", 2),
        datetime.date(2026, 3, 10),
        [{"tier": "Easy", "url": f"{SITE}/daily/2026-03-10/easy/"}],
    )
    plain = message.body
    html = message.alternatives[0][0]
    assert plain.startswith("Hello ada,\n\nToday's puzzles at Daily Sudoku are ready")
    assert f"Daily Sudoku\n{SITE}\n\n-- \n" in plain  # signed, above the reminder's own footer
    assert "Today's puzzles at Daily Sudoku are ready" in html
    assert f'Daily Sudoku<br><a href="{SITE}">{SITE}</a>' in html
