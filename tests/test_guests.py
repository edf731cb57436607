"""Guest play: a visitor's first move makes a guest; signing up keeps it, logging in merges it;
guests are never ranked; idle guests are deleted."""

from __future__ import annotations

import datetime
import logging

import pytest
import time_machine
from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from puzzles.accounts.guests import GUEST_PREFIX, guest_create, guest_merge, guests_delete_idle, is_guest
from puzzles.fairplay import judge
from puzzles.models import Attempt, Guest, Hint, PlayEvent, Solve
from puzzles.play import attempts
from puzzles.results import history
from puzzles.results.leaderboard import leaderboard_for, median_time, ordinal, standing_of

from .factories import make_daily, make_paced_record, make_solve, player_digits, post, solve_through_api, url

pytestmark = pytest.mark.django_db

FIRST_MOVE = {"version": 0, "digits": "4" + "0" * 80}
PASSWORD = "a long enough password 1"


def sign_up(client: Client, username: str, next_url: str = ""):
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD, "next": next_url}
    return client.post("/accounts/signup/", data)


def streaks_of(user: User) -> history.Streaks:
    return history.streaks(history.streak_days(history.solve_rows(user)), timezone.localdate())


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


def test_a_visitors_heartbeat_makes_nobody_and_counts_nothing(client, daily):
    # A player's page sends its closing beat as it unloads, which after a log-out arrives without a
    # session: it must not turn the visitor into a guest (only a move does).
    for phase in ("open", "tick", "close"):
        response = post(client, url(daily, "beat"), {"phase": phase})
        assert response.status_code == 200 and response.json() == {"elapsed": 0}
    assert guests() == [] and not Attempt.objects.exists()
    assert "_auth_user_id" not in client.session


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


def test_a_guests_session_cookie_is_sent_again_on_their_first_write_of_each_day(client, daily):
    with time_machine.travel(timezone.now(), tick=False) as clock:
        assert settings.SESSION_COOKIE_NAME in post(client, url(daily, "save"), FIRST_MOVE).cookies
        assert settings.SESSION_COOKIE_NAME in post(client, url(daily, "beat"), {}).cookies  # the day's first
        assert settings.SESSION_COOKIE_NAME not in post(client, url(daily, "beat"), {}).cookies
        clock.shift(datetime.timedelta(days=1))
        assert settings.SESSION_COOKIE_NAME in post(client, url(daily, "beat"), {}).cookies
    assert len(guests()) == 1


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


def test_refused_first_writes_spend_none_of_the_addresses_guest_quota(settings, daily):
    settings.GUEST_CREATIONS_PER_HOUR = 2
    for _ in range(3):
        assert post(Client(), url(daily, "save"), {"version": 0, "digits": "x"}).status_code == 400
    for _ in range(2):
        assert post(Client(), url(daily, "save"), FIRST_MOVE).status_code == 200
    assert post(Client(), url(daily, "save"), FIRST_MOVE).status_code == 429
    assert len(guests()) == 2


def test_guests_from_one_ipv6_64_count_as_one_client(settings, daily):
    # One subscriber is handed a whole /64: each of its addresses is not another client.
    settings.GUEST_CREATIONS_PER_HOUR = 2
    for address in ("2001:db8:1:2::1", "2001:db8:1:2::2"):
        assert post(Client(REMOTE_ADDR=address), url(daily, "save"), FIRST_MOVE).status_code == 200
    assert post(Client(REMOTE_ADDR="2001:db8:1:2:ffff::9"), url(daily, "save"), FIRST_MOVE).status_code == 429
    assert post(Client(REMOTE_ADDR="2001:db8:1:3::1"), url(daily, "save"), FIRST_MOVE).status_code == 200


def test_is_guest_tells_guests_from_players_named_alike(db):
    guest = guest_create()
    old = User.objects.create_user("guest-from-before-the-rule")
    assert is_guest(guest) and not is_guest(old)
    assert not is_guest(User.objects.create_user("ada"))


# --- signing up keeps everything -------------------------------------------------------------


def test_signing_up_as_a_guest_turns_the_guest_into_the_account_with_everything(client, daily):
    yesterday = make_daily(daily.date - datetime.timedelta(days=1))
    solve_through_api(client, daily, seconds=95)
    (guest,) = guests()
    # A solve of yesterday's puzzle on its day too: a streak of two.
    attempt = Attempt.objects.create(user=guest, daily=yesterday, active_seconds=80)
    Solve.objects.create(
        attempt=attempt, user=guest, daily=yesterday, seconds=80, solved_at=timezone.now() - datetime.timedelta(days=1)
    )
    Hint.objects.create(attempt=attempt, user=guest, stage=1, technique="naked-single")
    counts = (Attempt.objects.count(), Solve.objects.count(), Hint.objects.count())
    streak = streaks_of(guest)
    assert streak.current == 2

    # The sign-up page is open to a guest (allauth sends logged-in users away from it), and the
    # header offers a guest sign-up rather than a password change.
    page = client.get(f"/accounts/signup/?next={url(daily)}")
    assert page.status_code == 200 and guest.username not in page.content.decode()
    assert "Log out" not in page.content.decode()
    home = client.get("/").content.decode()
    assert 'class="who">Guest<' in home and guest.username not in home and "Log out" not in home
    response = sign_up(client, "grace", url(daily))
    assert response.status_code == 302 and response.url == url(daily)

    account = User.objects.get(username="grace")
    assert account.pk == guest.pk and account.has_usable_password() and not guests()
    assert User.objects.count() == 1
    assert (Attempt.objects.count(), Solve.objects.count(), Hint.objects.count()) == counts
    assert Solve.objects.get(daily=daily).user == account and streaks_of(account) == streak
    state = client.get(url(daily, "state")).json()
    # The board's undo history on this device was the guest's (or its visitor's): now the account's.
    assert state["player"] == {"id": account.pk, "name": "grace", "guest": False, "from_guest": guest.pk}
    assert state["solved"]


def test_signing_up_keeps_a_guests_moves_and_clock(client, daily):
    # Held still: the state counts the silence since the last sign of life (attempts.counted_by_now).
    with time_machine.travel(timezone.now(), tick=False):
        post(client, url(daily, "save"), FIRST_MOVE)
        Attempt.objects.update(active_seconds=42)
        sign_up(client, "grace")
        state = client.get(url(daily, "state")).json()
    assert state["digits"] == FIRST_MOVE["digits"] and state["elapsed"] == 42 and state["version"] == 1


def test_an_account_signed_up_from_a_guest_is_as_old_as_its_sign_up(client, daily):
    # The ranking rules count a new account's hours from date_joined: a guest made hours ahead
    # must not lend them its age.
    post(client, url(daily, "save"), FIRST_MOVE)
    User.objects.filter(guest__isnull=False).update(date_joined=timezone.now() - datetime.timedelta(hours=7))
    signed_up_at = timezone.now()
    assert sign_up(client, "grace").status_code == 302
    assert User.objects.get(username="grace").date_joined >= signed_up_at


def test_a_guest_is_sent_to_sign_up_for_a_password_or_an_email_and_nothing_changes(client, daily):
    post(client, url(daily, "save"), FIRST_MOVE)
    (guest,) = guests()
    writes = {
        "/accounts/password/set/": {"password1": PASSWORD, "password2": PASSWORD},
        "/accounts/password/change/": {"oldpassword": "", "password1": PASSWORD, "password2": PASSWORD},
        "/accounts/email/": {"action_add": "", "email": "guest@example.com"},
    }
    for path, data in writes.items():
        for response in (client.get(path), client.post(path, data)):
            assert response.status_code == 302 and response.url == "/accounts/signup/", path
    guest.refresh_from_db()
    assert not guest.has_usable_password() and not EmailAddress.objects.exists() and guests() == [guest]


def test_a_guest_that_came_by_a_password_logs_in_nowhere_else(client, daily):
    post(client, url(daily, "save"), FIRST_MOVE)
    (guest,) = guests()
    guest.set_password(PASSWORD)  # as a reset through an address it had added would
    guest.save()
    refused = Client().post("/accounts/login/", {"login": guest.username, "password": PASSWORD})
    assert refused.status_code == 200 and "_auth_user_id" not in refused.wsgi_request.session
    # Once it has signed up, its password is its own.
    assert sign_up(client, "grace").status_code == 302
    assert Client().post("/accounts/login/", {"login": "grace", "password": PASSWORD}).status_code == 302


def test_no_sign_up_may_take_a_name_that_reads_as_a_guest(client):
    for name in ("guest-1", "Guest-abc", "GUEST-x"):
        response = sign_up(client, name)
        assert response.status_code == 200 and b"kept for guests" in response.content
    assert not User.objects.exists()
    assert sign_up(client, "guesthouse").status_code == 302


# --- the log-in merge -------------------------------------------------------------------------


def test_logging_in_from_a_guest_session_merges_and_says_what_was_merged(client, daily):
    yesterday = make_daily(daily.date - datetime.timedelta(days=1))
    account = User.objects.create_user("ada", password=PASSWORD)
    attempts.attempt_save(account, daily, version=0, digits="0" * 80 + "5", corner=None, centre=None)
    post(client, url(daily, "save"), FIRST_MOVE)
    (guest,) = guests()
    Attempt.objects.create(user=guest, daily=yesterday, digits=player_digits()[:1] + "0" * 80)

    assert client.get(f"/accounts/login/?next={url(daily)}").status_code == 200  # open to a guest
    response = client.post("/accounts/login/", {"login": "ada", "password": PASSWORD, "next": url(daily)})
    assert response.status_code == 302 and response.url == url(daily)
    assert not User.objects.filter(pk=guest.pk).exists() and not guests()
    assert Attempt.objects.filter(user=account).count() == 2
    assert Attempt.objects.get(user=account, daily=daily).digits == "0" * 80 + "5"  # the account's own
    merged = "Moved 1 puzzle you played as a guest to your account; kept your own progress on 1 puzzle."
    # Back on the puzzle (a page cached without messages), the board is told by the state API.
    state = client.get(url(daily, "state")).json()
    assert state["player"]["name"] == "ada" and merged in state["messages"]
    assert "messages" not in client.get(url(daily, "state")).json()  # told once
    assert merged not in client.get("/").content.decode()
    # The board the account took from the guest says whose undo history on this device it takes
    # over; the account's own board, kept, says nothing of the guest.
    assert client.get(url(yesterday, "state")).json()["player"]["from_guest"] == guest.pk
    assert "from_guest" not in client.get(url(daily, "state")).json()["player"]
    again = Client()
    again.post("/accounts/login/", {"login": "ada", "password": PASSWORD})
    assert "from_guest" not in again.get(url(yesterday, "state")).json()["player"]


def test_a_merge_message_waits_for_the_next_page_that_shows_messages(client, daily):
    User.objects.create_user("ada", password=PASSWORD)
    post(client, url(daily, "save"), FIRST_MOVE)
    client.post("/accounts/login/", {"login": "ada", "password": PASSWORD})
    assert "Moved 1 puzzle you played as a guest to your account." in client.get("/").content.decode()


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


def test_a_moved_attempt_keeps_its_record_of_play_and_a_dropped_one_takes_its_own_along(daily):
    yesterday = make_daily(daily.date - datetime.timedelta(days=1))
    account = User.objects.create_user("ada")
    guest = guest_create()
    first = {"corner": None, "centre": None, "moves": [[0, "d", [[0, 4]]]]}
    attempts.attempt_save(account, daily, version=0, digits="4" + "0" * 80, **first)
    attempts.attempt_save(guest, daily, version=0, digits="4" + "0" * 80, **first)  # dropped: the account's stays
    attempts.attempt_beat(guest, yesterday, "open")
    attempts.attempt_save(guest, yesterday, version=0, digits="4" + "0" * 80, **first)
    moved = Attempt.objects.get(user=guest, daily=yesterday)

    guest_merge(guest, account)
    assert list(moved.events.values_list("kind", flat=True)) == ["open", "save"]
    assert Attempt.objects.get(pk=moved.pk).user == account and Attempt.objects.get(pk=moved.pk).moves_logged == 1
    assert list(PlayEvent.objects.filter(attempt__daily=daily).values_list("attempt__user", flat=True)) == [account.pk]
    assert PlayEvent.objects.count() == 3


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


# --- never ranked ------------------------------------------------------------------------------


def test_guests_are_never_ranked_but_are_told_where_their_time_would_place_them(client, daily):
    for name, seconds in (("ada", 60), ("bob", 80), ("cy", 300)):
        make_solve(daily, name, seconds)
    # A guest of two days with a person's record of play (a digit every 1.5 s): only being a guest
    # keeps this solve off the board.
    guest = guest_create()
    User.objects.filter(pk=guest.pk).update(date_joined=timezone.now() - datetime.timedelta(days=2))
    guest.refresh_from_db()
    start = timezone.now() - datetime.timedelta(minutes=10)
    attempt = Attempt.objects.create(user=guest, daily=daily, started_at=start)
    make_paced_record(attempt, start, gap=1.5)
    judge.solve_judge(Solve.objects.create(attempt=attempt, user=guest, daily=daily, seconds=100))
    client.force_login(guest)
    board = leaderboard_for(daily, user_id=guest.pk)
    assert [row.username for row in board.rows] == ["ada", "bob", "cy"] and board.player_row is None
    assert board.solvers == 3 and median_time(daily) == (80, 3)

    standing = standing_of(Solve.objects.get(user=guest))
    assert not standing.ranked and (standing.rank, standing.solvers) == (3, 4)
    assert standing.sentence == "Your time would be 3rd of 4 today — sign up to be ranked."
    results = client.get(f"/daily/{daily.date.isoformat()}/easy/results/").content.decode()
    assert "Your time would be 3rd of 4 today" in results and guest.username not in results
    # Signed up, the same solve is ranked.
    Guest.objects.filter(user=guest).delete()
    assert standing_of(Solve.objects.get(user=guest)).rank == 3 and leaderboard_for(daily).solvers == 4


def test_a_guests_hinted_solve_says_both_reasons(daily):
    guest = guest_create()
    attempt = Attempt.objects.create(user=guest, daily=daily)
    solve = Solve.objects.create(attempt=attempt, user=guest, daily=daily, seconds=200, assisted=True)
    assert standing_of(solve).sentence == "Not on the leaderboard: you used hints or checks; you play as a guest."


def test_ordinals_read_as_spoken():
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
        "101st",
        "111th",
    ]


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

    with caplog.at_level(logging.INFO, logger="puzzles.accounts.guests"):
        assert guests_delete_idle(now=now, batch=2) == 3
    assert "deleted 3 idle guests" in caplog.text
    assert set(User.objects.values_list("pk", flat=True)) == {returning.pk, fresh.pk, player.pk}
    assert not Solve.objects.exists() and not Hint.objects.exists()
    assert Attempt.objects.get().user == returning
    assert guests_delete_idle(now=now) == 0


def test_the_old_guest_task_still_deletes_idle_guests(settings, db):
    # Beat sends apply_retention now, which deletes them too (tests/test_retention.py); the old task
    # stays for a message queued before.
    from puzzles.pipeline.tasks import delete_idle_guests

    guest = guest_create()
    old = timezone.now() - datetime.timedelta(days=settings.GUEST_TTL_DAYS + 1)
    Guest.objects.filter(user=guest).update(created=old)
    User.objects.filter(pk=guest.pk).update(last_login=old)
    assert delete_idle_guests.apply().get() == 1
    assert delete_idle_guests.apply().get() == 0 and not User.objects.exists()
