"""The chart of a player's solve times on the stats page: pure functions of plain values (dates,
seconds), drawn as an SVG by the template.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Iterable
from dataclasses import dataclass

from ..durations import format_duration
from .history import SolveRow, short_date


@dataclass(frozen=True)
class ChartPoint:
    day: datetime.date
    seconds: float
    assisted: bool = False
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
            for flag, text in ((self.point.assisted, "with hints or checks"), (self.point.late, "played late"))
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
        points.setdefault(r.difficulty, []).append(ChartPoint(r.solved_on, r.seconds, r.assisted, r.late))
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
        if first is None or not span:
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
