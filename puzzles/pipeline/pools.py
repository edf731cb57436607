"""The pools: making puzzles into them, by the refill tasks and by the admins' seed batches (publishing.py
takes them out as dailies).

Every function here may run twice, or at the same time on several machines, without making a
duplicate or leaving a gap: unique constraints, one transaction per puzzle, and row locks or
conditional updates where two workers could race.
"""

from __future__ import annotations

import datetime
import itertools
import logging
import random
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, connection, connections, transaction
from django.db.models import F, Q
from django.utils import timezone

from .. import engine
from ..models import TIER_ORDER, Pool, Puzzle, SeedBatch, score_band
from .fastpath import store_for_batch_in_one_statement as _store_for_batch_in_one_statement

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
) -> engine.Generated:
    """Run the engine until it produces a puzzle of the tier (no database work)."""
    return engine.generate(tier, rng or random.Random(), filler=filler, symmetry=symmetry)


def _puzzles_for_pool(tier: str, rng: random.Random) -> Iterator[engine.Generated]:
    """The puzzles a refill makes, in turn, without end. In a tier with families of hardest
    techniques it keeps only some (_pool_wants), so it takes every puzzle of the tier the engine
    makes on the way (engine.generate_stream) rather than one per call."""
    if tier in engine.FAMILIES:
        return engine.generate_stream(tier, rng)
    return (puzzle_make(tier, rng=rng) for _ in itertools.count())


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


def puzzle_store(
    made: engine.Generated, *, batch_id: int | None = None, fill_pool: bool = False, aiming: bool = False
) -> Puzzle | None:
    """Store one generated puzzle in its own transaction; None when it was not wanted.

    With `fill_pool`, the tier's pool row is locked and the puzzle stored only while the pool
    wants it (_pool_wants, `aiming` at variety or not), so concurrent refills cannot overfill
    it. With `batch_id`, the batch's count is claimed by a conditional update, so a batch never
    gets more than it asked for. A puzzle already in the database (same givens) is skipped.
    """
    row = _puzzle_row(made)
    if batch_id is not None and not fill_pool and connection.vendor == "postgresql":
        return _store_for_batch_in_one_statement(row, batch_id)
    return _store_with_orm(row, batch_id=batch_id, fill_pool=fill_pool, aiming=aiming)


def _store_with_orm(row: Puzzle, *, batch_id: int | None, fill_pool: bool, aiming: bool = False) -> Puzzle | None:
    """puzzle_store's rules through the ORM: the pool's row lock, the batch's claim, the insert."""
    pool_pk = pool_get(row.tier).pk if fill_pool else None
    try:
        with transaction.atomic():
            if pool_pk is not None:
                pool = Pool.objects.select_for_update().get(pk=pool_pk)
                if not _pool_wants(row, pool.target, aiming):
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


def _pool_wants(row: Puzzle, target: int, aiming: bool = False) -> bool:
    """Whether a refill keeps this puzzle: inside its tier's score band while the pool holds fewer
    than `target` there (in a tier with families, while `aiming`, only while its family has room:
    engine.family_keeps); outside it, as a spare for publishing, while there are fewer than
    `target` spares. Called under the pool's row lock."""
    band = score_band(row.tier)
    available = Puzzle.objects.available(row.tier)
    if band[0] <= row.score <= band[1]:
        stock = _family_stock(row.tier)
        if stock is not None and not engine.family_keeps(row.hardest, stock, target, aiming):
            return False
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
    techniques (hard), every puzzle the engine makes is offered to the pool, which keeps it
    while its family has room (engine.family_keeps): places are held for the families the pool
    lacks, and no family fills more than its share. That aim lasts the first half of the budget
    (engine.AIM_SHARE); after it any puzzle inside the band is kept, so a family the band rarely
    admits cannot hold the pool short. A slow tier (extreme puzzles are rare) only ever uses its own
    budget, so it cannot hold the other pools back.
    """
    rng = rng or random.Random()
    pool = pool_get(tier)
    band = score_band(tier)
    report = FillReport(tier=tier, target=pool.target)
    puzzles = _puzzles_for_pool(tier, rng)
    started = time.monotonic()
    while (elapsed := time.monotonic() - started) < budget_seconds:
        pool.refresh_from_db()
        if Puzzle.objects.available(tier).in_band(band).count() >= pool.target:
            break
        made = next(puzzles)
        if puzzle_store(made, fill_pool=True, aiming=elapsed < budget_seconds * engine.AIM_SHARE):
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


def pools_filling() -> bool:
    """Whether a tier's fill task is queued or running (a claim that is not stale)."""
    stale = timezone.now() - datetime.timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 60)
    return Pool.objects.filter(fill_queued_at__gte=stale).exists()


def pools_needing_puzzles() -> list[str]:
    """The tiers whose pools hold fewer than their target inside the score band, easiest first."""
    return [t for t in TIER_ORDER if (pool := pool_get(t)).available_in_band < pool.target]


def seed_batch_create(tier: str, count: int, *, filler: str, symmetry: str) -> SeedBatch:
    """Record an admin's request for `count` puzzles (checked options; nothing made yet)."""
    engine.check_options(tier, filler, symmetry)
    if count < 1:
        raise ValueError("count must be at least 1")
    return SeedBatch.objects.create(tier=tier, filler=filler, symmetry=symmetry, requested=count)


class _StoreBehind:
    """Stores puzzles on a thread of its own while the caller makes the next one.

    A store is a database round trip during which the engine would sit idle; on its own thread
    (with its own connection) it overlaps with making the next puzzle, since waiting on a socket
    releases the GIL. Each puzzle is still stored in its own transaction. It earns its place by
    bench/pipeline.py: without it a worker's overhead on easy puzzles passes its target
    (docs/performance.md).
    """

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="puzzle-store")

    def submit(self, made: engine.Generated, batch_id: int | None) -> Future[Puzzle | None]:
        return self._pool.submit(puzzle_store, made, batch_id=batch_id)

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
