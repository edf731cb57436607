"""A player's skill profile (/stats/): per technique they have used, how often, the median time it
took them to find it and how that moved over the last weeks; and the techniques they have not met
yet, each with a past daily that needs it.

Read from TechniqueUse rows (models/coaching.py), which the review writes one per placement it
credits with a technique (one placed ahead credits none), and only those of reviews made by the
current rules: a review made by older ones is made again by the sweep (services.reviews_missing),
its uses with it. Two queries in all, whatever the number of techniques, and pure functions after
them.
"""

from __future__ import annotations

import datetime
import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils import timezone

from ..durations import format_duration
from ..engine import TECHNIQUES, technique_about, technique_title
from ..models import DailyPuzzle, TechniqueUse, site_today
from .review import REVIEW_VERSION

if TYPE_CHECKING:
    from django.contrib.auth.models import User

WEEKS = 8  # the trend's reach, in weeks back from today
# Whether a technique got faster is said only when each half of the trend has this many uses:
# one quick find is not a trend.
TREND_MIN_USES = 3
# The change in median that earns "faster" or "slower"; less is "about as quick".
TREND_MARGIN = 0.15
# How far back a past daily is looked for, for the techniques not met yet.
EXAMPLE_DAYS = 180
UNMET_SHOWN = 6  # the easiest unmet techniques are listed; the rest are counted


@dataclass(frozen=True)
class Use:
    technique: str
    seconds: float
    day: datetime.date  # the solve's, in the site's zone


@dataclass(frozen=True)
class Sparkline:
    points: str  # an SVG polyline's points, in a 0..WIDTH by 0..HEIGHT box
    summary: str  # the same in words

    @property
    def last(self) -> tuple[str, str]:
        """The latest week's point, marked with a dot."""
        x, y = self.points.rsplit(" ", 1)[-1].split(",")
        return x, y

    WIDTH = 80
    HEIGHT = 20


@dataclass(frozen=True)
class Skill:
    technique: str
    uses: int
    median_seconds: float
    trend: str  # "faster", "slower", "about as quick" or "" (too few uses to say)
    sparkline: Sparkline | None

    @property
    def title(self) -> str:
        return technique_title(self.technique)

    @property
    def median(self) -> str:
        return format_duration(self.median_seconds)

    @property
    def trend_words(self) -> str:
        """'faster than a month before', or '' when there is too little to tell."""
        if not self.trend:
            return ""
        return (
            f"{self.trend} than a month before"
            if self.trend != "about as quick"
            else "about as quick as a month before"
        )


@dataclass(frozen=True)
class Unmet:
    technique: str
    tier: str
    example: DailyPuzzle | None  # a past daily whose puzzle needs it

    @property
    def title(self) -> str:
        return technique_title(self.technique)

    @property
    def about(self) -> str:
        return technique_about(self.technique)


@dataclass(frozen=True)
class Profile:
    skills: list[Skill]
    unmet: list[Unmet]  # the easiest first, UNMET_SHOWN of them
    more_unmet: int  # how many more are not met yet


def weekly_medians(times: Iterable[tuple[datetime.date, float]], today: datetime.date) -> list[float | None]:
    """The median time of each of the last WEEKS weeks, oldest first (the last ends today); None
    for a week without a use."""
    weeks: list[list[float]] = [[] for _ in range(WEEKS)]
    for day, seconds in times:
        back = (today - day).days // 7
        if 0 <= back < WEEKS:
            weeks[WEEKS - 1 - back].append(seconds)
    return [statistics.median(w) if w else None for w in weeks]


def trend_of(times: Iterable[tuple[datetime.date, float]], today: datetime.date) -> str:
    """'faster', 'slower' or 'about as quick' over the last four weeks against the four before;
    '' without TREND_MIN_USES in each."""
    recent: list[float] = []
    before: list[float] = []
    for day, seconds in times:
        back = (today - day).days // 7
        if 0 <= back < WEEKS // 2:
            recent.append(seconds)
        elif WEEKS // 2 <= back < WEEKS:
            before.append(seconds)
    if len(recent) < TREND_MIN_USES or len(before) < TREND_MIN_USES:
        return ""
    now, then = statistics.median(recent), statistics.median(before)
    if now < then * (1 - TREND_MARGIN):
        return "faster"
    if now > then * (1 + TREND_MARGIN):
        return "slower"
    return "about as quick"


def sparkline(medians: list[float | None]) -> Sparkline | None:
    """The weekly medians as a small line, quickest at the foot and slowest at the top of its box,
    or None with fewer than two weeks."""
    known = [(i, m) for i, m in enumerate(medians) if m is not None]
    if len(known) < 2:
        return None
    low, high = min(m for _, m in known), max(m for _, m in known)
    step = Sparkline.WIDTH / (len(medians) - 1)

    def y(m: float) -> float:
        share = (m - low) / (high - low) if high > low else 0.5
        return round(Sparkline.HEIGHT * (1 - share), 1)

    points = " ".join(f"{round(i * step, 1)},{y(m)}" for i, m in known)
    said = ", ".join(format_duration(m) for _, m in known)
    return Sparkline(points, f"Median time to find it, week by week over the last {WEEKS} weeks: {said}.")


def skills_of(uses: Iterable[Use], today: datetime.date) -> list[Skill]:
    """Per technique used, in the catalogue's order (easiest first): count, median time, trend."""
    by_technique: dict[str, list[Use]] = defaultdict(list)
    for use in uses:
        by_technique[use.technique].append(use)
    order = {t.name: i for i, t in enumerate(TECHNIQUES)}
    skills = []
    for name in sorted(by_technique, key=lambda n: (order.get(n, len(order)), n)):
        found = by_technique[name]
        times = [(u.day, u.seconds) for u in found]
        skills.append(
            Skill(
                technique=name,
                uses=len(found),
                median_seconds=statistics.median(u.seconds for u in found),
                trend=trend_of(times, today),
                sparkline=sparkline(weekly_medians(times, today)),
            )
        )
    return skills


def unmet_of(met: set[str], examples: dict[str, DailyPuzzle]) -> list[Unmet]:
    """The catalogue's techniques not in `met`, easiest first, each with its example if any."""
    return [Unmet(t.name, t.tier, examples.get(t.name)) for t in TECHNIQUES if t.name not in met]


def _uses(user: User) -> list[Use]:
    current = TechniqueUse.objects.filter(user=user, solve__annotated__version=REVIEW_VERSION)
    rows = current.order_by().values_list("technique", "think_seconds", "solved_at")
    zone = timezone.get_default_timezone()  # days as the dailies count them
    return [Use(name, seconds, timezone.localdate(at, zone)) for name, seconds, at in rows]


def _examples(wanted: set[str], today: datetime.date) -> dict[str, DailyPuzzle]:
    """The latest past daily whose puzzle needs each wanted technique: one query over the last
    EXAMPLE_DAYS days' dailies, each technique given the first that has it."""
    found: dict[str, DailyPuzzle] = {}
    dailies = (
        DailyPuzzle.objects.filter(date__lt=today, date__gte=today - datetime.timedelta(days=EXAMPLE_DAYS))
        .select_related("puzzle")
        .only("date", "difficulty", "puzzle__techniques")
        .order_by("-date", "difficulty")
    )
    for daily in dailies:
        for name in wanted.intersection(daily.puzzle.techniques or {}):
            found.setdefault(name, daily)
        if len(found) == len(wanted):
            break
    return found


def skill_profile(user: User, today: datetime.date | None = None) -> Profile:
    """The player's skill profile: two queries."""
    today = today or site_today()
    uses = _uses(user)
    skills = skills_of(uses, today)
    met = {s.technique for s in skills}
    unmet_names = [t.name for t in TECHNIQUES if t.name not in met]
    shown = set(unmet_names[:UNMET_SHOWN])
    unmet = unmet_of(met, _examples(shown, today) if shown else {})
    return Profile(skills, unmet[:UNMET_SHOWN], max(0, len(unmet) - UNMET_SHOWN))
