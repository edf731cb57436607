"""The site's pages: the board, the results after a solve, the archive, stats (today's puzzles, the home
page, are home.py).

Views fetch, call a domain module, render; the rules live in dailies.py, attempts.py,
history.py, leaderboard.py and receipt.py.
"""

from __future__ import annotations

import datetime
import hashlib
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.messages import get_messages
from django.core.cache import cache, caches
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from ..accounts.guests import is_guest
from ..coaching.profile import WEEKS, skill_profile
from ..context_processors import site_urls
from ..durations import duration_or_dash
from ..models import TIER_ORDER, DailyPuzzle, Pool, Tier, site_today
from ..pipeline.dailies import daily_served
from ..play.attempts import attempt_state
from ..practice.answers import practice_counts
from ..results import chart, history
from ..results.drawing import grid_svg
from ..results.fastpath import solve_read
from ..results.leaderboard import BOARD_SECONDS, Leaderboard, board_key, day_board, leaderboard_for, standing_of
from ..results.played import player_history, puzzle_played
from ..results.receipt import receipt_for
from ..results.review import review_expected
from ..results.review_part import review_part, review_part_key
from ..results.share import daily_url, share_for
from ..results.streaks import FREEZE_EVERY, FREEZES_KEPT
from .home import PART_MARK, account_part, home_context, render_home
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


def _served_or_404(day: datetime.date, difficulty: str) -> DailyPuzzle:
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
    return render(request, "puzzles/howto.html")


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
    key = f"daily-page:{daily.pk}:{daily.puzzle_id}:{daily.date}:{daily.difficulty}:{request.path}:{pace}"
    page = local_cache.get(key)
    if page is None:
        page = render_to_string("puzzles/daily.html", _daily_context(request, daily)).encode()
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
        "site_urls": site_urls(request)["site_urls"],
        "messages": (),  # a waiting message is left for the next page that is about its reader
        **preview_context(daily),  # the link preview's tags (_meta.html)
    }


def _navigated(request: HttpRequest) -> bool:
    """Whether the browser opened this address as a page, rather than a script fetching it.

    Browsers say so in Sec-Fetch-Mode; one too old to send it still asks for XHTML when it
    navigates, which a script's fetch (board.js asks for text/html alone) never does.
    """
    mode = request.headers.get("Sec-Fetch-Mode")
    if mode is not None:
        return mode == "navigate"
    return "application/xhtml+xml" in request.headers.get("Accept", "")


@require_GET
@never_cache  # the leaderboard moves as others solve, and the fragment is one player's own
@vary_on_headers("Accept", "Sec-Fetch-Mode")
def results(request: HttpRequest, day: datetime.date, difficulty: str) -> HttpResponse:
    """The results of a solve: an HTML fragment for board.js to insert under the board, or, opened
    in the browser (a link, a bookmark), a page of the site around it. 404 until the player solved it.

    The same 404 for a logged-out visitor and a player who has not solved it: the receipt
    tells how the puzzle is solved, so it is never shown before the player's own solve.
    """
    daily = _served_or_404(day, difficulty)
    page = _navigated(request)
    template = "puzzles/results.html" if page else "puzzles/_results.html"
    today, solve = site_today(), None
    if request.user.is_authenticated:
        # With its review, the player's recent solves (the share's streak is kept under them) and
        # the fingerprint of the day's board, in one query; the page draws the player's grid from
        # the attempt too.
        read = solve_read(request.user, daily, today, attempt=page)
        solve = read.solve
        if solve is not None:
            solve.daily, solve.user = daily, request.user  # already loaded, the daily with its puzzle
    if solve is None:
        return render(request, template, {"daily": daily, "solve": None}, status=404)
    # The day's board, the same for every player, the player's streaks and their review drawn as
    # HTML (review_part.py): all kept, read at once.
    keys = (board_key(daily, read.fingerprint), history.streaks_key(solve.user.pk, today, read.recent))
    part_key = review_part_key(solve)
    kept = cache.get_many([*keys, *([part_key] if part_key else [])])
    everyones = day_board(daily, fingerprint=read.fingerprint, found=kept.get(keys[0]))
    streak = history.kept_streaks(solve.user, today, read.recent, kept.get(keys[1])).current
    standing = standing_of(solve, everyones, guest=is_guest(solve.user))
    board = leaderboard_for(daily, user_id=request.user.pk, board=everyones, standing=standing, solve=solve)
    day_word = "today's" if daily.date == today else "that day's"
    receipt_part, rules_part = _board_parts(board, day_word)
    context = {
        "board_rows": _board_rows(board),
        "receipt_part": receipt_part,
        "rules_part": rules_part,
        "daily": daily,
        "solve": solve,
        "share": share_for(solve, daily_url(daily), streak),
        "standing": standing,
        "board": board,
        "day_word": day_word,
        "review_part": review_part(solve, kept.get(part_key)) if part_key else None,
        "review_expected": review_expected(solve),
    }
    if not page:
        return render(request, template, context)
    title = f"Your solved {daily.difficulty} puzzle"
    drawing = grid_svg(daily.puzzle.givens, title, solve.attempt.digits)
    scripts: dict[str, bool] = {
        "review_script": not context["review_part"] and bool(context["review_expected"]),  # review.js asks again
        "verdict_script": standing.checking,  # verdict.js asks again
    }
    if get_messages(request):  # shown once, so the page is drawn whole
        return render(request, template, {**context, **scripts, "drawing": drawing})
    frame = ResultsFrame(request.path, daily, "guest" if is_guest(request.user) else "player", **scripts)
    parts = {
        "account": account_part(request, frame.reader),
        "drawing": drawing,
        "results": render_to_string("puzzles/_results.html", context, request),
    }
    return HttpResponse("".join(parts[part] if n % 2 else part for n, part in enumerate(_results_frame(frame))))


@dataclass(frozen=True)
class ResultsFrame:
    """Everything a solved player's results page shows around its parts: the key it is kept under."""

    path: str
    daily: DailyPuzzle  # its date and difficulty: the same daily is the same key
    reader: str  # "player" or "guest": the header's links differ
    review_script: bool
    verdict_script: bool


@lru_cache(maxsize=256)
def _results_frame(frame: ResultsFrame) -> tuple[str, ...]:
    """The page drawn without a request, a mark in each of the reader's parts, and cut there (as
    the home page's frame, views/home.py): text, a part's name, text, ..."""
    context = {
        "daily": frame.daily,
        "solve": True,
        "review_script": frame.review_script,
        "verdict_script": frame.verdict_script,
        "user": {"is_authenticated": True},
        "is_guest": frame.reader == "guest",
        "request": {"path": frame.path},
        "site_urls": site_urls(HttpRequest())["site_urls"],
        **{part: mark_safe(f"\x00{part}\x00") for part in ("account", "drawing", "results")},
    }
    return tuple(PART_MARK.split(render_to_string("puzzles/results.html", context)))


def _board_rows(board: Leaderboard) -> SafeString:
    """The board's top rows as HTML, drawn once per board and highlighted player (most players are
    below the top, and share one drawing) and kept in this process's memory: the key names the
    day's ranked solves, so a drawing is never of an older board."""
    highlighted = next((row.solve_id for row in board.rows if row.is_player), None)
    key = f"board-rows:{board.key}:{highlighted}"
    rows = local_cache.get(key)
    if rows is None:
        rows = mark_safe(render_to_string("puzzles/_board_rows.html", {"board": board, "daily": board.daily}))
        local_cache.set(key, rows, BOARD_SECONDS)
    return rows


def _board_parts(board: Leaderboard, day_word: str) -> tuple[SafeString, SafeString]:
    """The receipt (what the puzzle took, its median) and how ranking works, as HTML: the same for
    every player of the day's board, so drawn once per board and kept in this process's memory.
    How the puzzle played (once its day is over) joins the key, as a task moves it."""
    played = puzzle_played(board.daily.puzzle)  # None until the puzzle's day is over
    # A digest of the day's word and how it played, as their text ("that day's", a dataclass's
    # repr) holds spaces a cache key should not.
    words = hashlib.blake2b(f"{day_word}|{played!r}".encode(), digest_size=8).hexdigest()
    key = f"results-parts:{board.key}:{words}"
    parts = local_cache.get(key)
    if parts is None:
        context = {"receipt": receipt_for(board.daily, board), "day_word": day_word, "played": played, "board": board}
        parts = tuple(
            mark_safe(render_to_string("puzzles/_results_shared.html", {**context, "part": part}).strip())
            for part in ("receipt", "rules")
        )
        local_cache.set(key, parts, BOARD_SECONDS)
    return parts


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
    context = {
        "month": first,
        "weeks": history.archive_weeks(first, today, dailies, attempts),
        "has_dailies": bool(dailies),
        # No link back past the first month that has puzzles, none forward past this month.
        "previous": earlier if earlier and history.dailies_before(first) else None,
        "next": later if later and later <= today else None,
        "status_key": STATUS_KEY if attempts is not None else [],
        "today": today,
    }
    return render(request, "puzzles/archive.html", context)


@require_GET
@login_required
def stats(request: HttpRequest) -> HttpResponse:
    """The player's own statistics per difficulty, a chart of their times, and their streaks."""
    user = request.user
    assert user.is_authenticated  # login_required
    rows = history.solve_rows(user)
    started = history.started_counts(user)
    times = chart.chart_points(rows)
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
        "rating": player_history(user),
    }
    return render(request, "puzzles/stats.html", context)
