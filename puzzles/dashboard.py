"""Figures about the pools, shared by the admin dashboard and the pool_status command."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Avg, QuerySet
from django.utils import timezone

from .models import TIER_ORDER, DailyPuzzle, Puzzle, site_today
from .pipeline import pool_get

IMPORTED = "imported"  # the filler recorded for puzzles from an admin's file


@dataclass
class PoolRow:
    tier: str
    available: int
    target: int
    made_last_hour: int
    average_seconds: float | None
    days_ahead: int

    @property
    def low(self) -> bool:
        return self.available < self.target


def days_scheduled_ahead(tier: str, today: datetime.date | None = None) -> int:
    """How many consecutive days from today already have this tier's daily."""
    day = today or site_today()
    dates = set(DailyPuzzle.objects.filter(difficulty=tier, date__gte=day).values_list("date", flat=True)[:400])
    count = 0
    while day + datetime.timedelta(days=count) in dates:
        count += 1
    return count


def pool_rows() -> list[PoolRow]:
    hour_ago = timezone.now() - datetime.timedelta(hours=1)
    rows = []
    for tier in TIER_ORDER:
        # Imported puzzles were not made here; counting them would flatter the workers.
        made = Puzzle.objects.filter(tier=tier).exclude(filler=IMPORTED)
        recent = made.filter(created__gte=hour_ago)
        avg_ms = made.order_by("-created")[:50].aggregate(a=Avg("generation_ms"))["a"]
        rows.append(
            PoolRow(
                tier=tier,
                available=Puzzle.objects.available(tier).count(),
                target=pool_get(tier).target,
                made_last_hour=recent.count(),
                average_seconds=avg_ms / 1000 if avg_ms is not None else None,
                days_ahead=days_scheduled_ahead(tier),
            )
        )
    return rows


def empty_slots(today: datetime.date, days: int) -> list[tuple[datetime.date, list[str]]]:
    """Each date from today to `days` ahead that still lacks a daily, with the missing difficulties."""
    last = today + datetime.timedelta(days=days)
    filled = set(DailyPuzzle.objects.filter(date__range=(today, last)).values_list("date", "difficulty"))
    gaps = []
    for n in range(days + 1):
        day = today + datetime.timedelta(days=n)
        missing = [tier for tier in TIER_ORDER if (day, tier) not in filled]
        if missing:
            gaps.append((day, missing))
    return gaps


def recent_substitutes(today: datetime.date, days: int) -> QuerySet[DailyPuzzle]:
    """Dailies published from another tier's pool since `days` ago (and any already ahead)."""
    since = today - datetime.timedelta(days=days)
    return DailyPuzzle.objects.filter(substitute=True, date__gte=since).select_related("puzzle")
