"""Issue 44's acceptance, end to end on whichever database the suite runs on (CI runs it on
PostgreSQL and on SQLite): a player plays a month of dailies through the board's API, with
everything else the site can hold about them (a second address, leagues, a reminder and its mail
log, a push device, settings, practice, two signed-in devices, an admin's note); the export holds
every attempt and every move; then the player deletes the account, and a dump of every table in
the database holds neither the username nor any of the addresses."""

from __future__ import annotations

import datetime
import json

import pytest
import time_machine
from allauth.account.models import EmailAddress
from allauth.usersessions.models import UserSession
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from puzzles.leagues import membership
from puzzles.models import Attempt, League, PlayEvent, PushSubscription, Reminder, ReminderSent, Solve, site_today
from puzzles.play.preferences import preferences_update
from puzzles.ratings.ledger import ratings_catch_up
from puzzles.record_of_play.moves import unpack

from .factories import make_daily
from .test_export import noon, play

pytestmark = pytest.mark.django_db

NAME = "lovelace_1815"
PASSWORD = "a long enough password 1"
ADDRESSES = ("countess.lovelace@analytical.example", "ada+sudoku@engine.example")
DAYS = 30


def every_row() -> list[str]:
    """Every row of every table the database has, as text (binary columns decoded as they can be)."""
    rows = []
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(include_views=False):
            cursor.execute(f"SELECT * FROM {quote(table)}")
            for row in cursor.fetchall():
                values = [
                    bytes(v).decode("utf-8", "replace") if isinstance(v, (bytes, memoryview)) else str(v) for v in row
                ]
                rows.append(f"{table}: {' | '.join(values)}")
    return rows


def hits(rows: list[str]) -> list[str]:
    words = [NAME, *ADDRESSES, "countess", "analytical.example", "engine.example"]
    return [row for row in rows if any(word.lower() in row.lower() for word in words)]


@pytest.fixture
def lovelace(db):
    """A month of easy dailies played through the API, and everything else a player leaves behind."""
    first = site_today() - datetime.timedelta(days=DAYS)
    client = Client()
    with time_machine.travel(noon(first) - datetime.timedelta(hours=8), tick=False) as clock:
        player = User.objects.create_user(NAME, ADDRESSES[0], PASSWORD)
        for n in range(DAYS):
            day = first + datetime.timedelta(days=n)
            clock.move_to(noon(day))
            client.force_login(player)
            play(client, make_daily(day, "easy"), clock)
    ratings_catch_up()
    EmailAddress.objects.create(user=player, email=ADDRESSES[0], verified=True, primary=True)
    EmailAddress.objects.create(user=player, email=ADDRESSES[1], verified=False, primary=False)
    friend = User.objects.create_user("babbage", "charles@example.com", PASSWORD)
    owned = membership.league_create(player, f"{NAME}'s friends")
    membership.league_join(owned, friend)
    membership.league_join(membership.league_create(friend, "Engines"), player)
    Reminder.objects.create(user=player, email=True, hour=8, time_zone="Europe/London")
    ReminderSent.objects.create(user=player, day=site_today())
    PushSubscription.objects.create(
        user=player, endpoint="https://fcm.googleapis.com/fcm/send/abc", p256dh="k", auth="a"
    )
    preferences_update(player, {"show_timer": False})
    staff = User.objects.create_superuser("staff", "staff@example.com", PASSWORD)
    LogEntry.objects.create(
        user=staff, action_flag=CHANGE, object_repr=f"{NAME} solved a daily", change_message=f"mail from {ADDRESSES[1]}"
    )
    return player


def test_a_month_of_play_is_exported_whole_then_deleted_without_a_trace(lovelace):
    devices = []
    for _ in range(2):
        device = Client()
        assert device.post("/accounts/login/", {"login": NAME, "password": PASSWORD}).status_code == 302
        devices.append(device)
    assert UserSession.objects.filter(user=lovelace).count() == 2
    assert hits(every_row()), "the dump finds the player before the deletion"

    response = devices[0].get("/account/export/")
    assert response.status_code == 200 and response.streaming
    assert "attachment" in response["Content-Disposition"]
    data = json.loads(b"".join(response.streaming_content))
    attempts = Attempt.objects.filter(user=lovelace)
    assert len(data["attempts"]) == attempts.count() == DAYS
    exported_moves = sum(len(event.get("moves", [])) for attempt in data["attempts"] for event in attempt["events"])
    stored_moves = sum(len(unpack(event.moves)) for event in PlayEvent.objects.filter(attempt__in=attempts))
    assert exported_moves == stored_moves > DAYS * 40
    assert len(data["signed_in_devices"]) == 2 and {ADDRESSES[0], ADDRESSES[1]} == {
        address["email"] for address in data["account"]["email_addresses"]
    }

    assert devices[1].post("/account/delete/", {"password": PASSWORD}).status_code == 200
    assert not User.objects.filter(pk=lovelace.pk).exists()
    assert devices[0].get("/account/").status_code == 302  # signed out on the other device too
    assert not Solve.objects.filter(user_id=lovelace.pk).exists()
    left = hits(every_row())
    assert left == [], "\n".join(left[:10])
    # The friend and their league stay; the league the player owned is the friend's now, its name
    # no longer quoting the player's.
    assert User.objects.filter(username="babbage").exists()
    assert sorted(League.objects.values_list("name", "owner__username")) == [
        ("Engines", "babbage"),
        ("a deleted player's friends", "babbage"),
    ]
