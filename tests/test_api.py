"""The board's JSON API (views/api.py): saves, heartbeats and submits, and who may send them."""

import datetime
import json

import pytest
import time_machine
from django.contrib.auth.models import User
from django.test import Client
from django.test.client import MULTIPART_CONTENT
from django.utils import timezone

from puzzles.models import Attempt, PlayEvent, Solve
from puzzles.play import attempts
from puzzles.record_of_play.moves import MAX_AGE_MS, MOVES_PER_WRITE
from puzzles.views.api import WRITE_BODY_BYTES

from .factories import EASY_SOLUTION, player_digits, post, url

pytestmark = pytest.mark.django_db

SOLUTION = EASY_SOLUTION


# --- saving ---------------------------------------------------------------------------------


def test_a_save_stores_digits_and_notes_and_bumps_the_version(player, daily):
    digits = "4" + "0" * 80
    corner = [""] * 81
    corner[1] = "58"
    response = post(player, url(daily, "save"), {"version": 0, "digits": digits, "corner": corner, "centre": [""] * 81})
    assert response.status_code == 200 and response.json()["version"] == 1
    attempt = Attempt.objects.get()
    assert attempt.digits == digits and attempt.corner[1] == "58"
    state = player.get(url(daily, "state")).json()
    assert state["digits"] == digits and state["version"] == 1 and "solution" not in state


def test_a_stale_save_is_refused_with_409_and_the_newest_state(player, daily):
    post(player, url(daily, "save"), {"version": 0, "digits": "4" + "0" * 80})
    response = post(player, url(daily, "save"), {"version": 0, "digits": "0" * 80 + "2"})
    assert response.status_code == 409
    assert response.json()["state"]["digits"] == "4" + "0" * 80
    assert Attempt.objects.get().digits == "4" + "0" * 80


@pytest.mark.parametrize(
    ("payload", "status"),
    [
        ({"version": 0, "digits": "12"}, 400),
        ({"version": 0, "digits": "x" * 81}, 400),
        ({"version": 0, "digits": "9" * 81}, 400),  # overwrites givens
        ({"version": "0", "digits": "0" * 81}, 400),
        ({"version": 0, "digits": "0" * 81, "corner": ["1"] * 80}, 400),
        ({"version": 0, "digits": "0" * 81, "centre": ["11"] + [""] * 80}, 400),
        ({"version": 0, "digits": "0" * 81, "corner": ["<script>"] + [""] * 80}, 400),
        ({"version": 1, "digits": "0" * 81, "moves": [[0, "d", [[0, 4]], "extra"]]}, 400),
        ({"version": 1, "digits": "0" * 81, "moves": [[0, "d", [[90, 4]]]]}, 400),
        ([1, 2, 3], 400),
        ("{not json", 400),
        ({"version": 0, "digits": "0" * 81, "pad": "x" * WRITE_BODY_BYTES}, 413),
    ],
)
def test_malformed_oversized_or_tampered_saves_get_a_4xx_and_change_nothing(player, daily, payload, status):
    post(player, url(daily, "save"), {"version": 0, "digits": "4" + "0" * 80})
    response = post(player, url(daily, "save"), payload)
    assert response.status_code == status
    assert "error" in response.json()
    attempt = Attempt.objects.get()
    assert attempt.digits == "4" + "0" * 80 and attempt.version == 1
    assert PlayEvent.objects.count() == 1 and attempt.moves_logged == 0


def test_a_save_with_as_many_moves_as_a_write_may_carry_fits_in_a_request(player, daily):
    # Each a digit in one cell, sent with the fullest position a board can have.
    moves = [[MAX_AGE_MS - age, "d", [[80, 9]]] for age in range(MOVES_PER_WRITE)]
    full_notes = ["123456789"] * 81
    body = {"version": 0, "digits": "0" * 81, "corner": full_notes, "centre": full_notes, "colours": full_notes}
    response = post(player, url(daily, "save"), {**body, "moves": moves})
    assert response.status_code == 200, response.content
    assert Attempt.objects.get().moves_logged == MOVES_PER_WRITE


@pytest.fixture
def strict(user, daily):
    """The player's client with Django's CSRF check on, as in a browser, sending the token the
    board sends. The check reads a form or multipart body before any view does."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    client.get(url(daily, "state"))  # sets the CSRF cookie, as the board's first request does
    client.defaults["HTTP_X_CSRFTOKEN"] = client.cookies["csrftoken"].value
    return client


@pytest.mark.parametrize("endpoint", ["save", "beat", "submit", "hint"])
@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        ({"version": 0, "digits": "4" + "0" * 80}, MULTIPART_CONTENT),  # a form with a file field's encoding
        ("version=0&digits=4", "application/x-www-form-urlencoded"),  # a plain HTML form
        ('{"version": 0, "digits": "4"}', "text/plain"),  # what a cross-site form may send unasked
        ('{"version": 0}', "application/jsonp"),
        (b"", None),  # no body, no content type
    ],
)
def test_a_write_not_sent_as_json_gets_415_and_changes_nothing(strict, daily, endpoint, body, content_type):
    post(strict, url(daily, "save"), {"version": 0, "digits": "4" + "0" * 80})
    if content_type is None:
        response = strict.generic("POST", url(daily, endpoint), body)
    else:
        response = strict.post(url(daily, endpoint), body, content_type=content_type)
    assert response.status_code == 415
    assert "JSON" in response.json()["error"] and response["Accept"] == "application/json"
    attempt = Attempt.objects.get()
    assert attempt.digits == "4" + "0" * 80 and attempt.version == 1 and attempt.hints_used == 0


@pytest.mark.parametrize("content_type", ["multipart/form-data; boundary=x", "multipart/form-data"])
def test_a_body_that_is_no_multipart_form_at_all_is_a_400_before_the_api_and_changes_nothing(
    strict, daily, content_type
):
    # Django's parser refuses it as sudokusite/input_checks.py reads it, before the CSRF check and
    # any view: the API's JSON 400, never a 500.
    post(strict, url(daily, "save"), {"version": 0, "digits": "4" + "0" * 80})
    response = strict.post(url(daily, "save"), b"x" * 2000, content_type=content_type)
    assert response.status_code == 400 and response.json()["error"]
    assert Attempt.objects.get().version == 1


def test_json_with_a_charset_is_json(player, daily):
    body = json.dumps({"version": 0, "digits": "4" + "0" * 80})
    response = player.post(url(daily, "save"), body, content_type="application/json; charset=utf-8")
    assert response.status_code == 200 and response.json()["version"] == 1


def test_the_api_needs_a_player_and_a_csrf_token(daily):
    # A visitor's write is played as a new guest (tests/test_guests.py), never refused as logged out.
    assert post(Client(), url(daily, "save"), {"version": 0, "digits": "0" * 81}).status_code == 200
    refused = post(Client(enforce_csrf_checks=True), url(daily, "save"), {"version": 0, "digits": "0" * 81})
    assert refused.status_code == 403 and "reload" in refused.json()["error"]
    user = User.objects.create_user("ada", password="a long enough password 1")
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    assert post(strict, url(daily, "save"), {"version": 0, "digits": "0" * 81}).status_code == 403
    assert "csrftoken" in strict.get(url(daily, "state")).cookies  # the board's first request sets it
    token = strict.cookies["csrftoken"].value
    assert (
        post(strict, url(daily, "save"), {"version": 0, "digits": "0" * 81}, HTTP_X_CSRFTOKEN=token).status_code == 200
    )
    assert "csrftoken" not in strict.get(url(daily, "state")).cookies  # and leaves it alone after


def test_no_answer_of_the_api_may_be_kept_by_a_cache(player, user, daily):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    answers = {
        "state": player.get(url(daily, "state")),
        "save": post(player, url(daily, "save"), {"version": 0, "digits": "4" + "0" * 80}),
        "stale save": post(player, url(daily, "save"), {"version": 0, "digits": "0" * 81}),
        "bad JSON": post(player, url(daily, "save"), "{not json"),
        "not JSON": player.post(url(daily, "beat"), "{}", content_type="text/plain"),
        "wrong method": player.get(url(daily, "save")),
        "no such puzzle": player.get("/api/daily/1999-01-01/easy/state/"),
        "impossible date": player.get("/api/daily/2026-02-30/easy/state/"),  # the resolver's 404
        "logged out": Client().get(url(daily, "state")),
        "no CSRF token": post(strict, url(daily, "save"), {"version": 1, "digits": "0" * 81}),
    }
    assert {name: response["Cache-Control"] for name, response in answers.items()} == dict.fromkeys(
        answers, "private, no-store"
    )


def test_one_player_can_never_touch_another_players_attempt(player, daily):
    other = User.objects.create_user("mallory", password="a long enough password 1")
    theirs = attempts.attempt_open(other, daily)
    attempts.attempt_save(other, daily, version=0, digits="4" + "0" * 80, corner=None, centre=None)
    # Our save goes to our own attempt, whatever the payload says.
    post(player, url(daily, "save"), {"version": 0, "digits": "0" * 80 + "2", "attempt": theirs.pk, "user": other.pk})
    theirs.refresh_from_db()
    assert theirs.digits == "4" + "0" * 80
    assert player.get(url(daily, "state")).json()["digits"] == "0" * 80 + "2"


# --- colours and the time of the save --------------------------------------------------------

STATE_KEYS = {
    *("givens", "digits", "corner", "centre", "colours", "version", "saved_at", "elapsed", "solved"),
    *("solve_seconds", "hint_stage", "checks", "hints", "started", "player"),
}


def coloured(**cells: str) -> list[str]:
    """81 colour strings, `c<cell>="<indices>"` set."""
    colours = [""] * 81
    for name, value in cells.items():
        colours[int(name[1:])] = value
    return colours


def test_colours_round_trip_sorted_and_stay_on_givens(player, daily):
    # Cell 2 holds a given (3): players colour given cells, so its colours are kept, unlike notes.
    corner = [""] * 81
    corner[2] = "12"
    colours = coloured(c0="93", c2="5", c80="123456789")
    response = post(
        player, url(daily, "save"), {"version": 0, "digits": "4" + "0" * 80, "corner": corner, "colours": colours}
    )
    assert response.status_code == 200
    expected = coloured(c0="39", c2="5", c80="123456789")
    assert Attempt.objects.get().colours == expected
    assert Attempt.objects.get().corner[2] == ""  # notes on a given are blanked, colours are not
    assert player.get(url(daily, "state")).json()["colours"] == expected


def test_a_save_without_colours_clears_them(player, daily):
    post(player, url(daily, "save"), {"version": 0, "digits": "0" * 81, "colours": coloured(c0="1")})
    post(player, url(daily, "save"), {"version": 1, "digits": "0" * 81})
    assert Attempt.objects.get().colours == [""] * 81
    assert player.get(url(daily, "state")).json()["colours"] == [""] * 81


@pytest.mark.parametrize(
    "colours",
    [
        ["1"] * 80,
        ["1"] * 82,
        "1" * 81,
        {"0": "1"},
        coloured(c4="11"),
        coloured(c4="0"),
        coloured(c4="a"),
        coloured(c4="1234567890"),
        [1] + [""] * 80,
        [None] + [""] * 80,
        [["1"]] + [""] * 80,
    ],
)
def test_malformed_colours_get_400_and_change_nothing(player, daily, colours):
    post(player, url(daily, "save"), {"version": 0, "digits": "4" + "0" * 80, "colours": coloured(c0="2")})
    before = Attempt.objects.values().get()
    response = post(player, url(daily, "save"), {"version": 1, "digits": "5" + "0" * 80, "colours": colours})
    assert response.status_code == 400 and "colours" in response.json()["error"]
    assert Attempt.objects.values().get() == before


def test_the_state_has_every_key_the_board_reads(player, daily):
    assert set(player.get(url(daily, "state")).json()) == STATE_KEYS  # never started: the same keys
    post(player, url(daily, "save"), {"version": 0, "digits": "4" + "0" * 80})
    state = player.get(url(daily, "state")).json()
    assert set(state) == STATE_KEYS and state["checks"] == 0


def test_saved_at_is_the_last_save_or_submit_in_milliseconds_and_heartbeats_leave_it(player, daily):
    start = timezone.now().replace(microsecond=250_000)
    with time_machine.travel(start, tick=False) as clock:
        assert player.get(url(daily, "state")).json()["saved_at"] is None
        post(player, url(daily, "beat"), {"phase": "open"})
        assert player.get(url(daily, "state")).json()["saved_at"] is None  # a heartbeat is no save
        clock.shift(2)
        post(player, url(daily, "save"), {"version": 0, "digits": "4" + "0" * 80})
        saved = int(start.timestamp()) * 1000 + 250 + 2000
        assert player.get(url(daily, "state")).json()["saved_at"] == saved
        clock.shift(5)
        post(player, url(daily, "beat"), {})
        post(player, url(daily, "beat"), {"phase": "close"})
        assert player.get(url(daily, "state")).json()["saved_at"] == saved
        clock.shift(1)
        post(player, url(daily, "submit"), {"version": 1, "digits": "4" + "0" * 80})  # not full: not solved
        assert player.get(url(daily, "state")).json()["saved_at"] == saved + 6000
    assert Attempt.objects.get().saved_at == start + datetime.timedelta(seconds=8)


def test_a_stale_save_answers_the_newest_state_with_its_colours_and_time(player, daily):
    post(player, url(daily, "save"), {"version": 0, "digits": "4" + "0" * 80, "colours": coloured(c7="12")})
    response = post(player, url(daily, "save"), {"version": 0, "digits": "0" * 81, "colours": coloured(c7="3")})
    assert response.status_code == 409
    state = response.json()["state"]
    assert state["colours"][7] == "12" and state["saved_at"] is not None and state["checks"] == 0
    assert Attempt.objects.get().colours[7] == "12"


def test_a_submit_leaves_the_colours_as_they_are(player, daily):
    post(player, url(daily, "save"), {"version": 0, "digits": "0" * 81, "colours": coloured(c0="4", c2="7")})
    response = post(player, url(daily, "submit"), {"version": 1, "digits": player_digits(SOLUTION)})
    assert response.json()["solved"] is True
    assert response.json()["state"]["colours"] == coloured(c0="4", c2="7")
    assert Attempt.objects.get().colours == coloured(c0="4", c2="7")


def test_a_solved_puzzles_save_is_refused_with_its_state(player, daily):
    post(player, url(daily, "submit"), {"version": 0, "digits": player_digits(SOLUTION)})
    response = post(player, url(daily, "save"), {"version": 1, "digits": "0" * 81, "colours": coloured(c0="1")})
    assert response.status_code == 409 and response.json()["state"]["solved"] is True
    assert Attempt.objects.get().colours == [""] * 81


# --- starting an attempt --------------------------------------------------------------------


def test_reading_the_state_starts_nothing(player, daily):
    # A GET from anywhere (a link on another site, say) shows the empty position and writes nothing.
    for _ in range(2):
        state = player.get(url(daily, "state")).json()
        assert state["started"] is False and not state["solved"]
        assert (state["version"], state["elapsed"], state["digits"]) == (0, 0, "0" * 81)
    assert not Attempt.objects.exists()


def test_the_first_save_starts_the_attempt_from_version_0(player, daily):
    player.get(url(daily, "state"))
    response = post(player, url(daily, "save"), {"version": 0, "digits": "4" + "0" * 80})
    assert response.status_code == 200 and response.json() == {"version": 1, "elapsed": 0}
    state = player.get(url(daily, "state")).json()
    assert state["started"] is True and state["version"] == 1 and state["digits"] == "4" + "0" * 80


def test_a_stale_save_on_a_puzzle_never_started_is_refused_and_starts_nothing(player, daily):
    response = post(player, url(daily, "save"), {"version": 3, "digits": "4" + "0" * 80})
    assert response.status_code == 409 and response.json()["state"]["version"] == 0
    assert not Attempt.objects.exists()


def test_a_hint_on_a_puzzle_never_started_starts_it(player, daily):
    response = post(player, url(daily, "hint"), {"digits": "0" * 81})
    assert response.status_code == 200 and response.json()["stage"] == 1
    assert Attempt.objects.get().hints_used == 1


# --- time -----------------------------------------------------------------------------------


def test_the_server_counts_active_time_from_heartbeats_and_a_long_gap_only_up_to_the_limit(player, daily, settings):
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        assert player.get(url(daily, "state")).json()["started"] is False  # reading starts nothing
        assert post(player, url(daily, "beat"), {}).json()["elapsed"] == 0  # the board's first beat starts the clock
        clock.shift(10)
        assert post(player, url(daily, "beat"), {}).json()["elapsed"] == 10
        clock.shift(10)
        post(player, url(daily, "beat"), {})
        clock.shift(settings.HEARTBEAT_GAP_SECONDS + 600)  # the laptop slept, no close: only up to the limit
        assert post(player, url(daily, "beat"), {}).json()["elapsed"] == 20 + settings.HEARTBEAT_GAP_SECONDS
        clock.shift(5)
        assert (
            post(player, url(daily, "beat"), {"elapsed": 99999}).json()["elapsed"]
            == 25 + settings.HEARTBEAT_GAP_SECONDS
        )


# --- solving --------------------------------------------------------------------------------


def test_a_wrong_grid_gets_a_message_and_the_game_goes_on(player, daily):
    player.get(url(daily, "state"))
    wrong = list(SOLUTION)
    wrong[0], wrong[1] = wrong[1], wrong[0]  # r1c1 and r1c2 are both empty cells in GIVENS
    response = post(player, url(daily, "submit"), {"version": 0, "digits": player_digits("".join(wrong))})
    assert response.status_code == 200 and response.json()["solved"] is False
    assert "Not quite" in response.json()["message"]
    assert not Solve.objects.exists()
    assert SOLUTION not in response.content.decode()


def test_the_right_grid_is_recorded_once_with_the_servers_time(player, daily):
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        player.get(url(daily, "state"))
        post(player, url(daily, "beat"), {})  # the board's first beat, as it loads
        clock.shift(8)
        post(player, url(daily, "beat"), {})
        clock.shift(4)
        response = post(player, url(daily, "submit"), {"version": 0, "digits": player_digits(SOLUTION), "seconds": 1})
    body = response.json()
    assert body["solved"] is True and body["seconds"] == 12
    again = post(player, url(daily, "submit"), {"version": 1, "digits": player_digits(SOLUTION)})
    assert again.json()["solved"] is True
    assert Solve.objects.count() == 1 and Solve.objects.get().seconds == 12
    # A solved puzzle's progress no longer changes.
    assert post(player, url(daily, "save"), {"version": 1, "digits": "0" * 81}).status_code == 409


def test_the_database_allows_one_solve_per_player_and_daily(player, daily):
    from django.db import IntegrityError

    player.get(url(daily, "state"))
    post(player, url(daily, "submit"), {"version": 0, "digits": player_digits(SOLUTION)})
    solve = Solve.objects.get()
    with pytest.raises(IntegrityError):
        Solve.objects.create(attempt=solve.attempt, user=solve.user, daily=solve.daily, seconds=1)
