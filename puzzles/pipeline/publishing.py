"""Publishing the dailies: one puzzle per difficulty and day, taken from the pools.

Every function here may run twice, or at the same time on several machines, without publishing
two puzzles for one slot or one puzzle twice: unique constraints, and row locks (or conditional
updates where rows cannot be locked) on the puzzle being claimed.
"""

from __future__ import annotations

import datetime
import logging
from dataclasses import dataclass, field

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Value
from django.db.models.functions import Greatest

from ..models import TIER_ORDER, DailyPuzzle, Pool, Puzzle, nearest_tiers, score_band, site_today
from .scores import band_text, score_text

log = logging.getLogger(__name__)


@dataclass
class PublishReport:
    day: datetime.date
    published: dict[str, int] = field(default_factory=dict)  # difficulty -> puzzle id
    existing: list[str] = field(default_factory=list)
    substitutes: dict[str, str] = field(default_factory=dict)  # difficulty -> tier used
    missing: list[str] = field(default_factory=list)
    outside_band: dict[str, int] = field(default_factory=dict)  # difficulty -> score, outside its band


def _claim_puzzle(tier: str) -> Puzzle | None:
    """Take the oldest unpublished puzzle of a tier inside its score band or, when none is, the
    one nearest the band; rows another publisher holds are skipped."""
    low, high = score_band(tier)
    available = Puzzle.objects.available(tier)
    inside = available.in_band((low, high)).order_by("created", "pk")
    distance = Greatest(Value(low) - F("score"), F("score") - Value(high))
    nearest = available.outside_band((low, high)).alias(distance=distance).order_by("distance", "created", "pk")
    for choices in (inside, nearest):
        candidate = choices.select_for_update(skip_locked=True, of=("self",)).first()
        if candidate is not None:
            break
    else:
        return None
    # The conditional update is the claim on databases that cannot lock rows (SQLite).
    if not Puzzle.objects.filter(pk=candidate.pk, used=False).update(used=True):
        return None
    candidate.used = True
    return candidate


def _publish_slot(day: datetime.date, difficulty: str, tiers: list[str]) -> tuple[Puzzle | None, str]:
    """Fill one slot from the first of `tiers` with a puzzle to spare; (None, "") when none has.

    Raises IntegrityError when another publisher filled the slot first.
    """
    with transaction.atomic():
        for tier in tiers:
            puzzle = _claim_puzzle(tier)
            if puzzle is not None:
                DailyPuzzle.objects.create(
                    date=day, difficulty=difficulty, puzzle=puzzle, substitute=tier != difficulty
                )
                return puzzle, tier
    return None, ""


def daily_publish(day: datetime.date | None = None, *, substitutes: bool = True) -> PublishReport:
    """Publish one puzzle per difficulty for `day` (today by default); slots already filled stay.

    Every slot first takes a puzzle of its own tier; only then do empty pools borrow from the
    nearest tier, so a substitute never takes the puzzle another slot needed. A substitute is
    recorded on the daily and logged as an error, so a date never goes without its puzzle.
    """
    day = day or site_today()
    report = PublishReport(day=day)
    taken = set(DailyPuzzle.objects.filter(date=day).values_list("difficulty", flat=True))
    report.existing = [d for d in TIER_ORDER if d in taken]
    waiting = [d for d in TIER_ORDER if d not in taken]
    if waiting:
        Pool.objects.mark_first_fills()
    first_filling = Pool.objects.first_filling() if waiting else set()
    for substitutes_allowed in (False, True) if substitutes else (False,):
        for difficulty in list(waiting):
            if substitutes_allowed and difficulty in first_filling:
                continue  # a substitute is for a pool that ran dry; a first fill is waited for
            tiers = nearest_tiers(difficulty) if substitutes_allowed else [difficulty]
            try:
                puzzle, tier = _publish_slot(day, difficulty, tiers)
            except IntegrityError:
                # Another publisher filled this slot first; its choice stands and ours rolled back.
                report.existing.append(difficulty)
                waiting.remove(difficulty)
                continue
            if puzzle is None:
                continue
            waiting.remove(difficulty)
            report.published[difficulty] = puzzle.pk
            _note_outside_band(report, difficulty, puzzle, substitute=tier != difficulty)
            if tier != difficulty:
                report.substitutes[difficulty] = tier
                log.error(
                    "the %s pool was empty: published %s puzzle as the %s daily of %s",
                    difficulty,
                    ("an " if tier[0] in "aeiou" else "a ") + tier,
                    difficulty,
                    day,
                )
    report.missing = waiting
    if substitutes:
        for difficulty in [d for d in waiting if d not in first_filling]:
            log.critical("no puzzle at all to publish as the %s daily of %s", difficulty, day)
    return report


def _note_outside_band(report: PublishReport, difficulty: str, puzzle: Puzzle, *, substitute: bool) -> None:
    """Record (and, for a puzzle of the slot's own tier, log) a daily scored outside its slot's band."""
    low, high = score_band(difficulty)
    if low <= puzzle.score <= high:
        return
    report.outside_band[difficulty] = puzzle.score
    if not substitute:  # a substitute is logged as an error already
        log.warning(
            "no %s puzzle inside the band %s was left: the %s daily of %s scores %s, outside it",
            difficulty,
            band_text((low, high)),
            difficulty,
            report.day,
            score_text(puzzle.score),
        )


def dailies_publish_ahead(days: int | None = None, *, substitutes: bool = True) -> list[PublishReport]:
    """Publish today and the following days, so midnight never finds an empty slot."""
    days = settings.PUBLISH_DAYS_AHEAD if days is None else days
    today = site_today()
    return [daily_publish(today + datetime.timedelta(days=n), substitutes=substitutes) for n in range(days + 1)]


def dailies_missing(days: int | None = None) -> bool:
    """Whether any slot from today to the publishing horizon is still empty."""
    days = settings.PUBLISH_DAYS_AHEAD if days is None else days
    today = site_today()
    filled = DailyPuzzle.objects.filter(date__gte=today, date__lte=today + datetime.timedelta(days=days)).count()
    return filled < (days + 1) * len(TIER_ORDER)


class SlotTaken(ValueError):
    """An admin asked for a slot, or a puzzle, that is already published."""


def daily_schedule(puzzle: Puzzle, day: datetime.date, difficulty: str) -> DailyPuzzle:
    """Publish a chosen puzzle on a date, refused with a clear reason when slot or puzzle is taken."""
    try:
        with transaction.atomic():
            if not Puzzle.objects.filter(pk=puzzle.pk, used=False).update(used=True):
                raise SlotTaken(f"puzzle #{puzzle.pk} has already been published")
            return DailyPuzzle.objects.create(
                date=day, difficulty=difficulty, puzzle=puzzle, substitute=puzzle.tier != difficulty
            )
    except IntegrityError:
        raise SlotTaken(f"{day:%Y-%m-%d} already has its {difficulty} puzzle") from None
