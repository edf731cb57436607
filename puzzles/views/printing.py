"""A day's puzzles on paper: the print page, its five grids (the givens only) for one or two sheets.

The page is drawn once per day's dailies and kind of reader (a visitor, a guest or a player: the
header's links differ), kept in this process's memory with a mark where the header's account part
goes, and filled in per request as the home page is (views/frames.py): every page's header offers
the same links to the same reader. The board's own print layout is a stylesheet only
(static/css/print.css).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.core.cache import caches
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString
from django.views.decorators.http import require_safe

from ..accounts.guests import is_guest
from ..context_processors import site_urls
from ..models import DailyPuzzle, site_today
from ..pipeline.dailies import dailies_of
from ..results.drawing import grid_svg
from .frames import cut, filled, marks
from .home import account_part
from .pages import PAGE_CACHE_SECONDS

local_cache = caches["local"]

# Puzzles on one printed sheet: the first sheet also carries the title and the rules, and no sheet
# holds more than fit at a size a pencil can write in (print.css sizes the grids for A4 and Letter).
PER_SHEET = 3


@dataclass(frozen=True)
class Printed:
    """One puzzle as the page prints it: its tier, its board's address, its grid of givens."""

    tier: str
    tier_name: str
    board_url: str
    drawing: SafeString


def _printed(daily: DailyPuzzle) -> Printed:
    tier_name = daily.get_difficulty_display()
    title = f"{tier_name} puzzle, {daily.date.day} {daily.date:%B %Y}"
    return Printed(
        tier=daily.difficulty,
        tier_name=tier_name,
        board_url=reverse("puzzles:daily", args=(daily.date, daily.difficulty)),
        drawing=grid_svg(daily.puzzle.givens, title),  # the givens alone: never the solution
    )


@require_safe
def print_day(request: HttpRequest, day: datetime.date | None = None) -> HttpResponse:
    """The day's published puzzles laid out to print (today's without a date), easiest first,
    PER_SHEET to a sheet. 404 for a future day, or one with nothing published."""
    day = day or site_today()
    dailies = dailies_of(day)  # nothing for a future day: daily_served never serves one
    if not dailies:
        raise Http404("There are no puzzles for that day.")
    drawn = ",".join(f"{d.difficulty}={d.pk}/{d.puzzle_id}" for d in dailies.values())
    user = request.user
    reader = "visitor" if not user.is_authenticated else "guest" if is_guest(user) else "player"
    key = f"print-page:{day}:{drawn}:{reader}:{request.path}"
    frame = local_cache.get(key)
    if frame is None:
        printed = [_printed(daily) for daily in dailies.values()]
        context = {
            "day": day,
            "sheets": [printed[i : i + PER_SHEET] for i in range(0, len(printed), PER_SHEET)],
            "site_urls": site_urls(request)["site_urls"],
            "messages": (),  # a waiting message is left for the next page that is about its reader
            # No user: the header and the footer are told only the reader's kind (as home._frame).
            "user": {"is_authenticated": reader != "visitor"},
            "is_guest": reader == "guest",
            **marks("account"),
        }
        frame = cut(render_to_string("puzzles/print.html", context))
        local_cache.set(key, frame, PAGE_CACHE_SECONDS)
    return HttpResponse(filled(frame, {"account": account_part(request, reader)}))
