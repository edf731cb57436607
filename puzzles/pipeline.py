"""The puzzle pipeline: making puzzles into the pools and publishing the dailies.

Every function here may run twice, or at the same time on several machines, without making a
duplicate or leaving a gap: unique constraints, one transaction per puzzle, and row locks or
conditional updates where two workers could race.
"""

from __future__ import annotations

import datetime
import logging
import random
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, connection, connections, transaction
from django.db.models import F, Q, Value
from django.db.models.functions import Greatest
from django.utils import timezone

from . import engine
from .batchstore import store_for_batch_in_one_statement as _store_for_batch_in_one_statement
from .models import TIER_ORDER, DailyPuzzle, Pool, Puzzle, SeedBatch, nearest_tiers, score_band, site_today
from .scores import band_text, score_text

log = logging.getLogger(__name__)


def pool_get(tier: str) -> Pool:
    """The pool row of a tier, created with the configured target when first needed."""
    default = settings.PUZZLE_POOL_TARGETS.get(tier, 20)
    pool, _ = Pool.objects.get_or_create(tier=tier, defaults={"target": default})
    return pool


def puzzle_make(
    tier: str,
    *,
    filler: str = engine.DEFAULT_FILLER,
    symmetry: str = "none",
    rng: random.Random | None = None,
    stock: dict[str, int] | None = None,
) -> engine.Generated:
    """Run the engine until it produces a puzzle of the tier (no database work). With `stock`
    (puzzles held per family of hardest technique, _family_stock) the puzzle is aimed at the
    family held least, within a bounded number of tries (engine.generate_varied)."""
    rng = rng or random.Random()
    if stock is not None:
        return engine.generate_varied(tier, rng, stock, filler=filler, symmetry=symmetry)
    return engine.generate(tier, rng, filler=filler, symmetry=symmetry)


def _family_stock(tier: str) -> dict[str, int] | None:
    """How many available puzzles of the tier the pool holds inside its score band, per family of
    hardest technique; None for a tier without families (engine/families.py). Spares outside
    the band are left out: publishing takes them only when the band has run dry."""
    if tier not in engine.FAMILIES:
        return None
    held = Puzzle.objects.available(tier).in_band(score_band(tier))
    return engine.family_stock(tier, held.values_list("hardest", flat=True))


def _puzzle_row(made: engine.Generated) -> Puzzle:
    record = made.to_dict()
    return Puzzle(
        givens=record["givens"],
        solution=record["solution"],
        tier=record["difficulty"],
        score=record["score"],
        hardest=record["hardest"] or "",
        techniques=record["techniques"],
        clues=record["clues"],
        filler=record["filler"],
        symmetry=record["symmetry"],
        generation_ms=record["milliseconds"],
    )


def puzzle_store(made: engine.Generated, *, batch_id: int | None = None, fill_pool: bool = False) -> Puzzle | None:
    """Store one generated puzzle in its own transaction; None when it was not wanted.

    With `fill_pool`, the tier's pool row is locked and the puzzle stored only while the pool
    wants it (_pool_wants), so concurrent refills cannot overfill it. With `batch_id`, the batch's count
    is claimed by a conditional update, so a batch never gets more than it asked for. A puzzle
    already in the database (same givens) is skipped.
    """
    row = _puzzle_row(made)
    if batch_id is not None and not fill_pool and connection.vendor == "postgresql":
        return _store_for_batch_in_one_statement(row, batch_id)
    return _store_with_orm(row, batch_id=batch_id, fill_pool=fill_pool)


def _store_with_orm(row: Puzzle, *, batch_id: int | None, fill_pool: bool) -> Puzzle | None:
    """puzzle_store's rules through the ORM: the pool's row lock, the batch's claim, the insert."""
    pool_pk = pool_get(row.tier).pk if fill_pool else None
    try:
        with transaction.atomic():
            if pool_pk is not None:
                pool = Pool.objects.select_for_update().get(pk=pool_pk)
                if not _pool_wants(row, pool.target):
                    return None
            if batch_id is not None:
                claimed = SeedBatch.objects.filter(pk=batch_id, made__lt=F("requested")).update(made=F("made") + 1)
                if not claimed:
                    return None
            row.save()
            return row
    except IntegrityError:
        log.info("puzzle %s is already stored; skipped", row.givens)
        return None


def _pool_wants(row: Puzzle, target: int) -> bool:
    """Whether a refill keeps this puzzle: inside its tier's score band while the pool holds fewer
    than `target` there; outside it, as a spare for publishing, while there are fewer than
    `target` spares. Called under the pool's row lock."""
    band = score_band(row.tier)
    available = Puzzle.objects.available(row.tier)
    if band[0] <= row.score <= band[1]:
        return available.in_band(band).count() < target
    return available.outside_band(band).count() < target


@dataclass
class FillReport:
    tier: str
    stored: int = 0
    discarded: int = 0
    level: int = 0  # available puzzles inside the band
    spares: int = 0  # available puzzles outside it
    target: int = 0
    seconds: float = 0.0


def pool_fill(tier: str, *, budget_seconds: float, rng: random.Random | None = None) -> FillReport:
    """Make puzzles of one tier until its pool holds `target` inside the tier's score band, or the
    time budget is spent.

    Puzzles of the tier outside the band are kept as spares (up to `target` of them) for a day
    when none inside is left; past that they are discarded. In a tier with families of hardest
    techniques (hard), each puzzle is aimed at the family the pool holds least of, so the
    dailies vary. A slow tier (extreme puzzles are
    rare) only ever uses its own budget, so it cannot hold the other pools back.
    """
    rng = rng or random.Random()
    pool = pool_get(tier)
    band = score_band(tier)
    report = FillReport(tier=tier, target=pool.target)
    started = time.monotonic()
    while time.monotonic() - started < budget_seconds:
        pool.refresh_from_db()
        if Puzzle.objects.available(tier).in_band(band).count() >= pool.target:
            break
        made = puzzle_make(tier, rng=rng, stock=_family_stock(tier))
        if puzzle_store(made, fill_pool=True):
            report.stored += 1
        else:
            report.discarded += 1
    report.level = Puzzle.objects.available(tier).in_band(band).count()
    report.spares = Puzzle.objects.available(tier).outside_band(band).count()
    report.target = pool.target
    report.seconds = time.monotonic() - started
    return report


def pool_claim_fill(tier: str) -> bool:
    """Claim the one queued fill task a tier may have; False while another is queued or running.

    A claim older than a task's hard time limit is stale (its task was lost) and may be taken.
    """
    now = timezone.now()
    stale = now - datetime.timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 60)
    unclaimed = Q(fill_queued_at__isnull=True) | Q(fill_queued_at__lt=stale)
    return Pool.objects.filter(pk=pool_get(tier).pk).filter(unclaimed).update(fill_queued_at=now) == 1


def pool_release_fill(tier: str) -> None:
    """Give up a tier's fill claim (its task finished, or could not be queued)."""
    Pool.objects.filter(tier=tier).update(fill_queued_at=None)


def pools_needing_puzzles() -> list[str]:
    """The tiers whose pools hold fewer than their target inside the score band, easiest first."""
    return [t for t in TIER_ORDER if (pool := pool_get(t)).available_in_band < pool.target]


def seed_batch_create(tier: str, count: int, *, filler: str, symmetry: str) -> SeedBatch:
    """Record an admin's request for `count` puzzles (checked options; nothing made yet)."""
    engine.generator.check_options(tier, filler, symmetry)
    if count < 1:
        raise ValueError("count must be at least 1")
    return SeedBatch.objects.create(tier=tier, filler=filler, symmetry=symmetry, requested=count)


class _StoreBehind:
    """Stores puzzles on a thread of its own while the caller makes the next one.

    A store is a database round trip during which the engine would sit idle; on its own thread
    (with its own connection) it overlaps with making the next puzzle, since waiting on a socket
    releases the GIL. Each puzzle is still stored in its own transaction. It earns its place by
    bench/pipeline.py: without it one worker's overhead on easy puzzles rose from 3.5% to 14%,
    past the 10% target (README, "Measured speed").
    """

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="puzzle-store")

    def submit(self, made: engine.Generated, **options: object) -> Future[Puzzle | None]:
        return self._pool.submit(puzzle_store, made, **options)

    def close(self) -> None:
        self._pool.submit(connections.close_all).result()
        self._pool.shutdown()


def seed_batch_work(
    batch_id: int,
    *,
    budget_seconds: float | None = None,
    rng: random.Random | None = None,
    progress: Callable[[SeedBatch], None] | None = None,
) -> SeedBatch:
    """Make puzzles for a batch until it has all it asked for (or the budget is spent).

    Safe to run twice or on several workers at once: each store claims one unit of the batch.
    Outside a transaction, stores run behind the making of the next puzzle (_StoreBehind);
    inside one (as in tests), a second connection could not see the batch, so they run inline.
    """
    rng = rng or random.Random()
    started = time.monotonic()
    batch = SeedBatch.objects.get(pk=batch_id)
    writer = None if connection.in_atomic_block else _StoreBehind()
    pending: Future[Puzzle | None] | None = None

    def settle(stored: Puzzle | None) -> None:
        if stored is None or progress:
            # Refused (the batch filled up elsewhere, or a duplicate) or someone is watching:
            # read the count back. Otherwise our own claim is the only change we need to know.
            batch.refresh_from_db()
        else:
            batch.made += 1
        if progress:
            progress(batch)

    try:
        while True:
            if batch.made + (pending is not None) >= batch.requested:
                if pending is None:
                    break
                settle(pending.result())
                pending = None
                continue
            if budget_seconds is not None and time.monotonic() - started >= budget_seconds:
                break
            made = puzzle_make(batch.tier, filler=batch.filler, symmetry=batch.symmetry, rng=rng)
            if pending is not None:
                settle(pending.result())
                pending = None
                if batch.done:
                    break  # filled by another worker meanwhile; this last puzzle is not needed
            if writer is None:
                settle(puzzle_store(made, batch_id=batch.pk))
            else:
                pending = writer.submit(made, batch_id=batch.pk)
        if pending is not None:
            settle(pending.result())
    finally:
        if writer is not None:
            writer.close()
    batch.refresh_from_db()
    return batch


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
    first_filling = Pool.objects.first_filling() if waiting else set()  # marks any found at target
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


def daily_publish_if_missing(day: datetime.date) -> bool:
    """Publish a date's empty slots now, unless that was tried in the last half minute.

    Beat publishes days ahead, so this normally finds nothing to do. It is the safety net for a
    midnight when workers or beat were down: the first visitor of the new day publishes it from
    the pools, and the visitors arriving meanwhile wait (a fraction of a second) instead of
    seeing a half-published day. The cache only spares the database a stampede of publishers;
    publishing itself is safe to run several times at once. True when the day should be read
    again.
    """
    tried, running = f"publish-tried:{day.isoformat()}", f"publish-running:{day.isoformat()}"
    if cache.get(tried):
        return False  # tried lately: a pool is empty, and asking again every request won't fill it
    if cache.add(running, 1, 10):
        try:
            daily_publish(day)
        finally:
            cache.set(tried, 1, 30)
            cache.delete(running)
        return True
    deadline = time.monotonic() + 2
    while cache.get(running) and time.monotonic() < deadline:
        time.sleep(0.02)
    return True


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
