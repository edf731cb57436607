"""The board's JSON API: for one daily the player's state, saves, heartbeats, submitting, hints
and checks; and, site-wide, the player's settings.

Every endpoint of one daily has the signature `(request, daily, payload)`, a site-wide one
`(request, payload)`; the checks they share are small decorators, stacked (decorators.py).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, JsonResponse
from django.middleware.csrf import get_token

from ..accounts.guests import board_from_guest, is_guest
from ..models import DailyPuzzle
from ..play.attempts import (
    attempt_beat,
    attempt_read,
    attempt_save,
    attempt_state,
    attempt_submit,
    clock_phase,
    tenths,
)
from ..play.hints import check_request, hint_request
from ..play.positions import BadPosition
from ..play.preferences import preferences_read, preferences_update
from .decorators import (
    attempt_refusals,
    json_body,
    json_refusals,
    methods,
    new_guest_on_first_write,
    record_bounded,
    served_daily,
    session_kept,
)

# A save or submit also carries the moves made since the last write, some 30 bytes each, and a
# board back online may send MOVES_PER_WRITE of them at once (record_of_play/moves.py).
WRITE_BODY_BYTES = 64 * 1024


def _version(payload: dict[str, Any]) -> int:
    version = payload.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise BadPosition("version must be a whole number")
    return version


@json_refusals
@methods("GET")
@served_daily
@json_body()
@attempt_refusals
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
    # A board signing up or logging in took over from a guest: the undo history this device kept
    # for it is under that guest's id (or, made before the page knew the guest, the visitor's).
    if (guest_id := board_from_guest(request, daily.pk)) is not None:
        player["from_guest"] = guest_id
    shown = attempt_read(request.user, daily)
    body = {**attempt_state(shown, daily), "started": shown is not None, "player": player}
    # A message waiting for the player (what a log-in merged from a guest, say) is told by the
    # board, since the puzzle page is cached without one. Only read when there is one: reading
    # marks the storage used, and the answer would then always carry a cookie.
    waiting = messages.get_messages(request)
    if len(waiting):
        body["messages"] = [str(message) for message in waiting]
    return JsonResponse(body)


@json_refusals
@methods("POST")
@served_daily
@json_body(WRITE_BODY_BYTES)
@session_kept
@new_guest_on_first_write
@record_bounded
@attempt_refusals
def save(request: HttpRequest, daily: DailyPuzzle, payload: dict[str, Any]) -> JsonResponse:
    """POST {"version", "digits", "corner", "centre", "colours", "moves"}: store the position made on
    that version, and log the moves made since the last write (record_of_play/moves.py; optional)."""
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


@json_refusals
@methods("POST")
@served_daily
@json_body()
@session_kept
@record_bounded
@attempt_refusals
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


@json_refusals
@methods("POST")
@served_daily
@json_body(WRITE_BODY_BYTES)
@session_kept
@new_guest_on_first_write
@record_bounded
@attempt_refusals
def submit(request: HttpRequest, daily: DailyPuzzle, payload: dict[str, Any]) -> JsonResponse:
    """POST {"version", "digits", "moves"}: check the full grid (logged with its moves, as a save's);
    record the solve once. Nothing else happens on the request: the beat's sweep judges the new
    solve (its rank), reviews it and brings the ratings up to it (pipeline/tasks.py)."""
    result = attempt_submit(
        request.user, daily, version=_version(payload), digits=payload.get("digits"), moves=payload.get("moves")
    )
    if result.solve_seconds is not None:  # solved, now or before
        state = attempt_state(result.shown, daily)
        return JsonResponse({"solved": True, "seconds": tenths(result.solve_seconds), "state": state})
    return JsonResponse({"solved": False, "message": result.message, "version": result.version})


@json_refusals
@methods("POST")
@served_daily
@json_body()
@session_kept
@new_guest_on_first_write
@attempt_refusals
def hint(request: HttpRequest, daily: DailyPuzzle, payload: dict[str, Any]) -> JsonResponse:
    """POST {"digits", "corner", "centre"}: the hint's next stage for that position (not saved)."""
    result = hint_request(request.user, daily, payload.get("digits"), payload.get("corner"), payload.get("centre"))
    return JsonResponse(result.to_dict())


@json_refusals
@methods("POST")
@served_daily
@json_body()
@session_kept
@new_guest_on_first_write
@attempt_refusals
def check(request: HttpRequest, daily: DailyPuzzle, payload: dict[str, Any]) -> JsonResponse:
    """POST {"digits", "auto"}: which entered cells are wrong (never what belongs in them); counted
    as an assist, so a later solve is not ranked. "auto": true when the board asks as a digit is
    placed (showing mistakes), which a limit of its own allows more often than presses of Check."""
    result = check_request(request.user, daily, payload.get("digits"), auto=payload.get("auto") is True)
    return JsonResponse({"wrong": result.wrong, "checks": result.checks_used})


@json_refusals
@methods("GET", "POST")
@json_body()
@session_kept
@new_guest_on_first_write
def player_settings(request: HttpRequest, payload: dict[str, Any]) -> JsonResponse:
    """GET: every one of the player's settings (the defaults for a visitor, for whom nothing is
    made). POST {"settings": {some of them}}: merge them into the player's; the answer is the
    same, with all of them."""
    if request.method == "POST":
        return JsonResponse({"settings": preferences_update(request.user, payload.get("settings"))})
    return JsonResponse({"settings": preferences_read(request.user)})
