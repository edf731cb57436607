"""A player's record over time: the archive calendar, statistics per difficulty, streaks, and
the chart of solve times.

The arithmetic is pure functions of plain values (dates, seconds), so it can be tested without a
database; the few queries that feed it are at the end, one per kind of record.
"""

from __future__ import annotations

import calendar
import datetime
import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.core.cache import cache
from django.db.models import Count, QuerySet
from django.utils import timezone

from ..models import TIER_ORDER, Attempt, DailyPuzzle, Solve
from .streaks import Streaks, streaks

if TYPE_CHECKING:
    from django.contrib.auth.models import User

Week = list[datetime.date | None]  # Monday to Sunday; None for days of the next/previous month
ONE_DAY = datetime.timedelta(days=1)


# --- times ------------------------------------------------------------------------------------


def short_date(day: datetime.date) -> str:
    """A date as the chart labels it: 18 Mar 2026."""
    return f"{day.day} {day:%b %Y}"


def median(values: Iterable[float]) -> float | None:
    """The middle value (the mean of the two middle ones for an even count); None when empty."""
    ordered = sorted(values)
    return statistics.median(ordered) if ordered else None


@dataclass(frozen=True)
class DifficultyStats:
    difficulty: str
    started: int
    solved: int
    best: float | None
    median: float | None
    mean: float | None


def difficulty_stats(difficulty: str, started: int, times: list[float]) -> DifficultyStats:
    """Count, best, median and mean of one difficulty's solve times, with the attempts started."""
    return DifficultyStats(
        difficulty=difficulty,
        # Every solve has its attempt; never report more solved than started.
        started=max(started, len(times)),
        solved=len(times),
        best=min(times) if times else None,
        median=median(times),
        mean=statistics.fmean(times) if times else None,
    )


# --- streaks (the rule, freezes and all, is streaks.py's) ---------------------------------------


def streak_day(daily_date: datetime.date, solved_on: datetime.date, late: bool) -> datetime.date | None:
    """The day a solve counts towards a streak: its puzzle's own date, if solved on that date."""
    return daily_date if not late and solved_on == daily_date else None


def streak_days(rows: Iterable[SolveRow]) -> set[datetime.date]:
    """The days a player's solves count towards streaks, each day once."""
    days = (streak_day(r.daily_date, r.solved_on, r.late) for r in rows)
    return {day for day in days if day is not None}


# --- the archive's calendar -------------------------------------------------------------------


def month_start(year: int, month: int) -> datetime.date | None:
    """The first day of a month, or None for a month that does not exist."""
    try:
        return datetime.date(year, month, 1)
    except (ValueError, OverflowError):
        return None


def month_end(first: datetime.date) -> datetime.date:
    """The last day of the month that starts on `first`."""
    return first.replace(day=calendar.monthrange(first.year, first.month)[1])


def previous_month(first: datetime.date) -> datetime.date | None:
    """The first day of the month before; None before year 1."""
    try:
        return (first - ONE_DAY).replace(day=1)
    except OverflowError:
        return None


def next_month(first: datetime.date) -> datetime.date | None:
    """The first day of the month after; None after year 9999."""
    try:
        return month_end(first) + ONE_DAY
    except OverflowError:
        return None


def month_weeks(first: datetime.date) -> list[Week]:
    """The month as calendar rows, Monday first, padded with None outside the month."""
    rows = calendar.Calendar(firstweekday=calendar.MONDAY).monthdayscalendar(first.year, first.month)
    return [[first.replace(day=n) if n else None for n in row] for row in rows]


@dataclass(frozen=True)
class PlayStatus:
    code: str  # not-started, in-progress, solved
    label: str
    assisted: bool = False
    late: bool = False

    @property
    def icon(self) -> str:
        """The status as one symbol (the page's key says what each means)."""
        return {"not-started": "○", "in-progress": "◐"}.get(self.code, "✓")

    @property
    def description(self) -> str:
        """The status in words, for screen readers and the page's key."""
        extras = [text for flag, text in ((self.assisted, "with hints or checks"), (self.late, "played late")) if flag]
        return ", ".join([self.label, *extras])


NOT_STARTED = PlayStatus("not-started", "not started")
IN_PROGRESS = PlayStatus("in-progress", "in progress")


def play_status(attempt: Attempt | None) -> PlayStatus:
    """A player's status on a daily from their attempt (its solve loaded with it), if any."""
    if attempt is None:
        return NOT_STARTED
    if not attempt.is_solved:
        return IN_PROGRESS
    return PlayStatus("solved", "solved", assisted=attempt.solve.assisted, late=attempt.solve.late)


@dataclass(frozen=True)
class Entry:
    daily: DailyPuzzle
    status: PlayStatus | None  # None when nobody is logged in


@dataclass(frozen=True)
class DayCell:
    day: datetime.date
    entries: list[Entry]
    future: bool
    today: bool


def archive_weeks(
    first: datetime.date,
    today: datetime.date,
    dailies: Iterable[DailyPuzzle],
    attempts: dict[int, Attempt] | None,
) -> list[list[DayCell | None]]:
    """The month's calendar with each past day's dailies (easiest first) and, given a player's
    attempts by daily id, their status on each. Dailies after `today` are left out."""
    by_date: dict[datetime.date, list[DailyPuzzle]] = {}
    for daily in sorted(dailies, key=lambda d: (TIER_ORDER.index(d.difficulty), d.pk)):
        if daily.date <= today:
            by_date.setdefault(daily.date, []).append(daily)

    def cell(day: datetime.date) -> DayCell:
        entries = [
            Entry(daily, None if attempts is None else play_status(attempts.get(daily.pk)))
            for daily in by_date.get(day, [])
        ]
        return DayCell(day, entries, future=day > today, today=day == today)

    return [[cell(day) if day else None for day in week] for week in month_weeks(first)]


# --- the chart of solve times -----------------------------------------------------------------


def site_date(moment: datetime.datetime) -> datetime.date:
    """The date of a moment in the site's time zone (settings.TIME_ZONE), as the dailies count days."""
    return timezone.localdate(moment, timezone.get_default_timezone())


def dailies_between(first: datetime.date, last: datetime.date) -> QuerySet[DailyPuzzle]:
    """The dailies published for the dates from `first` to `last`, both included."""
    return DailyPuzzle.objects.filter(date__gte=first, date__lte=last).order_by("date", "difficulty")


def dailies_before(day: datetime.date) -> bool:
    """Whether any daily was published for a date before `day` (so the archive goes back further)."""
    return DailyPuzzle.objects.filter(date__lt=day).exists()


def attempts_between(user: User, first: datetime.date, last: datetime.date) -> QuerySet[Attempt]:
    """One player's attempts at the dailies of those dates, each with its solve if any."""
    return Attempt.objects.filter(user=user, daily__date__gte=first, daily__date__lte=last).select_related("solve")


@dataclass(frozen=True)
class SolveRow:
    difficulty: str
    daily_date: datetime.date
    solved_on: datetime.date
    seconds: float
    late: bool
    assisted: bool


def solve_rows(user: User) -> list[SolveRow]:
    """Every solve of one player, oldest first, with its date in the site's zone."""
    rows = (
        Solve.objects.filter(user=user)
        .order_by("solved_at", "pk")
        .values_list("daily__difficulty", "daily__date", "solved_at", "seconds", "late", "assisted")
    )
    return [
        SolveRow(difficulty, daily_date, site_date(solved_at), seconds, late, assisted)
        for difficulty, daily_date, solved_at, seconds, late, assisted in rows
    ]


def player_streaks(user: User, today: datetime.date) -> Streaks:
    """A player's current and best streaks, read from their solves made on the puzzle's own day."""
    rows = Solve.objects.filter(user=user, late=False).order_by().values_list("daily__date", "solved_at")
    days = (streak_day(day, site_date(solved_at), late=False) for day, solved_at in rows)
    return streaks((day for day in days if day is not None), today)


# A player's streaks are read from all their solves once and then kept, under a key that names
# their solves of today's and yesterday's dailies: only those can move the streaks now, so the key
# changes with each of them. This bounds how long an older solve removed by hand still counts.
STREAKS_SECONDS = 3600


def streaks_key(user_id: int, today: datetime.date, solved: Iterable[int]) -> str:
    """Where a player's streaks are kept, `solved` being the ids of their solves of today's and
    yesterday's dailies (the home page has them from the player's attempts)."""
    return f"streaks:{user_id}:{today}:{','.join(map(str, sorted(solved)))}"


def recent_solve_ids(user: User, today: datetime.date) -> list[int]:
    """The ids of the player's solves of today's and yesterday's dailies, for streaks_key."""
    return list(
        Solve.objects.filter(user=user, daily__date__gte=today - ONE_DAY, daily__date__lte=today).values_list(
            "pk", flat=True
        )
    )


def kept_streaks(user: User, today: datetime.date, solved: Iterable[int], found: Streaks | None = None) -> Streaks:
    """The player's streaks as kept under streaks_key, or read and kept now. `found`: what the
    caller already read from the cache under that key (the home page reads several keys at once)."""
    key = streaks_key(user.pk, today, solved)
    if found is None:
        found = cache.get(key)
    if found is None:
        found = player_streaks(user, today)
        cache.set(key, found, STREAKS_SECONDS)
    return found


@dataclass(frozen=True)
class DayResult:
    daily: DailyPuzzle
    status: PlayStatus
    seconds: float | None  # the solve's time, or the time so far of an attempt; None if not started


def day_results(user: User, day: datetime.date) -> list[DayResult]:
    """A player's status and time on each of one day's dailies, easiest first."""
    attempts = {a.daily_id: a for a in attempts_between(user, day, day)}
    return results_of(dailies_between(day, day), attempts)


def results_of(dailies: Iterable[DailyPuzzle], attempts: dict[int, Attempt]) -> list[DayResult]:
    """A player's status and time on each of some dailies, easiest first, from their attempts
    (with their solves) by daily id: for a page that has read both already."""
    results = []
    for daily in sorted(dailies, key=lambda d: TIER_ORDER.index(d.difficulty)):
        attempt = attempts.get(daily.pk)
        seconds = None
        if attempt is not None:
            seconds = attempt.solve.seconds if attempt.is_solved else attempt.active_seconds
        results.append(DayResult(daily, play_status(attempt), seconds))
    return results


def started_counts(user: User) -> dict[str, int]:
    """How many attempts one player has started, per difficulty."""
    rows = Attempt.objects.filter(user=user).order_by().values_list("daily__difficulty").annotate(started=Count("pk"))
    return dict(rows)
