"""A player's record over time: the archive calendar, statistics per difficulty, streaks, and
the chart of solve times.

The arithmetic is pure functions of plain values (dates, seconds), so it can be tested without a
database; the few queries that feed it are at the end, one per kind of record.
"""

from __future__ import annotations

import calendar
import datetime
import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import Count, QuerySet
from django.utils import timezone

from ..durations import clock as clock  # in the engine so the models can use it too; pages read it here
from ..durations import format_duration
from ..models import TIER_ORDER, Attempt, DailyPuzzle, Solve

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

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


# --- streaks ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Streaks:
    current: int
    best: int


def streak_day(daily_date: datetime.date, solved_on: datetime.date, late: bool) -> datetime.date | None:
    """The day a solve counts towards a streak: its puzzle's own date, if solved on that date."""
    return daily_date if not late and solved_on == daily_date else None


def streak_days(rows: Iterable[SolveRow]) -> set[datetime.date]:
    """The days a player's solves count towards streaks, each day once."""
    days = (streak_day(r.daily_date, r.solved_on, r.late) for r in rows)
    return {day for day in days if day is not None}


def streaks(days: Iterable[datetime.date], today: datetime.date) -> Streaks:
    """The current run of consecutive days (alive while it reaches today or yesterday) and the longest."""
    counted = set(days)
    best = run = 0
    previous: datetime.date | None = None
    for day in sorted(counted):
        run = run + 1 if previous is not None and day - previous == ONE_DAY else 1
        best = max(best, run)
        previous = day
    end = today if today in counted else today - ONE_DAY
    current = 0
    while end in counted:
        current += 1
        end -= ONE_DAY
    return Streaks(current=current, best=best)


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
    hinted: bool = False
    late: bool = False

    @property
    def icon(self) -> str:
        """The status as one symbol (the page's key says what each means)."""
        return {"not-started": "○", "in-progress": "◐"}.get(self.code, "✓")

    @property
    def description(self) -> str:
        """The status in words, for screen readers and the page's key."""
        extras = [text for flag, text in ((self.hinted, "with hints or checks"), (self.late, "played late")) if flag]
        return ", ".join([self.label, *extras])


NOT_STARTED = PlayStatus("not-started", "not started")
IN_PROGRESS = PlayStatus("in-progress", "in progress")


def play_status(attempt: Attempt | None) -> PlayStatus:
    """A player's status on a daily from their attempt (its solve loaded with it), if any."""
    if attempt is None:
        return NOT_STARTED
    if not attempt.is_solved:
        return IN_PROGRESS
    return PlayStatus("solved", "solved", hinted=attempt.solve.hinted, late=attempt.solve.late)


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


@dataclass(frozen=True)
class ChartPoint:
    day: datetime.date
    seconds: float
    hinted: bool = False
    late: bool = False


@dataclass(frozen=True)
class Tick:
    position: float
    label: str
    anchor: str = "middle"  # how an x label sits on its tick: start, middle or end


@dataclass(frozen=True)
class PlottedPoint:
    x: float
    y: float
    point: ChartPoint

    @property
    def label(self) -> str:
        """What the point's tooltip says: its date and time, and how it was played."""
        extras = "".join(
            f", {text}"
            for flag, text in ((self.point.hinted, "with hints or checks"), (self.point.late, "played late"))
            if flag
        )
        return f"{short_date(self.point.day)}: {format_duration(self.point.seconds)}{extras}"


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    points: list[PlottedPoint]
    y_ticks: list[Tick]
    x_ticks: list[Tick]
    summary: str


def chart_points(rows: Iterable[SolveRow]) -> dict[str, list[ChartPoint]]:
    """A player's solves as chart points, per difficulty, dated by the day they were solved."""
    points: dict[str, list[ChartPoint]] = {}
    for r in rows:
        points.setdefault(r.difficulty, []).append(ChartPoint(r.solved_on, r.seconds, r.hinted, r.late))
    return points


# Steps for the time axis, in seconds: the first giving at most five intervals is used.
NICE_STEPS = (10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400)


def time_step(longest: float, intervals: int = 5) -> int:
    """A round step for a time axis that reaches `longest` seconds in at most `intervals` steps."""
    for step in NICE_STEPS:
        if longest <= step * intervals:
            return step
    return math.ceil(longest / intervals / 86400) * 86400


def solve_chart(points: list[ChartPoint], *, width: int = 600, height: int = 240) -> Chart:
    """Lay out a scatter chart of solve times (y, from 0) against the date (x), oldest on the left."""
    left, right, top, bottom = 72, width - 16, 12, height - 32
    points = sorted(points, key=lambda p: p.day)
    longest = max((p.seconds for p in points), default=0)
    step = time_step(longest or 60)
    y_max = step * max(1, math.ceil(longest / step))

    def y(seconds: float) -> float:
        return round(bottom - (bottom - top) * seconds / y_max, 1)

    first = points[0].day if points else None
    last = points[-1].day if points else None
    span = (last - first).days if first and last else 0

    def x(day: datetime.date) -> float:
        if not span:
            return round((left + right) / 2, 1)
        return round(left + (right - left) * (day - first).days / span, 1)

    plotted = [PlottedPoint(x(p.day), y(p.seconds), p) for p in points]
    y_ticks = [Tick(y(s), format_duration(s)) for s in range(0, y_max + 1, step)]
    x_ticks = []
    if first and last:
        if span:
            # The first and last labels sit inside the plot, so they are never cut off.
            x_ticks = [Tick(x(first), short_date(first), "start"), Tick(x(last), short_date(last), "end")]
            if span >= 4:
                middle = first + datetime.timedelta(days=span // 2)
                x_ticks.insert(1, Tick(x(middle), short_date(middle)))
        else:
            x_ticks = [Tick(x(first), short_date(first))]
    return Chart(width, height, left, right, top, bottom, plotted, y_ticks, x_ticks, chart_summary(points))


def chart_summary(points: list[ChartPoint]) -> str:
    """One sentence that says what the chart shows, for those who cannot see it."""
    if not points:
        return "No solves yet."
    times = [p.seconds for p in points]
    ordered = sorted(points, key=lambda p: p.day)
    noun = "solve" if len(points) == 1 else "solves"
    return (
        f"{len(points)} {noun} from {short_date(ordered[0].day)} to {short_date(ordered[-1].day)}; "
        f"fastest {format_duration(min(times))}, slowest {format_duration(max(times))}, "
        f"most recent {format_duration(ordered[-1].seconds)}."
    )


# --- queries: one per kind of record ----------------------------------------------------------


def site_date(moment: datetime.datetime) -> datetime.date:
    """The date of a moment in the site's time zone (settings.TIME_ZONE), as the dailies count days."""
    return timezone.localdate(moment, timezone.get_default_timezone())


def dailies_between(first: datetime.date, last: datetime.date) -> QuerySet[DailyPuzzle]:
    """The dailies published for the dates from `first` to `last`, both included."""
    return DailyPuzzle.objects.filter(date__gte=first, date__lte=last).order_by("date", "difficulty")


def dailies_before(day: datetime.date) -> bool:
    """Whether any daily was published for a date before `day` (so the archive goes back further)."""
    return DailyPuzzle.objects.filter(date__lt=day).exists()


def attempts_between(user: AbstractBaseUser, first: datetime.date, last: datetime.date) -> QuerySet[Attempt]:
    """One player's attempts at the dailies of those dates, each with its solve if any."""
    return Attempt.objects.filter(user=user, daily__date__gte=first, daily__date__lte=last).select_related("solve")


@dataclass(frozen=True)
class SolveRow:
    difficulty: str
    daily_date: datetime.date
    solved_on: datetime.date
    seconds: float
    late: bool
    hinted: bool


def solve_rows(user: AbstractBaseUser) -> list[SolveRow]:
    """Every solve of one player, oldest first, with its date in the site's zone."""
    rows = (
        Solve.objects.filter(user=user)
        .order_by("solved_at", "pk")
        .values_list("daily__difficulty", "daily__date", "solved_at", "seconds", "late", "hinted")
    )
    return [
        SolveRow(difficulty, daily_date, site_date(solved_at), seconds, late, hinted)
        for difficulty, daily_date, solved_at, seconds, late, hinted in rows
    ]


def player_streaks(user: AbstractBaseUser, today: datetime.date) -> Streaks:
    """A player's current and best streaks, read from their solves made on the puzzle's own day."""
    rows = Solve.objects.filter(user=user, late=False).order_by().values_list("daily__date", "solved_at")
    days = (streak_day(day, site_date(solved_at), late=False) for day, solved_at in rows)
    return streaks((day for day in days if day is not None), today)


@dataclass(frozen=True)
class DayResult:
    daily: DailyPuzzle
    status: PlayStatus
    seconds: float | None  # the solve's time, or the time so far of an attempt; None if not started


def day_results(user: AbstractBaseUser, day: datetime.date) -> list[DayResult]:
    """A player's status and time on each of one day's dailies, easiest first."""
    attempts = {a.daily_id: a for a in attempts_between(user, day, day)}
    results = []
    for daily in sorted(dailies_between(day, day), key=lambda d: TIER_ORDER.index(d.difficulty)):
        attempt = attempts.get(daily.pk)
        seconds = None
        if attempt is not None:
            seconds = attempt.solve.seconds if attempt.is_solved else attempt.active_seconds
        results.append(DayResult(daily, play_status(attempt), seconds))
    return results


def started_counts(user: AbstractBaseUser) -> dict[str, int]:
    """How many attempts one player has started, per difficulty."""
    rows = Attempt.objects.filter(user=user).order_by().values_list("daily__difficulty").annotate(started=Count("pk"))
    return dict(rows)
