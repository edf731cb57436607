"""Guest play: a visitor's first move makes a guest; signing up keeps it, logging in merges it;
guests are never ranked; idle guests are deleted."""

from __future__ import annotations

import datetime
import logging

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from puzzles import attempts
from puzzles.guests import GUEST_PREFIX, guest_create, guest_merge, guests_delete_idle, is_guest
from puzzles.models import Attempt, Guest, Hint, Solve

from .factories import make_daily, post, url

pytestmark = pytest.mark.django_db

FIRST_MOVE = {"version": 0, "digits": "4" + "0" * 80}


def guests() -> list[User]:
    return list(User.objects.filter(guest__isnull=False))


# --- made on the first move -----------------------------------------------------------------


def test_reading_a_puzzle_makes_no_guest_and_the_first_write_makes_one(client, daily):
    for _ in range(3):
        state = client.get(url(daily, "state")).json()
        assert state["player"] is None and state["version"] == 0 and not state["started"]
    assert not User.objects.exists() and not Attempt.objects.exists()

    response = post(client, url(daily, "save"), FIRST_MOVE)
    assert response.status_code == 200 and response.json()["version"] == 1
    (guest,) = guests()
    assert guest.username.startswith(GUEST_PREFIX) and not guest.has_usable_password()
    assert Attempt.objects.get().user == guest

    state = client.get(url(daily, "state")).json()
    assert state["player"] == {"id": guest.pk, "name": guest.username, "guest": True}
    assert state["digits"] == FIRST_MOVE["digits"] and state["started"]


def test_a_browser_stays_one_guest_across_its_writes(client, daily):
    assert post(client, url(daily, "beat"), {}).status_code == 200
    assert post(client, url(daily, "save"), FIRST_MOVE).status_code == 200
    assert post(client, url(daily, "beat"), {}).status_code == 200
    assert len(guests()) == 1 and Attempt.objects.count() == 1


def test_the_first_write_hands_the_board_the_rotated_csrf_token(daily):
    # Logging the guest in rotates Django's CSRF token; the answer sets the new cookie, which the
    # board reads for its next request.
    client = Client(enforce_csrf_checks=True)
    client.get(url(daily, "state"))
    before = client.cookies["csrftoken"].value
    first = post(client, url(daily, "save"), FIRST_MOVE, HTTP_X_CSRFTOKEN=before)
    assert first.status_code == 200
    after = first.cookies["csrftoken"].value
    assert after and after != before
    second = post(client, url(daily, "beat"), {}, HTTP_X_CSRFTOKEN=after)
    assert second.status_code == 200 and len(guests()) == 1


def test_a_refused_first_write_leaves_no_guest(client, daily):
    response = post(client, url(daily, "save"), {"version": 0, "digits": "x"})
    assert response.status_code == 400
    assert not User.objects.exists()
    assert client.get(url(daily, "state")).json()["player"] is None


def test_guest_creation_is_limited_per_address(settings, daily):
    settings.GUEST_CREATIONS_PER_HOUR = 2
    for _ in range(2):
        assert post(Client(), url(daily, "save"), FIRST_MOVE).status_code == 200
    refused = post(Client(), url(daily, "save"), FIRST_MOVE)
    assert refused.status_code == 429 and refused.json()["error"]
    assert 0 < int(refused["Retry-After"]) <= 3600
    assert len(guests()) == 2 and Attempt.objects.count() == 2
    # Another address may still play, and so may the guests already made.
    assert post(Client(REMOTE_ADDR="10.0.0.9"), url(daily, "save"), FIRST_MOVE).status_code == 200


def test_is_guest_tells_guests_from_players_named_alike(db):
    guest = guest_create()
    old = User.objects.create_user("guest-from-before-the-rule")
    assert is_guest(guest) and not is_guest(old)
    assert not is_guest(User.objects.create_user("ada"))


# --- the log-in merge -------------------------------------------------------------------------


def test_merging_moves_untouched_dailies_keeps_the_accounts_own_and_deletes_the_guest(daily):
    yesterday = make_daily(daily.date - datetime.timedelta(days=1))
    account = User.objects.create_user("ada")
    guest = guest_create()
    mine = attempts.attempt_save(account, daily, version=0, digits="4" + "0" * 80, corner=None, centre=None)
    attempts.attempt_save(guest, daily, version=0, digits="0" * 80 + "5", corner=None, centre=None)
    theirs = Attempt.objects.create(user=guest, daily=yesterday, active_seconds=99)
    Solve.objects.create(attempt=theirs, user=guest, daily=yesterday, seconds=99)
    Hint.objects.create(attempt=theirs, user=guest, stage=1, technique="naked-single")

    merged = guest_merge(guest, account)
    assert (merged.moved, merged.kept) == (1, 1)
    assert merged.message == "Moved 1 puzzle you played as a guest to your account; kept your own progress on 1 puzzle."
    assert not User.objects.filter(pk=guest.pk).exists()
    assert Attempt.objects.get(user=account, daily=daily).version == mine.version
    assert Attempt.objects.get(user=account, daily=daily).digits == "4" + "0" * 80
    assert Attempt.objects.get(user=account, daily=yesterday).pk == theirs.pk
    assert Solve.objects.get().user == account and Hint.objects.get().user == account
    assert guest_merge(guest, account).moved == 0  # a second merge finds nothing


def test_a_merge_that_fails_changes_nothing(daily, monkeypatch):
    account = User.objects.create_user("ada")
    guest = guest_create()
    attempts.attempt_save(guest, daily, version=0, digits="4" + "0" * 80, corner=None, centre=None)

    def broken(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(Hint.objects, "filter", broken)
    with pytest.raises(RuntimeError):
        guest_merge(guest, account)
    assert Attempt.objects.get().user == guest and is_guest(User.objects.get(pk=guest.pk))


# --- idle guests ------------------------------------------------------------------------------


def test_idle_guests_are_deleted_with_their_records_in_batches_and_counted(settings, daily, caplog):
    settings.GUEST_TTL_DAYS = 30
    now = timezone.now()
    old = now - datetime.timedelta(days=31)
    idle = [guest_create() for _ in range(3)]
    User.objects.filter(pk__in=[g.pk for g in idle]).update(last_login=old)
    Guest.objects.update(created=old)
    attempt = Attempt.objects.create(user=idle[0], daily=daily)
    Attempt.objects.filter(pk=attempt.pk).update(updated_at=old)
    Solve.objects.create(attempt=attempt, user=idle[0], daily=daily, seconds=60)
    Hint.objects.create(attempt=attempt, user=idle[0], stage=1, technique="naked-single")
    # Still here: a guest made long ago who played yesterday, a new guest, and a real player.
    returning = guest_create()
    Guest.objects.filter(user=returning).update(created=old)
    User.objects.filter(pk=returning.pk).update(last_login=old)
    Attempt.objects.create(user=returning, daily=daily)
    fresh = guest_create()
    User.objects.filter(pk=fresh.pk).update(last_login=now)
    player = User.objects.create_user("ada", last_login=old)

    with caplog.at_level(logging.INFO, logger="puzzles.guests"):
        assert guests_delete_idle(now=now, batch=2) == 3
    assert "deleted 3 idle guests" in caplog.text
    assert set(User.objects.values_list("pk", flat=True)) == {returning.pk, fresh.pk, player.pk}
    assert not Solve.objects.exists() and not Hint.objects.exists()
    assert Attempt.objects.get().user == returning
    assert guests_delete_idle(now=now) == 0
