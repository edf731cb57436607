"""The board's JSON API: for one daily the player's state, saves, heartbeats, submitting, hints
and checks; and, site-wide, the player's settings.

Every endpoint of one daily has one decorator (`api_endpoint`) and one signature:
`(request, daily, payload)`; a site-wide one has `site_endpoint` and `(request, payload)`. Both
share every check (`_json_api`), and turn the domain's refusals into JSON answers.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from allauth.account.adapter import get_adapter
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.http import HttpRequest, JsonResponse
from django.middleware.csrf import get_token

from ..accounts.guests import GUEST_PREFIX, GuestsTooFast, guest_allow_creation, guest_create, is_guest
from ..models import DailyPuzzle, site_today
from ..pipeline.dailies import daily_served
from ..play.attempts import (
    AlreadySolved,
    StaleSave,
    attempt_beat,
    attempt_open,
    attempt_read,
    attempt_save,
    attempt_state,
    attempt_submit,
    clock_phase,
    tenths,
)
from ..play.hints import HintsTooFast, check_request, hint_request
from ..play.positions import BadPosition
from ..play.preferences import BadPreferences, preferences_read, preferences_update
from ..record_of_play.events import RecordFull
from ..record_of_play.moves import BadMoves
from .errors import PRIVATE, json_error

MAX_BODY_BYTES = 16 * 1024  # a position is about 1 KB; anything far larger is not from our page
# A save or submit also carries the moves made since the last write, some 30 bytes each, and a
# board back online may send playlog.MOVES_PER_WRITE of them at once.
WRITE_BODY_BYTES = 64 * 1024
JSON_TYPE = "application/json"  # what every write must say it is (parameters such as charset aside)

Endpoint = Callable[[HttpRequest, DailyPuzzle, dict[str, Any]], JsonResponse]
SiteEndpoint = Callable[[HttpRequest, dict[str, Any]], JsonResponse]
# What an address's arguments resolve to: the view with its target bound, or None for no target.
Resolve = Callable[..., SiteEndpoint | None]


def _json_api(
    methods: tuple[str, ...], resolve: Resolve, makes_guest: bool = True, max_body: int = MAX_BODY_BYTES
) -> Callable[..., JsonResponse]:
    """What every endpoint shares: its methods, a player (a visitor's first write makes them a
    guest, unless `makes_guest` is off: the view then answers the visitor itself), a bounded JSON
    object body.

    Every failure is a JSON answer with a message and changes nothing: 405 for another method,
    404 when `resolve` finds nothing at the address (a puzzle that is not served), 415 for a body
    that is not sent as JSON, 413 for a body over `max_body` bytes, 400 for bad JSON or a malformed
    payload (moves too), 429 for too many hints and checks or too many new guests from one address.
    Whatever a view changes is only ever the requesting player's own: the user comes from the
    session. A visitor's read (GET) reaches the view as a visitor. No answer may be kept by a
    cache (Cache-Control).
    """

    def answer(request: HttpRequest, **arguments: Any) -> JsonResponse:
        if request.method not in methods:
            response = json_error(f"This address only answers {' or '.join(methods)}.", 405)
            response["Allow"] = ", ".join(methods)
            return response
        view = resolve(**arguments)
        if view is None:
            return json_error("There is no such puzzle.", 404)
        payload: dict[str, Any] = {}
        writes = request.method == "POST"
        if writes:
            # The content type first: for a form or multipart body the CSRF middleware has
            # already read the stream (looking for its token field), and request.body would
            # raise. The board sends every write as JSON, a heartbeat included (sync.js).
            if request.content_type != JSON_TYPE:
                response = json_error(f"Send the request as JSON (Content-Type: {JSON_TYPE}).", 415)
                response["Accept"] = JSON_TYPE
                return response
            if len(request.body) > max_body:
                return json_error("That request is too large.", 413)
            try:
                payload = json.loads(request.body or b"{}")
            except (ValueError, UnicodeDecodeError, RecursionError):  # nesting past the stack, too
                return json_error("The request is not valid JSON.", 400)
            if not isinstance(payload, dict):
                return json_error("The request must be a JSON object.", 400)
        try:
            if writes and makes_guest and not request.user.is_authenticated:
                return _as_new_guest(request, view, payload)
            response = view(request, payload)
            if writes and request.user.get_username().startswith(GUEST_PREFIX):
                _keep_guest_session(request)
            return response
        except (GuestsTooFast, HintsTooFast) as exc:
            response = json_error(str(exc), 429, retry_after=exc.retry_after)
            response["Retry-After"] = str(exc.retry_after)
            return response
        except (BadPosition, BadMoves, BadPreferences) as exc:
            return json_error(str(exc), 400)

    def wrapper(request: HttpRequest, **arguments: Any) -> JsonResponse:
        response = answer(request, **arguments)
        response["Cache-Control"] = PRIVATE  # refusals too (errors.json_error)
        return response

    return wrapper


def api_endpoint(
    method: str, makes_guest: bool = True, max_body: int = MAX_BODY_BYTES
) -> Callable[[Endpoint], Callable[..., JsonResponse]]:
    """For the board's endpoints of one daily (its date and difficulty in the address): the checks
    of _json_api, a 404 for a puzzle that is not served, 409 for a stale save or a solved
    puzzle, with the newest state, and 413 for moves that would overfill the record of play. The
    attempt is only ever the requesting player's own."""

    def decorate(view: Endpoint) -> Callable[..., JsonResponse]:
        def resolve(day: datetime.date, difficulty: str) -> SiteEndpoint | None:
            daily = daily_served(day, difficulty)
            if daily is None:
                return None

            def on_daily(request: HttpRequest, payload: dict[str, Any]) -> JsonResponse:
                try:
                    return view(request, daily, payload)
                except StaleSave as exc:
                    return json_error(str(exc), 409, state=attempt_state(exc.attempt, daily))
                except AlreadySolved:
                    state = attempt_state(attempt_open(request.user, daily), daily)
                    return json_error("This puzzle is already solved.", 409, state=state)
                except RecordFull as exc:
                    return json_error(str(exc), 413, record_full=True)

            return on_daily

        return wraps(view)(_json_api((method,), resolve, makes_guest, max_body))

    return decorate


def site_endpoint(*methods: str) -> Callable[[SiteEndpoint], Callable[..., JsonResponse]]:
    """For the board's endpoints about the player alone, not one puzzle (the view tells its
    methods apart by request.method): the checks of _json_api."""

    def decorate(view: SiteEndpoint) -> Callable[..., JsonResponse]:
        return wraps(view)(_json_api(methods, lambda: view))

    return decorate


def _as_new_guest(request: HttpRequest, view: SiteEndpoint, payload: dict[str, Any]) -> JsonResponse:
    """A visitor's first write: make a guest, do the write as them, and log the session in as the
    guest only if the write succeeded. The guest and the write are one transaction, so a refused
    first write (a bad position, say) leaves no guest behind.

    Logging in rotates the session key and Django's CSRF token: this answer sets the new CSRF
    cookie, and the board reads the cookie afresh for every request (view.csrfToken).
    """
    guest_allow_creation(get_adapter().get_client_ip(request))
    try:
        with transaction.atomic():
            request.user = guest = guest_create()
            response = view(request, payload)
            if response.status_code >= 400:
                transaction.set_rollback(True)
    except BaseException:
        request.user = AnonymousUser()
        raise
    if response.status_code >= 400:
        request.user = AnonymousUser()
    else:
        login(request, guest, backend=settings.AUTHENTICATION_BACKENDS[0])
    return response


def _keep_guest_session(request: HttpRequest) -> None:
    """A guest lives only in this session's cookie, which Django sends once, at the log-in, for
    SESSION_COOKIE_AGE. Saving the session on a guest's first write of each day sends the cookie
    again, so a guest who keeps playing keeps their player (one session write a day, not one a beat)."""
    today = site_today().isoformat()
    if request.session.get("guest_played_on") != today:
        request.session["guest_played_on"] = today


def _version(payload: dict[str, Any]) -> int:
    version = payload.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise BadPosition("version must be a whole number")
    return version


@api_endpoint("GET")
def state(request: HttpRequest, daily: DailyPuzzle, payload: dict[str, Any]) -> JsonResponse:
    """The player's position, and who they are (the puzzle page itself does not say).

    A read: it starts no attempt (another site may link here), and makes no guest: a visitor gets
    the empty position with `player: null`, and their first write makes them a guest. `started`
    tells the board whether the attempt exists; if not, a player's first heartbeat starts it, and
    the clock, at once (a visitor's first move does).
    """
    if settings.CSRF_COOKIE_NAME not in request.COOKIES:
        get_token(request)  # the board sends this cookie's token with every write
    if not request.user.is_authenticated:
        return JsonResponse({**attempt_state(None, daily), "started": False, "player": None})
    player = {"id": request.user.pk, "name": request.user.get_username(), "guest": is_guest(request.user)}
    shown = attempt_read(request.user, daily)
    body = {**attempt_state(shown, daily), "started": shown is not None, "player": player}
    # A message waiting for the player (what a log-in merged from a guest, say) is told by the
    # board, since the puzzle page is cached without one. Only read when there is one: reading
    # marks the storage used, and the answer would then always carry a cookie.
    waiting = messages.get_messages(request)
    if len(waiting):
        body["messages"] = [str(message) for message in waiting]
    return JsonResponse(body)


@api_endpoint("POST", max_body=WRITE_BODY_BYTES)
def save(request: HttpRequest, daily: DailyPuzzle, payload: dict[str, Any]) -> JsonResponse:
    """POST {"version", "digits", "corner", "centre", "colours", "moves"}: store the position made on
    that version, and log the moves made since the last write (playlog.py; optional)."""
    saved = attempt_save(
        request.user,
        daily,
        version=_version(payload),
        digits=payload.get("digits"),
        corner=payload.get("corner"),
        centre=payload.get("centre"),
        colours=payload.get("colours"),
        moves=payload.get("moves"),
    )
    return JsonResponse({"version": saved.version, "elapsed": tenths(saved.active_seconds)})


@api_endpoint("POST", makes_guest=False)
def beat(request: HttpRequest, daily: DailyPuzzle, payload: dict[str, Any]) -> JsonResponse:
    """POST {"phase": "open" | "tick" | "close"} (a tick without one): the server's clock follows
    the page (attempts.py has the rule).

    A visitor's heartbeat counts nothing and makes nobody: a visitor becomes a guest by a move, and
    the page that was a player's sends its closing beat after a log-out has ended the session.
    """
    phase = clock_phase(payload.get("phase", "tick"))
    if not request.user.is_authenticated:
        return JsonResponse({"elapsed": 0})
    beaten = attempt_beat(request.user, daily, phase)
    return JsonResponse({"elapsed": tenths(beaten.active_seconds)})


@api_endpoint("POST", max_body=WRITE_BODY_BYTES)
def submit(request: HttpRequest, daily: DailyPuzzle, payload: dict[str, Any]) -> JsonResponse:
    """POST {"version", "digits", "moves"}: check the full grid (logged with its moves, as a save's);
    record the solve once."""
    result = attempt_submit(
        request.user, daily, version=_version(payload), digits=payload.get("digits"), moves=payload.get("moves")
    )
    if result.solved:
        state = attempt_state(result.attempt, daily)
        return JsonResponse({"solved": True, "seconds": tenths(result.solve.seconds), "state": state})
    return JsonResponse({"solved": False, "message": result.message, "version": result.attempt.version})


@api_endpoint("POST")
def hint(request: HttpRequest, daily: DailyPuzzle, payload: dict[str, Any]) -> JsonResponse:
    """POST {"digits", "corner", "centre"}: the hint's next stage for that position (not saved)."""
    result = hint_request(request.user, daily, payload.get("digits"), payload.get("corner"), payload.get("centre"))
    return JsonResponse(result.to_dict())


@api_endpoint("POST")
def check(request: HttpRequest, daily: DailyPuzzle, payload: dict[str, Any]) -> JsonResponse:
    """POST {"digits"}: which entered cells are wrong (never what belongs in them); counted as an
    assist, so a later solve is not ranked."""
    result = check_request(request.user, daily, payload.get("digits"))
    return JsonResponse({"wrong": result.wrong, "checks": result.checks_used})


@site_endpoint("GET", "POST")
def player_settings(request: HttpRequest, payload: dict[str, Any]) -> JsonResponse:
    """GET: every one of the player's settings (the defaults for a visitor, for whom nothing is
    made). POST {"settings": {some of them}}: merge them into the player's; the answer is the
    same, with all of them."""
    if request.method == "POST":
        return JsonResponse({"settings": preferences_update(request.user, payload.get("settings"))})
    return JsonResponse({"settings": preferences_read(request.user)})
