"""Practice (/learn/<name>/practice/): a position where a technique is the next step, and the
check of a player's answer to it. The page reads the pool; only a check writes."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import get_adapter
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET

from .. import engine
from ..practice.answers import (
    BadAnswer,
    ChecksTooFast,
    position_for_page,
    practice_check,
    practice_limit,
    practice_position,
)
from ..practice.pool import PRACTISED, servable
from .decorators import json_body, json_refusals, methods, new_guest_on_first_write, session_kept
from .errors import PRIVATE, json_error


def _technique(name: str) -> engine.Technique:
    if name not in PRACTISED:
        raise Http404("There is no such technique to practise.")
    return engine.TECHNIQUE_BY_NAME[name]


def task_line(technique: engine.Technique, places: bool) -> str:
    """What the player is asked to do, in one line."""
    phrase = engine.technique_phrase(technique.name)
    if places:
        return f"Find the cell {phrase} fills, then choose the digit it places there."
    return f"Find {phrase} and mark every candidate it removes."


@require_GET
@ensure_csrf_cookie
def practice_page(request: HttpRequest, name: str) -> HttpResponse:
    """A position to practise `name` on, not the one just shown (?after=<id>)."""
    technique = _technique(name)
    after = request.GET.get("after", "")
    position = practice_position(name, request.user, int(after) if after.isdigit() else None)
    context: dict[str, Any] = {
        "technique": technique,
        "task": task_line(technique, position.places) if position else "",
        "position": position_for_page(position) if position else None,
        "check_url": reverse("puzzles:api-practice-check", args=[position.pk]) if position else "",
        "next_url": f"{request.path}?after={position.pk}" if position else "",
        "ready_url": reverse("puzzles:api-practice-ready", args=[name]),
    }
    response = render(request, "learn/practice.html", context)
    response["Cache-Control"] = PRIVATE
    return response


@require_GET
def practice_ready(request: HttpRequest, name: str) -> JsonResponse:
    """Whether the technique's pool has a position yet: the waiting page asks this to reload."""
    _technique(name)
    response = JsonResponse({"ready": servable().filter(technique=name).exists()})
    response["Cache-Control"] = PRIVATE
    return response


@json_refusals
@methods("POST")
@json_body()
@session_kept
@new_guest_on_first_write
def practice_check_answer(request: HttpRequest, position_id: int, payload: dict[str, Any]) -> JsonResponse:
    """Judge the player's answer to one position: right, partly right, or wrong and why."""
    # An id past the column's range is no position (and must not reach the database as one).
    position = servable().filter(pk=position_id).first() if position_id < 2**31 else None
    if position is None:
        return json_error("There is no such practice position.", 404)
    try:
        practice_limit(int(request.user.pk or 0), get_adapter().get_client_ip(request))
        checked = practice_check(request.user, position, payload)
    except BadAnswer as exc:
        return json_error(str(exc), 400)
    except ChecksTooFast as exc:
        response = json_error(str(exc), 429, retry_after=exc.retry_after)
        response["Retry-After"] = str(exc.retry_after)
        return response
    return JsonResponse(checked.to_dict())
