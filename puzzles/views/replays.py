"""A solve's replay: the page that plays it (static/js/replay.js) and the JSON timeline it plays.

Both answer the same 404 for a puzzle that is not served, a solve that does not exist and one
the asker may not watch (replays.replay_visible), so neither tells whether a solve exists.
"""

from __future__ import annotations

import datetime

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from ..fairplay.replays import replay_for, timeline_of
from ..models import Solve
from ..pipeline.dailies import daily_served
from ..results.review import review_shown
from .errors import PRIVATE, json_error

NOT_FOUND = "There is no such replay."


def _replay_or_none(request: HttpRequest, day: datetime.date, difficulty: str, solve_id: int) -> Solve | None:
    daily = daily_served(day, difficulty)
    return replay_for(daily, solve_id, request.user) if daily is not None else None


@require_GET
@never_cache  # one player's view of the record: neither a shared cache nor the browser keeps it
def replay(request: HttpRequest, day: datetime.date, difficulty: str, solve_id: int) -> HttpResponse:
    """The replay's page: the givens on the board's grid, the controls; replay.js fetches the timeline."""
    solve = _replay_or_none(request, day, difficulty, solve_id)
    if solve is None:
        raise Http404(NOT_FOUND)
    daily = solve.daily
    context = {
        "daily": daily,
        "solve": solve,
        "own": solve.user_id == request.user.pk,
        "puzzle_state": {"givens": daily.puzzle.givens},  # what _board.html draws the grid from
        "timeline_url": reverse("puzzles:api-replay", args=(daily.date, daily.difficulty, solve.pk)),
        "results_url": reverse("puzzles:results", args=(daily.date, daily.difficulty)),
        # The review beside the replay: the player's own alone, never another's.
        "review": review_shown(solve) if solve.user_id == request.user.pk else None,
    }
    return render(request, "puzzles/replay.html", context)


def api_replay(request: HttpRequest, day: datetime.date, difficulty: str, solve_id: int) -> JsonResponse:
    """GET: the solve's timeline (replays.Timeline.as_dict), private to the asker like every API answer."""
    if request.method != "GET":
        response = json_error("This address only answers GET.", 405)
        response["Allow"] = "GET"
        return response
    solve = _replay_or_none(request, day, difficulty, solve_id)
    if solve is None:
        return json_error(NOT_FOUND, 404)
    response = JsonResponse(timeline_of(solve).as_dict())
    response["Cache-Control"] = PRIVATE
    return response
