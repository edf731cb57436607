"""Counting what one client address makes in an hour (guests, leagues), against a limit.

A fixed hourly window in the shared cache (the accounts' rate limits live there too): a restart
of the cache forgets the counts, which only lets a few more in.
"""

from __future__ import annotations

import time

from django.core.cache import cache

WINDOW_SECONDS = 3600


def hourly_allow(what: str, address: str, limit: int, now: float | None = None) -> int | None:
    """Count one `what` made from `address` this hour: None while within `limit`, else the seconds
    until the window turns (what a 429's Retry-After says)."""
    now = time.time() if now is None else now
    window = int(now // WINDOW_SECONDS)
    key = f"{what}:{address}:{window}"
    cache.add(key, 0, WINDOW_SECONDS + 60)
    try:
        count = cache.incr(key)
    except ValueError:  # the key expired between add and incr
        cache.set(key, 1, WINDOW_SECONDS + 60)
        count = 1
    return max(1, int((window + 1) * WINDOW_SECONDS - now)) if count > limit else None
