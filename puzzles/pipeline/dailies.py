"""The published dailies as the site serves them: past and present dates only, read through caches.

The database stays the only real copy; a cold or missing cache only costs a query. A day that
nobody published (workers or beat were down at midnight) is published by its first visitor.
"""

from __future__ import annotations

import datetime

from django.core.cache import cache, caches

from ..models import TIER_ORDER, DailyPuzzle, site_today
from . import publishing

DAILY_CACHE_SECONDS = 3600  # in the shared cache, dropped whenever the daily is saved or deleted
DAILY_LOCAL_SECONDS = 10  # in this process's memory, which other processes cannot drop
local_cache = caches["local"]


def daily_served(day: datetime.date, difficulty: str) -> DailyPuzzle | None:
    """The published daily (with its puzzle) of a past or present date; None for any other.

    Read from this process's memory, then from the shared cache (Redis in production), then from
    the database. An admin's change reaches the shared cache at once (models._forget_cached_daily)
    and every process within DAILY_LOCAL_SECONDS. Future dates are never served.
    """
    today = site_today()
    if difficulty not in TIER_ORDER or day > today:
        return None
    key = DailyPuzzle.cache_key(day, difficulty)
    daily = local_cache.get(key)
    if daily is None:
        daily = cache.get(key)
        if daily is None:
            lookup = DailyPuzzle.objects.select_related("puzzle").filter(date=day, difficulty=difficulty)
            daily = lookup.first()
            if daily is None and day == today and publishing.daily_publish_if_missing(day):
                daily = lookup.first()
            if daily is None:
                return None
            cache.set(key, daily, DAILY_CACHE_SECONDS)
        local_cache.set(key, daily, DAILY_LOCAL_SECONDS)
    return daily


def dailies_of_today() -> tuple[datetime.date, dict[str, DailyPuzzle]]:
    """Today's date and its dailies by difficulty, publishing any slot still empty first."""
    today = site_today()
    dailies = {d.difficulty: d for d in DailyPuzzle.objects.for_date(today)}
    if len(dailies) < len(TIER_ORDER) and publishing.daily_publish_if_missing(today):
        dailies = {d.difficulty: d for d in DailyPuzzle.objects.for_date(today)}
    return today, dailies
