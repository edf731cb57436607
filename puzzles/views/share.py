"""Sharing a daily: the picture its link previews show, and the tags that point to it.

The picture depends on the puzzle alone, so it is drawn once, kept in the shared cache, and sent
with headers that let browsers and link crawlers keep it: its address carries the puzzle's id
(?v=), so a daily whose puzzle an admin replaced gets a new address rather than a stale picture.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control
from django.views.decorators.http import require_safe

from ..models import DailyPuzzle
from ..pipeline.dailies import daily_served
from ..results.preview import HEIGHT, WIDTH, draw_preview
from ..results.share import SITE_NAME, daily_url, share_title, site_url

# Raise when the drawing changes: the cached pictures and the browsers' copies are dropped.
DRAWING_VERSION = 1
PREVIEW_CACHE_SECONDS = 7 * 24 * 3600  # a puzzle's picture never changes; a week bounds the memory
PREVIEW_MAX_AGE = 365 * 24 * 3600  # for browsers and crawlers: immutable, its address names the puzzle


def _preview_etag(daily: DailyPuzzle) -> str:
    return f'"preview-{DRAWING_VERSION}-{daily.puzzle_id}-{daily.difficulty}-{daily.date:%Y%m%d}"'


def preview_png(daily: DailyPuzzle) -> bytes:
    """The daily's picture (givens only), drawn once and then read from the shared cache."""
    key = f"preview:{DRAWING_VERSION}:{daily.puzzle_id}:{daily.difficulty}:{daily.date.isoformat()}"
    png = cache.get(key)
    if png is None:
        png = draw_preview(daily.puzzle.givens, daily.get_difficulty_display(), daily.date)
        cache.set(key, png, PREVIEW_CACHE_SECONDS)
    return png


@require_safe  # GET, and HEAD for the crawlers that ask first
def preview_image(request: HttpRequest, day: datetime.date, difficulty: str) -> HttpResponse:
    """The daily's link-preview picture as PNG, 1200x630; 404 for a daily that is not served."""
    daily = daily_served(day, difficulty)
    if daily is None:
        raise Http404("There is no such puzzle.")
    etag = _preview_etag(daily)
    unchanged = get_conditional_response(request, etag=etag)
    if unchanged is None:
        response = HttpResponse(preview_png(daily), content_type="image/png")
    else:
        response = unchanged
    response["ETag"] = etag
    patch_cache_control(response, public=True, max_age=PREVIEW_MAX_AGE, immutable=True)
    return response


@dataclass(frozen=True)
class LinkPreview:
    title: str
    description: str
    url: str  # the daily's page, absolute
    image: str  # its picture, absolute
    image_alt: str
    width: int = WIDTH
    height: int = HEIGHT
    site_name: str = SITE_NAME


def link_preview(daily: DailyPuzzle) -> LinkPreview:
    """What templates/puzzles/_meta.html says about a daily's page to link previews, its links
    on settings.SITE_URL (the page is cached for everyone, so nothing in it comes from a request)."""
    label = daily.get_difficulty_display()
    clues = sum(1 for digit in daily.puzzle.givens if digit in "123456789")
    when = f"{daily.date.day} {daily.date:%B %Y}"
    image = reverse("puzzles:preview", args=(daily.date, daily.difficulty)) + f"?v={daily.puzzle_id}"
    return LinkPreview(
        title=share_title(daily.date, daily.difficulty),
        description=f"The {label.lower()} puzzle of {when}, {clues} givens. Play it free in your browser.",
        url=daily_url(daily),
        image=site_url(image),
        image_alt=f"The {label.lower()} Sudoku of {when}: a grid with its {clues} givens.",
    )


def preview_context(daily: DailyPuzzle) -> dict[str, Any]:
    """The context _meta.html needs, for the daily page's own context: {**preview_context(daily)}."""
    return {"link_preview": link_preview(daily)}
