"""A player's attempt: the state the board reads, and the clock rule of the one-statement writes
against the locking path's."""

from __future__ import annotations

import datetime
from unittest import mock

import pytest
import time_machine
from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone

from puzzles.fairplay.ranking import CHECKING
from puzzles.models import Attempt, PlayEvent, Solve
from puzzles.play import attempts

from .factories import EASY_GIVENS, EASY_SOLUTION, player_digits

pytestmark = pytest.mark.django_db

GIVENS, SOLUTION = EASY_GIVENS, EASY_SOLUTION

# Seconds since the last sign of life: within the limit (the old limit's 30 s among them), at its
# edge, past it, a clock that stepped backwards, and a clock stopped by a close before these rules
# (None).
LIMIT = settings.HEARTBEAT_GAP_SECONDS
GAPS = [0.0, 0.4, 12.25, 30.001, 95.0, LIMIT - 0.001, LIMIT, LIMIT + 0.001, LIMIT + 1.0, 3600.0, -5.0, None]


def counted(gap: float | None) -> float:
    """What a sign of life of any phase adds to the clock after `gap` seconds of silence: the rule."""
    return 0.0 if gap is None else min(max(gap, 0.0), LIMIT)


def started(daily, gap: float | None, now: datetime.datetime) -> Attempt:
    user = User.objects.create_user("ada")
    attempt = attempts.attempt_open(user, daily)
    Attempt.objects.filter(pk=attempt.pk).update(
        last_beat_at=None if gap is None else now - datetime.timedelta(seconds=gap), active_seconds=100.0
    )
    return Attempt.objects.select_related("solve").get(pk=attempt.pk)


def by_the_locking_path(attempt: Attempt, now: datetime.datetime) -> float:
    attempts._advance_clock(attempt, now)
    return attempt.active_seconds


@pytest.mark.postgres
@pytest.mark.parametrize("phase", attempts.PHASES)
@pytest.mark.parametrize("gap", GAPS)
def test_a_heartbeat_in_one_statement_counts_the_time_the_locking_path_counts(postgres, todays_easy, gap, phase):
    now = timezone.now()
    attempt = started(todays_easy, gap, now)
    with time_machine.travel(now, tick=False):
        saved = attempts._write_in_one_statement(attempt.user, todays_easy, phase=phase)
    assert saved is not None
    assert saved.active_seconds == pytest.approx(100.0 + counted(gap), abs=1e-6)  # an open too
    assert by_the_locking_path(attempt, now) == pytest.approx(saved.active_seconds, abs=1e-6)
    stored = Attempt.objects.get(pk=attempt.pk)
    assert stored.last_beat_at == attempt.last_beat_at  # what the locking path left
    assert stored.last_beat_at == now  # every beat, a close too, is a sign of life
    assert stored.saved_at is None  # a heartbeat is no save


@pytest.mark.postgres
@pytest.mark.parametrize("gap", GAPS)
def test_a_save_in_one_statement_counts_the_time_the_locking_path_counts(postgres, todays_easy, gap):
    now = timezone.now()
    attempt = started(todays_easy, gap, now)
    expected = by_the_locking_path(attempt, now)
    assert expected == pytest.approx(100.0 + counted(gap), abs=1e-6)
    clean = (*attempts.position_clean(todays_easy.puzzle.givens, "4" + "0" * 80), attempts.colours_clean(None))
    with time_machine.travel(now, tick=False):
        saved = attempts._write_in_one_statement(attempt.user, todays_easy, 0, clean)
    assert saved is not None and saved.version == 1
    assert saved.active_seconds == pytest.approx(expected, abs=1e-6)
    stored = Attempt.objects.get(pk=attempt.pk)
    assert stored.last_beat_at == attempt.last_beat_at == now and stored.saved_at == now


def by_the_locking_path_only(call, *args, **kwargs):
    """Call an attempts function with the one-statement path switched off, as on SQLite."""
    with mock.patch.object(attempts, "_write_in_one_statement", return_value=None):
        return call(*args, **kwargs)


@pytest.mark.postgres
@pytest.mark.parametrize("gap", [0.4, 95.0, LIMIT + 1.0, None])
@pytest.mark.parametrize("help", ["none", "hint", "check"])
@pytest.mark.parametrize("late", [False, True])
def test_a_right_submit_by_either_path_leaves_the_same_rows(postgres, todays_easy, gap, help, late):
    # A right submit: in one statement (the solve inserted with the position and the event), and
    # by the locking path, as SQLite takes it. Notes and colours stay; the solve is being checked.
    now = timezone.now() + datetime.timedelta(days=1 if late else 0)
    fields = ["digits", "corner", "centre", "colours", "version", "saved_at", "active_seconds", "last_beat_at"]
    fields += ["moves_logged", "wrong_submissions"]
    solve_fields = ["seconds", "solved_at", "late", "assisted", "flagged", "review", "unranked", "ranked_seconds"]
    solve_fields.append("held")
    event_fields = ["kind", "arrived_at", "moves", "placed", "digits", "clock"]
    rows, solves, logged, answers = [], [], [], []
    for name, locking in (("one", False), ("locking", True)):
        user = User.objects.create_user(name)
        attempt = attempts.attempt_open(user, todays_easy)
        corner = [""] * 81
        corner[1] = "57"
        Attempt.objects.filter(pk=attempt.pk).update(
            last_beat_at=None if gap is None else now - datetime.timedelta(seconds=gap),
            active_seconds=100.0,
            version=3,
            corner=corner,
            hints_used=int(help == "hint"),
            checks_used=int(help == "check"),
        )
        args = {"version": 3, "digits": player_digits(SOLUTION), "moves": [[500, "d", [[0, 4]]]]}
        with time_machine.travel(now, tick=False):
            if locking:
                with mock.patch.object(attempts.fastpath, "submit_in_one_statement", return_value=None):
                    answers.append(attempts.attempt_submit(user, todays_easy, **args))
            else:  # in one statement, never near the lock
                with mock.patch.object(attempts, "attempt_lock", side_effect=AssertionError("the locking path")):
                    answers.append(attempts.attempt_submit(user, todays_easy, **args))
        rows.append(Attempt.objects.filter(pk=attempt.pk).values(*fields).get())
        solves.append(Solve.objects.filter(attempt=attempt).values(*solve_fields).get())
        events = PlayEvent.objects.filter(attempt=attempt).values_list(*event_fields)
        logged.append([(*event[:2], bytes(event[2]), *event[3:5], round(event[5], 6)) for event in events])
    assert logged[0] == logged[1] and len(logged[0]) == 1 and logged[0][0][0] == "submit"
    one, by_lock = rows
    assert one.pop("active_seconds") == pytest.approx(by_lock.pop("active_seconds"), abs=1e-6)
    assert one == by_lock and one["corner"][1] == "57" and one["version"] == 4 and one["moves_logged"] == 1
    first, second = solves
    assert first.pop("seconds") == pytest.approx(second.pop("seconds"), abs=1e-6)
    assert first == second
    assert first["unranked"] == CHECKING and first["late"] == late and first["assisted"] == (help != "none")
    shown = [attempts.attempt_state(answer.shown, todays_easy) for answer in answers]
    assert shown[0].pop("elapsed") == pytest.approx(shown[1].pop("elapsed"), abs=0.1)
    assert shown[0] == shown[1] and shown[0]["solved"] and all(answer.new for answer in answers)


@pytest.mark.postgres
@pytest.mark.parametrize("gap", GAPS)
@pytest.mark.parametrize("write", ["save", *attempts.PHASES])
def test_a_write_by_either_path_leaves_the_same_row(postgres, todays_easy, gap, write):
    # The same write to two players' attempts in the same state: once in one statement, once by
    # the locking path (what SQLite and a never-opened attempt take).
    now = timezone.now()
    colours = [""] * 81
    colours[0], colours[2] = "31", "9"  # cell 3 holds a given: givens keep their colours
    corner = [""] * 81
    corner[1] = "57"
    fields = ["digits", "corner", "centre", "colours", "version", "saved_at", "active_seconds", "last_beat_at"]
    fields.append("moves_logged")
    event_fields = ["kind", "arrived_at", "moves", "placed", "digits"]
    rows, answers, logged = [], [], []
    for name, path in (("one", attempts), ("locking", None)):
        user = User.objects.create_user(name)
        attempt = attempts.attempt_open(user, todays_easy)
        Attempt.objects.filter(pk=attempt.pk).update(
            last_beat_at=None if gap is None else now - datetime.timedelta(seconds=gap), active_seconds=100.0
        )
        if write == "save":
            call, args = attempts.attempt_save, {"version": 0, "digits": "4" + "0" * 80, "corner": corner}
            args.update(centre=None, colours=colours, moves=[[40, "c", [[1, "75"]]], [0, "d", [[0, 4]]]])
        else:
            call, args = attempts.attempt_beat, {"phase": write}
        with time_machine.travel(now, tick=False):
            if path is None:
                answers.append(by_the_locking_path_only(call, user, todays_easy, **args))
            else:
                answers.append(call(user, todays_easy, **args))
        rows.append(Attempt.objects.filter(pk=attempt.pk).values(*fields).get())
        events = PlayEvent.objects.filter(attempt=attempt).order_by("id").values_list(*event_fields)
        logged.append([(*event[:2], bytes(event[2]), *event[3:]) for event in events])
    assert answers[0].version == answers[1].version
    assert logged[0] == logged[1] and len(logged[0]) == (0 if write == attempts.TICK else 1)
    assert answers[0].active_seconds == pytest.approx(answers[1].active_seconds, abs=1e-6)
    assert answers[0].active_seconds == pytest.approx(100.0 + counted(gap), abs=1e-6)  # every phase alike
    one, locking = rows
    assert one.pop("active_seconds") == pytest.approx(locking.pop("active_seconds"), abs=1e-6)
    assert one == locking
    if write == "save":
        assert one["colours"][0] == "13" and one["colours"][2] == "9" and one["corner"][1] == "57"
        assert one["saved_at"] == now and one["moves_logged"] == 2
        assert logged[0][0][3] == 1  # placed: r1c1 was empty


@pytest.mark.postgres
def test_a_save_in_one_statement_matches_nothing_on_a_stale_version(postgres, todays_easy):
    now = timezone.now()
    attempt = started(todays_easy, 5.0, now)
    clean = (*attempts.position_clean(todays_easy.puzzle.givens, "4" + "0" * 80), attempts.colours_clean(None))
    assert attempts._write_in_one_statement(attempt.user, todays_easy, 3, clean) is None
    assert Attempt.objects.get(pk=attempt.pk).version == 0


# --- the state ------------------------------------------------------------------------------


def test_the_state_read_in_one_written_out_query_is_what_the_orm_reads(daily, django_assert_num_queries):
    # attempt_read writes out the query that attempt_open builds with the ORM; they must agree,
    # in every state of an attempt, and the read must stay one query with its solve.
    from puzzles.play.attempts import Shown, position_key

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
    assert both(ada)["saved_at"] is None  # opened, never saved
    colours = [""] * 81
    colours[2] = "42"  # a given's colours are kept
    attempts.attempt_save(ada, daily, version=0, digits="4" + "0" * 80, corner=corner, centre=centre, colours=colours)
    Attempt.objects.filter(pk=attempt.pk).update(
        hint_stage=2,
        hint_position=position_key("4" + "0" * 80, attempts.position_clean(GIVENS, "4" + "0" * 80, corner, centre)[2]),
    )
    shown = both(ada)
    assert shown["corner"][3] == "139" and shown["hint_stage"] == 2
    saved_at = Attempt.objects.get(pk=attempt.pk).saved_at
    assert shown["colours"][2] == "24" and shown["saved_at"] == pytest.approx(saved_at.timestamp() * 1000, abs=1)
    Attempt.objects.filter(pk=attempt.pk).update(checks_used=2, hints_used=3)
    assert both(ada)["checks"] == 2 and both(ada)["hints"] == 3

    result = attempts.attempt_submit(ada, daily, version=1, digits=player_digits(SOLUTION))
    assert result.solved
    shown = both(ada)
    assert shown["solved"] and shown["solve_seconds"] == attempts.tenths(result.solve_seconds)
    # What the submit answers the board (one statement on PostgreSQL) is what a read shows after it.
    assert attempts.attempt_state(result.shown, daily) == shown
