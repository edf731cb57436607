"""Counting what one client makes in a window of time (guests and leagues an hour, practice checks
a minute), against a limit.

A fixed window in the shared cache (the accounts' rate limits live there too): a restart of the
cache forgets the counts, which only lets a few more in. A client is its address as allauth's
limits see it (address_group): an IPv6 one by its /64, which one subscriber is handed whole.
"""

from __future__ import annotations

import ipaddress
import time

from allauth import app_settings as allauth_settings
from django.core.cache import cache

HOUR = 3600
MINUTE = 60
SLACK_SECONDS = 60  # a count outlives its window a little, so a late incr never starts one afresh


def address_group(address: str) -> str:
    """The client an address counts as: an IPv4 address itself, an IPv6 one its network of
    allauth's RATE_LIMIT_IPV6_PREFIX bits (64), written as that network; anything else as given."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:  # ::ffff:a.b.c.d is an IPv4 client
            return str(parsed.ipv4_mapped)
        prefix = allauth_settings.RATE_LIMIT_IPV6_PREFIX
        return str(ipaddress.IPv6Network(f"{parsed}/{prefix}", strict=False))
    return str(parsed)


def window_key(key: str, seconds: int, now: float) -> str:
    """The cache key counting `key` in the window of `seconds` that holds `now`."""
    return f"{key}:{seconds}:{int(now // seconds)}"


def window_hit(key: str, seconds: int, now: float) -> int:
    """Count one hit on `key` in the window of `seconds` that holds `now`: the window's count."""
    name = window_key(key, seconds, now)
    cache.add(name, 0, seconds + SLACK_SECONDS)
    try:
        return cache.incr(name)
    except ValueError:  # the key expired between add and incr
        cache.set(name, 1, seconds + SLACK_SECONDS)
        return 1


def window_wait(key: str, limit: int, seconds: int, now: float | None = None) -> int | None:
    """Count one hit on `key` in the current window of `seconds`: None while within `limit`, else
    the seconds until the window turns (what a 429's Retry-After says)."""
    now = time.time() if now is None else now
    count = window_hit(key, seconds, now)
    if count <= limit:
        return None
    return max(1, int((int(now // seconds) + 1) * seconds - now))


def window_refund(key: str, seconds: int, now: float) -> None:
    """Take back the hit counted on `key` at `now` (a write that was refused after all)."""
    try:
        cache.decr(window_key(key, seconds, now))
    except ValueError:  # the window's count is gone already: nothing to take back
        pass


def hourly_wait(what: str, address: str, limit: int, now: float | None = None) -> int | None:
    """Count one `what` made from `address`'s client this hour: None while within `limit`, else
    the seconds until the hour turns."""
    return window_wait(f"{what}:{address_group(address)}", limit, HOUR, now)


def hourly_refund(what: str, address: str, now: float) -> None:
    """Take back the `what` counted for `address` at `now`."""
    window_refund(f"{what}:{address_group(address)}", HOUR, now)
