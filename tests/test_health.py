"""`/health/`: database, broker, cache and pool levels for a load balancer, with no secrets."""

from __future__ import annotations

import pytest
from django.db import DatabaseError

from puzzles import broker
from puzzles.models import Puzzle

from .factories import EASY_GIVENS, EASY_SOLUTION

pytestmark = pytest.mark.django_db


def test_health_reports_the_database_the_broker_the_cache_and_the_pools(client, monkeypatch):
    Puzzle.objects.create(
        givens=EASY_GIVENS,
        solution=EASY_SOLUTION,
        tier="easy",
        score=1,
        hardest="hidden-single",
        clues=32,
        filler="imported",
    )
    monkeypatch.setattr(broker, "broker_status", lambda timeout: (True, "ok"))
    response = client.get("/health/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == body["database"] == body["broker"] == body["cache"] == "ok"
    assert body["pools"]["easy"] == {"available": 1, "target": 20}
    assert set(body["pools"]) == {"easy", "medium", "hard", "expert", "extreme"}
    assert response["Cache-Control"].startswith("max-age=0")


def test_health_names_no_address_or_secret(client, settings, monkeypatch):
    monkeypatch.setattr(broker, "broker_status", lambda timeout: (False, "unreachable at redis://secret@host"))
    text = client.get("/health/").content.decode()
    assert "redis://" not in text and settings.SECRET_KEY not in text and "secret" not in text
    assert '"broker": "unreachable"' in text


def test_a_broker_that_is_away_does_not_fail_the_check(client, monkeypatch):
    monkeypatch.setattr(broker, "broker_status", lambda timeout: (False, "down"))
    assert client.get("/health/").status_code == 200


def test_a_database_that_is_away_fails_the_check_with_503(client, monkeypatch):
    from django.db.backends.utils import CursorWrapper

    def refuse(*args, **kwargs):
        raise DatabaseError("connection refused")

    monkeypatch.setattr(CursorWrapper, "execute", refuse)
    monkeypatch.setattr(broker, "broker_status", lambda timeout: (True, "ok"))
    response = client.get("/health/")
    assert response.status_code == 503
    assert response.json()["database"] == "unreachable" and response.json()["status"] == "failing"
