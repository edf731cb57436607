"""Figures about the pools, shared by the admin dashboard and the pool_status command: levels,
score bands and the spread of scores, and the scheduled dailies' scores. Reads only."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Avg, Count, Q, QuerySet
from django.utils import timezone

from ..models import TIER_ORDER, DailyPuzzle, Puzzle, score_band, site_today
from ..pipeline.pools import pool_get
from ..pipeline.scores import band_text, score_text

IMPORTED = "imported"  # the filler recorded for puzzles from an admin's file
# The histogram of a pool's scores: buckets 0.25 wide, from a point below the band to one above it;
# scores beyond gather in a bucket at each end, so every tier's chart keeps one shape.
BUCKET = 25  # hundredths
BUCKET_MARGIN = 100
SCHEDULED_DAYS_SHOWN = 14


@dataclass
class Bucket:
    label: str  # "3.00 to 3.24", "under 2.20", "5.75 and above"
    count: int
    place: str  # "inside", "edge" (partly inside) or "outside" the band
    height: int  # 0 to 10: tenths of the fullest bucket, at least 1 when not empty


def histogram(scores: list[int], band: tuple[int, int]) -> list[Bucket]:
    """The scores counted in fixed buckets around the band (see BUCKET, BUCKET_MARGIN)."""
    first = max(0, (band[0] - BUCKET_MARGIN) // BUCKET * BUCKET)
    end = -(-(band[1] + 1 + BUCKET_MARGIN) // BUCKET) * BUCKET  # exclusive
    counts = [0] * ((end - first) // BUCKET)
    under = over = 0
    for score in scores:
        if score < first:
            under += 1
        elif score >= end:
            over += 1
        else:
            counts[(score - first) // BUCKET] += 1
    spans = [(low, low + BUCKET - 1) for low in range(first, end, BUCKET)]
    rows = [(f"{low / 100:.2f} to {high / 100:.2f}", n, low, high) for (low, high), n in zip(spans, counts)]
    if first > 0:
        rows.insert(0, (f"under {first / 100:.2f}", under, 0, first - 1))
    rows.append((f"{end / 100:.2f} and above", over, end, 10**9))
    tallest = max((row[1] for row in rows), default=0) or 1
    buckets = []
    for label, n, low, high in rows:
        if band[0] <= low and high <= band[1]:
            place = "inside"
        elif low <= band[1] and band[0] <= high:
            place = "edge"
        else:
            place = "outside"
        buckets.append(Bucket(label, n, place, max(1, round(10 * n / tallest)) if n else 0))
    return buckets


@dataclass
class BandRow:
    tier: str
    band: tuple[int, int]
    inside: int
    below: int
    above: int
    buckets: list[Bucket]

    @property
    def band_text(self) -> str:
        return band_text(self.band)

    @property
    def available(self) -> int:
        return self.inside + self.below + self.above


def band_rows() -> list[BandRow]:
    """Per tier: its band, the available puzzles inside, below and above it, their histogram."""
    rows = []
    for tier in TIER_ORDER:
        low, high = band = score_band(tier)
        scores = list(Puzzle.objects.available(tier).values_list("score", flat=True))
        below = sum(1 for s in scores if s < low)
        above = sum(1 for s in scores if s > high)
        rows.append(BandRow(tier, band, len(scores) - below - above, below, above, histogram(scores, band)))
    return rows


@dataclass
class ScheduledSlot:
    difficulty: str
    daily: DailyPuzzle | None
    outside: str = ""  # "below" or "above" the slot's band, or "" inside it

    @property
    def score_text(self) -> str:
        return score_text(self.daily.puzzle.score) if self.daily else ""


def scheduled_scores(today: datetime.date) -> list[tuple[datetime.date, list[ScheduledSlot]]]:
    """Each date from today that has a daily published (the first SCHEDULED_DAYS_SHOWN), with every
    slot's puzzle and whether its score is outside the slot's band."""
    dailies = DailyPuzzle.objects.filter(date__gte=today).select_related("puzzle").order_by("date")
    by_date: dict[datetime.date, dict[str, DailyPuzzle]] = {}
    for daily in dailies[: SCHEDULED_DAYS_SHOWN * len(TIER_ORDER)]:
        by_date.setdefault(daily.date, {})[daily.difficulty] = daily
    days = []
    for day in sorted(by_date)[:SCHEDULED_DAYS_SHOWN]:
        slots = []
        for tier in TIER_ORDER:
            daily = by_date[day].get(tier)
            low, high = score_band(tier)
            outside = ""
            if daily is not None and daily.puzzle.score < low:
                outside = "below"
            elif daily is not None and daily.puzzle.score > high:
                outside = "above"
            slots.append(ScheduledSlot(tier, daily, outside))
        days.append((day, slots))
    return days


@dataclass
class PoolRow:
    tier: str
    available: int
    in_band: int  # of those, inside the tier's score band: what a refill fills to the target
    target: int
    made_last_hour: int
    average_seconds: float | None
    days_ahead: int

    @property
    def low(self) -> bool:
        return self.in_band < self.target


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
        levels = Puzzle.objects.available(tier).aggregate(
            all=Count("pk"), inside=Count("pk", filter=Q(score__range=score_band(tier)))
        )
        rows.append(
            PoolRow(
                tier=tier,
                available=levels["all"],
                in_band=levels["inside"],
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
