"""The shared cache: Redis that never breaks a request, and the logged-in user read from it."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.core.cache import caches
from django.test import Client

from puzzles.auth import CachedModelBackend, user_cache_key
from puzzles.models import Guest
from sudokusite.cache import ForgivingRedisCache

from .factories import EASY_GIVENS, EASY_SOLUTION

pytestmark = pytest.mark.django_db

DEAD_REDIS = "redis://127.0.0.1:1/0"  # nothing listens on port 1: every call is refused
SHORT = {"OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2}}


def test_a_cache_whose_redis_is_away_misses_and_drops_writes_without_raising():
    cache = ForgivingRedisCache(DEAD_REDIS, SHORT)
    assert cache.get("k", "fallback") == "fallback"
    cache.set("k", 1)
    assert cache.add("k", 1) is True  # no one to take turns with: the caller goes ahead
    assert cache.get_many(["k"]) == {}
    cache.delete("k")
    assert cache._resting_until > 0  # and it stops trying for a few seconds


def test_a_count_on_a_cache_whose_redis_is_away_reads_as_the_windows_first():
    cache = ForgivingRedisCache(DEAD_REDIS, SHORT)
    assert cache.incr("n") == 1  # a limit counted there lets the request through
    cache.decr("n")


@pytest.mark.integration
def test_a_count_that_is_not_there_is_the_callers_value_error_not_an_outage(spare_redis_url):
    cache = ForgivingRedisCache(spare_redis_url, SHORT)
    cache.clear()
    with pytest.raises(ValueError, match="not found"):
        cache.incr("missing")
    assert cache._resting_until == 0
    cache.add("n", 0)
    assert cache.incr("n") == 1 and cache.decr("n") == 0


@pytest.mark.integration
def test_after_a_lost_write_the_cache_is_emptied_when_redis_answers_again(spare_redis_url):
    url = spare_redis_url
    cache = ForgivingRedisCache(url, SHORT)
    cache.clear()
    cache.set("session", "logged in")
    # Redis is away while a logout deletes the session: the delete is lost...
    cache._resting_until = float("inf")
    cache.delete("session")
    # ...so when it answers again, nothing stale may come back.
    cache._resting_until = 0.0
    assert cache.get("session") is None
    cache.set("fresh", 1)
    assert cache.get("fresh") == 1


@pytest.fixture
def shared_cache(settings):
    settings.SHARED_CACHE = True


def test_the_logged_in_user_is_read_from_the_cache_once_it_is_there(shared_cache, django_assert_num_queries):
    user = User.objects.create_user("ada", password="x")
    backend = CachedModelBackend()
    assert backend.get_user(user.pk) == user
    with django_assert_num_queries(0):
        assert backend.get_user(user.pk).username == "ada"


def test_saving_a_user_drops_the_cached_copy_so_a_password_change_counts_at_once(shared_cache):
    user = User.objects.create_user("ada", password="old password 1")
    backend = CachedModelBackend()
    before = backend.get_user(user.pk).password
    user.set_password("new password 2")
    user.save()
    assert caches["default"].get(user_cache_key(user.pk)) is None
    assert backend.get_user(user.pk).password != before
    user.is_active = False
    user.save()
    assert backend.get_user(user.pk) is None
    user.delete()
    assert backend.get_user(user.pk) is None


def test_without_a_shared_cache_the_user_always_comes_from_the_database(settings, django_assert_num_queries):
    settings.SHARED_CACHE = False
    user = User.objects.create_user("ada", password="x")
    backend = CachedModelBackend()
    backend.get_user(user.pk)
    with django_assert_num_queries(1):
        backend.get_user(user.pk)


def test_with_the_cache_down_players_still_log_in_open_the_puzzle_and_save(settings, todays_easy):
    settings.CACHES = {
        "default": {"BACKEND": "sudokusite.cache.ForgivingRedisCache", "LOCATION": DEAD_REDIS, **SHORT},
        # The site's own: a module that keeps a handle on it (pipeline/dailies.py) may be
        # imported first during this test, and must hold the same memory the next tests empty.
        "local": settings.CACHES["local"],
    }
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    settings.SHARED_CACHE = True
    User.objects.create_user("ada", password="a long enough password 1")
    client = Client()
    response = client.post("/accounts/login/", {"login": "ada", "password": "a long enough password 1"})
    assert response.status_code == 302  # the log-in rate limits, counted in the cache, let it through
    base = f"/daily/{todays_easy.date.isoformat()}/easy/"
    assert client.get(base).status_code == 200
    assert client.get(f"/api{base}state/").json()["version"] == 0
    digits = "4" + "0" * 80
    assert EASY_GIVENS[0] == "0"
    saved = client.post(
        f"/api{base}save/", json.dumps({"version": 0, "digits": digits}), content_type="application/json"
    )
    assert saved.status_code == 200 and saved.json()["version"] == 1
    assert client.get(f"/api{base}state/").json()["digits"] == digits


def test_a_daily_is_cached_for_every_process_and_forgotten_when_an_admin_changes_it(client, todays_easy):
    from puzzles.models import DailyPuzzle

    from .factories import make_known_puzzle

    key = DailyPuzzle.cache_key(todays_easy.date, "easy")
    address = f"/daily/{todays_easy.date.isoformat()}/easy/"
    assert client.get(address).status_code == 200
    assert caches["default"].get(key).puzzle.givens == EASY_GIVENS
    # An admin puts another puzzle on the slot: no process may keep serving the old one.
    other = make_known_puzzle("0" + EASY_SOLUTION[1:], EASY_SOLUTION, clues=80)
    todays_easy.puzzle = other
    todays_easy.save()
    assert caches["default"].get(key) is None and caches["local"].get(key) is None
    assert "0" + EASY_SOLUTION[1:] in client.get(address).content.decode()


def test_a_missing_daily_is_remembered_briefly_and_forgotten_when_one_is_published(db, django_assert_num_queries):
    import datetime

    from puzzles.models import DailyPuzzle, site_today
    from puzzles.pipeline.dailies import dailies_of

    from .factories import make_daily, make_known_puzzle

    day = site_today() - datetime.timedelta(days=40)  # a day nobody scheduled
    assert dailies_of(day) == {}
    with django_assert_num_queries(0):
        assert dailies_of(day) == {}
    key = DailyPuzzle.cache_key(day, "medium")
    assert caches["default"].get(key) == "absent"
    make_daily(day, "medium", make_known_puzzle())
    assert list(dailies_of(day)) == ["medium"]


def test_a_missing_daily_of_today_is_never_remembered(db, django_assert_num_queries):
    """Today's may be published any moment (beat at midnight): a reader racing that commit must not
    hide it, so each look at a missing one of today's asks the database."""
    from puzzles.models import DailyPuzzle, site_today
    from puzzles.pipeline.dailies import daily_served

    today = site_today()
    assert daily_served(today, "hard") is None
    assert caches["default"].get(DailyPuzzle.cache_key(today, "hard")) is None
    with django_assert_num_queries(1):
        assert daily_served(today, "hard") is None


def test_a_processs_own_copy_of_a_daily_lasts_its_seconds_from_the_first_read_however_often_read(todays_easy):
    # Another process's admin change drops the shared copy, not this process's own: that one must
    # end DAILY_LOCAL_SECONDS after it was read from the shared cache, even on a busy site where
    # it is read every second.
    import time_machine
    from django.utils import timezone

    from puzzles.models import DailyPuzzle
    from puzzles.pipeline import dailies

    from .factories import make_known_puzzle

    other = make_known_puzzle("0" + EASY_SOLUTION[1:], EASY_SOLUTION, clues=80)
    with time_machine.travel(timezone.now(), tick=False) as clock:
        assert dailies.daily_served(todays_easy.date, "easy").puzzle.givens == EASY_GIVENS
        # As another process sees an admin's change: the row and the shared cache, no signal here.
        DailyPuzzle.objects.filter(pk=todays_easy.pk).update(puzzle=other)
        caches["default"].delete(DailyPuzzle.cache_key(todays_easy.date, "easy"))
        seen = []
        for _ in range(dailies.DAILY_LOCAL_SECONDS + 2):
            clock.shift(1)
            seen.append(dailies.daily_served(todays_easy.date, "easy").puzzle.givens)
    assert seen[0] == EASY_GIVENS and seen[-1] == other.givens


def test_this_processs_memory_keeps_values_themselves_not_copies():
    # The kept-objects cache hands back what was put in: nothing to unpickle on a read (so what is
    # put there must not be changed by its readers).
    kept = caches["local"]
    value = {"drawn": "<svg/>"}
    kept.set("k", value, 60)
    assert kept.get("k") is value and kept.get("gone", "default") == "default"
    assert kept.add("k", 1) is False and kept.add("n", 1) is True and kept.incr("n", 2) == 3


def test_with_the_cache_down_a_visitors_first_move_still_makes_a_guest(settings, todays_easy):
    # The guests' hourly limit counts in the cache (incr): away, it lets the move through.
    settings.CACHES = {
        "default": {"BACKEND": "sudokusite.cache.ForgivingRedisCache", "LOCATION": DEAD_REDIS, **SHORT},
        "local": settings.CACHES["local"],
    }
    base = f"/daily/{todays_easy.date.isoformat()}/easy/"
    saved = Client().post(
        f"/api{base}save/", json.dumps({"version": 0, "digits": "4" + "0" * 80}), content_type="application/json"
    )
    assert saved.status_code == 200
    assert Guest.objects.count() == 1
