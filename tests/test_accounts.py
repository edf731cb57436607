"""Accounts: signing up (views/accounts.py), logging in and out around the board, and the lock
after repeated wrong passwords."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from .factories import url

pytestmark = pytest.mark.django_db


# --- signing up -----------------------------------------------------------------------------


def test_signing_up_logs_in_and_returns_to_the_puzzle(client, daily):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "grace",
            "password1": "correct horse battery",
            "password2": "correct horse battery",
            "next": url(daily),
        },
    )
    assert response.status_code == 302 and response.url == url(daily)
    assert client.get(url(daily, "state")).json()["player"]["name"] == "grace"


def test_signup_applies_the_password_validators(client):
    response = client.post("/accounts/signup/", {"username": "weak", "password1": "123", "password2": "123"})
    assert response.status_code == 200
    assert not User.objects.filter(username="weak").exists()
    assert b"too short" in response.content


def test_signup_ignores_a_next_address_on_another_site(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "eve",
            "password1": "correct horse battery",
            "password2": "correct horse battery",
            "next": "https://evil.example/",
        },
    )
    assert response.url == "/"


# --- logging in and out ---------------------------------------------------------------------


def test_logging_in_from_the_puzzle_page_brings_the_player_back(client, daily):
    User.objects.create_user("ada", password="a long enough password 1")
    response = client.post(
        "/accounts/login/", {"username": "ada", "password": "a long enough password 1", "next": url(daily)}
    )
    assert response.status_code == 302 and response.url == url(daily)


def test_the_log_out_form_takes_the_token_board_js_gives_it(daily):
    # The page names nobody, so board.js puts the CSRF cookie's token in the header's log-out form.
    client = Client(enforce_csrf_checks=True)
    client.force_login(User.objects.create_user("ada", password="x"))
    client.get(url(daily, "state"))
    assert client.post("/accounts/logout/", {"csrfmiddlewaretoken": ""}).status_code == 403
    response = client.post("/accounts/logout/", {"csrfmiddlewaretoken": client.cookies["csrftoken"].value})
    assert response.status_code == 302 and client.get(url(daily, "state")).status_code == 401


def test_repeated_wrong_passwords_lock_the_login_for_a_while(client, settings):
    User.objects.create_user("ada", password="a long enough password 1")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/accounts/login/", {"username": "ada", "password": "wrong"})
    locked = client.post("/accounts/login/", {"username": "ada", "password": "a long enough password 1"})
    assert locked.status_code == 429
    assert b"Too many failed log-ins" in locked.content
