"""The site's pages: the board, the archive, stats (today's puzzles, the home page, are home.py; the
results after a solve, results.py).

Views fetch, call a domain module, render; the rules live in dailies.py, attempts.py and
history.py.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.cache import caches
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_GET

from ..coaching.profile import WEEKS, skill_profile
from ..context_processors import site_urls
from ..durations import duration_or_dash
from ..fairplay.words import pause_limit
from ..models import TIER_ORDER, DailyPuzzle, Pool, Tier, site_today
from ..pipeline.dailies import daily_served
from ..play.attempts import attempt_state
from ..practice.answers import practice_counts
from ..results import chart, history
from ..results.played import player_history
from ..results.streaks import FREEZE_EVERY, FREEZES_KEPT
from ..results.unrated import rating_note
from .home import home_context, render_home
from .offline import kept_offline
from .share import preview_context

local_cache = caches["local"]

# The puzzle page is one document per puzzle, the same for everyone: rendered once, kept in this
# process's memory, and served without looking at the session. Who is playing, and their
# position, come from the state API, which board.js calls at once; so opening a puzzle costs
# one authenticated request, not two, and the page itself costs little more than a do-nothing
# view. A page kept for an hour is safe: its address names the daily, and the key below changes
# with the daily's puzzle.
PAGE_CACHE_SECONDS = 3600

# The archive's key to the status symbols, in the order the page lists them.
STATUS_KEY = [
    history.NOT_STARTED,
    history.IN_PROGRESS,
    history.PlayStatus("solved", "solved"),
    history.PlayStatus("solved", "solved", assisted=True),
    history.PlayStatus("solved", "solved", late=True),
]


def served_or_404(day: datetime.date, difficulty: str) -> DailyPuzzle:
    daily = daily_served(day, difficulty)
    if daily is None:
        raise Http404("There is no such puzzle.")
    return daily


@require_GET
def today_published(request: HttpRequest) -> JsonResponse:
    """Which of today's difficulties are published, easiest first: one small query, for a home page
    still waiting for some (static/js/preparing.js), which asks now and then."""
    today = site_today()
    published = set(DailyPuzzle.objects.for_date(today).values_list("difficulty", flat=True))
    response = JsonResponse({"date": today.isoformat(), "published": [t for t in TIER_ORDER if t in published]})
    add_never_cache_headers(response)
    return response


@require_GET
def how_to_play(request: HttpRequest) -> HttpResponse:
    """The rules, the board's four entry modes, its keys and touch: the page the header links to
    (on the board the same words open in a dialog instead, static/js/howto.js)."""
    return render(request, "puzzles/howto.html", {"pause_limit": pause_limit()})


# How soon a puzzle being prepared is worth asking for again, in seconds.
PREPARING_RETRY_AFTER = 60


def daily_page(request: HttpRequest, day: datetime.date, difficulty: str) -> HttpResponse:
    """The board: the givens, the controls (hidden until the player's game loads), no player.

    Today's puzzle whose pool is still being filled for the first time is not there yet: the
    answer is today's puzzles, saying this one is being prepared (503 with Retry-After, not 404).
    """
    daily = daily_served(day, difficulty)
    if daily is None:
        if day == site_today() and difficulty in Pool.objects.first_filling():
            response = render_home(request, {**home_context(request), "preparing": difficulty}, status=503)
            response["Retry-After"] = str(PREPARING_RETRY_AFTER)
            add_never_cache_headers(response)
            return response
        raise Http404("There is no such puzzle.")
    pace = settings.BOARD_SAVE_EVERY_SECONDS
    past = daily.date < site_today()  # an archive puzzle says so (the page is kept past its day)
    key = f"daily-page:{daily.pk}:{daily.puzzle_id}:{daily.date}:{daily.difficulty}:{request.path}:{pace}:{past}"
    page = local_cache.get(key)
    if page is None:
        page = render_to_string("puzzles/daily.html", {**_daily_context(request, daily), "past": past}).encode()
        local_cache.set(key, page, PAGE_CACHE_SECONDS)
    return HttpResponse(page)


def _api_urls(daily: DailyPuzzle) -> dict[str, str]:
    """What board.js calls, by name: the JSON endpoints, and the results fragment (a page, not /api/)."""
    args = (daily.date, daily.difficulty)
    names = ("state", "save", "beat", "submit", "hint", "check")
    urls = {name: reverse(f"puzzles:api-{name}", args=args) for name in names}
    urls["settings"] = reverse("puzzles:api-settings")
    urls["results"] = reverse("puzzles:results", args=args)
    return urls


def _daily_context(request: HttpRequest, daily: DailyPuzzle) -> dict[str, Any]:
    """Everything the page shows, none of it about the person asking (so no context processors)."""
    back = f"?next={request.path}"
    return {
        "daily": daily,
        "puzzle_state": attempt_state(None, daily),
        "login_url": reverse("account_login") + back,
        "signup_url": reverse("account_signup") + back,
        "api": _api_urls(daily),
        "save_every_ms": settings.BOARD_SAVE_EVERY_SECONDS * 1000,
        "pause_limit": pause_limit(),  # the paused board says how long a pause counts
        "site_urls": site_urls(request)["site_urls"],
        "messages": (),  # a waiting message is left for the next page that is about its reader
        **preview_context(daily),  # the link preview's tags (_meta.html)
    }


@require_GET
def archive_now(request: HttpRequest) -> HttpResponse:
    """The archive opens on the current month."""
    today = site_today()
    return redirect("puzzles:archive-month", year=f"{today:%Y}", month=f"{today:%m}")


@require_GET
def archive_month(request: HttpRequest, year: str, month: str) -> HttpResponse:
    """A month's calendar of past dailies, with the player's status on each; never a future date."""
    today = site_today()
    first = history.month_start(int(year), int(month))  # the URL allows digits only
    if first is None or first > today:
        raise Http404("There is no such month in the archive.")
    last = min(history.month_end(first), today)
    dailies = list(history.dailies_between(first, last))
    attempts = None
    if request.user.is_authenticated:
        attempts = {a.daily_id: a for a in history.attempts_between(request.user, first, last)}
    earlier = history.previous_month(first)
    later = history.next_month(first)
    # An empty month says why: the site's first puzzles still being made, a month before the first
    # daily, or a month the site published nothing in.
    first_daily = None if dailies else DailyPuzzle.objects.order_by("date").values_list("date", flat=True).first()
    context = {
        "month": first,
        "weeks": history.archive_weeks(first, today, dailies, attempts),
        "has_dailies": bool(dailies),
        "first_daily": first_daily,
        "preparing": not dailies and first_daily is None and bool(Pool.objects.first_filling()),
        # No link back past the first month that has puzzles, none forward past this month.
        "previous": earlier if earlier and history.dailies_before(first) else None,
        "next": later if later and later <= today else None,
        "status_key": STATUS_KEY if attempts is not None else [],
        "today": today,
    }
    return render(request, "puzzles/archive.html", context)


@require_GET
@login_required
@kept_offline
def stats(request: HttpRequest) -> HttpResponse:
    """The player's own statistics per difficulty, a chart of their times, and their streaks."""
    user = request.user
    assert user.is_authenticated  # login_required
    rows = history.solve_rows(user)
    started = history.started_counts(user)
    times = chart.chart_points(rows)
    rating = player_history(user)
    difficulties = []
    for tier in TIER_ORDER:
        points = times.get(tier, [])
        summary = history.difficulty_stats(tier, started.get(tier, 0), [p.seconds for p in points])
        difficulties.append(
            {
                "name": Tier(tier).label,
                "stats": summary,
                "best": duration_or_dash(summary.best),
                "median": duration_or_dash(summary.median),
                "mean": duration_or_dash(summary.mean),
                "chart": chart.solve_chart(points) if points else None,
            }
        )
    context = {
        "difficulties": difficulties,
        "streaks": history.streaks(history.streak_days(rows), site_today()),
        "freeze_every": FREEZE_EVERY,
        "freezes_kept": FREEZES_KEPT,
        "any_started": bool(started),
        "site_zone": settings.TIME_ZONE,
        "practice": practice_counts(user),
        "profile": skill_profile(user),
        "profile_weeks": WEEKS,
        "rating": rating,
        "rating_note": None if rating is not None else rating_note(user),
    }
    return render(request, "puzzles/stats.html", context)
