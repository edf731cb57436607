"""Shared fixtures. Integration tests ask for the services they need through these fixtures:
under CI a missing service fails the test; elsewhere it is skipped with the reason."""

from __future__ import annotations

import os
import threading
import time
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.core.handlers.wsgi import WSGIHandler

# The known puzzle lives with the other helpers; tests/browser and bench/ import it from here too.
from .factories import EASY_GIVENS, EASY_SOLUTION, make_daily, make_known_puzzle
from .processes import SPARE, SPREAD

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


ENGINE_TESTS = "tests/engine/"
BROWSER_TESTS = "tests/browser/"


def pytest_collection_modifyitems(config, items) -> None:
    """The browser tests last, so they run with the machine to themselves: on two cores, a browser
    and its live server beside the engine's CPU-bound tests lose races a player would rarely meet
    (a reload's state read before the closing page's beat). In `make test`'s two processes
    (below), the engine's tests first, each a unit of work, then the other test files, shared
    out, then the browser tests as one unit, which one process runs while the other finishes."""
    browser = [item for item in items if item.nodeid.startswith(BROWSER_TESTS) or item.get_closest_marker("browser")]
    engine = [item for item in items if item.nodeid.startswith(ENGINE_TESTS)]
    apart = set(browser) | set(engine)
    items[:] = engine + [item for item in items if item not in apart] + browser


def pytest_xdist_make_scheduler(config, log):
    """`make test`'s two processes (pytest-xdist, -n 2), each with its own database and Redis
    databases (tests/processes.py). Units of work go out in the order of collection (above), each
    to whichever process is free: each of the engine's tests a unit, each other test file one, and
    the browser tests one (a browser and a live server at a time)."""
    from xdist.scheduler import LoadScopeScheduling

    class BrowserTestsInOneProcess(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            if nodeid.startswith(BROWSER_TESTS):
                return BROWSER_TESTS
            if nodeid.startswith(ENGINE_TESTS):
                return nodeid
            return nodeid.split("::", 1)[0]

    config.option.loadscopereorder = False  # xdist would put the units with most tests first
    return BrowserTestsInOneProcess(config, log)


def _missing(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"CI needs this service: {reason}")
    pytest.skip(reason)


@pytest.fixture(autouse=True)
def empty_cache():
    """Every test starts with an empty cache, so nothing cached leaks between databases."""
    from django.core.cache import caches

    for alias in ("default", "local"):
        caches[alias].clear()
    yield
    for alias in ("default", "local"):
        caches[alias].clear()


class _InFlight:
    """Requests the live server is answering now, counted around Django's WSGI handler."""

    def __init__(self) -> None:
        self.count, self.last_start = 0, 0.0
        self.changed = threading.Condition()

    def wrap(self, call):
        def counted(handler, environ, start_response):
            with self.changed:
                self.count += 1
                self.last_start = time.monotonic()
            try:
                return call(handler, environ, start_response)
            finally:
                with self.changed:
                    self.count -= 1
                    self.changed.notify_all()

        return counted

    def wait_until(self, check, limit: float = 10.0) -> bool:
        """Wait until `check()` is true, trying it again each time the server finishes answering a
        request (a closing page's last beat, say); False if `limit` seconds pass first."""
        with self.changed:
            return self.changed.wait_for(check, timeout=limit)

    def settle(self, quiet: float = 0.2, limit: float = 5.0) -> None:
        """Wait until no request is being answered and none has started for `quiet` seconds."""
        deadline = time.monotonic() + limit
        with self.changed:
            while time.monotonic() < deadline:
                idle = time.monotonic() - self.last_start
                if self.count == 0 and idle >= quiet:
                    return
                self.changed.wait(max(0.01, quiet - idle) if self.count == 0 else 0.05)


IN_FLIGHT = _InFlight()
WSGIHandler.__call__ = IN_FLIGHT.wrap(WSGIHandler.__call__)


@pytest.fixture(autouse=True)
def live_server_settles(request):
    """A test with the live server ends only once the server has answered what the browser sent
    last (a closing page's heartbeat, say): the database is emptied after each such test, and a
    write still running then would deadlock with the emptying on PostgreSQL."""
    if "live_server" not in request.fixturenames:
        yield
        return
    request.getfixturevalue("transactional_db")  # set up first, so emptied after this settles
    yield
    IN_FLIGHT.settle()


@pytest.fixture(autouse=True)
def quick_password_hashing(settings) -> None:
    # Tests make many users; the production hasher is slow on purpose and proves nothing here.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def postgres() -> None:
    """Require the default database to be PostgreSQL."""
    from django.db import connection

    if connection.vendor != "postgresql":
        _missing("PostgreSQL is not configured: set DATABASE_URL=postgres://...")


@pytest.fixture
def redis_url(settings) -> str:
    """The URL of a Redis server that answers PING."""
    url = settings.REDIS_URL
    if not url:
        _missing("Redis is not configured: set REDIS_URL=redis://...")
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        _missing(f"Redis at {url} does not answer: {exc}")
    return url


@pytest.fixture
def spare_redis_url(redis_url: str) -> str:
    """A Redis database a test may fill and empty as it likes, on the server of `redis_url`, among
    this process's own (tests/processes.py)."""
    parts = urlsplit(redis_url)
    first = int(parts.path.strip("/") or 0) // SPREAD * SPREAD
    return urlunsplit(parts._replace(path=f"/{first + SPARE}"))


@pytest.fixture
def todays_easy(db):
    """Today's easy daily, a fixed puzzle whose answers the tests know."""
    from puzzles.models import site_today

    puzzle = make_known_puzzle(EASY_GIVENS, EASY_SOLUTION, techniques={"naked-single": 49}, symmetry="none")
    return make_daily(site_today(), "easy", puzzle)


@pytest.fixture
def daily(todays_easy):
    """The daily the board's tests play: today's easy one."""
    return todays_easy


@pytest.fixture
def user(db):
    """A player with a password, not logged in."""
    from django.contrib.auth.models import User

    return User.objects.create_user("ada", password="a long enough password 1")


@pytest.fixture
def player(client, user):
    """The test client, logged in as `user`."""
    client.force_login(user)
    return client
