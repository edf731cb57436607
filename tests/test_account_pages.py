"""A player's own data (views/account.py): the account page, a new username shown at once on every
board, deleting an account or a guest's data with all of it and every session, the admin doing
the same without naming the player, and the privacy page every footer links to."""

from __future__ import annotations

import datetime
import json

import pytest
import time_machine
from allauth.account.models import EmailAddress
from allauth.usersessions.models import UserSession
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from puzzles.accounts import deletion
from puzzles.leagues import boards, membership
from puzzles.models import Attempt, League, PlayEvent, Solve, UsernameChange
from puzzles.results.leaderboard import day_board

from .factories import make_daily, make_solve, post, solve_through_api, url

pytestmark = pytest.mark.django_db

PASSWORD = "a long enough password 1"


def make_account(name: str, email: str = "") -> User:
    user = User.objects.create_user(name, email=email, password=PASSWORD)
    if email:
        EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    return user


def signed_in(name: str) -> Client:
    """A browser logged in through the site's own log-in, as a player's devices are."""
    client = Client()
    response = client.post("/accounts/login/", {"login": name, "password": PASSWORD})
    assert response.status_code == 302, response.content
    return client


def names_on(daily) -> list[str]:
    return [row.username for row, _ in day_board(daily).top]


# --- the account page -----------------------------------------------------------------------------


def test_the_account_page_is_the_players_own_and_a_visitor_is_asked_to_log_in(client):
    make_account("ada", "ada@example.com")
    assert client.get("/account/").status_code == 302
    browser = signed_in("ada")
    page = browser.get("/account/").content.decode()
    assert "ada@example.com" in page and "/account/delete/" in page and "/account/username/" in page
    assert "/account/export/" in page and "/privacy/" in page


def test_the_privacy_page_is_public_and_every_footer_links_to_it(client, daily):
    page = client.get("/privacy/")
    assert page.status_code == 200
    text = page.content.decode()
    for words in ("What we keep", "Who sees what", "How long we keep it", "Download", "Delete your account"):
        assert words in text
    for address in ("/", "/archive/", "/learn/", url(daily), "/accounts/login/"):
        assert 'href="/privacy/"' in client.get(address, follow=True).content.decode(), address


# --- a new username ---------------------------------------------------------------------------------


def test_a_new_username_shows_at_once_on_the_days_board_and_the_league_table(client, daily):
    ada = make_account("ada")
    make_solve(daily, "bob", 200)
    solve = make_solve(daily, "ada", 100)
    Solve.objects.filter(pk=solve.pk).update(unranked="")
    league = membership.league_create(ada, "Friends")
    assert names_on(daily) == ["ada", "bob"]  # now kept in the cache under its fingerprint

    browser = signed_in("ada")
    response = browser.post("/account/username/", {"username": "ada_lovelace"})
    assert response.status_code == 302 and response["Location"] == "/account/"
    ada.refresh_from_db()
    assert ada.username == "ada_lovelace" and UsernameChange.objects.filter(user=ada).count() == 1
    assert names_on(daily) == ["ada_lovelace", "bob"]
    (easy,) = [board for board in boards.league_day(league, daily.date) if board.daily == daily]
    assert [row.username for row in easy.rows] == ["ada_lovelace"]
    assert "ada_lovelace" in browser.get("/").content.decode()
    # The new name logs in; the old one is anyone's.
    assert signed_in("ada_lovelace")


def test_a_new_username_follows_the_sign_up_rules_and_its_own_look_alike_is_allowed(client):
    make_account("alice")
    make_account("bob")
    browser = signed_in("bob")
    for taken in ("alice", "ALICE", "aIice", "a1ice", "guest-abc", "bo b", "b@b", "bob"):
        response = browser.post("/account/username/", {"username": taken})
        assert response.status_code == 400, taken
    assert User.objects.get(pk=User.objects.get(username="bob").pk).username == "bob"
    assert browser.post("/account/username/", {"username": "B0b"}).status_code == 302  # reads as their own
    assert User.objects.filter(username="B0b").exists()


def test_a_username_changes_once_in_the_period(client, settings):
    settings.USERNAME_CHANGE_DAYS = 3
    ada = make_account("ada")
    browser = signed_in("ada")
    assert browser.post("/account/username/", {"username": "ada2"}).status_code == 302
    again = browser.post("/account/username/", {"username": "ada3"})
    assert again.status_code == 400 and "change it again on" in again.content.decode()
    assert "change it again on" in browser.get("/account/").content.decode()
    with time_machine.travel(timezone.now() + datetime.timedelta(days=3, minutes=1)):
        assert browser.post("/account/username/", {"username": "ada3"}).status_code == 302
    ada.refresh_from_db()
    assert ada.username == "ada3"


def test_username_tries_are_limited_per_client_address(client, settings):
    settings.USERNAME_TRIES_PER_HOUR = 3
    make_account("ada")
    make_account("alice")
    browser = signed_in("ada")
    answers = [browser.post("/account/username/", {"username": name}) for name in ("alice", "x y", "z@", "eve")]
    assert [a.status_code for a in answers] == [400, 400, 400, 429] and not User.objects.filter(username="eve").exists()
    refused = answers[-1]
    minutes = -(-int(refused["Retry-After"]) // 60)
    assert f"try again in {minutes} minute" in refused.content.decode()
    assert {"private", "no-store"} <= {part.strip() for part in refused["Cache-Control"].split(",")}


def test_the_username_page_changes_nothing_on_get_and_needs_the_csrf_token(client):
    ada = make_account("ada")
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(ada)
    assert browser.get("/account/username/?username=eve").status_code == 200
    assert browser.post("/account/username/", {"username": "eve"}).status_code == 403
    ada.refresh_from_db()
    assert ada.username == "ada" and not UsernameChange.objects.exists()


def test_a_guest_has_no_username_to_change_and_is_sent_to_sign_up(client, daily):
    assert post(client, url(daily, "save"), {"version": 0, "digits": "0" * 81}).status_code == 200
    response = client.post("/account/username/", {"username": "eve"})
    assert response.status_code == 302 and response["Location"] == "/accounts/signup/"


# --- deleting an account ------------------------------------------------------------------------------


def test_deleting_needs_the_password_and_a_wrong_one_deletes_nothing(client, daily):
    make_account("ada")
    browser = signed_in("ada")
    page = browser.get("/account/delete/")
    assert page.status_code == 200 and "cannot be undone" in page.content.decode()
    assert User.objects.filter(username="ada").exists()  # the GET changed nothing
    wrong = browser.post("/account/delete/", {"password": "not it"})
    assert wrong.status_code == 400 and User.objects.filter(username="ada").exists()


def test_deleting_an_account_takes_every_row_and_signs_out_every_device(client, daily):
    ada = make_account("ada", "ada@example.com")
    EmailAddress.objects.create(user=ada, email="ada+second@example.org", verified=False, primary=False)
    phone, laptop = signed_in("ada"), signed_in("ada")
    with time_machine.travel(timezone.now(), tick=False) as clock:
        solve_through_api(laptop, daily, 300, clock=clock)
    assert ada.username in names_on(daily) or Solve.objects.filter(user=ada).exists()
    league = membership.league_create(ada, "Friends")
    membership.league_join(league, make_account("bob"))
    assert UserSession.objects.filter(user=ada).count() == 2
    keys = set(UserSession.objects.filter(user=ada).values_list("session_key", flat=True))

    response = phone.post("/account/delete/", {"password": PASSWORD})
    assert response.status_code == 200 and "is deleted" in response.content.decode()
    assert '"storage"' in response["Clear-Site-Data"]
    assert not User.objects.filter(pk=ada.pk).exists()
    assert not Attempt.objects.filter(user_id=ada.pk).exists() and not PlayEvent.objects.exists()
    assert not Session.objects.filter(session_key__in=keys).exists()
    assert not EmailAddress.objects.exists()
    # The other device is signed out too, and the league is bob's now.
    assert laptop.get("/account/").status_code == 302
    assert League.objects.get(pk=league.pk).owner.username == "bob"
    assert "ada" not in names_on(daily)


def test_a_league_nobody_else_is_in_goes_with_its_owner(client):
    ada = make_account("ada")
    membership.league_create(ada, "Alone")
    result = deletion.player_delete(ada)
    assert result.leagues_deleted == 1 and not League.objects.exists()


def test_too_many_wrong_passwords_at_the_deletion_are_refused_as_at_the_log_in(client, settings):
    settings.DELETE_TRIES_PER_HOUR = 3
    make_account("ada")
    browser = signed_in("ada")
    statuses = [browser.post("/account/delete/", {"password": f"wrong {n}"}).status_code for n in range(4)]
    assert statuses[:3] == [400, 400, 400] and statuses[3] == 429
    assert User.objects.filter(username="ada").exists()


def test_a_guest_deletes_its_guest_data_without_a_password(client, daily):
    solve_through_api(client, daily, 120)
    (guest,) = User.objects.filter(guest__isnull=False)
    page = client.get("/account/delete/").content.decode()
    assert "Delete my guest data" in page and 'name="password"' not in page
    assert client.post("/account/delete/", {}).status_code == 200
    assert not User.objects.filter(pk=guest.pk).exists() and not Solve.objects.exists()


def test_the_admin_log_keeps_its_entries_without_the_players_name_or_address(admin_client):
    ada = make_account("ada", "ada@example.com")
    make_account("bob")
    LogEntry.objects.create(
        user=User.objects.get(username="admin"), action_flag=2, object_repr="ada solved 2026-03-18 easy in 1:40",
        change_message="Approved ada's solve (mail from ada@example.com)",
    )  # fmt: skip
    response = admin_client.post(
        "/admin/auth/user/", {"action": "delete_players", "_selected_action": [ada.pk], "confirmed": "yes"}
    )
    assert response.status_code == 302
    assert not User.objects.filter(pk=ada.pk).exists() and User.objects.filter(username="bob").exists()
    for entry in LogEntry.objects.all():
        text = f"{entry.object_repr} {entry.change_message}".lower()
        assert "ada" not in text, text
    assert LogEntry.objects.filter(object_repr=deletion.DELETED_REPR, object_id=None).count() == 1


def test_the_admin_asks_before_deleting_and_djangos_own_deletion_is_closed(admin_client):
    ada = make_account("ada")
    confirm = admin_client.post("/admin/auth/user/", {"action": "delete_players", "_selected_action": [ada.pk]})
    assert confirm.status_code == 200 and "cannot be undone" in confirm.content.decode()
    assert admin_client.get(f"/admin/auth/user/{ada.pk}/delete/").status_code in (302, 403)
    assert User.objects.filter(pk=ada.pk).exists()


def test_the_admin_downloads_one_players_data_and_the_download_is_logged(admin_client):
    ada = make_account("ada", "ada@example.com")
    bob = make_account("bob")
    both = admin_client.post("/admin/auth/user/", {"action": "export_player", "_selected_action": [ada.pk, bob.pk]})
    assert both.status_code == 302 and not LogEntry.objects.exists()
    response = admin_client.post("/admin/auth/user/", {"action": "export_player", "_selected_action": [ada.pk]})
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    data = json.loads(b"".join(response.streaming_content))
    assert data["account"]["username"] == "ada" and data["account"]["email_addresses"][0]["email"] == "ada@example.com"
    assert LogEntry.objects.get().change_message == "Downloaded the player's data."


def test_a_player_who_plays_every_day_stays_logged_in_past_the_two_weeks_of_the_log_in(settings):
    first = timezone.localdate()
    with time_machine.travel(timezone.now(), tick=False) as clock:
        make_account("ada")
        browser = signed_in("ada")
        for n in range(20):  # a move each day, as the board saves it
            daily = make_daily(first + datetime.timedelta(days=n))
            response = post(browser, url(daily, "save"), {"version": 0, "digits": "0" * 81})
            assert response.status_code == 200, (n, response.content)
            assert client_player(browser, daily) == "ada", n
            clock.shift(datetime.timedelta(days=1))
    assert not User.objects.filter(guest__isnull=False).exists()


def client_player(browser: Client, daily) -> str | None:
    player = browser.get(url(daily, "state")).json()["player"]
    return player and player["name"]
