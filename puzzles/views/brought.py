"""Play any puzzle: /play/?p=<81 digits> (a paste box at /play/), its board's JSON API, and its
results after the solve.

`/play/?p=` is the puzzle's one address, the link a player shares: reading it changes nothing in
the database (the engine's verdict is kept in the shared cache, brought/checking.py); the
puzzle and the player's attempt are stored by the board's first write, a POST with the CSRF
token, as a daily's attempt is. The board is the daily's (templates/puzzles/play.html extends
daily.html, and board.js reads its API's addresses from the page), so every tool, hint, check and
the review work alike; nothing here ranks, rates or counts for a streak, and the pages say so.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from allauth.account.adapter import get_adapter
from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from ..accounts.guests import is_guest
from ..brought.attempts import (
    StaleWrite,
    brought_beat,
    brought_check,
    brought_hint,
    brought_read,
    brought_save,
    brought_state,
    brought_submit,
)
from ..brought.checking import BadPuzzle, ChecksTooFast, Verdict, givens_of, puzzle_kept, verdict_of
from ..brought.review import brought_review
from ..context_processors import site_urls
from ..durations import format_duration
from ..engine import technique_title
from ..fairplay.words import pause_limit
from ..models import BroughtPuzzle, Tier
from ..play.attempts import AlreadySolved, tenths
from ..record_of_play.events import RecordFull
from .api import WRITE_BODY_BYTES, _version
from .decorators import json_body, json_refusals, methods, new_guest_on_first_write, session_kept
from .errors import PRIVATE, json_error

View = Callable[..., JsonResponse]


def play_link(request: HttpRequest, givens: str) -> str:
    """The puzzle's shareable address, whole: what "copy link" gives."""
    return request.build_absolute_uri(reverse("puzzles:play") + "?" + urlencode({"p": givens}))


# The most of a refused text the box shows again: a puzzle is 81 characters, some spaces besides.
TEXT_SHOWN = 200


def _paste(request: HttpRequest, text: str = "", error: str = "", status: int = 200) -> HttpResponse:
    context = {"text": text[:TEXT_SHOWN], "error": error}
    return render(request, "puzzles/play_paste.html", context, status=status)


@require_GET
def play(request: HttpRequest) -> HttpResponse:
    """GET /play/: the paste box. GET /play/?p=<puzzle>: the board for it, once the engine has found
    it has one solution; the paste box saying why not otherwise. Writes nothing to the database."""
    text = request.GET.get("p")
    if text is None:
        return _paste(request)
    try:
        givens = givens_of(text)
    except BadPuzzle as exc:
        return _paste(request, text, str(exc), status=400)
    if givens != text:  # dots, spaces or lines: the address says it the one way
        return redirect(reverse("puzzles:play") + "?" + urlencode({"p": givens}))
    try:
        verdict = verdict_of(givens, get_adapter().get_client_ip(request))
    except BadPuzzle as exc:
        return _paste(request, text, str(exc), status=422)
    except ChecksTooFast as exc:
        response = _paste(request, text, str(exc), status=429)
        response["Retry-After"] = str(exc.retry_after)
        return response
    return render(request, "puzzles/play.html", _page_context(request, verdict))


def _page_context(request: HttpRequest, verdict: Verdict) -> dict[str, Any]:
    """What the board page shows: the givens and the rating, never the solution."""
    back = "?" + urlencode({"next": request.get_full_path()})
    args = [verdict.givens]
    api = {
        name: reverse(f"puzzles:api-play-{name}", args=args)
        for name in ("state", "save", "beat", "submit", "hint", "check")
    }
    api |= {"settings": reverse("puzzles:api-settings"), "results": reverse("puzzles:play-results", args=args)}
    return {
        "verdict": verdict,
        "tier": Tier(verdict.tier).label,
        "hardest": technique_title(verdict.hardest) if verdict.hardest else "",
        "puzzle_state": brought_state(None, verdict.givens),
        "login_url": reverse("account_login") + back,
        "signup_url": reverse("account_signup") + back,
        "api": api,
        "share_url": play_link(request, verdict.givens),
        "save_every_ms": settings.BOARD_SAVE_EVERY_SECONDS * 1000,
        "pause_limit": pause_limit(),
        "site_urls": site_urls(request)["site_urls"],
        "messages": (),
    }


def brought_api(view: View) -> View:
    """The puzzle the address names, as `puzzle`: on a read the stored one or None (nothing is
    stored by a read); on a write the engine's verdict, stored now if it was not. A puzzle the
    site does not serve is a 404 saying why; the attempt's refusals are the daily's answers (409
    with the newest state, 413 for a full record)."""

    @wraps(view)
    def wrapper(request: HttpRequest, givens: str, **arguments: Any) -> JsonResponse:
        stored = BroughtPuzzle.objects.filter(givens=givens).first()
        if request.method != "POST" or not request.user.is_authenticated:  # a read, or a visitor's beat
            return view(request, givens=givens, puzzle=stored, **arguments)
        try:
            puzzle = stored or puzzle_kept(verdict_of(givens, get_adapter().get_client_ip(request)))
        except BadPuzzle as exc:
            return json_error(str(exc), 404)
        except ChecksTooFast as exc:
            response = json_error(str(exc), 429, retry_after=exc.retry_after)
            response["Retry-After"] = str(exc.retry_after)
            return response
        try:
            return view(request, givens=givens, puzzle=puzzle, **arguments)
        except StaleWrite as exc:
            return json_error(str(exc), 409, state=brought_state(exc.attempt, givens))
        except AlreadySolved:
            return json_error(
                "This puzzle is already solved.", 409, state=brought_state(brought_read(request.user, puzzle), givens)
            )
        except RecordFull as exc:
            return json_error(str(exc), 413, record_full=True)

    return wrapper


@json_refusals
@methods("GET")
@json_body()
@brought_api
def state(request: HttpRequest, givens: str, puzzle: BroughtPuzzle | None, payload: dict[str, Any]) -> JsonResponse:
    """The player's position and who they are, as a daily's state answers; a read."""
    if settings.CSRF_COOKIE_NAME not in request.COOKIES:
        get_token(request)
    if not request.user.is_authenticated:
        return JsonResponse({**brought_state(None, givens), "started": False, "player": None})
    player = {"id": request.user.pk, "name": request.user.get_username(), "guest": is_guest(request.user)}
    shown = brought_read(request.user, puzzle)
    body = {**brought_state(shown, givens), "started": shown is not None, "player": player}
    waiting = messages.get_messages(request)  # what a log-in merged from a guest, as a daily's state says
    if len(waiting):
        body["messages"] = [str(message) for message in waiting]
    return JsonResponse(body)


# The writes: a daily's decorators, with the puzzle stored by the first of them.
def _write(body_bytes: int = WRITE_BODY_BYTES, guest: bool = True) -> Callable[[View], View]:
    def decorate(view: View) -> View:
        inner = brought_api(view)
        if guest:
            inner = new_guest_on_first_write(inner)
        return json_refusals(methods("POST")(json_body(body_bytes)(session_kept(inner))))

    return decorate


@_write()
def save(request: HttpRequest, givens: str, puzzle: BroughtPuzzle, payload: dict[str, Any]) -> JsonResponse:
    """POST {"version", "digits", "corner", "centre", "colours", "moves"}, as a daily's save."""
    saved = brought_save(
        request.user,
        puzzle,
        version=_version(payload),
        digits=payload.get("digits"),
        corner=payload.get("corner"),
        centre=payload.get("centre"),
        colours=payload.get("colours"),
        moves=payload.get("moves"),
    )
    return JsonResponse({"version": saved.version, "elapsed": tenths(saved.active_seconds)})


@_write(guest=False)
def beat(request: HttpRequest, givens: str, puzzle: BroughtPuzzle | None, payload: dict[str, Any]) -> JsonResponse:
    """POST {"phase"}: the clock follows the page; a visitor's beat counts nothing."""
    if puzzle is None:
        return JsonResponse({"elapsed": 0})
    return JsonResponse({"elapsed": tenths(brought_beat(request.user, puzzle, payload.get("phase", "tick")))})


@_write()
def submit(request: HttpRequest, givens: str, puzzle: BroughtPuzzle, payload: dict[str, Any]) -> JsonResponse:
    """POST {"version", "digits", "moves"}: the solve recorded once, never ranked."""
    done = brought_submit(
        request.user, puzzle, version=_version(payload), digits=payload.get("digits"), moves=payload.get("moves")
    )
    if done.attempt.is_solved:
        seconds = tenths(done.attempt.solve_seconds or 0)
        return JsonResponse({"solved": True, "seconds": seconds, "state": brought_state(done.attempt, givens)})
    return JsonResponse({"solved": False, "message": done.message, "version": done.attempt.version})


@_write(body_bytes=16 * 1024)
def hint(request: HttpRequest, givens: str, puzzle: BroughtPuzzle, payload: dict[str, Any]) -> JsonResponse:
    """POST {"digits", "corner", "centre"}: the hint's next stage, as on a daily."""
    result = brought_hint(request.user, puzzle, payload.get("digits"), payload.get("corner"), payload.get("centre"))
    return JsonResponse(result.to_dict())


@_write(body_bytes=16 * 1024)
def check(request: HttpRequest, givens: str, puzzle: BroughtPuzzle, payload: dict[str, Any]) -> JsonResponse:
    """POST {"digits", "auto"}: which entered cells are wrong, as on a daily."""
    result = brought_check(request.user, puzzle, payload.get("digits"), auto=payload.get("auto") is True)
    return JsonResponse({"wrong": result.wrong, "checks": result.checks_used})


@require_GET
def results(request: HttpRequest, givens: str) -> HttpResponse:
    """The solver's results fragment: the time, that nothing is ranked, the review. A 404 for
    anyone who has not solved it (whether someone else has is nobody's business)."""
    puzzle = BroughtPuzzle.objects.filter(givens=givens).first()
    attempt = brought_read(request.user, puzzle)
    if puzzle is None or attempt is None or not attempt.is_solved:
        raise Http404("There is no such result.")
    attempt.puzzle = puzzle
    link = play_link(request, givens)
    time = format_duration(attempt.solve_seconds or 0)
    context = {
        "attempt": attempt,
        "time": time,
        "tier": Tier(puzzle.tier).label,
        "hardest": technique_title(puzzle.hardest) if puzzle.hardest else "",
        "review": brought_review(attempt),
        "share_url": link,
        "share_text": f"I solved this Sudoku in {time}. Try it: {link}",
    }
    response = render(request, "puzzles/_brought_results.html", context)
    response["Cache-Control"] = PRIVATE
    return response
