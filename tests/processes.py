"""Each of `make test`'s processes on Redis databases of its own (a pytest plugin: `-p tests.processes`).

`make test` runs the suite in two processes (pytest-xdist, `-n 2`). pytest-django gives each its
own test database (`test_<name>_gw0`, `test_<name>_gw1`), but the cache and the broker are named
by URL (CACHE_URL, REDIS_URL), read once when the settings load: a test that empties its cache,
purges its queues or counts a rate limit would empty or count the other process's too. So each
process after the first moves every Redis URL's database number up by SPREAD for each place it
comes after the first: the second process's cache on database 1 is on 11, its broker on 0 is on
10. `-p` imports this module, and so moves them, before pytest-django reads the settings (in its
own `pytest_load_initial_conftests`): tests/conftest.py would be too late. Imported later (the
conftest takes its numbers), it moves nothing.
"""

from __future__ import annotations

import os
import sys
from urllib.parse import urlsplit, urlunsplit

# The database numbers a process may move by: the site's default Redis has 16 (0 to 15), and
# the suite uses 0 (broker), 1 (cache) and SPARE (the spare_redis_url fixture).
SPREAD = 10
REDIS_DATABASES = 16
REDIS_URLS = ("REDIS_URL", "CACHE_URL")
SPARE = 5  # a database a test may fill and empty as it likes


def place() -> int:
    """This process's place among pytest-xdist's (0 for the first, or without xdist)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return int(worker.removeprefix("gw"))


def moved(url: str, by: int) -> str:
    """A Redis URL on the database `by` above its own (database 0 when it names none)."""
    parts = urlsplit(url)
    number = int(parts.path.strip("/") or 0) + by
    if number >= REDIS_DATABASES:
        raise SystemExit(f"{url}: a test process needs Redis database {number}, past the {REDIS_DATABASES} Redis has")
    return urlunsplit(parts._replace(path=f"/{number}"))


def _move_redis_urls() -> None:
    by = place() * SPREAD
    if not by or "sudokusite.settings" in sys.modules:
        return  # the first process, or imported too late to move anything: the settings are read
    for name in REDIS_URLS:
        if os.environ.get(name, "").startswith("redis"):
            os.environ[name] = moved(os.environ[name], by)


_move_redis_urls()
