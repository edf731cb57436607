"""The record of play's bound on events (record_of_play/events.py): writes without moves, opens and
closes cannot add rows without end, and a write past a bound is refused whole and says why."""

from __future__ import annotations

import pytest
import time_machine
from django.utils import timezone

from puzzles.models import Attempt, PlayEvent, Solve

from .factories import make_daily, player_digits, post, url

pytestmark = pytest.mark.django_db

EMPTY = "0" * 81


@pytest.fixture
def clock():
    with time_machine.travel(timezone.now(), tick=False) as traveller:
        yield traveller


def beat(client, daily, phase: str):
    return post(client, url(daily, "beat"), {"phase": phase})


def save(client, daily, version: int, digits: str = EMPTY):
    return post(client, url(daily, "save"), {"version": version, "digits": digits})


def as_stored() -> dict:
    row = Attempt.objects.values("digits", "version", "active_seconds", "last_beat_at").get()
    return {"attempt": row, "events": PlayEvent.objects.count(), "solves": Solve.objects.count()}


def test_opens_and_closes_past_the_minutes_bound_are_refused_with_429_and_change_nothing(
    player, daily, clock, settings
):
    settings.PLAY_EVENTS_PER_MINUTE = 4
    for phase in ("open", "close", "open", "close"):
        assert beat(player, daily, phase).status_code == 200
        clock.shift(1)
    before = as_stored()
    refused = beat(player, daily, "open")
    assert refused.status_code == 429
    assert "Too many writes" in refused.json()["error"] and "nothing was saved" in refused.json()["error"]
    assert refused["Retry-After"] == "56"  # the first open leaves the minute 60 s after it came
    assert save(player, daily, 0).status_code == 429
    assert as_stored() == before

    assert beat(player, daily, "tick").status_code == 200  # a tick logs nothing, so it is never refused
    clock.shift(57)
    assert beat(player, daily, "open").status_code == 200
    assert PlayEvent.objects.count() == 5


def test_saves_without_moves_past_the_attempts_bound_are_refused_with_413_but_the_submit_is_taken(
    player, daily, clock, settings
):
    settings.PLAY_EVENTS_PER_ATTEMPT = 3
    assert beat(player, daily, "open").status_code == 200
    for version in (0, 1):
        assert save(player, daily, version).status_code == 200
        clock.shift(1)
    before = as_stored()
    refused = save(player, daily, 2)
    assert refused.status_code == 413 and refused.json()["events_full"] is True
    assert "full" in refused.json()["error"] and "submit" in refused.json()["error"]
    assert beat(player, daily, "close").status_code == 413
    assert as_stored() == before

    solved = post(player, url(daily, "submit"), {"version": 2, "digits": player_digits()})
    assert solved.json()["solved"] is True
    assert PlayEvent.objects.count() == 4


def test_a_burst_of_heartbeats_adds_no_more_rows_than_the_bound(player, daily, settings):
    settings.PLAY_EVENTS_PER_MINUTE = 10
    answers = [beat(player, daily, phase).status_code for phase in ("open", "close") * 20]
    assert answers.count(200) == 10 and answers.count(429) == 30
    assert PlayEvent.objects.count() == 10


def test_a_visitors_first_save_refused_past_the_bound_makes_no_guest(client, daily, settings):
    settings.PLAY_EVENTS_PER_MINUTE = 0
    assert save(client, daily, 0).status_code == 429
    assert not Attempt.objects.exists()


def test_the_written_out_count_matches_the_orms_before_at_and_after_each_events_arrival(daily):
    import datetime

    from django.contrib.auth.models import User

    from puzzles.record_of_play.events import event_counts_orm
    from puzzles.record_of_play.fastcount import event_counts

    player = User.objects.create_user("ada")
    attempt = Attempt.objects.create(user=player, daily=daily)
    other = Attempt.objects.create(user=player, daily=make_daily(daily.date - datetime.timedelta(days=1)))
    start = timezone.now().replace(microsecond=0)
    moments = [start + datetime.timedelta(seconds=s) for s in (0, 0.5, 1, 1.25, 59, 60, 61.000001)]
    PlayEvent.objects.bulk_create(
        [PlayEvent(attempt=attempt, kind=PlayEvent.Kind.SAVE, arrived_at=at) for at in moments]
        + [PlayEvent(attempt=other, kind=PlayEvent.Kind.SAVE, arrived_at=at) for at in moments[:3]]
    )
    for since in [start - datetime.timedelta(seconds=1), *moments, moments[-1] + datetime.timedelta(seconds=1)]:
        assert event_counts(player.pk, daily.pk, since) == event_counts_orm(player.pk, daily.pk, since), since
    assert event_counts(player.pk, daily.pk, start) == (7, 6)  # the one at `start` itself is not after it
