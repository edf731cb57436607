"""The server's clock (attempts.py): every sign of life (an open, a tick, a close, a save, a submit)
counts the time since the one before it, whatever the page said, a silence counting only up to
HEARTBEAT_GAP_SECONDS (minutes: a pause counts as thinking, up to the limit).

Through the API, so on PostgreSQL these take the one-statement path and on SQLite the locking
path; tests/test_attempts.py holds the two paths to the same answers in every phase.
"""

from __future__ import annotations

import pytest
import time_machine
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from puzzles.models import Attempt

from .factories import player_digits, post, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock():
    with time_machine.travel(timezone.now(), tick=False) as traveller:
        yield traveller


def beat(client: Client, daily, phase: str | None = None) -> float:
    """A heartbeat of that phase (none: the board's old tick); the elapsed time it answers."""
    response = post(client, url(daily, "beat"), {} if phase is None else {"phase": phase})
    assert response.status_code == 200, response.content
    assert set(response.json()) == {"elapsed"}
    return response.json()["elapsed"]


def test_opening_a_page_starts_the_attempt_and_counts_from_then(player, daily, clock):
    assert beat(player, daily, "open") == 0
    assert Attempt.objects.get().last_beat_at == timezone.now()
    clock.shift(10)
    assert beat(player, daily, "tick") == 10


def test_the_limit_is_minutes_a_person_may_think_at_a_board_and_the_paused_board_says_so(client, daily, settings):
    assert settings.HEARTBEAT_GAP_SECONDS == 180
    page = client.get(url(daily)).content.decode()
    paused = page[page.index('id="sudoku-paused"') : page.index('id="sudoku-resume"')]
    assert "The clock counts a pause up to 3 minutes." in paused
    howto = client.get(reverse("puzzles:howto")).content.decode()
    assert "when you pause or leave it counts up to 3 minutes, then stops" in howto


def test_an_open_after_a_long_absence_counts_up_to_the_limit(player, daily, clock, settings):
    beat(player, daily, "open")
    clock.shift(8)
    assert beat(player, daily, "tick") == 8
    clock.shift(settings.HEARTBEAT_GAP_SECONDS * 100)  # the laptop slept, no close was sent
    assert beat(player, daily, "open") == 8 + settings.HEARTBEAT_GAP_SECONDS
    clock.shift(5)
    assert beat(player, daily, "tick") == 13 + settings.HEARTBEAT_GAP_SECONDS


def test_an_open_counts_the_time_since_the_last_sign_of_life(player, daily, clock):
    # Another tab opened, say: the time since the first tab's last beat counts once, not twice.
    beat(player, daily, "open")
    clock.shift(20)
    assert beat(player, daily, "open") == 20
    clock.shift(7)
    assert beat(player, daily) == 27


def test_close_then_open_a_minute_later_counts_the_pause(player, daily, clock):
    beat(player, daily, "open")
    clock.shift(10)
    assert beat(player, daily, "close") == 10
    clock.shift(60)
    assert beat(player, daily, "open") == 70
    clock.shift(4)
    assert beat(player, daily, "tick") == 74


def test_a_pause_past_the_limit_counts_the_limit(player, daily, clock, settings):
    limit = settings.HEARTBEAT_GAP_SECONDS
    beat(player, daily, "open")
    clock.shift(10)
    assert beat(player, daily, "close") == 10
    clock.shift(limit)  # at the limit: counted in full
    assert beat(player, daily, "open") == 10 + limit
    beat(player, daily, "close")
    clock.shift(limit + 1)  # a second past it: the limit
    assert beat(player, daily, "open") == 10 + 2 * limit
    clock.shift(limit * 50)
    assert beat(player, daily, "open") == 10 + 3 * limit


def test_a_close_counts_like_a_tick_one_past_the_gap_only_up_to_it(player, daily, clock, settings):
    beat(player, daily, "open")
    clock.shift(settings.HEARTBEAT_GAP_SECONDS)
    assert beat(player, daily, "close") == settings.HEARTBEAT_GAP_SECONDS
    beat(player, daily, "open")
    clock.shift(settings.HEARTBEAT_GAP_SECONDS + 1)
    assert beat(player, daily, "close") == 2 * settings.HEARTBEAT_GAP_SECONDS


@pytest.mark.parametrize("phase", ["tick", None])
def test_a_tick_counts_the_gap_within_the_limit_and_only_up_to_it_past_it(player, daily, clock, settings, phase):
    limit = settings.HEARTBEAT_GAP_SECONDS
    beat(player, daily, "open")
    clock.shift(limit)  # at the limit: counted
    assert beat(player, daily, phase) == limit
    clock.shift(limit * 10)  # past it: the page was asleep, or sent nothing
    assert beat(player, daily, phase) == 2 * limit
    clock.shift(3)  # and counting goes on from the late beat
    assert beat(player, daily, phase) == 2 * limit + 3
    assert beat(player, daily, phase) == 2 * limit + 3  # no time passed


def test_a_tick_after_a_close_counts_the_time_since_the_close(player, daily, clock):
    beat(player, daily, "open")
    clock.shift(5)
    assert beat(player, daily, "close") == 5
    clock.shift(10)
    assert beat(player, daily, "tick") == 15  # the page beats on: it was open after all
    clock.shift(3)
    assert beat(player, daily, "tick") == 18


def test_a_second_close_counts_like_a_tick(player, daily, clock):
    beat(player, daily, "open")
    clock.shift(5)
    beat(player, daily, "close")
    clock.shift(5)
    assert beat(player, daily, "close") == 10


def test_a_save_counts_like_a_tick_and_keeps_the_clock_counting(player, daily, clock):
    beat(player, daily, "open")
    clock.shift(6)
    saved = post(player, url(daily, "save"), {"version": 0, "digits": "4" + "0" * 80})
    assert saved.json() == {"version": 1, "elapsed": 6}
    assert Attempt.objects.get().last_beat_at == timezone.now()
    clock.shift(4)
    assert beat(player, daily, "tick") == 10


def test_a_save_after_a_close_counts_the_time_since_the_close(player, daily, clock, settings):
    beat(player, daily, "open")
    clock.shift(6)
    beat(player, daily, "close")
    clock.shift(20)
    saved = post(player, url(daily, "save"), {"version": 0, "digits": "4" + "0" * 80})
    assert saved.json() == {"version": 1, "elapsed": 26}
    clock.shift(settings.HEARTBEAT_GAP_SECONDS * 10)
    saved = post(player, url(daily, "save"), {"version": 1, "digits": "4" + "0" * 80})
    assert saved.json() == {"version": 2, "elapsed": 26 + settings.HEARTBEAT_GAP_SECONDS}
    assert Attempt.objects.get().last_beat_at == timezone.now()


def test_a_submit_counts_like_a_tick_even_after_a_close(player, daily, clock):
    beat(player, daily, "open")
    clock.shift(9)
    beat(player, daily, "close")
    clock.shift(15)
    wrong = post(player, url(daily, "submit"), {"version": 0, "digits": "4" + "0" * 80})
    assert wrong.json()["solved"] is False
    clock.shift(3)
    solved = post(player, url(daily, "submit"), {"version": 1, "digits": player_digits()})
    assert solved.json()["solved"] is True and solved.json()["seconds"] == 27


def test_a_solved_attempts_clock_never_moves(player, daily, clock):
    beat(player, daily, "open")
    clock.shift(5)
    post(player, url(daily, "submit"), {"version": 0, "digits": player_digits()})
    for phase in ("open", "tick", "close"):
        clock.shift(5)
        assert beat(player, daily, phase) == 5


def elapsed_read(client: Client, daily) -> float:
    return client.get(url(daily, "state")).json()["elapsed"]


def test_the_state_shows_what_the_next_sign_of_life_counts_and_reading_it_counts_nothing(
    player, daily, clock, settings
):
    # A reload: the leaving page's last beat (its close) is still on the way when the new page
    # reads the state. The state already shows the silence since the beat before it, as the new
    # page's open is about to count it; the close that arrives after adds only what follows the open.
    beat(player, daily, "open")
    clock.shift(10)
    beat(player, daily, "tick")
    clock.shift(6)
    assert elapsed_read(player, daily) == 16
    assert Attempt.objects.get().active_seconds == 10  # a read writes nothing
    assert beat(player, daily, "open") == 16
    clock.shift(0.5)
    assert beat(player, daily, "close") == 16.5  # the late close: nothing lost, nothing twice
    # A silence counts up to the limit, in the state as in the next sign of life.
    clock.shift(settings.HEARTBEAT_GAP_SECONDS * 10)
    assert elapsed_read(player, daily) == 16.5 + settings.HEARTBEAT_GAP_SECONDS
    assert beat(player, daily, "open") == 16.5 + settings.HEARTBEAT_GAP_SECONDS


def test_a_solved_attempts_state_shows_the_solve_time_however_long_after(player, daily, clock):
    beat(player, daily, "open")
    clock.shift(5)
    post(player, url(daily, "submit"), {"version": 0, "digits": player_digits()})
    clock.shift(60)
    assert elapsed_read(player, daily) == 5


BAD_PHASES = ["OPEN", "", "stop", None, 1, True, ["open"], {"phase": "open"}, "open "]


@pytest.mark.parametrize("phase", BAD_PHASES)
def test_a_bad_phase_is_refused_with_400_and_changes_nothing(player, daily, clock, phase):
    beat(player, daily, "open")
    clock.shift(5)
    before = Attempt.objects.values("active_seconds", "last_beat_at", "updated_at", "version").get()
    clock.shift(5)
    response = post(player, url(daily, "beat"), {"phase": phase})
    assert response.status_code == 400 and "phase" in response.json()["error"]
    assert response["Cache-Control"] == "private, no-store"
    assert Attempt.objects.values("active_seconds", "last_beat_at", "updated_at", "version").get() == before


def test_a_bad_phase_on_a_puzzle_never_started_starts_nothing(player, daily):
    assert post(player, url(daily, "beat"), {"phase": "pause"}).status_code == 400
    assert not Attempt.objects.exists()


def test_a_visitors_beat_makes_no_guest_and_a_bad_phase_is_refused_all_the_same(client, daily):
    assert post(client, url(daily, "beat"), {"phase": "pause"}).status_code == 400
    assert post(client, url(daily, "beat"), {"phase": "open"}).status_code == 200
    assert not User.objects.exists() and not Attempt.objects.exists()


def test_the_beats_answer_is_the_elapsed_time_alone_and_never_a_save(player, daily, clock):
    beat(player, daily, "open")
    clock.shift(2)
    beat(player, daily, "close")
    attempt = Attempt.objects.get()
    assert attempt.saved_at is None and attempt.version == 0
