"""A solve's review drawn as HTML once, and kept: the results' costliest part, read on every visit.

The review of how a player solved (review.py) never changes once made, yet drawing it, a line per
placement with its technique and its links, cost the results four times everything else on them
together (bench/costs.py, 2026-11-26: 5.8 CPU ms of the fragment's, against 1.3 without a review).
So it is drawn once, by the worker that made the review (pipeline/tasks.follow_ups) or by the
first page that finds it missing, and kept in the shared cache, compressed (37 KB of HTML are
about 3 KB): the results read it with their other kept parts, in the same round trip. The key
names the review as made (the solve, when it was made, the rules it was made by) and the
templates that draw it, so a review made again or a deploy that changes its look is drawn anew.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import zlib
from types import SimpleNamespace

from django.core.cache import cache
from django.template.loader import get_template, render_to_string
from django.utils.safestring import SafeString, mark_safe

from ..coaching.review import REVIEW_VERSION
from ..models import Solve
from .review import review_expected, review_shown

# Kept for a day: most players read their results in the hour after the solve, and the few who
# come back later have it drawn again.
REVIEW_PART_SECONDS = 24 * 3600
TEMPLATES = ("puzzles/_review.html", "puzzles/_review_timeline.html", "puzzles/_review_step.html")


@functools.cache
def _templates_digest() -> str:
    sources = "\0".join(get_template(name).template.source for name in TEMPLATES)  # type: ignore[attr-defined]
    return hashlib.blake2b(sources.encode(), digest_size=6).hexdigest()


def review_part_key(solve: Solve) -> str | None:
    """The cache key of the solve's review drawn as HTML; None while it has none to draw (being
    prepared, or none). The solve must come with its review (select_related("annotated"))."""
    stored = getattr(solve, "annotated", None)
    if stored is None or stored.version != REVIEW_VERSION:
        return None
    return f"review-part:{solve.pk}:{REVIEW_VERSION}:{stored.made_at.timestamp():.6f}:{_templates_digest()}"


def review_part(solve: Solve, kept: bytes | None = None) -> SafeString | None:
    """The review section of the solve's results (_review.html) with its review: from `kept`, the
    cache's copy read with the page's other parts, or drawn now and kept; None while the solve has
    no review to draw (the page draws that state itself). The solve comes with its daily."""
    key = review_part_key(solve)
    if key is None:
        return None
    if kept is not None:
        return mark_safe(zlib.decompress(kept).decode())
    stored = solve.annotated
    if deferred := stored.get_deferred_fields():  # read with its key alone (fastpath.solve_read)
        stored.refresh_from_db(fields=deferred)
    context = {"review": review_shown(solve), "review_expected": review_expected(solve), "daily": solve.daily}
    html = render_to_string("puzzles/_review.html", {**context, "solve": solve})
    cache.set(key, zlib.compress(html.encode(), 6), REVIEW_PART_SECONDS)
    return mark_safe(html)


def review_waiting(solve: Solve) -> SafeString:
    """The review section of a solve with no review to draw (review_part's None): being prepared,
    or none to wait for, as _review.html says. It names the daily alone, so it is drawn once per
    daily and state and kept in the process. The solve comes with its daily."""
    daily = solve.daily
    return _waiting(daily.date, daily.difficulty, review_expected(solve))


@functools.lru_cache(maxsize=64)
def _waiting(day: datetime.date, difficulty: str, expected: bool) -> SafeString:
    daily = SimpleNamespace(date=day, difficulty=difficulty)
    return mark_safe(render_to_string("puzzles/_review.html", {"daily": daily, "review_expected": expected}))


def review_part_keep(solve_id: int) -> bool:
    """Draw a solve's review and keep it, as its worker does once the review is made; whether
    there was one to draw."""
    solve = Solve.objects.select_related("annotated", "daily").filter(pk=solve_id).first()
    return solve is not None and review_part(solve) is not None
