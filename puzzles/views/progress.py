"""The archive of past dailies and a player's statistics. Views fetch, call progress.py, render."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from .. import progress
from ..models import TIER_ORDER, Tier, site_today

STATUS_KEY = [
    progress.NOT_STARTED,
    progress.IN_PROGRESS,
    progress.PlayStatus("solved", "solved"),
    progress.PlayStatus("solved", "solved", hinted=True),
    progress.PlayStatus("solved", "solved", late=True),
]


@require_GET
def archive_now(request: HttpRequest) -> HttpResponse:
    """The archive opens on the current month."""
    today = site_today()
    return redirect("puzzles:archive-month", year=f"{today:%Y}", month=f"{today:%m}")


@require_GET
def archive_month(request: HttpRequest, year: str, month: str) -> HttpResponse:
    """A month's calendar of past dailies, with the player's status on each; never a future date."""
    today = site_today()
    first = progress.month_start(int(year), int(month))  # the URL allows digits only
    if first is None or first > today:
        raise Http404("There is no such month in the archive.")
    last = min(progress.month_end(first), today)
    dailies = list(progress.dailies_between(first, last))
    attempts = None
    if request.user.is_authenticated:
        attempts = {a.daily_id: a for a in progress.attempts_between(request.user, first, last)}
    earlier = progress.previous_month(first)
    later = progress.next_month(first)
    context = {
        "month": first,
        "weeks": progress.archive_weeks(first, today, dailies, attempts),
        "has_dailies": bool(dailies),
        # No link back past the first month that has puzzles, none forward past this month.
        "previous": earlier if earlier and progress.dailies_before(first) else None,
        "next": later if later and later <= today else None,
        "status_key": STATUS_KEY if attempts is not None else [],
        "today": today,
    }
    return render(request, "puzzles/archive.html", context)


@require_GET
@login_required
def stats(request: HttpRequest) -> HttpResponse:
    """The player's own statistics per difficulty, a chart of their times, and their streaks."""
    rows = progress.solve_rows(request.user)
    started = progress.started_counts(request.user)
    times = progress.chart_points(rows)
    difficulties = []
    for tier in TIER_ORDER:
        points = times.get(tier, [])
        summary = progress.difficulty_stats(tier, started.get(tier, 0), [p.seconds for p in points])
        difficulties.append({
            "name": Tier(tier).label,
            "stats": summary,
            "best": progress.clock(summary.best),
            "median": progress.clock(summary.median),
            "mean": progress.clock(summary.mean),
            "chart": progress.solve_chart(points) if points else None,
        })
    context = {
        "difficulties": difficulties,
        "streaks": progress.streaks(progress.streak_days(rows), site_today()),
        "any_started": bool(started),
        "site_zone": settings.TIME_ZONE,
    }
    return render(request, "puzzles/stats.html", context)
