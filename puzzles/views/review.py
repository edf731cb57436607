"""A solve's review, on its own: the fragment the results page asks for again while the review is
being prepared (static/js/review.js), until it is there.

Only the solve's player reads it: anyone else, logged in or not, gets the same 404 as for a
puzzle they have not solved, so the answer never tells whether someone else's solve exists.
"""

from __future__ import annotations

import datetime

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from ..models import Solve
from ..pipeline.dailies import daily_served
from ..results.review_part import review_part, review_part_key, review_waiting
from .errors import PRIVATE


@require_GET
def review_fragment(request: HttpRequest, day: datetime.date, difficulty: str) -> HttpResponse:
    """GET: the player's own review of that daily (templates/puzzles/_review.html), ready or not."""
    daily = daily_served(day, difficulty)
    if daily is None or not request.user.is_authenticated:
        raise Http404("There is no such review.")
    solve = Solve.objects.select_related("annotated").filter(user=request.user, daily=daily).first()
    if solve is None:
        raise Http404("There is no such review.")
    solve.daily = daily  # already loaded, with its puzzle
    # Once made, drawn once and kept (results/review_part.py), as the results read it.
    key = review_part_key(solve)
    part = review_part(solve, cache.get(key)) if key else None
    if part is None:  # being prepared, or none to wait for: the section says which
        part = review_waiting(solve)
    response = HttpResponse(part)
    response["Cache-Control"] = PRIVATE  # one player's own, and it changes once it is made
    return response
