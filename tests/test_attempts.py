"""A player's attempt: the state the board reads, and the clock rule of the one-statement writes
against the locking path's."""

from __future__ import annotations

import datetime

import pytest
import time_machine
from django.contrib.auth.models import User
from django.utils import timezone

from puzzles import attempts
from puzzles.models import Attempt

from .factories import EASY_GIVENS, EASY_SOLUTION, player_digits

pytestmark = pytest.mark.django_db

GIVENS, SOLUTION = EASY_GIVENS, EASY_SOLUTION

# Seconds since the last sign of life: within the gap, at its edge, past it, and a clock that
# stepped backwards.
GAPS = [0.0, 0.4, 12.25, 29.999, 30.0, 30.001, 31.0, 3600.0, -5.0]


def started(daily, gap: float, now: datetime.datetime) -> Attempt:
    user = User.objects.create_user("ada")
    attempt = attempts.attempt_open(user, daily)
    Attempt.objects.filter(pk=attempt.pk).update(
        last_beat_at=now - datetime.timedelta(seconds=gap), active_seconds=100.0
    )
    return Attempt.objects.select_related("solve").get(pk=attempt.pk)


def by_the_locking_path(attempt: Attempt, now: datetime.datetime) -> float:
    attempts._advance_clock(attempt, now)
    return attempt.active_seconds


@pytest.mark.postgres
@pytest.mark.parametrize("gap", GAPS)
def test_a_heartbeat_in_one_statement_counts_the_time_the_locking_path_counts(postgres, todays_easy, gap):
    now = timezone.now()
    attempt = started(todays_easy, gap, now)
    expected = by_the_locking_path(attempt, now)
    with time_machine.travel(now, tick=False):
        saved = attempts._write_in_one_statement(attempt.user, todays_easy)
    assert saved is not None
    assert saved.active_seconds == pytest.approx(expected, abs=1e-6)
    assert Attempt.objects.get(pk=attempt.pk).last_beat_at == now


@pytest.mark.postgres
@pytest.mark.parametrize("gap", GAPS)
def test_a_save_in_one_statement_counts_the_time_the_locking_path_counts(postgres, todays_easy, gap):
    now = timezone.now()
    attempt = started(todays_easy, gap, now)
    expected = by_the_locking_path(attempt, now)
    clean = attempts.position_clean(todays_easy.puzzle.givens, "4" + "0" * 80)
    with time_machine.travel(now, tick=False):
        saved = attempts._write_in_one_statement(attempt.user, todays_easy, 0, clean)
    assert saved is not None and saved.version == 1
    assert saved.active_seconds == pytest.approx(expected, abs=1e-6)


@pytest.mark.postgres
def test_a_save_in_one_statement_matches_nothing_on_a_stale_version(postgres, todays_easy):
    now = timezone.now()
    attempt = started(todays_easy, 5.0, now)
    clean = attempts.position_clean(todays_easy.puzzle.givens, "4" + "0" * 80)
    assert attempts._write_in_one_statement(attempt.user, todays_easy, 3, clean) is None
    assert Attempt.objects.get(pk=attempt.pk).version == 0


# --- the state ------------------------------------------------------------------------------


def test_the_state_read_in_one_written_out_query_is_what_the_orm_reads(daily, django_assert_num_queries):
    # attempt_read writes out the query that attempt_open builds with the ORM; they must agree,
    # in every state of an attempt, and the read must stay one query with its solve.
    from puzzles.attempts import Shown, position_key

    def both(user):
        with django_assert_num_queries(1):  # the solve comes with it, too
            by_hand = attempts.attempt_read(user, daily)
        orm = Shown.of(attempts.attempt_open(user, daily))
        assert by_hand == orm
        assert attempts.attempt_state(by_hand, daily) == attempts.attempt_state(
            attempts.attempt_open(user, daily), daily
        )
        return attempts.attempt_state(by_hand, daily)

    ada = User.objects.create_user("ada", password="x")
    # Never started: the read starts nothing, and shows what a fresh attempt would.
    with django_assert_num_queries(1):
        assert attempts.attempt_read(ada, daily) is None
    fresh = attempts.attempt_state(Attempt(user=ada, daily=daily), daily)
    assert attempts.attempt_state(None, daily) == fresh
    assert not Attempt.objects.filter(user=ada).exists()

    corner = [""] * 81
    corner[1], corner[3] = "27", "139"
    centre = [""] * 81
    centre[1] = "5"
    attempt = attempts.attempt_open(ada, daily)
    attempts.attempt_save(ada, daily, version=0, digits="4" + "0" * 80, corner=corner, centre=centre)
    Attempt.objects.filter(pk=attempt.pk).update(
        hint_stage=2,
        hint_position=position_key("4" + "0" * 80, attempts.position_clean(GIVENS, "4" + "0" * 80, corner, centre)[2]),
    )
    shown = both(ada)
    assert shown["corner"][3] == "139" and shown["hint_stage"] == 2

    result = attempts.attempt_submit(ada, daily, version=1, digits=player_digits(SOLUTION))
    assert result.solved
    shown = both(ada)
    assert shown["solved"] and shown["solve_seconds"] == round(result.solve.seconds, 1)
