"""The board's JSON API, one concern a decorator. An endpoint stacks the ones it needs, outermost
first, and each can be read and tested alone (tests/test_api_decorators.py):

    @json_refusals                    every answer private; a domain refusal as a JSON 429 or 400
    @methods("POST")                  405 for any other method
    @served_daily                     404 unless the address names a served daily; binds `daily`
    @json_body(max_bytes=...)         a write's body: 415 not JSON, 413 too large, 400 malformed
    @session_kept                     a player's write keeps their session cookie alive
    @new_guest_on_first_write         a visitor's first write makes them a guest, in one transaction
    @record_bounded                   413 past the record's events in all (the write checks; 429 a minute's)
    @attempt_refusals                 409 for a stale save or a solved puzzle, 413 for a full record
    def save(request, daily, payload): ...

Every failure is a JSON answer with a message and changes nothing. Whatever a view changes is only
ever the requesting player's own: the user comes from the session.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from allauth.account.adapter import get_adapter
from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.http import HttpRequest, JsonResponse

from ..accounts.guests import (
    GuestsTooFast,
    guest_create,
    limit_guest_creations,
    refund_guest_creation,
)
from ..models import site_today
from ..pipeline.dailies import daily_served
from ..play.attempts import AlreadySolved, StaleSave, attempt_open, attempt_state
from ..play.hints import HintsTooFast
from ..play.positions import BadPosition
from ..play.preferences import BadPreferences
from ..record_of_play.events import EventsFull, EventsTooFast, RecordFull
from ..record_of_play.moves import BadMoves
from .errors import PRIVATE, json_error

View = Callable[..., JsonResponse]

MAX_BODY_BYTES = 16 * 1024  # a position is about 1 KB; anything far larger is not from our page
JSON_TYPE = "application/json"  # what every write must say it is (parameters such as charset aside)


def json_refusals(view: View) -> View:
    """No answer may be kept by a cache, refusals included; the domain's refusals become JSON:
    429 (with Retry-After) for too many hints and checks, new guests or writes, 400 for a malformed
    position, moves or settings."""

    @wraps(view)
    def wrapper(request: HttpRequest, **arguments: Any) -> JsonResponse:
        try:
            response = view(request, **arguments)
        except (GuestsTooFast, HintsTooFast, EventsTooFast) as exc:
            response = json_error(str(exc), 429, retry_after=exc.retry_after)
            response["Retry-After"] = str(exc.retry_after)
        except (BadPosition, BadMoves, BadPreferences) as exc:
            response = json_error(str(exc), 400)
        response["Cache-Control"] = PRIVATE
        return response

    return wrapper


def methods(*allowed: str) -> Callable[[View], View]:
    """A 405 naming the methods the address answers, for any other."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, **arguments: Any) -> JsonResponse:
            if request.method not in allowed:
                response = json_error(f"This address only answers {' or '.join(allowed)}.", 405)
                response["Allow"] = ", ".join(allowed)
                return response
            return view(request, **arguments)

        return wrapper

    return decorate


def served_daily(view: View) -> View:
    """The daily the address names (its date and difficulty), as `daily`; a 404 for a puzzle the
    site does not serve (a day to come, or one never published)."""

    @wraps(view)
    def wrapper(request: HttpRequest, day: Any, difficulty: str, **arguments: Any) -> JsonResponse:
        daily = daily_served(day, difficulty)
        if daily is None:
            return json_error("There is no such puzzle.", 404)
        return view(request, daily=daily, **arguments)

    return wrapper


def json_body(max_bytes: int = MAX_BODY_BYTES) -> Callable[[View], View]:
    """A write's body as `payload`, a JSON object of at most `max_bytes`; a read's is {}."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, **arguments: Any) -> JsonResponse:
            if request.method != "POST":
                return view(request, payload={}, **arguments)
            # The content type first: for a form or multipart body the CSRF middleware has
            # already read the stream (looking for its token field), and request.body would
            # raise. The board sends every write as JSON, a heartbeat included (sync.js).
            if request.content_type != JSON_TYPE:
                response = json_error(f"Send the request as JSON (Content-Type: {JSON_TYPE}).", 415)
                response["Accept"] = JSON_TYPE
                return response
            if len(request.body) > max_bytes:
                return json_error("That request is too large.", 413)
            try:
                payload = json.loads(request.body or b"{}")
            except (ValueError, UnicodeDecodeError, RecursionError):  # nesting past the stack, too
                return json_error("The request is not valid JSON.", 400)
            if not isinstance(payload, dict):
                return json_error("The request must be a JSON object.", 400)
            return view(request, payload=payload, **arguments)

        return wrapper

    return decorate


def session_kept(view: View) -> View:
    """A log-in lives in this session's cookie, which Django sends once, at the log-in, for
    SESSION_COOKIE_AGE (two weeks); a guest lives only there. Saving the session on a player's first
    write of each day sends the cookie again, so a player who keeps playing stays logged in, and a
    guest keeps their player (one session write a day, not one a beat): two weeks count from the
    last day played, not from the log-in."""

    @wraps(view)
    def wrapper(request: HttpRequest, **arguments: Any) -> JsonResponse:
        was_player = request.user.is_authenticated
        response = view(request, **arguments)
        if was_player and request.method == "POST" and request.user.is_authenticated:
            today = site_today().isoformat()
            if request.session.get("played_on") != today:
                request.session["played_on"] = today
        return response

    return wrapper


def new_guest_on_first_write(view: View) -> View:
    """A visitor's first write makes a guest, does the write as them, and logs the session in as
    the guest only if the write succeeded. The guest and the write are one transaction, so a
    refused first write (a bad position, say) leaves no guest behind, and its count against the
    address's hourly guests is taken back. A visitor's read reaches the view as a visitor.

    Logging in rotates the session key and Django's CSRF token: this answer sets the new CSRF
    cookie, and the board reads the cookie afresh for every request (view.csrfToken).
    """

    @wraps(view)
    def wrapper(request: HttpRequest, **arguments: Any) -> JsonResponse:
        if request.method != "POST" or request.user.is_authenticated:
            return view(request, **arguments)
        address = get_adapter().get_client_ip(request)
        counted_at = limit_guest_creations(address)
        made = False
        try:
            with transaction.atomic():
                request.user = guest = guest_create()
                response = view(request, **arguments)
                if response.status_code >= 400:
                    transaction.set_rollback(True)
            made = response.status_code < 400  # and committed
        finally:
            if not made:  # a refused write made nobody, so it spends none of the address's quota
                request.user = AnonymousUser()
                refund_guest_creation(address, counted_at)
        if made:
            login(request, guest, backend=settings.AUTHENTICATION_BACKENDS[0])
        return response

    return wrapper


def record_bounded(view: View) -> View:
    """A player's write that logs an event (a save, a submit, an open or a close) is taken only
    while the record of play has room for it (record_of_play/events.py; the write itself checks, in
    its own statement or before its locking path): past the minute's bound a 429 with Retry-After
    (json_refusals), past the attempt's a 413, and nothing changed."""

    @wraps(view)
    def wrapper(request: HttpRequest, **arguments: Any) -> JsonResponse:
        try:
            return view(request, **arguments)
        except EventsFull as exc:
            return json_error(str(exc), 413, events_full=True)

    return wrapper


def attempt_refusals(view: View) -> View:
    """The attempt's own refusals as answers the board acts on: 409 for a stale save or a solved
    puzzle, with the newest state, and 413 for moves that would overfill the record of play."""

    @wraps(view)
    def wrapper(request: HttpRequest, **arguments: Any) -> JsonResponse:
        daily = arguments["daily"]
        try:
            return view(request, **arguments)
        except StaleSave as exc:
            return json_error(str(exc), 409, state=attempt_state(exc.attempt, daily))
        except AlreadySolved:
            state = attempt_state(attempt_open(request.user, daily), daily)
            return json_error("This puzzle is already solved.", 409, state=state)
        except RecordFull as exc:
            return json_error(str(exc), 413, record_full=True)

    return wrapper
