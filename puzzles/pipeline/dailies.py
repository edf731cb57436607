"""The published dailies as the site serves them: past and present dates only, read through caches.

The database stays the only real copy; a cold or missing cache only costs a query. Reading never
publishes: beat publishes days ahead and on the stroke of midnight (publishing.py), and a page
shows what is there (a slot still empty says so, and the home page asks again now and then).
"""

from __future__ import annotations

import datetime

from django.core.cache import cache, caches

from ..models import TIER_ORDER, DailyPuzzle, site_today

DAILY_CACHE_SECONDS = 3600  # in the shared cache, dropped whenever the daily is saved or deleted
DAILY_LOCAL_SECONDS = 10  # in this process's memory, which other processes cannot drop
# A past day's daily found missing is remembered in the shared cache this long, and dropped like
# a daily when one is saved: a site without yesterday's dailies (a first day, a day nobody
# scheduled) would otherwise ask the database for each of them on every home page. Never today's:
# a reader that looks just before a publishing commits, and writes after it, would hide the new
# day's puzzle for this long (bench/midnight.py's "beat" scenario showed it); kept short for the
# same race when an admin schedules a past day.
DAILY_ABSENT_SECONDS = 30
ABSENT = "absent"
local_cache = caches["local"]


def daily_served(day: datetime.date, difficulty: str, today: datetime.date | None = None) -> DailyPuzzle | None:
    """The published daily (with its puzzle) of a past or present date; None for any other.

    Read from this process's memory, then from the shared cache (Redis in production), then from
    the database. An admin's change reaches the shared cache at once (models._forget_cached_daily)
    and every process within DAILY_LOCAL_SECONDS. Future dates are never served. A past day's
    missing daily is remembered only in the shared cache, which a publishing clears. `today` is
    site_today(), when the caller has it.
    """
    today = today or site_today()
    if difficulty not in TIER_ORDER or day > today:
        return None
    key = DailyPuzzle.cache_key(day, difficulty)
    daily = local_cache.get(key)
    if daily is not None:
        return daily  # kept from the first read for DAILY_LOCAL_SECONDS, not from the last
    daily = cache.get(key)
    if daily == ABSENT:
        return None
    if daily is None:
        daily = DailyPuzzle.objects.select_related("puzzle").filter(date=day, difficulty=difficulty).first()
        if daily is None:
            if day < today:
                cache.set(key, ABSENT, DAILY_ABSENT_SECONDS)
            return None
        cache.set(key, daily, DAILY_CACHE_SECONDS)
    local_cache.set(key, daily, DAILY_LOCAL_SECONDS)
    return daily


def dailies_of(day: datetime.date) -> dict[str, DailyPuzzle]:
    """A past or present day's published dailies (with their puzzles) by difficulty, easiest
    first, through the same caches: the home page's cards and yesterday's results cost no query
    once the day is cached."""
    today = site_today()
    found = {tier: daily_served(day, tier, today) for tier in TIER_ORDER}
    return {tier: daily for tier, daily in found.items() if daily is not None}
