"""A Redis cache that never breaks a request: when Redis is away, reads miss and writes are dropped.

The cache is never the only copy of anything (sessions are `cached_db`, dailies and users live
in PostgreSQL), so a failed cache call costs a database query and nothing else. After a failure
the cache is left alone for a few seconds, so a dead Redis does not add a connection timeout to
every request.
"""

from __future__ import annotations

import logging
import os
import time
from collections import OrderedDict
from collections.abc import Callable
from threading import Lock
from typing import TYPE_CHECKING, Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

if TYPE_CHECKING:
    from redis import ConnectionPool, Redis

log = logging.getLogger(__name__)

RESTING_SECONDS = 5.0


WRITES = frozenset({"add", "set", "set_many", "touch", "delete", "delete_many", "clear"})


class ReusedClient(RedisCacheClient):
    """Django's client builds a new redis.Redis object for every call; one per pool and process
    will do. Each holds one connection of its own (redis-py's single_connection_client, guarded
    by a lock, so threads take turns): taking a connection from the pool and giving it back cost
    more than the GET itself (bench/web.py measures the cache's cost; docs/performance.md).
    A forked process (a Celery pool worker, say) makes its own client and connection."""

    # Django's own members this builds on, which the stubs leave out as private.
    _client: type[Redis]
    _get_connection_pool: Callable[[bool], ConnectionPool]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[tuple[int, int], Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        mine = (os.getpid(), id(pool))
        client = self._clients.get(mine)
        if client is None:
            client = self._clients[mine] = self._client(connection_pool=pool, single_connection_client=True)
        return client


class PlainKeys:
    """Keys taken as they are. Django checks each key of every call against memcached's limits
    (its length, no spaces nor control characters) to warn of keys memcached would refuse; a
    character-by-character search, paid on every read, for a cache memcached never is. Redis
    and this process's memory take any string."""

    def validate_key(self, key: str) -> None:
        pass


class ForgivingRedisCache(PlainKeys, RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusedClient
        self._resting_until = 0.0
        # A write lost while Redis was away (a logout's delete, say) would leave a stale entry
        # behind, so this process empties the cache when Redis answers again: every entry has
        # a database copy, and a stale one could bring back a session that was logged out.
        self._lost_writes = False

    def _call(self, method: str, fallback: Any, *args: Any, **kwargs: Any) -> Any:
        if time.monotonic() < self._resting_until:
            if method in WRITES:
                self._lost_writes = True
            return fallback
        try:
            if self._lost_writes:
                super().clear()
                self._lost_writes = False
                log.warning("cache is back: emptied it, since writes were lost while it was away")
            return getattr(super(), method)(*args, **kwargs)
        except Exception as exc:  # redis-py's errors and the OS's, whatever the client raises
            if method == "incr" and isinstance(exc, ValueError):
                raise  # a count that is not there, as every cache says: the caller's to handle
            self._resting_until = time.monotonic() + RESTING_SECONDS
            if method in WRITES:
                self._lost_writes = True
            log.warning("cache %s failed, serving without the cache for %.0f s: %s", method, RESTING_SECONDS, exc)
            return fallback

    # Reads miss and writes do nothing while Redis is away; each keeps Django's signature.
    def get(self, key: str, default: Any = None, version: int | None = None) -> Any:
        return self._call("get", default, key, default, version)

    def get_many(self, keys: Any, version: int | None = None) -> dict[str, Any]:
        return self._call("get_many", {}, keys, version)

    def has_key(self, key: str, version: int | None = None) -> bool:
        return self._call("has_key", False, key, version)

    # add() is how a caller takes a turn (allauth's rate limits lock their counters with it, the
    # midnight publisher claims the day): with nothing shared there is no one to wait for, so it
    # answers True and the caller goes ahead alone. False would refuse every log-in while Redis
    # is away (the rate limits could never take their lock).
    def add(self, key: str, value: Any, *args: Any, **kwargs: Any) -> bool:
        return self._call("add", True, key, value, *args, **kwargs)

    def set(self, key: str, value: Any, *args: Any, **kwargs: Any) -> None:
        return self._call("set", None, key, value, *args, **kwargs)

    def set_many(self, data: dict[str, Any], *args: Any, **kwargs: Any) -> list[str]:
        return self._call("set_many", list(data), data, *args, **kwargs)

    def touch(self, key: str, *args: Any, **kwargs: Any) -> bool:
        return self._call("touch", False, key, *args, **kwargs)

    # Counts (the site's limits, ratelimits.py; the mail caps, mailcap.py) count nothing while
    # Redis is away: each hit reads as the window's first, so a limit lets it through rather than
    # a reset or a first move failing. A lost count is never stale, so it empties nothing after.
    def incr(self, key: str, delta: int = 1, version: int | None = None) -> int:
        return self._call("incr", delta, key, delta, version)

    def decr(self, key: str, delta: int = 1, version: int | None = None) -> int:
        return self.incr(key, -delta, version)

    def delete(self, key: str, version: int | None = None) -> bool:
        return self._call("delete", False, key, version)

    def delete_many(self, keys: Any, version: int | None = None) -> None:
        return self._call("delete_many", None, keys, version)

    def clear(self) -> None:
        return self._call("clear", None)


class KeptObjectsCache(PlainKeys, LocMemCache):
    """This process's memory, keeping each value itself where Django's LocMemCache keeps a pickled
    copy: for values nobody changes once cached (a published daily with its puzzle, a drawn page),
    which are read on every request and would otherwise be unpickled on every read. What is put
    here must not be changed by whoever reads it."""

    # Django's own members this builds on, which the stubs leave out as private.
    _cache: OrderedDict[str, Any]
    _lock: Lock
    _has_expired: Callable[[str], bool]
    _delete: Callable[[str], bool]
    _set: Callable[..., None]

    def add(self, key: str, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            if self._has_expired(key):
                self._set(key, value, timeout)
                return True
            return False

    def get(self, key: str, default: Any = None, version: int | None = None) -> Any:
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            if self._has_expired(key):
                self._delete(key)
                return default
            self._cache.move_to_end(key, last=False)
            return self._cache[key]

    def set(self, key: str, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> None:
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            self._set(key, value, timeout)

    def incr(self, key: str, delta: int = 1, version: int | None = None) -> Any:
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            if self._has_expired(key):
                self._delete(key)
                raise ValueError(f"Key {key!r} not found")
            self._cache[key] += delta
            self._cache.move_to_end(key, last=False)
            return self._cache[key]
