"""Re-rating stored puzzles with the current engine, for a site whose rater has changed.

Every puzzle gets the engine's score, hardest technique and technique counts; only a puzzle still
in its pool also gets the engine's tier, so a published daily keeps its slot. Safe to run again
(a second run changes nothing) and while the workers run: each batch is its own transaction, and a
tier moves only by a conditional update on a puzzle still unpublished.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import transaction

from .. import engine
from ..models import Puzzle

BATCH_SIZE = 500


@dataclass
class RerateReport:
    checked: int = 0
    changed: int = 0  # score, hardest or techniques differ
    retiered: int = 0  # pool puzzles moved to another tier
    failed: list[int] = field(default_factory=list)  # ids of grids the engine refused


def puzzles_rerate(
    *, batch_size: int = BATCH_SIZE, dry_run: bool = False, progress: Callable[[RerateReport], None] | None = None
) -> RerateReport:
    """Rate every stored puzzle again, in batches of `batch_size` by id; with dry_run, count only."""
    report = RerateReport()
    last = 0
    while True:
        fields = ("pk", "givens", "tier", "score", "hardest", "techniques", "used")
        batch = list(Puzzle.objects.filter(pk__gt=last).order_by("pk").only(*fields)[:batch_size])
        if not batch:
            return report
        last = batch[-1].pk
        with transaction.atomic():
            for puzzle in batch:
                _rerate_one(puzzle, report, dry_run=dry_run)
        if progress:
            progress(report)


def _rerate_one(puzzle: Puzzle, report: RerateReport, *, dry_run: bool) -> None:
    report.checked += 1
    try:
        rating = engine.rate(puzzle.givens)
    except engine.InvalidGrid:
        report.failed.append(puzzle.pk)
        return
    rated = {"score": rating.score, "hardest": rating.hardest or "", "techniques": rating.techniques}
    if any(getattr(puzzle, name) != value for name, value in rated.items()):
        report.changed += 1
        if not dry_run:
            Puzzle.objects.filter(pk=puzzle.pk).update(**rated)
    # Conditional: a publisher may have taken the puzzle since it was read; then it keeps its tier.
    retier = rating.tier != puzzle.tier and not puzzle.used
    if retier and (dry_run or Puzzle.objects.filter(pk=puzzle.pk, used=False).update(tier=rating.tier)):
        report.retiered += 1
