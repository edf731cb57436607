"""The review of a solved brought puzzle: the daily's review (coaching/review.py), made from the
moves kept on the attempt, and shown the daily's way (results/review.py).

A daily's review is made by a worker after the solve and stored; a brought puzzle's is made when
its results are first asked for, under the engine's time cap (checking.within), and kept in the
shared cache, not the database: a read changes nothing, and the review can always be made again
from the attempt. It credits the player's skill profile nothing (no TechniqueUse is written).
"""

from __future__ import annotations

from dataclasses import asdict
from types import SimpleNamespace

from django.conf import settings
from django.core.cache import cache

from ..coaching.review import REVIEW_VERSION, Review, review_timeline
from ..fairplay.replays import Snapshot, TimedMove, Timeline
from ..models import BroughtAttempt
from ..record_of_play.moves import unpack
from ..results.review import ShownReview, shown_review
from .checking import within

REVIEW_CACHE_SECONDS = 24 * 3600
REVIEW_RETRY_SECONDS = 600


def timeline_of(attempt: BroughtAttempt) -> Timeline:
    """The solved attempt's moves on its clock, ending on its solved grid."""
    end_ms = int((attempt.solve_seconds or 0) * 1000)
    moves = [TimedMove(min(move.age_ms, end_ms), move) for move in unpack(attempt.moves or b"")]
    timeline = Timeline(givens=attempt.puzzle.givens, moves=moves, end_ms=end_ms, seconds=attempt.solve_seconds or 0)
    timeline.writes.append(Snapshot(len(moves), end_ms, attempt.digits))
    return timeline


def brought_review(attempt: BroughtAttempt) -> ShownReview | None:
    """The solved attempt's review to show its player; None when the engine could not make it in
    time (the page says so)."""
    key = f"brought-review:{attempt.pk}:{attempt.solved_at and attempt.solved_at.timestamp()}:{REVIEW_VERSION}"
    kept = cache.get(key)
    if kept is None:
        # Everything read here first: the child only computes, and never touches the database.
        timeline, puzzle = timeline_of(attempt), attempt.puzzle
        solution, tier = puzzle.solution, puzzle.tier
        made = within(settings.BROUGHT_CHECK_SECONDS * 3, lambda _: review_timeline(timeline, solution, tier), "")
        kept = asdict(made) if isinstance(made, Review) else {}
        # One that could not be made in time is tried again later, not on every read in between.
        cache.set(key, kept, REVIEW_CACHE_SECONDS if kept else REVIEW_RETRY_SECONDS)
    # shown_review reads only the three lists a stored SolveReview has.
    return shown_review(SimpleNamespace(**kept)) if kept else None  # type: ignore[arg-type]
