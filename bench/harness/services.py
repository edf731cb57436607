"""The services a bench runs on (its own PostgreSQL database and Redis databases, with the
site's production settings) and the site's data it starts from."""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from typing import Any

TIERS = ("easy", "medium", "hard", "expert", "extreme")
# The Redis databases of the load, fuzz and midnight benches: 8 (broker) and 9 (cache).
BROKER_URL = os.environ.get("BENCH_LOAD_BROKER_URL", "redis://127.0.0.1:6379/8")
CACHE_URL = os.environ.get("BENCH_LOAD_CACHE_URL", "redis://127.0.0.1:6379/9")


def ensure_database(url: str) -> None:
    """Create the bench's own PostgreSQL database if it is missing; exit with a reason if the
    server does not answer."""
    import psycopg

    server, name = url.rsplit("/", 1)
    try:
        with psycopg.connect(server + "/postgres", autocommit=True, connect_timeout=5) as conn:
            if not conn.execute("select 1 from pg_database where datname = %s", (name,)).fetchone():
                conn.execute(f'create database "{name}"')
    except psycopg.OperationalError as error:
        raise SystemExit(f"PostgreSQL does not answer at {server}: {error}".strip()) from error


def ensure_redis(*urls: str | None) -> None:
    """Exit with a reason unless every Redis named answers a ping."""
    import redis

    for url in filter(None, urls):
        try:
            redis.Redis.from_url(url, socket_connect_timeout=2).ping()
        except redis.RedisError as error:
            raise SystemExit(f"Redis does not answer at {url}: {error}") from error


def production_env(database: str, cache: str, broker: str | None = None, **extra: str) -> dict[str, str]:
    """Production settings less HTTPS (plain HTTP on loopback), on the bench's own database and
    Redis databases; `broker=None` leaves REDIS_URL as this process has it."""
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "CACHE_URL": cache,
        "DJANGO_DEBUG": "0",
        "SECRET_KEY": "bench-only-" + "x" * 50,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        # The players share one loopback address, where a real crowd has one each: the
        # per-address log-in limit would refuse all but the first 20 a minute.
        "RATE_LIMIT_LOGIN": "",
        "RATE_LIMIT_LOGIN_FAILED": "",
        **extra,
    }
    if broker is not None:
        env["REDIS_URL"] = broker
    return env


def setup_django(env: dict[str, str]) -> None:
    """Django in this process, with the settings the servers get."""
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sudokusite.settings")
    import django

    django.setup()


def setup_site(database: str, cache: str, broker: str | None = None, **extra: str) -> dict[str, str]:
    """Django in this process with production settings on the bench's own database (created if
    missing) and Redis databases, both checked first; the environment, for the servers too."""
    ensure_database(database)
    ensure_redis(cache, broker)
    env = production_env(database, cache, broker, **extra)
    setup_django(env)
    return env


def reset_site(*user_prefixes: str) -> None:
    """Migrate, collect static files (hashed names, as deployed), empty the cache, the puzzles and
    everything played on them, and the users whose names start with one of `user_prefixes`."""
    from django.contrib.auth.models import User
    from django.core.cache import cache
    from django.core.management import call_command

    from puzzles.models import Attempt, DailyPuzzle, Hint, Puzzle, Solve

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    cache.clear()
    for model in (Hint, Solve, Attempt, DailyPuzzle, Puzzle):
        model.objects.all().delete()
    for prefix in user_prefixes:
        User.objects.filter(username__startswith=prefix).delete()
    vacuum()


def vacuum() -> None:
    """Reclaim the rows earlier runs deleted or updated, and refresh the planner's statistics, on
    PostgreSQL: without it, a bench run after others reads past their dead rows (this machine's
    PostgreSQL runs with autovacuum off, and a save is an UPDATE), and its figures drift."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")


def purge_queues() -> None:
    """Empty the broker's queues, so no task of an earlier run is picked up."""
    from sudokusite.celery import app

    with app.connection_for_write() as conn:
        for queue in ("default", "generation"):
            conn.default_channel.queue_purge(queue)


# --- the site's data --------------------------------------------------------------------------


def make_puzzles(seed: int, tiers: Sequence[str] = TIERS, day: Any = None) -> list:
    """One stored puzzle per tier, made by the engine from a seed; each the daily of its tier on
    `day` when one is given (otherwise they wait in the pools)."""
    from puzzles.pipeline import pools, publishing

    rng = random.Random(seed)
    puzzles = []
    for tier in tiers:
        puzzle = pools.puzzle_store(pools.puzzle_make(tier, rng=rng))
        assert puzzle is not None  # stored unless it is for a pool that is already full
        if day is not None:
            publishing.daily_schedule(puzzle, day, tier)
        puzzles.append(puzzle)
    return puzzles


def daily_path(day: Any, tier: str) -> str:
    return f"/daily/{day.isoformat()}/{tier}/"


def new_seed_batch(tier: str, count: int) -> int:
    """A seed batch of `count` puzzles of a tier, as the admin makes one; its id."""
    from puzzles.pipeline import pools

    return pools.seed_batch_create(tier, count, filler="diagonal-boxes", symmetry="none").pk


def enqueue_seed_batch(batch: int, tasks: int = 1) -> None:
    """`tasks` tasks working on the batch, as the admin and seed_pool enqueue them."""
    from puzzles.pipeline.tasks import work_seed_batch

    for _ in range(tasks):
        work_seed_batch.delay(batch)


def logged_in_session(user: Any) -> tuple[str, str]:
    """A session logged in as `user`, stored as the site stores sessions, and a CSRF token (the
    log-in form's own cost is bench/load.py's subject)."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.middleware.csrf import _get_new_csrf_string

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "puzzles.auth.CachedModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store.session_key, _get_new_csrf_string()


def logged_in_sessions(users: Sequence[Any]) -> list[tuple[str, str]]:
    """`logged_in_session` for many users at once: one bulk insert of the sessions and one write
    of them to the cache (a `cached_db` session is read from the cache, as on a warm site)."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.base import VALID_KEY_CHARS
    from django.contrib.sessions.models import Session
    from django.core.cache import caches
    from django.middleware.csrf import _get_new_csrf_string
    from django.utils.crypto import get_random_string

    engine = import_module(settings.SESSION_ENGINE)
    rows, cached, out = [], {}, []
    for user in users:
        key = get_random_string(32, VALID_KEY_CHARS)
        data = {
            SESSION_KEY: str(user.pk),
            BACKEND_SESSION_KEY: "puzzles.auth.CachedModelBackend",
            HASH_SESSION_KEY: user.get_session_auth_hash(),
        }
        store = engine.SessionStore(session_key=key)
        rows.append(Session(session_key=key, session_data=store.encode(data), expire_date=store.get_expiry_date()))
        if hasattr(store, "cache_key_prefix"):
            cached[store.cache_key_prefix + key] = data
        out.append((key, _get_new_csrf_string()))
    Session.objects.bulk_create(rows, batch_size=1000)
    if cached:
        caches[settings.SESSION_CACHE_ALIAS].set_many(cached, settings.SESSION_COOKIE_AGE)
    return out


def new_players(count: int, prefix: str) -> list[tuple[Any, tuple[str, str]]]:
    """Users prefix0.. without a password, each with a logged-in session."""
    from django.contrib.auth.models import User

    users = [User.objects.create_user(f"{prefix}{i}", password=None) for i in range(count)]
    return [(user, logged_in_session(user)) for user in users]
