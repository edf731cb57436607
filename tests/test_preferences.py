"""The player's settings (preferences.py, /api/settings/): kept on the server for every player, a
guest too; read by anyone, changed by a JSON write like the board's others."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.test.client import MULTIPART_CONTENT
from django.urls import reverse

from puzzles.accounts.guests import guest_create, guest_merge
from puzzles.models import Preferences
from puzzles.play.preferences import DEFAULTS, preferences_read

from .factories import post, url

pytestmark = pytest.mark.django_db

ADDRESS = "/api/settings/"
PASSWORD = "a long enough password 1"
EVERY_DEFAULT = {
    "remove_notes": True,
    "positional_notes": False,
    "highlight_units": True,
    "highlight_same": True,
    "show_timer": True,
    "theme": "system",
    "wrap_arrows": False,
    "auto_candidates": "off",
    "show_mistakes": False,
    "seen_howto": False,
}
# A choice other than the default, for each setting that is a choice among words.
OTHER_CHOICE = {"theme": "dark", "auto_candidates": "corner"}


def stored(user: User) -> dict | None:
    """What the player's row holds, read again from the database (None: no row)."""
    return Preferences.objects.filter(user=user).values_list("values", flat=True).first()


def change(client: Client, settings: object, **extra):
    return post(client, ADDRESS, {"settings": settings}, **extra)


def test_the_settings_address_is_named_like_the_boards_other_endpoints():
    assert reverse("puzzles:api-settings") == ADDRESS


def test_the_defaults_are_the_documented_ones():
    assert DEFAULTS == EVERY_DEFAULT


def test_a_visitor_reads_the_defaults_and_reading_makes_nothing(client):
    for _ in range(2):
        response = client.get(ADDRESS)
        assert response.status_code == 200 and response.json() == {"settings": EVERY_DEFAULT}
        assert response["Cache-Control"] == "private, no-store"
    assert not User.objects.exists() and not Preferences.objects.exists()


def test_a_player_reads_the_defaults_until_they_choose(player, user):
    assert player.get(ADDRESS).json() == {"settings": EVERY_DEFAULT}
    assert stored(user) is None


def test_a_change_is_merged_and_answered_with_every_setting(player, user):
    response = change(player, {"theme": "dark", "wrap_arrows": True})
    assert response.status_code == 200 and response["Cache-Control"] == "private, no-store"
    expected = {**EVERY_DEFAULT, "theme": "dark", "wrap_arrows": True}
    assert response.json() == {"settings": expected}
    assert stored(user) == {"theme": "dark", "wrap_arrows": True}  # only what the player chose
    again = change(player, {"show_timer": False, "theme": "light"})
    expected = {**expected, "show_timer": False, "theme": "light"}
    assert again.json() == {"settings": expected}
    assert player.get(ADDRESS).json() == {"settings": expected}
    assert preferences_read(user) == expected


def test_every_setting_round_trips(player, user):
    chosen = {
        key: (not value if isinstance(value, bool) else OTHER_CHOICE[key]) for key, value in EVERY_DEFAULT.items()
    }
    assert change(player, chosen).json() == {"settings": chosen}
    assert player.get(ADDRESS).json() == {"settings": chosen}
    assert stored(user) == chosen


@pytest.mark.parametrize("style", ["off", "centre", "corner"])
def test_always_on_candidates_take_each_style_and_keep_it(player, user, style):
    response = change(player, {"auto_candidates": style})
    assert response.status_code == 200 and response.json()["settings"]["auto_candidates"] == style
    assert stored(user) == {"auto_candidates": style}
    assert preferences_read(user)["auto_candidates"] == style


def test_a_stored_style_no_longer_offered_falls_back_to_off(user):
    Preferences.objects.create(user=user, values={"auto_candidates": "everywhere", "theme": "dark"})
    assert preferences_read(user) == {**EVERY_DEFAULT, "theme": "dark"}


def test_choosing_a_default_is_kept_as_a_choice(player, user):
    change(player, {"highlight_same": True})
    assert stored(user) == {"highlight_same": True}
    assert player.get(ADDRESS).json()["settings"] == EVERY_DEFAULT


def test_an_empty_change_answers_every_setting_and_stores_nothing(player, user):
    response = change(player, {})
    assert response.status_code == 200 and response.json() == {"settings": EVERY_DEFAULT}
    assert stored(user) is None


@pytest.mark.parametrize(
    ("body", "word"),
    [
        ({"settings": {"colour_blind": True}}, "colour_blind"),  # unknown setting
        ({"settings": {"theme": "dark", "sound": True}}, "sound"),  # one bad key spoils the change
        ({"settings": {"show_timer": 1}}, "show_timer"),  # not a boolean
        ({"settings": {"remove_notes": "true"}}, "remove_notes"),
        ({"settings": {"wrap_arrows": None}}, "wrap_arrows"),
        ({"settings": {"highlight_units": [True]}}, "highlight_units"),
        ({"settings": {"theme": "sepia"}}, "theme"),
        ({"settings": {"theme": "Dark"}}, "theme"),
        ({"settings": {"theme": True}}, "theme"),
        ({"settings": {"theme": ["dark"]}}, "theme"),
        ({"settings": {"auto_candidates": True}}, "auto_candidates"),  # a choice among words, not on/off
        ({"settings": {"auto_candidates": "center"}}, "auto_candidates"),
        ({"settings": {"auto_candidates": "Corner"}}, "auto_candidates"),
        ({"settings": {"auto_candidates": None}}, "auto_candidates"),
        ({"settings": ["theme", "dark"]}, "settings"),  # not an object
        ({"settings": "dark"}, "settings"),
        ({"settings": None}, "settings"),
        ({"theme": "dark"}, "settings"),  # not wrapped in "settings"
        ({}, "settings"),
        ([{"settings": {"theme": "dark"}}], "object"),  # the body is no object
        ("{not json", "JSON"),
    ],
)
def test_a_bad_change_gets_400_with_a_message_and_changes_nothing(player, user, body, word):
    change(player, {"theme": "light"})
    response = post(player, ADDRESS, body if isinstance(body, str) else json.dumps(body))
    assert response.status_code == 400 and word in response.json()["error"]
    assert response["Cache-Control"] == "private, no-store"
    assert stored(user) == {"theme": "light"}


def test_an_oversized_change_gets_413_and_changes_nothing(player, user):
    response = change(player, {"theme": "dark", "pad": "x" * 20000})
    assert response.status_code == 413 and response.json()["error"]
    assert stored(user) is None


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        ({"settings": {"theme": "dark"}}, MULTIPART_CONTENT),
        ("settings=dark", "application/x-www-form-urlencoded"),
        ('{"settings": {"theme": "dark"}}', "text/plain"),  # what a cross-site form may send unasked
    ],
)
def test_a_change_not_sent_as_json_gets_415_and_changes_nothing(user, daily, body, content_type):
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    client.get(url(daily, "state"))  # sets the CSRF cookie, as the board's first request does
    token = client.cookies["csrftoken"].value
    response = client.post(ADDRESS, body, content_type=content_type, HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 415 and response["Accept"] == "application/json"
    assert stored(user) is None


def test_a_change_needs_the_csrf_token(user, daily):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    refused = change(strict, {"theme": "dark"})
    assert refused.status_code == 403 and "reload" in refused.json()["error"]
    assert stored(user) is None
    strict.get(url(daily, "state"))  # the board's first request sets the cookie
    token = strict.cookies["csrftoken"].value
    assert change(strict, {"theme": "dark"}, HTTP_X_CSRFTOKEN=token).status_code == 200
    assert stored(user) == {"theme": "dark"}


@pytest.mark.parametrize("method", ["put", "delete", "patch"])
def test_other_methods_get_405(player, user, method):
    response = getattr(player, method)(ADDRESS, "{}", content_type="application/json")
    assert response.status_code == 405 and response["Allow"] == "GET, POST"
    assert response.json()["error"] and stored(user) is None


# --- guests -----------------------------------------------------------------------------------


def test_a_visitors_first_change_makes_a_guest_who_keeps_it(client):
    response = change(client, {"theme": "dark"})
    assert response.status_code == 200 and response.json()["settings"]["theme"] == "dark"
    guest = User.objects.get(guest__isnull=False)
    assert stored(guest) == {"theme": "dark"}
    assert client.get(ADDRESS).json()["settings"]["theme"] == "dark"  # the session is the guest's
    change(client, {"show_timer": False})
    assert User.objects.count() == 1 and stored(guest) == {"theme": "dark", "show_timer": False}


def test_a_visitors_bad_first_change_makes_no_guest(client):
    assert change(client, {"theme": "sepia"}).status_code == 400
    assert not User.objects.exists() and not Preferences.objects.exists()


def test_a_visitors_first_change_counts_against_the_guest_limit(client, settings):
    settings.GUEST_CREATIONS_PER_HOUR = 0
    refused = change(client, {"theme": "dark"})
    assert refused.status_code == 429 and refused.json()["error"] and int(refused["Retry-After"]) > 0
    assert not User.objects.exists() and not Preferences.objects.exists()


def test_signing_up_as_a_guest_keeps_the_settings(client):
    change(client, {"theme": "dark", "wrap_arrows": True})
    guest = User.objects.get(guest__isnull=False)
    data = {"username": "grace", "password1": PASSWORD, "password2": PASSWORD}
    assert client.post("/accounts/signup/", data).status_code == 302
    account = User.objects.get(username="grace")
    assert account.pk == guest.pk and stored(account) == {"theme": "dark", "wrap_arrows": True}
    assert client.get(ADDRESS).json()["settings"]["theme"] == "dark"


def test_logging_in_takes_the_guests_settings_when_the_account_has_none(client):
    account = User.objects.create_user("ada", password=PASSWORD)
    change(client, {"theme": "dark"})
    assert client.post("/accounts/login/", {"login": "ada", "password": PASSWORD}).status_code == 302
    assert not User.objects.filter(guest__isnull=False).exists()
    assert stored(account) == {"theme": "dark"} and Preferences.objects.count() == 1
    assert client.get(ADDRESS).json()["settings"]["theme"] == "dark"


def test_logging_in_keeps_the_accounts_own_settings(client):
    account = User.objects.create_user("ada", password=PASSWORD)
    Preferences.objects.create(user=account, values={"theme": "light"})
    change(client, {"theme": "dark", "show_timer": False})
    client.post("/accounts/login/", {"login": "ada", "password": PASSWORD})
    assert stored(account) == {"theme": "light"} and Preferences.objects.count() == 1  # the guest's went with it
    assert client.get(ADDRESS).json()["settings"] == {**EVERY_DEFAULT, "theme": "light"}


def test_a_merge_of_a_guest_without_settings_leaves_the_account_as_it_was(db):
    account = User.objects.create_user("ada")
    guest = guest_create()
    guest_merge(guest, account)
    assert not Preferences.objects.exists()
    Preferences.objects.create(user=account, values={"wrap_arrows": True})
    guest_merge(guest_create(), account)
    assert stored(account) == {"wrap_arrows": True}


def test_a_stored_choice_no_longer_allowed_reads_as_the_default(user):
    Preferences.objects.create(user=user, values={"theme": "sepia", "gone": 1, "show_timer": False})
    assert preferences_read(user) == {**EVERY_DEFAULT, "show_timer": False}
