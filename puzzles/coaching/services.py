"""Storing a solve's annotated review (coaching/review.py makes it), and reading it for the pages.

The task puzzles.tasks.review_solve calls review_store after a solve; running it twice stores the
same review and the same technique uses, in one transaction each time.
"""

from __future__ import annotations

import datetime
import time

from django.db import transaction
from django.utils import timezone

from ..fairplay.replays import timeline_of
from ..models import Solve, SolveReview, TechniqueUse
from .review import REVIEW_VERSION, review_timeline


def review_store(solve_id: int) -> SolveReview | None:
    """Make and store the solve's review, replacing its technique uses; None when the solve is gone."""
    solve = Solve.objects.select_related("attempt", "daily__puzzle").filter(pk=solve_id).first()
    if solve is None:
        return None
    started = time.perf_counter()  # the worker's time: reading the replay and making the review
    puzzle = solve.daily.puzzle
    review = review_timeline(timeline_of(solve), puzzle.solution, puzzle.tier)
    worker_ms = (time.perf_counter() - started) * 1000
    uses = [
        TechniqueUse(
            user_id=solve.user_id,
            solve=solve,
            technique=technique,
            think_seconds=seconds,
            solved_at=solve.solved_at,
        )
        for technique, seconds in review.uses()
    ]
    with transaction.atomic():
        stored, _ = SolveReview.objects.update_or_create(
            solve=solve,
            defaults={
                "version": REVIEW_VERSION,
                "made_at": timezone.now(),
                "worker_ms": worker_ms,
                "placements": review.placements,
                "stalls": review.stalls,
                "mistakes": review.mistakes,
            },
        )
        TechniqueUse.objects.filter(solve=solve).delete()
        TechniqueUse.objects.bulk_create(uses)
    return stored


def review_of(solve: Solve) -> SolveReview | None:
    """The solve's review for its pages; None while it is being prepared or made by older rules."""
    return SolveReview.objects.filter(solve=solve, version=REVIEW_VERSION).first()


def reviews_missing(days: int = 7, limit: int = 200) -> list[int]:
    """The solves the sweep reviews, at most `limit`, oldest first: those made in the last `days`
    with no review by the current rules (their task was lost: the broker away, a worker gone),
    then, with the room left, older ones whose review older rules made (their record is there to
    make it again, and their technique uses are replaced with it)."""
    since = timezone.now() - datetime.timedelta(days=days)
    current = SolveReview.objects.filter(version=REVIEW_VERSION).values("solve_id")
    missing = Solve.objects.filter(solved_at__gte=since).exclude(pk__in=current).order_by("solved_at", "pk")
    found = list(missing.values_list("pk", flat=True)[:limit])
    if len(found) < limit:
        stale = SolveReview.objects.filter(solve__solved_at__lt=since).exclude(version=REVIEW_VERSION)
        found += stale.order_by("solve__solved_at", "solve_id").values_list("solve_id", flat=True)[: limit - len(found)]
    return found
