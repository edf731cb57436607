"""The engine's tests: pure functions of grids, with no database, cache nor service."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    """Nothing to empty: the engine uses no cache. (The site's tests empty theirs around each test;
    `make test` runs these beside them in a second process, where emptying the shared cache would
    pull it from under the test running there.)"""
    return
