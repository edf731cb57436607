"""Retention (puzzles/accounts/retention.py): each kind deletes what is past its period and nothing a
day younger, leaves solved records alone, runs twice harmlessly, and the daily task runs them all."""

from __future__ import annotations

import datetime
import logging

import pytest
import time_machine
from allauth.account.models import EmailAddress
from allauth.usersessions.models import UserSession
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.core import mail
from django.test import Client
from django.utils import timezone

from puzzles.accounts import reminders, retention
from puzzles.accounts.guests import guest_create
from puzzles.fairplay import ranking
from puzzles.models import (
    Attempt,
    BroughtAttempt,
    BroughtPuzzle,
    Check,
    Guest,
    Hint,
    PlayEvent,
    Reminder,
    ReminderSent,
    Solve,
)
from puzzles.pipeline import tasks
from sudokusite.celery import app

from .conftest import EASY_GIVENS, EASY_SOLUTION
from .factories import judge_follow_up, make_daily, make_event, make_solve, post, url

pytestmark = pytest.mark.django_db

DAY = datetime.timedelta(days=1)


# --- sessions -----------------------------------------------------------------------------------


def make_session(key: str, expires: datetime.datetime) -> None:
    Session.objects.create(session_key=key, session_data="", expire_date=expires)


@pytest.mark.parametrize("engine", ["db", "cached_db"])
def test_expired_sessions_go_and_live_ones_stay(settings, engine):
    settings.SESSION_ENGINE = f"django.contrib.sessions.backends.{engine}"
    now = timezone.now()
    for number in range(3):
        make_session(f"expired{number}", now - DAY)
    make_session("expired-just-now", now - datetime.timedelta(seconds=1))
    make_session("alive", now + DAY)
    logged_in = Client()
    logged_in.force_login(User.objects.create_user("ada"))

    assert retention.sessions_delete_expired(now, batch=2) == 4
    assert Session.objects.count() == 2 and Session.objects.filter(session_key="alive").exists()
    assert retention.sessions_delete_expired(now) == 0
    assert Session.objects.filter(session_key=logged_in.session.session_key).exists()


def test_a_session_engine_without_a_table_clears_itself(settings):
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
    make_session("not-theirs", timezone.now() - DAY)
    assert retention.sessions_delete_expired() == 0 and Session.objects.count() == 1


# --- guests -------------------------------------------------------------------------------------


def idle_guest(days: int, *, solved: bool, daily) -> User:
    """A guest made and last seen `days` ago, who played `daily` then (and solved it, if told)."""
    guest = guest_create()
    then = timezone.now() - datetime.timedelta(days=days)
    Guest.objects.filter(user=guest).update(created=then)
    User.objects.filter(pk=guest.pk).update(last_login=then)
    attempt = Attempt.objects.create(user=guest, daily=daily)
    if solved:
        Solve.objects.create(attempt=attempt, user=guest, daily=daily, seconds=300)
    Attempt.objects.filter(pk=attempt.pk).update(updated_at=then)
    return guest


def test_guests_idle_past_the_period_go_with_or_without_solves_and_a_day_younger_stay(settings, daily):
    settings.GUEST_TTL_DAYS = 30
    gone = [idle_guest(31, solved=True, daily=daily), idle_guest(31, solved=False, daily=daily)]
    kept = [idle_guest(29, solved=True, daily=daily), idle_guest(29, solved=False, daily=daily)]
    account = make_solve(daily, "ada", 300).user

    removed = retention.retention_apply()
    assert removed.guests == 2
    assert set(User.objects.values_list("pk", flat=True)) == {account.pk, *(g.pk for g in kept)}
    assert not Attempt.objects.filter(user__in=gone).exists()
    assert Solve.objects.filter(user__in=[kept[0], account]).count() == 2
    assert retention.retention_apply().guests == 0


# --- the mail log -------------------------------------------------------------------------------


def test_reminder_claims_past_the_period_go_and_a_day_younger_stay(settings):
    settings.MAIL_LOG_DAYS = 30
    user = User.objects.create_user("ada")
    today = timezone.localdate()
    for days in (400, 31, 30, 29, 1, 0):
        ReminderSent.objects.create(user=user, day=today - datetime.timedelta(days=days))

    assert retention.mail_log_delete_old(batch=1) == 2
    ages = sorted((today - day).days for day in ReminderSent.objects.values_list("day", flat=True))
    assert ages == [0, 1, 29, 30]
    assert retention.mail_log_delete_old() == 0


def test_a_short_mail_log_period_never_lets_a_player_be_reminded_twice_on_their_day(settings):
    # Auckland is 13 hours ahead: at 19:30 UTC on the 10th it is 08:30 on the 11th there, so the
    # claim is for the site's tomorrow; Los Angeles' (-7) for its today.
    settings.TIME_ZONE = "UTC"
    settings.MAIL_LOG_DAYS = 0
    now = datetime.datetime(2026, 3, 10, 19, 30, tzinfo=datetime.UTC)
    for name, zone in (("kiri", "Pacific/Auckland"), ("lena", "America/Los_Angeles")):
        user = User.objects.create_user(name, f"{name}@example.com")
        EmailAddress.objects.create(user=user, email=f"{name}@example.com", verified=True, primary=True)
        Reminder.objects.create(user=user, email=True, hour=8, time_zone=zone)
    make_daily(now.date(), "easy")
    with time_machine.travel(now, tick=False):
        assert reminders.reminders_send().sent == 2
        ReminderSent.objects.create(user=User.objects.get(username="kiri"), day=now.date() - 3 * DAY)
        assert retention.mail_log_delete_old() == 1  # the one before CLAIM_DAYS
    with time_machine.travel(now + datetime.timedelta(minutes=30), tick=False):
        assert reminders.reminders_send().sent == 0
    assert len(mail.outbox) == 2


# --- the record of play of abandoned attempts ---------------------------------------------------


def attempt_with_record(daily, name: str, days_untouched: int, *, solved: bool = False) -> Attempt:
    """An attempt with a short record of play (three events), last touched `days_untouched` ago."""
    user = User.objects.get_or_create(username=name)[0]
    attempt = Attempt.objects.create(user=user, daily=daily, moves_logged=2)
    then = timezone.now() - datetime.timedelta(days=days_untouched)
    make_event(attempt, "open", then)
    make_event(attempt, "save", then, [(0, [(0, 4)]), (0, [(1, 8)])])
    Hint.objects.create(attempt=attempt, user=user, stage=1, technique="naked-single")
    Check.objects.create(attempt=attempt, wrong=0)
    make_event(attempt, "check", then)
    if solved:
        Solve.objects.create(attempt=attempt, user=user, daily=daily, seconds=300)
    Attempt.objects.filter(pk=attempt.pk).update(updated_at=then)
    return attempt


def test_records_of_attempts_unsolved_past_the_period_go_and_the_attempts_stay(settings):
    settings.ABANDONED_RECORD_DAYS = 365
    daily = make_daily(timezone.localdate() - 400 * DAY)
    gone = [attempt_with_record(daily, f"gone{n}", 366) for n in range(3)]
    younger = attempt_with_record(daily, "younger", 364)
    solved = attempt_with_record(daily, "solved", 400, solved=True)

    assert retention.records_delete_abandoned(batch=2) == 9
    assert set(PlayEvent.objects.values_list("attempt_id", flat=True)) == {younger.pk, solved.pk}
    assert PlayEvent.objects.count() == 6
    # The attempts stay, with their position, hints, checks and count of moves logged.
    for attempt in gone:
        kept = Attempt.objects.get(pk=attempt.pk)
        assert kept.moves_logged == 2 and kept.hints.count() == 1 and kept.checks.count() == 1
    assert retention.records_delete_abandoned() == 0


def test_attempts_at_brought_puzzles_unsolved_past_the_period_go_and_the_puzzle_stays(settings):
    settings.ABANDONED_RECORD_DAYS = 365
    puzzle = BroughtPuzzle.objects.create(
        givens=EASY_GIVENS, solution=EASY_SOLUTION, tier="easy", score=1, hardest="naked-single", clues=32
    )

    def attempt(name: str, days: int, solved: bool = False) -> BroughtAttempt:
        made = BroughtAttempt.objects.create(user=User.objects.create_user(name), puzzle=puzzle, moves=b"kept")
        when = timezone.now() - days * DAY
        BroughtAttempt.objects.filter(pk=made.pk).update(updated_at=when, solved_at=when if solved else None)
        return made

    gone = [attempt(f"gone{n}", 366) for n in range(3)]
    kept = [attempt("younger", 364).pk, attempt("solved", 400, solved=True).pk]

    assert retention.brought_delete_abandoned(batch=2) == 3
    assert sorted(BroughtAttempt.objects.values_list("pk", flat=True)) == sorted(kept)
    assert not BroughtAttempt.objects.filter(pk__in=[a.pk for a in gone]).exists()
    assert BroughtPuzzle.objects.filter(pk=puzzle.pk).exists()
    assert retention.brought_delete_abandoned() == 0


def test_an_abandoned_attempt_finished_later_is_judged_to_have_no_whole_record(client, daily, settings):
    """Half the grid a year ago, its record deleted, the rest now: the record left shows a person's
    pace, but not how most of the grid was filled, so the solve is not ranked nor rated."""
    settings.ABANDONED_RECORD_DAYS = 365
    solution, givens = daily.puzzle.solution, daily.puzzle.givens
    empty = [cell for cell, given in enumerate(givens) if given == "0"]
    start = timezone.now()

    def play(who: Client, cells: list[int], digits: list[str], version: int, clock) -> int:
        """Place `cells` a digit every 3 s, saved in threes as the board does; the version after."""
        assert post(who, url(daily, "beat"), {"phase": "open"}).status_code == 200
        for first in range(0, len(cells), 3):
            batch = cells[first : first + 3]
            for cell in batch:
                clock.shift(3)
                digits[cell] = solution[cell]
            moves = [[3000 * (len(batch) - 1 - n), "d", [[cell, int(solution[cell])]]] for n, cell in enumerate(batch)]
            saved = post(who, url(daily, "save"), {"version": version, "digits": "".join(digits), "moves": moves})
            assert saved.status_code == 200, saved.content
            version = saved.json()["version"]
        return version

    results = {}
    for name in ("pruned", "kept"):
        with time_machine.travel(start, tick=False) as clock:
            who = Client()
            user = User.objects.create_user(name, date_joined=start - 800 * DAY)
            who.force_login(user)
            digits = ["0"] * 81
            version = play(who, empty[: len(empty) // 2], digits, 0, clock)
            post(who, url(daily, "beat"), {"phase": "close"})
            clock.move_to(start + 366 * DAY)
            who.force_login(user)  # the session of a year ago has long expired
            if name == "pruned":
                assert retention.records_delete_abandoned() > 0
            version = play(who, empty[len(empty) // 2 : -1], digits, version, clock)
            digits[empty[-1]] = solution[empty[-1]]
            moves = [[0, "d", [[empty[-1], int(solution[empty[-1]])]]]]
            body = {"version": version, "digits": "".join(digits), "moves": moves}
            assert post(who, url(daily, "submit"), body).status_code == 200
            judge_follow_up(daily)
        results[name] = Solve.objects.get(user=user)

    assert results["kept"].unranked == ""  # the same play, its record whole
    assert results["pruned"].unranked == ranking.NO_RECORD
    assert results["pruned"] not in Solve.objects.rated()


# --- the daily task -----------------------------------------------------------------------------


def test_the_daily_task_removes_every_kind_logs_one_line_and_runs_twice_harmlessly(settings, daily, caplog):
    settings.GUEST_TTL_DAYS, settings.MAIL_LOG_DAYS, settings.ABANDONED_RECORD_DAYS = 30, 30, 365
    make_session("expired", timezone.now() - DAY)
    make_session("live", timezone.now() + DAY)
    ada = User.objects.create_user("ada")
    for key in ("expired", "live"):  # the devices ada signed in on: the first one's session ends now
        UserSession.objects.create(user=ada, session_key=key, ip="192.0.2.1", user_agent="Firefox")
    idle_guest(31, solved=True, daily=daily)
    ReminderSent.objects.create(user=ada, day=timezone.localdate() - 31 * DAY)
    attempt_with_record(make_daily(timezone.localdate() - 400 * DAY), "bea", 366)

    with caplog.at_level(logging.INFO, logger="puzzles.accounts.retention"):
        first = tasks.apply_retention.apply().get()
    assert first == {
        "sessions": 1,
        "devices": 1,
        "guests": 1,
        "mail_log": 1,
        "events": 3,
        "brought": 0,
        "out_of_time": False,
    }
    assert (
        "retention: deleted 1 expired sessions (1 device records), 1 idle guests, 1 mail-log entries, "
        "3 events of abandoned records" in caplog.text
    )
    assert list(UserSession.objects.values_list("session_key", flat=True)) == ["live"]
    assert tasks.apply_retention.apply().get() == dict.fromkeys(first, 0) | {"out_of_time": False}


def test_beat_runs_retention_at_a_quiet_hour_and_the_old_guest_task_still_runs(settings, db):
    entry = settings.CELERY_BEAT_SCHEDULE["apply-retention"]
    assert entry["task"] == "puzzles.tasks.apply_retention" and entry["schedule"].hour == {3}
    assert "delete-idle-guests" not in settings.CELERY_BEAT_SCHEDULE
    # A message queued under the old name before the change still finds its task.
    assert "puzzles.tasks.delete_idle_guests" in app.tasks
    assert tasks.delete_idle_guests.apply().get() == 0


def test_a_run_past_its_deadline_starts_no_new_batch_and_says_so():
    User.objects.create_user("ada")
    make_session("expired", timezone.now() - DAY)
    removed = retention.retention_apply(budget_seconds=0)
    assert removed.out_of_time and removed.sessions == 0 and Session.objects.count() == 1
