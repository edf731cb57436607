"""`make test`'s processes each on Redis databases of their own (tests/processes.py)."""

from __future__ import annotations

import os

import pytest

from .processes import SPREAD, moved, place


def test_a_url_moves_by_the_processs_place_keeping_its_server_and_password():
    assert moved("redis://127.0.0.1:6379/1", SPREAD) == "redis://127.0.0.1:6379/11"
    assert moved("redis://:secret@cache.example:6380/0", SPREAD) == "redis://:secret@cache.example:6380/10"
    assert moved("redis://127.0.0.1:6379", SPREAD) == "redis://127.0.0.1:6379/10"  # database 0 when none


def test_a_process_past_the_databases_redis_has_stops_with_a_reason():
    with pytest.raises(SystemExit, match="database 21"):
        moved("redis://127.0.0.1:6379/1", 2 * SPREAD)


def test_this_process_uses_the_databases_of_its_place(settings, spare_redis_url):
    first = place() * SPREAD
    for url in filter(None, (settings.REDIS_URL, os.environ.get("CACHE_URL"))):
        assert first <= int(url.rsplit("/", 1)[1]) < first + SPREAD
    assert spare_redis_url.endswith(f"/{first + 5}")
