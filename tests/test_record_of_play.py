"""The record of play (models/play.py) as the server writes it: one event per save, submit, open,
close, hint and check, stamped on arrival, with the moves the board sent and the server's own count
of the cells each write filled; bounded, and written with the write or not at all.

Through the API, so on PostgreSQL the saves and beats take the one-statement path and on SQLite
the locking path; the last tests hold the two paths to the same events.
"""

from __future__ import annotations

import datetime
from unittest import mock

import pytest
import time_machine
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from puzzles.fairplay import judge
from puzzles.fairplay.ranking import CHECKING
from puzzles.models import Attempt, PlayEvent, Solve
from puzzles.play import attempts
from puzzles.record_of_play.events import RecordFull
from puzzles.record_of_play.moves import MOVES_PER_WRITE, moves_clean, unpack

from .factories import EASY_GIVENS, player_digits, post, url

pytestmark = pytest.mark.django_db

EMPTY = "0" * 81
FULL = player_digits()  # the player's digits of the solved grid
EMPTY_CELLS = EASY_GIVENS.count("0")
# The first empty cells of the known easy puzzle and their solution's digits: r1c1 is 4, r1c2 8.
R1C1, R1C2, R1C4 = 0, 1, 3


def with_digits(entries: dict[int, str], digits: str = EMPTY) -> str:
    cells = list(digits)
    for cell, digit in entries.items():
        assert EASY_GIVENS[cell] == "0"
        cells[cell] = digit
    return "".join(cells)


@pytest.fixture
def clock():
    with time_machine.travel(timezone.now(), tick=False) as traveller:
        yield traveller


def save(client: Client, daily, version: int, digits: str, moves: object = "absent"):
    body = {"version": version, "digits": digits}
    if moves != "absent":
        body["moves"] = moves
    return post(client, url(daily, "save"), body)


def submit(client: Client, daily, version: int, digits: str, moves: object = "absent"):
    body = {"version": version, "digits": digits}
    if moves != "absent":
        body["moves"] = moves
    return post(client, url(daily, "submit"), body)


def beat(client: Client, daily, phase: str | None) -> None:
    response = post(client, url(daily, "beat"), {} if phase is None else {"phase": phase})
    assert response.status_code == 200, response.content


def events() -> list[PlayEvent]:
    return list(PlayEvent.objects.order_by("id"))


def kinds() -> list[str]:
    return [event.kind for event in events()]


def as_stored() -> dict:
    """Everything a refused write must leave as it was: the attempt's row, its events, any solve."""
    row = Attempt.objects.values(
        "digits", "version", "saved_at", "active_seconds", "last_beat_at", "moves_logged", "wrong_submissions"
    ).get()
    rows = list(PlayEvent.objects.order_by("id").values())
    return {"attempt": row, "events": rows, "solves": Solve.objects.count()}


# --- saves and the submit -------------------------------------------------------------------


def test_a_save_logs_one_event_with_the_moves_it_carried_and_the_digits_after_it(player, daily, clock):
    sent = [[1500, "c", [[R1C2, "82"]]], [900, "d", [[R1C1, 4]]], [0, "n", [[R1C4, "19"], [R1C2, ""]]]]
    response = save(player, daily, 0, with_digits({R1C1: "4"}), sent)
    assert response.status_code == 200, response.content

    (event,) = events()
    assert event.kind == PlayEvent.Kind.SAVE and event.arrived_at == timezone.now()
    assert [move.wire() for move in unpack(event.moves)] == [
        [1500, "c", [[R1C2, "28"]]],  # a set is kept in ascending order
        [900, "d", [[R1C1, 4]]],
        [0, "n", [[R1C4, "19"], [R1C2, ""]]],
    ]
    assert unpack(event.moves) == moves_clean(sent)
    assert event.placed == 1 and event.digits == with_digits({R1C1: "4"})
    assert Attempt.objects.get().moves_logged == 3


def test_every_accepted_write_appends_and_leaves_the_earlier_events_as_they_were(player, daily, clock):
    save(player, daily, 0, with_digits({R1C1: "4"}), [[0, "d", [[R1C1, 4]]]])
    first = list(PlayEvent.objects.values())
    clock.shift(3)
    save(player, daily, 1, with_digits({R1C1: "4", R1C2: "8"}), [[200, "d", [[R1C2, 8]]]])
    clock.shift(3)
    save(player, daily, 2, with_digits({R1C1: "4", R1C2: "8"}), [[0, "k", [[R1C2, "3"]]]])
    assert list(PlayEvent.objects.order_by("id").values())[:1] == first
    assert kinds() == ["save"] * 3
    assert [event.placed for event in events()] == [1, 1, 0]
    assert events()[2].arrived_at - events()[0].arrived_at == datetime.timedelta(seconds=6)
    assert Attempt.objects.get().moves_logged == 3


def test_placed_is_the_servers_count_of_cells_filled_whatever_the_moves_say(player, daily):
    # Moves that claim nothing was placed, while the position fills two cells.
    save(player, daily, 0, with_digits({R1C1: "4", R1C2: "8"}), [[0, "c", [[R1C4, "1"]]]])
    # Moves that claim the whole grid was filled, while the position only changes a digit and
    # erases another: an empty cell filled is the only thing counted.
    lies = [[0, "d", [[cell, 1] for cell in range(81) if EASY_GIVENS[cell] == "0"][:81]]]
    save(player, daily, 1, with_digits({R1C1: "5"}), lies)
    # A save with no moves at all that fills three cells.
    save(player, daily, 2, with_digits({R1C1: "5", R1C2: "8", R1C4: "9", 5: "1"}))
    assert [event.placed for event in events()] == [2, 0, 3]


def test_a_save_without_moves_from_an_older_board_is_saved_and_logged_with_none(player, daily):
    for version, moves in enumerate(["absent", None, []]):
        response = save(player, daily, version, with_digits({R1C1: "4"}), moves)
        assert response.status_code == 200 and response.json()["version"] == version + 1
    assert kinds() == ["save"] * 3
    assert all(bytes(event.moves) == b"" for event in events())
    assert [event.placed for event in events()] == [1, 0, 0]
    assert Attempt.objects.get().moves_logged == 0


def test_a_submit_logs_its_event_right_or_wrong_before_the_solve_is_judged(player, daily, clock):
    save(player, daily, 0, with_digits({R1C1: "4"}))
    all_but_r1c1 = with_digits({R1C1: "0"}, FULL)
    wrong = submit(player, daily, 1, all_but_r1c1, [[50, "d", [[R1C1, 0]]]])
    assert wrong.json()["solved"] is False
    assert kinds() == ["save", "submit"]
    # Every empty cell but r1c1 filled; r1c1 had a digit and lost it, which fills nothing.
    assert events()[1].placed == EMPTY_CELLS - 1 and events()[1].digits == all_but_r1c1

    clock.shift(2)
    right = submit(player, daily, 2, FULL, [[10, "d", [[R1C1, 4]]], [0, "d", [[R1C2, 8]]]])
    assert right.json()["solved"] is True
    # The judge, after the answer, reads the record, this submit included.
    solve = Solve.objects.get()
    assert solve.unranked == CHECKING
    assert [event.kind for event in judge.record_of(solve)] == ["save", "submit", "submit"]
    event = events()[-1]
    assert event.kind == "submit" and event.digits == FULL and event.arrived_at == timezone.now()
    assert event.placed == 1
    assert unpack(event.moves) == moves_clean([[10, "d", [[R1C1, 4]]], [0, "d", [[R1C2, 8]]]])
    assert Attempt.objects.get().moves_logged == 3


def test_a_stale_save_and_a_solved_puzzles_writes_log_nothing(player, daily):
    save(player, daily, 0, with_digits({R1C1: "4"}), [[0, "d", [[R1C1, 4]]]])
    assert save(player, daily, 0, with_digits({R1C2: "8"}), [[0, "d", [[R1C2, 8]]]]).status_code == 409
    assert submit(player, daily, 0, FULL, [[0, "d", [[R1C2, 8]]]]).status_code == 409
    assert kinds() == ["save"] and Attempt.objects.get().moves_logged == 1

    assert submit(player, daily, 1, FULL).json()["solved"] is True
    before = as_stored()
    assert save(player, daily, 2, FULL, [[0, "k", [[R1C1, "1"]]]]).status_code == 409
    assert submit(player, daily, 2, FULL, [[0, "k", [[R1C1, "1"]]]]).json()["solved"] is True  # as before
    for phase in ("open", "tick", "close"):
        beat(player, daily, phase)
    assert as_stored() == before


BAD_MOVES = [
    "moves",
    {"0": [0, "d", [[0, 4]]]},
    [[0, "d"]],
    [[0, "z", [[R1C1, 4]]]],
    [[0, "d", [[81, 4]]]],
    [[0, "d", [[R1C1, 10]]]],
    [[0, "d", [[R1C1, "4"]]]],
    [[0, "c", [[R1C1, "11"]]]],
    [[0, "c", [[R1C1, "0"]]]],
    [[0, "d", [[R1C1, 4], [R1C1, 5]]]],
    [[0, "d", []]],
    [[-1, "d", [[R1C1, 4]]]],
    [[True, "d", [[R1C1, 4]]]],
    [[5, "d", [[R1C1, 4]]], [9, "d", [[R1C2, 8]]]],  # ages grow: not oldest first
    [[0, "d", [[R1C1, 4]]]] * (MOVES_PER_WRITE + 1),
]


@pytest.mark.parametrize("moves", BAD_MOVES)
def test_bad_moves_are_refused_with_400_and_nothing_is_saved_or_logged(player, daily, clock, moves):
    beat(player, daily, "open")
    save(player, daily, 0, with_digits({R1C1: "4"}))
    clock.shift(5)
    before = as_stored()
    response = save(player, daily, 1, with_digits({R1C1: "4", R1C2: "8"}), moves)
    assert response.status_code == 400 and response.json()["error"]
    assert as_stored() == before  # the position, its version and the clock too
    response = submit(player, daily, 1, FULL, moves)
    assert response.status_code == 400 and response.json()["error"]
    assert as_stored() == before


def test_bad_moves_on_a_visitors_first_write_make_no_guest(client, daily):
    response = save(client, daily, 0, with_digits({R1C1: "4"}), [[0, "d", [[R1C1, 40]]]])
    assert response.status_code == 400 and "digit" in response.json()["error"]
    assert not User.objects.exists() and not Attempt.objects.exists() and not PlayEvent.objects.exists()


# --- the bound ------------------------------------------------------------------------------


def test_a_write_past_the_bound_is_refused_with_413_and_changes_nothing(player, daily, clock, settings):
    settings.PLAY_MOVES_PER_ATTEMPT = 3
    beat(player, daily, "open")
    two = [[100, "d", [[R1C1, 4]]], [0, "d", [[R1C1, 5]]]]
    assert save(player, daily, 0, with_digits({R1C1: "5"}), two).status_code == 200
    clock.shift(4)
    before = as_stored()
    response = save(player, daily, 1, with_digits({R1C1: "5", R1C2: "8"}), two)
    assert response.status_code == 413
    assert "record of play" in response.json()["error"] and "full" in response.json()["error"]
    assert response.json()["record_full"] is True
    assert submit(player, daily, 1, FULL, two).status_code == 413
    assert as_stored() == before

    # Up to the bound exactly, then a write without moves still goes through: the board's way on.
    assert save(player, daily, 1, with_digits({R1C1: "4"}), [[0, "d", [[R1C1, 4]]]]).status_code == 200
    assert save(player, daily, 2, with_digits({R1C1: "4", R1C2: "8"}), [[0, "d", [[R1C2, 8]]]]).status_code == 413
    assert save(player, daily, 2, with_digits({R1C1: "4", R1C2: "8"})).status_code == 200
    assert submit(player, daily, 3, FULL).json()["solved"] is True
    assert kinds() == ["open", "save", "save", "save", "submit"]
    assert Attempt.objects.get().moves_logged == 3


# --- the clock's events, hints and checks ---------------------------------------------------


def test_open_and_close_are_logged_and_ticks_are_not(player, daily, clock):
    beat(player, daily, "open")
    clock.shift(10)
    beat(player, daily, "tick")
    clock.shift(10)
    beat(player, daily, None)  # the board's old tick
    save(player, daily, 0, with_digits({R1C1: "4"}))
    clock.shift(5)
    beat(player, daily, "close")
    clock.shift(60)
    beat(player, daily, "open")
    assert kinds() == ["open", "save", "close", "open"]
    opened, _, closed, reopened = events()
    assert closed.arrived_at - opened.arrived_at == datetime.timedelta(seconds=25)
    assert reopened.arrived_at - closed.arrived_at == datetime.timedelta(seconds=60)
    assert [event.digits for event in events()] == [EMPTY] + [with_digits({R1C1: "4"})] * 3
    assert all(event.placed == 0 and bytes(event.moves) == b"" for event in (opened, closed, reopened))


def test_a_visitors_heartbeat_makes_no_player_and_logs_nothing(client, daily):
    for phase in ("open", "tick", "close"):
        beat(client, daily, phase)
    assert not User.objects.exists() and not PlayEvent.objects.exists()


def test_a_hint_shown_and_a_check_are_logged(player, daily, clock):
    save(player, daily, 0, with_digits({R1C1: "4"}))
    hint = post(player, url(daily, "hint"), {"digits": with_digits({R1C1: "4"})})
    assert hint.status_code == 200 and hint.json()["stage"] == 1
    check = post(player, url(daily, "check"), {"digits": with_digits({R1C1: "5"})})
    assert check.status_code == 200 and check.json()["wrong"] == [R1C1]
    assert kinds() == ["save", "hint", "check"]
    # The digits are the stored position's: what was sent with the hint or check is not saved.
    assert all(event.digits == with_digits({R1C1: "4"}) for event in events())
    assert all(event.placed == 0 and event.arrived_at == timezone.now() for event in events()[1:])


def test_a_refused_hint_logs_nothing(player, daily):
    assert post(player, url(daily, "hint"), {"digits": "x"}).status_code == 400
    assert post(player, url(daily, "check"), {"digits": "9" * 81}).status_code == 400
    assert not PlayEvent.objects.exists()


# --- both paths -------------------------------------------------------------------------------


def play(user: User, daily, now: datetime.datetime) -> list[tuple]:
    """A morning's play through the services; the events it left, without their ids."""
    moves = [[300, "d", [[R1C1, 4]]], [0, "c", [[R1C2, "8"]]]]
    with time_machine.travel(now, tick=False) as clock:
        attempts.attempt_beat(user, daily, "open")
        attempts.attempt_save(user, daily, version=0, digits=with_digits({R1C1: "4", R1C2: "8"}), **NO_MARKS)
        clock.shift(4)
        attempts.attempt_save(user, daily, version=1, digits=with_digits({R1C1: "4"}), moves=moves, **NO_MARKS)
        clock.shift(4)
        attempts.attempt_beat(user, daily, "tick")
        again = with_digits({R1C2: "8", R1C4: "9", 5: "1"})
        attempts.attempt_save(user, daily, version=2, digits=again, moves=moves[:1], **NO_MARKS)
        with pytest.raises(attempts.StaleSave):
            attempts.attempt_save(user, daily, version=2, digits=EMPTY, moves=moves, **NO_MARKS)
        with pytest.raises(RecordFull):
            attempts.attempt_save(user, daily, version=3, digits=EMPTY, moves=moves, **NO_MARKS)
        attempts.attempt_beat(user, daily, "close")
    rows = PlayEvent.objects.filter(attempt__user=user).order_by("id")
    found = [(e.kind, e.arrived_at, bytes(e.moves), e.placed, e.digits, e.clock) for e in rows]
    return [*found, Attempt.objects.get(user=user).moves_logged]


NO_MARKS = {"corner": None, "centre": None}


@pytest.mark.postgres
def test_both_paths_log_the_same_events(postgres, daily, settings):
    settings.PLAY_MOVES_PER_ATTEMPT = 4
    now = timezone.now()
    one = play(User.objects.create_user("one"), daily, now)
    with mock.patch.object(attempts, "_write_in_one_statement", return_value=None):
        locking = play(User.objects.create_user("locking"), daily, now)
    assert one == locking
    assert [row[0] for row in one[:-1]] == ["open", "save", "save", "save", "close"]
    assert [row[3] for row in one[:-1]] == [0, 2, 0, 3, 0]
    assert [row[5] for row in one[:-1]] == [0, 0, 4, 8, 8]  # each event keeps the clock after it
    assert one[-1] == 3
