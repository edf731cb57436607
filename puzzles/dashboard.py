"""Figures about the pools, shared by the admin dashboard and the pool_status command."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Optional

from django.db.models import Avg
from django.utils import timezone

from .models import TIER_ORDER, DailyPuzzle, Puzzle, site_today
from .services import pool_get


@dataclass
class PoolRow:
    tier: str
    available: int
    target: int
    made_last_hour: int
    average_seconds: Optional[float]
    days_ahead: int

    @property
    def low(self) -> bool:
        return self.available < self.target


def days_scheduled_ahead(tier: str, today: Optional[datetime.date] = None) -> int:
    """How many consecutive days from today already have this tier's daily."""
    day = today or site_today()
    dates = set(
        DailyPuzzle.objects.filter(difficulty=tier, date__gte=day).values_list("date", flat=True)[:400]
    )
    count = 0
    while day + datetime.timedelta(days=count) in dates:
        count += 1
    return count


def pool_rows() -> list[PoolRow]:
    hour_ago = timezone.now() - datetime.timedelta(hours=1)
    rows = []
    for tier in TIER_ORDER:
        recent = Puzzle.objects.filter(tier=tier, created__gte=hour_ago)
        avg_ms = Puzzle.objects.filter(tier=tier).order_by("-created")[:50].aggregate(a=Avg("generation_ms"))["a"]
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
