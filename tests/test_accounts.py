"""Accounts on django-allauth (settings.py, puzzles/accounts.py, views/accounts.py): signing up,
logging in and out around the board, password change and reset, email change, usernames that
imitate others, and the per-address limits on everything that hashes a password."""

import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth.models import User
from django.core import mail
from django.core.exceptions import ImproperlyConfigured
from django.test import Client

from puzzles.accounts.usernames import skeleton
from sudokusite.settings import email_settings

from .factories import url

pytestmark = pytest.mark.django_db

PASSWORD = "a long enough password 1"
ROOT = Path(__file__).resolve().parent.parent


def sign_up(client: Client, username: str, email: str = "", **extra: str):
    data = {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD}
    return client.post("/accounts/signup/", data, **extra)


def log_in(client: Client, login: str, password: str = PASSWORD, **extra: str):
    return client.post("/accounts/login/", {"login": login, "password": password}, **extra)


def link_in(message: str) -> str:
    """The path of the link in a mail, which is on SITE_URL (tests/test_mailcap.py)."""
    return re.search(rf"{re.escape(settings.SITE_URL)}(/\S+)", message).group(1)


# --- signing up -----------------------------------------------------------------------------


def test_signing_up_logs_in_and_returns_to_the_puzzle(client, daily):
    response = client.post(
        "/accounts/signup/",
        {"username": "grace", "password1": PASSWORD, "password2": PASSWORD, "next": url(daily)},
    )
    assert response.status_code == 302 and response.url == url(daily)
    assert client.get(url(daily, "state")).json()["player"]["name"] == "grace"


def test_signing_up_without_an_email_records_none_and_sends_nothing(client):
    assert sign_up(client, "grace").status_code == 302
    assert User.objects.get(username="grace").email == ""
    assert not EmailAddress.objects.exists() and mail.outbox == []


def test_signing_up_with_an_email_keeps_it_unverified_and_mails_a_verification_link(client):
    assert sign_up(client, "grace", "grace@example.com").status_code == 302
    address = EmailAddress.objects.get(user__username="grace")
    assert address.email == "grace@example.com" and address.primary and not address.verified
    assert [m.to for m in mail.outbox] == [["grace@example.com"]]
    client.post(link_in(mail.outbox[0].body))  # the confirmation page's form posts to itself
    address.refresh_from_db()
    assert address.verified


def test_signup_applies_the_password_validators(client):
    response = client.post("/accounts/signup/", {"username": "weak", "password1": "123", "password2": "123"})
    assert response.status_code == 200
    assert not User.objects.filter(username="weak").exists()
    assert b"too short" in response.content


def test_a_refused_fields_input_is_described_by_its_error_before_its_help(client):
    # A screen reader reads the description in this order: what was wrong, then the rules.
    response = client.post("/accounts/signup/", {"username": "weak", "password1": "123", "password2": "123"})
    page = response.content.decode()
    password = re.search(r'<input[^>]*id="id_password1"[^>]*>', page).group(0)
    assert 'aria-describedby="id_password1_error id_password1_helptext"' in password
    assert 'id="id_password1_error"' in page and 'id="id_password1_helptext"' in page
    username = re.search(r'<input[^>]*id="id_username"[^>]*>', page).group(0)
    assert "aria-describedby" not in username or "_error" not in username  # no error, nothing to say


def test_signup_ignores_a_next_address_on_another_site(client):
    response = client.post(
        "/accounts/signup/",
        {"username": "eve", "password1": PASSWORD, "password2": PASSWORD, "next": "https://evil.example/"},
    )
    assert response.status_code == 302 and response.url == "/"


@pytest.mark.parametrize(
    "name",
    [
        "\u0430dmin",  # a Cyrillic a, then Latin
        "\uff41\uff44\uff4d\uff49\uff4e",  # fullwidth Latin letters
        "\u0251dmin",  # Latin alpha
        "a\u0064\u0301min",  # d with a combining accent
        "admin\u200b",  # a zero-width space at the end
        "adm in",
        "admin@example.com",  # would read as an email address at the log-in
    ],
)
def test_a_username_that_could_imitate_another_is_refused(client, name):
    User.objects.create_user("admin", password=PASSWORD)
    response = sign_up(client, name)
    assert response.status_code == 200
    assert User.objects.count() == 1
    assert b"a-z" in response.content or b"already exists" in response.content


def test_a_username_differing_only_in_case_is_taken(client):
    User.objects.create_user("admin", password=PASSWORD)
    response = sign_up(client, "Admin")
    assert response.status_code == 200 and User.objects.count() == 1


@pytest.mark.parametrize(
    ("taken", "name"), [("alice", "aIice"), ("alice", "a1ice"), ("Alice", "A1ice"), ("moon", "rn0on"), ("bob0", "BOBO")]
)
def test_a_username_that_reads_as_a_taken_one_is_refused(client, taken, name):
    User.objects.create_user(taken, password=PASSWORD)
    response = sign_up(client, name)
    assert response.status_code == 200 and User.objects.count() == 1
    assert f"reads too like “{taken}”" in response.content.decode()


def test_look_alike_names_share_a_skeleton_and_different_ones_do_not():
    assert skeleton("aIice") == skeleton("a1ice") == skeleton("alice") == "alice"
    assert skeleton("rn0on") == skeleton("moon") and skeleton("Ian") == skeleton("lan")
    assert len({skeleton(name) for name in ("ian", "lan", "alice", "alicia", "mo0n-2")}) == 5


def test_a_name_near_a_taken_one_but_not_alike_is_fine(client):
    User.objects.create_user("alice", password=PASSWORD)
    assert sign_up(client, "alicia").status_code == 302


def test_plain_usernames_with_dots_dashes_and_underscores_are_fine(client):
    assert sign_up(client, "Grace.Hopper_1906-x").status_code == 302


def test_a_name_taken_before_the_ascii_rule_still_logs_in(client):
    User.objects.create_user("jos\u00e9", password=PASSWORD)
    assert log_in(client, "jos\u00e9").status_code == 302


def test_sign_up_answers_alike_whether_or_not_the_email_is_registered(client):
    ada = User.objects.create_user("ada", "ada@example.com", password=PASSWORD)
    EmailAddress.objects.create(user=ada, email="ada@example.com", verified=True, primary=True)
    taken, fresh = sign_up(Client(), "mallory", "ada@example.com"), sign_up(Client(), "trent", "trent@example.com")
    assert (taken.status_code, taken["Location"]) == (fresh.status_code, fresh["Location"]) == (302, "/")
    assert b"registered" not in taken.content
    # Only the mailbox's owner can verify it, and it is verified on one account at most.
    assert list(EmailAddress.objects.filter(email="ada@example.com", verified=True).values_list("user__username")) == [
        ("ada",)
    ]


def test_a_password_reset_answers_alike_whether_or_not_the_email_is_registered(client):
    User.objects.create_user("ada", "ada@example.com", password=PASSWORD)
    known = Client().post("/accounts/password/reset/", {"email": "ada@example.com"})
    unknown = Client().post("/accounts/password/reset/", {"email": "nobody@example.com"})
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])


# --- logging in and out ---------------------------------------------------------------------


def test_logging_in_from_the_puzzle_page_brings_the_player_back(client, daily):
    User.objects.create_user("ada", password=PASSWORD)
    response = client.post("/accounts/login/", {"login": "ada", "password": PASSWORD, "next": url(daily)})
    assert response.status_code == 302 and response.url == url(daily)


def test_a_player_logs_in_by_email_too(client, daily):
    User.objects.create_user("ada", "ada@example.com", password=PASSWORD)
    assert log_in(client, "ada@example.com").status_code == 302
    assert client.get(url(daily, "state")).json()["player"]["name"] == "ada"


def test_a_wrong_password_is_refused_with_the_form_again(client):
    User.objects.create_user("ada", password=PASSWORD)
    response = log_in(client, "ada", "wrong")
    assert response.status_code == 200 and b"not correct" in response.content


def test_the_log_out_form_takes_the_token_board_js_gives_it(daily):
    # The page names nobody, so board.js puts the CSRF cookie's token in the header's log-out form.
    client = Client(enforce_csrf_checks=True)
    client.force_login(User.objects.create_user("ada", password="x"))
    client.get(url(daily, "state"))
    assert client.post("/accounts/logout/", {"csrfmiddlewaretoken": ""}).status_code == 403
    response = client.post("/accounts/logout/", {"csrfmiddlewaretoken": client.cookies["csrftoken"].value})
    assert response.status_code == 302 and client.get(url(daily, "state")).json()["player"] is None


def test_a_link_to_the_log_out_page_does_not_log_out(player, daily):
    assert player.get("/accounts/logout/").status_code == 200  # a page with the log-out button
    assert player.get(url(daily, "state")).status_code == 200


def test_the_account_pages_are_the_sites_own(player):
    for address in ("/accounts/password/change/", "/accounts/email/"):
        page = player.get(address).content.decode()
        assert '<header class="site-header">' in page and '<form method="post" class="form"' in page, address
        assert "style=" not in page, address


# --- password change and reset --------------------------------------------------------------


def test_a_player_changes_the_password_and_stays_logged_in(player, user, daily):
    response = player.post(
        "/accounts/password/change/",
        {"oldpassword": PASSWORD, "password1": "a brand new password 2", "password2": "a brand new password 2"},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("a brand new password 2")
    assert player.get(url(daily, "state")).status_code == 200


def change_password(client: Client, old: str, **extra: str):
    new = "a brand new password 2"
    return client.post("/accounts/password/change/", {"oldpassword": old, "password1": new, "password2": new}, **extra)


def test_a_wrong_current_password_counts_as_a_failed_log_in(player, user, settings):
    # Password changes have limits of their own; here they are out of the way.
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "change_password": "100/m/ip"}
    for _ in range(5):
        assert change_password(player, "wrong").status_code == 200
    refused = change_password(player, PASSWORD)
    assert refused.status_code == 429 and b"Too many failed login attempts" in refused.content
    user.refresh_from_db()
    assert user.check_password(PASSWORD)
    # ...and the log-in form, which counts the same failures, refuses the right password too.
    assert log_in(Client(), "ada").status_code == 429


def test_a_password_reset_by_email_in_the_test_mailbox(client):
    User.objects.create_user("ada", "ada@example.com", password=PASSWORD)
    assert client.post("/accounts/password/reset/", {"email": "ada@example.com"}).status_code == 302
    (message,) = mail.outbox
    assert message.to == ["ada@example.com"] and "ada" in message.body


class Mailbox:
    """aiosmtpd's handler: keeps each message the server accepts."""

    def __init__(self) -> None:
        self.messages: list[bytes] = []

    async def handle_DATA(self, server, session, envelope) -> str:
        self.messages.append(envelope.content)
        return "250 Message accepted for delivery"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.integration
def test_a_password_reset_mail_goes_through_a_real_smtp_server_and_its_link_works(client, settings):
    from email import message_from_bytes, policy

    from aiosmtpd.controller import Controller

    mailbox, port = Mailbox(), free_port()
    controller = Controller(mailbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        for name, value in email_settings(f"smtp://127.0.0.1:{port}").items():
            setattr(settings, name, value)
        User.objects.create_user("ada", "ada@example.com", password=PASSWORD)
        assert client.post("/accounts/password/reset/", {"email": "ada@example.com"}).status_code == 302
    finally:
        controller.stop()

    (raw,) = mailbox.messages
    message = message_from_bytes(raw, policy=policy.default)
    assert message["To"] == "ada@example.com" and message["From"] == settings.DEFAULT_FROM_EMAIL
    form = client.get(link_in(message.get_body(("plain",)).get_content()), follow=True)
    assert form.status_code == 200 and b"password1" in form.content
    new = "a brand new password 2"
    done = client.post(form.redirect_chain[-1][0], {"password1": new, "password2": new})
    assert done.status_code == 302
    assert log_in(Client(), "ada", new).status_code == 302
    assert log_in(Client(), "ada@example.com", new).status_code == 302


def test_the_email_url_names_the_mail_server():
    assert email_settings("console://") == {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    smtp = email_settings("smtp+tls://sudoku%40example.com:p%2Fss@mail.example.com:2525")
    assert smtp["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (smtp["EMAIL_HOST"], smtp["EMAIL_PORT"]) == ("mail.example.com", 2525)
    assert (smtp["EMAIL_HOST_USER"], smtp["EMAIL_HOST_PASSWORD"]) == ("sudoku@example.com", "p/ss")
    assert smtp["EMAIL_USE_TLS"] and not smtp["EMAIL_USE_SSL"]
    assert email_settings("smtps://mail.example.com")["EMAIL_PORT"] == 465
    assert email_settings("smtp://mail.example.com")["EMAIL_PORT"] == 25
    with pytest.raises(ImproperlyConfigured, match="EMAIL_URL"):
        email_settings("mailgun://key@example.com")


# --- changing the email ---------------------------------------------------------------------


def test_a_new_email_replaces_the_old_one_only_once_verified(client):
    user = User.objects.create_user("ada", "ada@example.com", password=PASSWORD)
    EmailAddress.objects.create(user=user, email="ada@example.com", primary=True, verified=True)
    client.force_login(user)
    assert client.post("/accounts/email/", {"action_add": "", "email": "ada@example.org"}).status_code == 302
    (message,) = mail.outbox
    assert message.to == ["ada@example.org"]
    user.refresh_from_db()
    assert user.email == "ada@example.com"  # not until the new address answers
    client.post(link_in(message.body))
    user.refresh_from_db()
    assert user.email == "ada@example.org"
    assert list(EmailAddress.objects.filter(user=user).values_list("email", "verified")) == [("ada@example.org", True)]


# --- limits per client address --------------------------------------------------------------


def test_repeated_wrong_passwords_for_one_account_are_refused_for_a_while(client, settings):
    User.objects.create_user("ada", password=PASSWORD)
    for _ in range(5):
        assert log_in(client, "ada", "wrong").status_code == 200
    refused = log_in(client, "ada")  # even the right password, without checking it
    assert refused.status_code == 429
    assert b"Too many failed login attempts" in refused.content


def admin_log_in(client: Client, password: str, **extra: str):
    return client.post("/admin/login/?next=/admin/", {"username": "root", "password": password}, **extra)


def test_the_admins_log_in_refuses_a_guesser_with_429s_and_then_even_the_right_password(client):
    User.objects.create_superuser("root", password=PASSWORD)
    answers = [admin_log_in(client, f"guess {n}").status_code for n in range(30)]
    assert answers[:5] == [200] * 5 and set(answers[5:]) == {429}
    assert admin_log_in(client, PASSWORD).status_code == 429
    assert client.get("/admin/").status_code == 302  # still not in


def test_the_admins_log_in_and_the_sites_count_one_accounts_failures_together(client):
    User.objects.create_superuser("root", password=PASSWORD)
    for _ in range(3):
        assert log_in(Client(), "root", "wrong").status_code == 200
    for _ in range(2):
        assert admin_log_in(Client(), "wrong").status_code == 200
    assert admin_log_in(Client(), PASSWORD).status_code == 429
    assert log_in(Client(), "root").status_code == 429


def test_admin_log_ins_are_limited_per_address_like_the_sites(settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "login": "2/m/ip"}
    User.objects.create_superuser("root", password=PASSWORD)
    for _ in range(2):
        assert admin_log_in(Client(), PASSWORD, REMOTE_ADDR="203.0.113.7").status_code == 302
    assert admin_log_in(Client(), PASSWORD, REMOTE_ADDR="203.0.113.7").status_code == 429
    assert admin_log_in(Client(), PASSWORD, REMOTE_ADDR="203.0.113.8").status_code == 302


def test_staff_log_in_at_the_admin_and_players_do_not(client):
    User.objects.create_superuser("root", password=PASSWORD)
    User.objects.create_user("ada", password=PASSWORD)
    assert admin_log_in(client, PASSWORD)["Location"] == "/admin/"
    refused = Client().post("/admin/login/", {"username": "ada", "password": PASSWORD})
    assert refused.status_code == 200 and b"staff account" in refused.content


def test_one_address_failing_across_many_accounts_is_refused(client, settings):
    for n in range(10):
        assert log_in(client, f"guess{n}", "wrong", REMOTE_ADDR="203.0.113.7").status_code == 200
    assert log_in(client, "guess10", "wrong", REMOTE_ADDR="203.0.113.7").status_code == 429
    assert log_in(client, "guess10", "wrong", REMOTE_ADDR="203.0.113.8").status_code == 200


def test_log_ins_are_limited_per_address_whether_they_succeed_or_not(client, settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "login": "3/m/ip"}
    User.objects.create_user("ada", password=PASSWORD)
    for _ in range(3):
        assert log_in(Client(), "ada", REMOTE_ADDR="203.0.113.7").status_code == 302
    assert log_in(Client(), "ada", REMOTE_ADDR="203.0.113.7").status_code == 429
    assert log_in(Client(), "ada", REMOTE_ADDR="203.0.113.8").status_code == 302


def test_sign_ups_are_limited_per_address(settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "signup": "2/m/ip"}
    assert sign_up(Client(), "one", REMOTE_ADDR="203.0.113.7").status_code == 302
    assert sign_up(Client(), "two", REMOTE_ADDR="203.0.113.7").status_code == 302
    refused = sign_up(Client(), "three", REMOTE_ADDR="203.0.113.7")
    assert refused.status_code == 429 and b"Too many attempts" in refused.content
    assert not User.objects.filter(username="three").exists()
    assert sign_up(Client(), "three", REMOTE_ADDR="203.0.113.8").status_code == 302


def test_password_changes_are_limited_per_address(settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "change_password": "2/m/ip"}
    players = []
    for name in ("ada", "bob", "cy"):
        players.append(Client())
        players[-1].force_login(User.objects.create_user(name, password=PASSWORD))
    assert change_password(players[0], "wrong", REMOTE_ADDR="203.0.113.7").status_code == 200
    assert change_password(players[1], "wrong", REMOTE_ADDR="203.0.113.7").status_code == 200
    assert change_password(players[2], PASSWORD, REMOTE_ADDR="203.0.113.7").status_code == 429
    assert change_password(players[2], PASSWORD, REMOTE_ADDR="203.0.113.8").status_code == 302


def test_password_resets_are_limited_per_address(settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "reset_password": "2/m/ip"}
    for n in range(2):
        answer = Client().post("/accounts/password/reset/", {"email": f"{n}@example.com"}, REMOTE_ADDR="203.0.113.7")
        assert answer.status_code == 302
    refused = Client().post("/accounts/password/reset/", {"email": "2@example.com"}, REMOTE_ADDR="203.0.113.7")
    assert refused.status_code == 429
    other = Client().post("/accounts/password/reset/", {"email": "2@example.com"}, REMOTE_ADDR="203.0.113.8")
    assert other.status_code == 302


# --- the client's address, with and without the proxy ---------------------------------------


def signups_refused_after_two(settings, **headers: str) -> list[int]:
    """Three sign-ups, each with the given headers and a name of its own: their statuses."""
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "signup": "2/m/ip"}
    settings.TRUSTED_PROXIES = ["10.0.0.0/24"]  # the proxies of these tests
    return [
        sign_up(Client(), f"player{n}", **{k: v.format(n=n) for k, v in headers.items()}).status_code for n in range(3)
    ]


def test_without_the_proxy_the_address_is_the_connections_and_x_forwarded_for_is_ignored(settings):
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 0
    # A client writing a new address into the header each time is still one address.
    assert signups_refused_after_two(settings, HTTP_X_FORWARDED_FOR="198.51.100.{n}") == [302, 302, 429]


def test_without_the_proxy_different_connections_are_different_clients(settings):
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 0
    assert signups_refused_after_two(settings, REMOTE_ADDR="203.0.113.{n}") == [302, 302, 302]


def test_behind_the_proxy_the_address_is_the_one_the_proxy_appended(settings):
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    # Everything arrives from the proxy's address; the proxy appends the client's own address.
    assert signups_refused_after_two(settings, REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="203.0.113.{n}") == [
        302,
        302,
        302,
    ]


def test_behind_the_proxy_an_address_the_client_wrote_itself_is_not_trusted(settings):
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    # The client sends its own X-Forwarded-For, new each time; the proxy appends the real address.
    assert signups_refused_after_two(
        settings, REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="198.51.100.{n}, 203.0.113.9"
    ) == [302, 302, 429]


def test_behind_two_proxies_the_address_is_the_one_the_outer_proxy_appended(settings):
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 2
    assert signups_refused_after_two(
        settings, REMOTE_ADDR="10.0.0.3", HTTP_X_FORWARDED_FOR="198.51.100.{n}, 203.0.113.9, 10.0.0.2"
    ) == [302, 302, 429]


def test_behind_the_proxy_a_client_that_reached_the_site_directly_is_its_own_address(settings):
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    # Not from the proxy's address: the header the client wrote, new each time, is not read.
    assert signups_refused_after_two(settings, REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR="198.51.100.{n}") == [
        302,
        302,
        429,
    ]


def test_a_request_that_skipped_a_trusted_proxy_is_refused_not_a_server_error(settings, caplog):
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 2
    settings.TRUSTED_PROXIES = ["10.0.0.0/24"]
    client = Client(raise_request_exception=False)
    # One entry where two proxies would have written two: who is asking cannot be told.
    response = sign_up(client, "player0", REMOTE_ADDR="10.0.0.3", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert response.status_code == 403
    assert not User.objects.filter(username="player0").exists()
    assert "fewer entries than TRUSTED_PROXY_COUNT" in caplog.text


@pytest.mark.parametrize(
    ("environment", "count"),
    [
        ({}, 0),  # development: no proxy
        ({"BEHIND_PROXY": "1"}, 1),
        ({"BEHIND_PROXY": "1", "TRUSTED_PROXY_COUNT": "2"}, 2),
        ({"DJANGO_DEBUG": "0", "SECRET_KEY": "x" * 50}, 1),  # production is behind the proxy
        ({"DJANGO_DEBUG": "0", "SECRET_KEY": "x" * 50, "BEHIND_PROXY": "0"}, 0),
    ],
)
def test_the_trusted_proxy_count_follows_behind_proxy(environment, count):
    import os

    clean = {k: v for k, v in os.environ.items() if k not in {"BEHIND_PROXY", "TRUSTED_PROXY_COUNT", "DJANGO_DEBUG"}}
    code = "import sudokusite.settings as s; print(s.ALLAUTH_TRUSTED_PROXY_COUNT)"
    answer = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**clean, **environment}, capture_output=True, text=True
    )
    assert answer.stdout.strip() == str(count), answer.stderr


def test_logging_in_and_out_leaves_no_message_for_the_next_page(client):
    from django.contrib.messages import get_messages

    User.objects.create_user("quiet", password="a long enough password 1")
    client.post("/accounts/login/", {"login": "quiet", "password": "a long enough password 1"})
    response = client.get("/")
    assert list(get_messages(response.wsgi_request)) == []
