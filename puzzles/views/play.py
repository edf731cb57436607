"""Pages and the board's JSON API. Views fetch, call a service, render; rules live elsewhere."""

from __future__ import annotations

import datetime
import json
from functools import wraps
from typing import Any, Callable, Optional

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.core.cache import cache, caches
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST
from django.views.defaults import page_not_found
from django.views.defaults import server_error as default_server_error

from .. import services
from ..context_processors import site_urls
from ..models import TIER_ORDER, Attempt, DailyPuzzle, site_today

MAX_BODY_BYTES = 16 * 1024  # a save is about 1 KB; anything far larger is not from our page
DAILY_CACHE_SECONDS = 3600  # in the shared cache, dropped whenever the daily is saved or deleted
DAILY_LOCAL_SECONDS = 10  # in this process's memory, which other processes cannot drop
local_cache = caches["local"]


def _daily_or_404(day: datetime.date, difficulty: str) -> DailyPuzzle:
    """The published daily of a past or present date; future dates are never served.

    A published daily, with its puzzle, is read from this process's memory, then from the
    shared cache (Redis in production), then from the database, which stays the only real
    copy: a cold or missing cache only costs a query. An admin's change reaches the shared cache
    at once (models._forget_cached_daily) and every process within DAILY_LOCAL_SECONDS.
    """
    if difficulty not in TIER_ORDER or day > site_today():
        raise Http404("There is no such puzzle.")
    key = DailyPuzzle.cache_key(day, difficulty)
    daily = local_cache.get(key)
    if daily is None:
        daily = cache.get(key)
        if daily is None:
            lookup = DailyPuzzle.objects.select_related("puzzle").filter(date=day, difficulty=difficulty)
            daily = lookup.first()
            if daily is None and day == site_today() and services.daily_publish_if_missing(day):
                daily = lookup.first()
            if daily is None:
                raise Http404("There is no such puzzle.")
            cache.set(key, daily, DAILY_CACHE_SECONDS)
        local_cache.set(key, daily, DAILY_LOCAL_SECONDS)
    return daily


def _api_urls(daily: DailyPuzzle) -> dict[str, str]:
    """What board.js calls, by name: the JSON endpoints, and the results fragment (a page, not /api/)."""
    args = (daily.date, daily.difficulty)
    urls = {name: reverse(f"puzzles:api-{name}", args=args) for name in ("state", "save", "beat", "submit", "hint")}
    urls["results"] = reverse("puzzles:results", args=args)
    return urls


def ping(request: HttpRequest) -> HttpResponse:
    """Liveness: the process answers, without touching the database (the load bench's ceiling)."""
    return HttpResponse("ok", content_type="text/plain")


def home(request: HttpRequest) -> HttpResponse:
    """Today's puzzles, one card per difficulty, with the player's status on each."""
    today = site_today()
    dailies = {d.difficulty: d for d in DailyPuzzle.objects.for_date(today)}
    if len(dailies) < len(TIER_ORDER) and services.daily_publish_if_missing(today):
        dailies = {d.difficulty: d for d in DailyPuzzle.objects.for_date(today)}
    attempts: dict[int, Attempt] = {}
    if request.user.is_authenticated:
        attempts = {
            a.daily_id: a
            for a in Attempt.objects.filter(user=request.user, daily__in=dailies.values()).select_related("solve")
        }
    cards = []
    for tier in TIER_ORDER:
        daily = dailies.get(tier)
        attempt = attempts.get(daily.pk) if daily else None
        solve = getattr(attempt, "solve", None) if attempt else None
        cards.append({"tier": tier, "daily": daily, "attempt": attempt, "solve": solve})
    return render(request, "puzzles/home.html", {"today": today, "cards": cards})


# The puzzle page is one document per puzzle, the same for everyone: rendered once, kept in this
# process's memory, and served without looking at the session. Who is playing, and their
# position, come from the state API, which board.js calls at once; so opening a puzzle costs
# one authenticated request, not two, and the page itself costs little more than a do-nothing
# view. A page kept for an hour is safe: its address names the daily, and the key below changes
# with the daily's puzzle.
PAGE_CACHE_SECONDS = 3600


def daily_page(request: HttpRequest, day: datetime.date, difficulty: str) -> HttpResponse:
    """The board: the givens, the controls (hidden until the player's game loads), no player."""
    daily = _daily_or_404(day, difficulty)
    key = f"daily-page:{daily.pk}:{daily.puzzle_id}:{daily.date}:{daily.difficulty}:{request.path}"
    page = local_cache.get(key)
    if page is None:
        page = render_to_string("puzzles/daily.html", _daily_context(request, daily)).encode()
        local_cache.set(key, page, PAGE_CACHE_SECONDS)
    return HttpResponse(page)


def _daily_context(request: HttpRequest, daily: DailyPuzzle) -> dict[str, Any]:
    """Everything the page shows, none of it about the person asking (so no context processors)."""
    back = f"?next={request.path}"
    return {
        "daily": daily,
        "puzzle_state": services.attempt_state(None, daily),
        "login_url": reverse("login") + back,
        "signup_url": reverse("puzzles:signup") + back,
        "api": _api_urls(daily),
        "site_urls": site_urls(request)["site_urls"],
        "messages": (),  # a waiting message is left for the next page that is about its reader
    }


# --- the board's JSON API ---------------------------------------------------------------------


def _error(message: str, status: int, **extra: Any) -> JsonResponse:
    return JsonResponse({"error": message, **extra}, status=status)


def api_view(view: Callable[..., JsonResponse]) -> Callable[..., JsonResponse]:
    """For the board's endpoints: a logged-in player, a bounded JSON object body, their attempt.

    Every failure is a JSON answer with a message and changes nothing: 401 when logged out,
    404 for a puzzle that is not served, 413 for an oversized body, 400 for bad JSON.
    """

    @wraps(view)
    def wrapper(request: HttpRequest, day: datetime.date, difficulty: str) -> JsonResponse:
        if not request.user.is_authenticated:
            return _error("Log in to play.", 401)
        try:
            daily = _daily_or_404(day, difficulty)
        except Http404:
            return _error("There is no such puzzle.", 404)
        payload: dict[str, Any] = {}
        if request.method == "POST":
            if len(request.body) > MAX_BODY_BYTES:
                return _error("That request is too large.", 413)
            try:
                payload = json.loads(request.body or b"{}")
            except (ValueError, UnicodeDecodeError, RecursionError):  # nesting past the stack, too
                return _error("The request is not valid JSON.", 400)
            if not isinstance(payload, dict):
                return _error("The request must be a JSON object.", 400)
        # Only ever the requesting player's own attempt: the user comes from the session. It is
        # read only if the view asks; writes find and lock it in one query by player and daily.
        attempt = SimpleLazyObject(lambda: services.attempt_open(request.user, daily))
        request.daily = daily
        try:
            return view(request, attempt, payload)
        except services.BadProgress as exc:
            return _error(str(exc), 400)
        except services.StaleSave as exc:
            return _error(str(exc), 409, state=services.attempt_state(exc.attempt, daily))
        except services.AlreadySolved:
            return _error("This puzzle is already solved.", 409, state=services.attempt_state(attempt, daily))

    return wrapper


def _version(payload: dict[str, Any]) -> int:
    version = payload.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise services.BadProgress("version must be a whole number")
    return version


@require_GET
@api_view
def api_state(request: HttpRequest, attempt: Attempt, payload: dict) -> JsonResponse:
    """The player's position, and who they are (the puzzle page itself does not say)."""
    if settings.CSRF_COOKIE_NAME not in request.COOKIES:
        get_token(request)  # the board sends this cookie's token with every write
    player = {"id": request.user.pk, "name": request.user.get_username()}
    shown = services.attempt_read(request.user, request.daily)  # one plain query: asked on every opening
    return JsonResponse({**services.attempt_state(shown, request.daily), "player": player})


@require_POST
@api_view
def api_save(request: HttpRequest, attempt: Attempt, payload: dict) -> JsonResponse:
    saved = services.attempt_save(
        (request.user, request.daily),
        version=_version(payload),
        digits=payload.get("digits"),
        corner=payload.get("corner"),
        centre=payload.get("centre"),
    )
    return JsonResponse({"version": saved.version, "elapsed": round(saved.active_seconds, 1)})


@require_POST
@api_view
def api_beat(request: HttpRequest, attempt: Attempt, payload: dict) -> JsonResponse:
    beaten = services.attempt_beat((request.user, request.daily))
    return JsonResponse({"elapsed": round(beaten.active_seconds, 1)})


@require_POST
@api_view
def api_submit(request: HttpRequest, attempt: Attempt, payload: dict) -> JsonResponse:
    result = services.attempt_submit((request.user, request.daily), version=_version(payload), digits=payload.get("digits"))
    state = services.attempt_state(result.attempt, request.daily)
    if result.solved:
        return JsonResponse({"solved": True, "seconds": round(result.solve.seconds, 1), "state": state})
    return JsonResponse({"solved": False, "message": result.message, "version": result.attempt.version})


# --- accounts ---------------------------------------------------------------------------------


def signup(request: HttpRequest) -> HttpResponse:
    """Create an account (Django's own form and password validators) and log straight in."""
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        next_url = ""
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="puzzles.auth.CachedModelBackend")
        return redirect(next_url or "puzzles:home")
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


def not_found(request: HttpRequest, exception: Optional[Exception] = None) -> HttpResponse:
    """A 404: JSON for the board's API (an address the resolver refuses, such as 2026-02-30),
    the friendly page for everything else."""
    if request.path.startswith("/api/"):
        return _error("There is no such puzzle.", 404)
    return page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """A 500 (a database that is down, say): a JSON message the board can show for the API,
    the site's plain error page elsewhere; never a traceback."""
    if request.path.startswith("/api/"):
        return _error("Something went wrong on our side; your moves are kept, try again shortly.", 500)
    return default_server_error(request)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A refused CSRF check: JSON for the board's API, a plain page for forms."""
    message = "Your session has expired or the page is out of date: please reload the page."
    if request.path.startswith("/api/"):
        return _error(message, 403)
    return render(request, "403_csrf.html", {"message": message}, status=403)
