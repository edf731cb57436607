"""`/health/`: the status for anyone; database, broker, cache and pool levels for staff and for a
monitor with the token; no secrets either way."""

from __future__ import annotations

import pytest
import time_machine
from django.db import DatabaseError
from django.utils import timezone

from puzzles.pipeline import broker
from puzzles.views import health

from .factories import EASY_GIVENS, EASY_SOLUTION, make_known_puzzle

pytestmark = pytest.mark.django_db

TOKEN = "a-monitor-token-" + "t" * 32
DEAD_REDIS = "redis://127.0.0.1:1/0"  # nothing listens on port 1: every call is refused


@pytest.fixture
def monitor(settings):
    """The Authorization header of a monitor that knows the configured token."""
    settings.HEALTH_TOKEN = TOKEN
    return {"HTTP_AUTHORIZATION": f"Bearer {TOKEN}"}


@pytest.fixture
def broker_probes(monkeypatch):
    """Count the broker probes; the broker answers."""
    calls = []

    def probe(timeout):
        calls.append(timeout)
        return True, "ok"

    monkeypatch.setattr(broker, "broker_status", probe)
    return calls


def test_health_reports_the_database_the_broker_the_cache_and_the_pools(client, monitor, broker_probes):
    make_known_puzzle(EASY_GIVENS, EASY_SOLUTION, hardest="hidden-single")
    response = client.get("/health/", **monitor)
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == body["database"] == body["broker"] == body["cache"] == "ok"
    assert body["pools"]["easy"] == {"available": 1, "target": 20}
    assert set(body["pools"]) == {"easy", "medium", "hard", "expert", "extreme"}
    assert response["Cache-Control"].startswith("max-age=0")


def test_anyone_else_gets_the_status_alone_and_probes_nothing(client, settings, broker_probes):
    settings.HEALTH_TOKEN = TOKEN
    for headers in (
        {},
        {"HTTP_AUTHORIZATION": "Bearer wrong-token"},
        {"HTTP_AUTHORIZATION": TOKEN},  # no scheme
        {"HTTP_AUTHORIZATION": f"Basic {TOKEN}"},
    ):
        response = client.get("/health/", **headers)
        assert response.status_code == 200 and response.json() == {"status": "ok"}
    assert client.get(f"/health/?token={TOKEN}").json() == {"status": "ok"}  # never from the query string
    assert broker_probes == []


def test_anyone_elses_check_asks_redis_nothing(client, settings, monkeypatch, broker_probes):
    asked = []
    monkeypatch.setattr(health, "_cache_answers", lambda: asked.append(1) or True)
    settings.HEALTH_TOKEN = TOKEN
    for _ in range(3):
        client.get("/health/")
    assert asked == []
    client.get("/health/", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert asked == [1]


def test_without_a_configured_token_no_token_opens_the_details(client, settings, broker_probes):
    settings.HEALTH_TOKEN = ""
    for header in ("Bearer ", "Bearer", "Bearer x"):
        assert client.get("/health/", HTTP_AUTHORIZATION=header).json() == {"status": "ok"}


def test_staff_see_the_details(admin_client, client, django_user_model, broker_probes):
    assert set(admin_client.get("/health/").json()) == {"status", "database", "broker", "cache", "pools"}
    player = django_user_model.objects.create_user("ada")
    client.force_login(player)
    assert client.get("/health/").json() == {"status": "ok"}


def test_the_probes_are_kept_a_few_seconds_so_a_flood_of_checks_asks_the_broker_once(client, monitor, broker_probes):
    with time_machine.travel(timezone.now(), tick=False) as clock:
        for _ in range(20):
            assert client.get("/health/", **monitor).json()["broker"] == "ok"
        assert len(broker_probes) == 1
        clock.shift(health.PROBE_SECONDS + 1)
        client.get("/health/", **monitor)
        assert len(broker_probes) == 2


def test_health_names_no_address_or_secret(client, settings, monitor, monkeypatch):
    monkeypatch.setattr(broker, "broker_status", lambda timeout: (False, "unreachable at redis://secret@host"))
    text = client.get("/health/", **monitor).content.decode()
    assert "redis://" not in text and settings.SECRET_KEY not in text and "secret" not in text
    assert TOKEN not in text
    assert '"broker": "unreachable"' in text


def test_a_broker_that_is_away_does_not_fail_the_check(client, monitor, monkeypatch):
    monkeypatch.setattr(broker, "broker_status", lambda timeout: (False, "down"))
    assert client.get("/health/", **monitor).status_code == 200


def test_a_database_that_is_away_fails_the_check_with_503(client, monitor, broker_probes, monkeypatch):
    from django.db.backends.utils import CursorWrapper

    def refuse(*args, **kwargs):
        raise DatabaseError("connection refused")

    monkeypatch.setattr(CursorWrapper, "execute", refuse)
    anonymous = client.get("/health/")
    assert anonymous.status_code == 503 and anonymous.json() == {"status": "failing"}
    response = client.get("/health/", **monitor)
    assert response.status_code == 503
    assert response.json()["database"] == "unreachable" and response.json()["status"] == "failing"


def _cache_at(settings, url: str) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "sudokusite.cache.ForgivingRedisCache",
            "LOCATION": url,
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        },
        "local": settings.CACHES["local"],
    }


@pytest.mark.integration
def test_each_check_asks_redis_again_so_an_outage_and_a_recovery_show_at_once(
    client, settings, monitor, broker_probes, spare_redis_url
):
    live = spare_redis_url
    _cache_at(settings, live)
    with time_machine.travel(timezone.now(), tick=False):  # no answer may expire meanwhile
        assert client.get("/health/", **monitor).json()["cache"] == "ok"
        _cache_at(settings, DEAD_REDIS)  # Redis goes away
        for _ in range(2):
            assert client.get("/health/", **monitor).json()["cache"] == "unreachable"
        _cache_at(settings, live)  # and comes back
        assert client.get("/health/", **monitor).json()["cache"] == "ok"


def test_a_cache_that_is_away_is_reported_without_failing_the_check(client, settings, monitor, broker_probes):
    _cache_at(settings, DEAD_REDIS)
    response = client.get("/health/", **monitor)
    assert response.status_code == 200 and response.json()["cache"] == "unreachable"
