"""Workflows of the puzzle pipeline: making puzzles into the pools and publishing the dailies.

Every function here may run twice, or at the same time on several machines, without making a
duplicate or leaving a gap: unique constraints, one transaction per puzzle, and row locks or
conditional updates where two workers could race.
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import json
import logging
import random
import re
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Union

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from . import engine
from .models import TIER_ORDER, Attempt, DailyPuzzle, Pool, Puzzle, SeedBatch, Solve, nearest_tiers, site_today

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
    rng: Optional[random.Random] = None,
) -> engine.Generated:
    """Run the engine until it produces a puzzle of the tier (no database work)."""
    return engine.generate(tier, rng or random.Random(), filler=filler, symmetry=symmetry)


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
    made: engine.Generated, *, batch_id: Optional[int] = None, fill_pool: bool = False
) -> Optional[Puzzle]:
    """Store one generated puzzle in its own transaction; None when it was not wanted.

    With `fill_pool`, the tier's pool row is locked and the puzzle stored only while the pool is
    under target, so concurrent refills cannot overfill it. With `batch_id`, the batch's count
    is claimed by a conditional update, so a batch never gets more than it asked for. A puzzle
    already in the database (same givens) is skipped.
    """
    row = _puzzle_row(made)
    if batch_id is not None and not fill_pool and connection.vendor == "postgresql":
        return _store_for_batch_in_one_statement(row, batch_id)
    pool_pk = pool_get(row.tier).pk if fill_pool else None
    try:
        with transaction.atomic():
            if pool_pk is not None:
                pool = Pool.objects.select_for_update().get(pk=pool_pk)
                if Puzzle.objects.available(row.tier).count() >= pool.target:
                    return None
            if batch_id is not None:
                claimed = SeedBatch.objects.filter(pk=batch_id, made__lt=F("requested")).update(
                    made=F("made") + 1
                )
                if not claimed:
                    return None
            row.save()
            return row
    except IntegrityError:
        log.info("puzzle %s is already stored; skipped", row.givens)
        return None


_PUZZLE_COLUMNS = (
    "givens", "solution", "tier", "score", "hardest", "techniques", "clues",
    "filler", "symmetry", "generation_ms", "created", "used",
)


def _store_for_batch_in_one_statement(row: Puzzle, batch_id: int) -> Optional[Puzzle]:
    """PostgreSQL: claim a unit of the batch and insert the puzzle in a single statement.

    The same rule as the ORM path (no claim, no row; a duplicate undoes the claim), but one
    round trip instead of four: storing was the largest part of a worker's time per puzzle
    beyond the engine's own. A single statement is its own transaction.
    """
    columns = ", ".join(_PUZZLE_COLUMNS)
    values = ", ".join(["%s"] * len(_PUZZLE_COLUMNS))
    sql = (
        f"WITH claim AS (UPDATE {SeedBatch._meta.db_table} SET made = made + 1 "
        f"WHERE id = %s AND made < requested RETURNING id) "
        f"INSERT INTO {Puzzle._meta.db_table} ({columns}) SELECT {values} FROM claim RETURNING id"
    )
    params = [
        batch_id, row.givens, row.solution, row.tier, row.score, row.hardest,
        json.dumps(row.techniques), row.clues, row.filler, row.symmetry, row.generation_ms,
        row.created, row.used,
    ]
    # Inside a caller's transaction a savepoint keeps a duplicate from breaking it; on its own
    # the statement needs none.
    guard = transaction.atomic() if connection.in_atomic_block else contextlib.nullcontext()
    try:
        with guard, connection.cursor() as cursor:
            cursor.execute(sql, params)
            inserted = cursor.fetchone()
    except IntegrityError:
        log.info("puzzle %s is already stored; skipped", row.givens)
        return None
    if inserted is None:
        return None  # the batch is already complete
    row.pk = inserted[0]
    row._state.adding = False
    row._state.db = connection.alias
    return row


@dataclass
class FillReport:
    tier: str
    stored: int = 0
    discarded: int = 0
    level: int = 0
    target: int = 0
    seconds: float = 0.0


def pool_fill(tier: str, *, budget_seconds: float, rng: Optional[random.Random] = None) -> FillReport:
    """Make puzzles of one tier until its pool reaches target or the time budget is spent.

    A slow tier (extreme puzzles are rare) only ever uses its own budget, so it cannot hold
    the other pools back.
    """
    rng = rng or random.Random()
    pool = pool_get(tier)
    report = FillReport(tier=tier, target=pool.target)
    started = time.monotonic()
    while time.monotonic() - started < budget_seconds:
        pool.refresh_from_db()
        if Puzzle.objects.available(tier).count() >= pool.target:
            break
        made = puzzle_make(tier, rng=rng)
        if puzzle_store(made, fill_pool=True):
            report.stored += 1
        else:
            report.discarded += 1
    report.level = Puzzle.objects.available(tier).count()
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
    """The tiers whose pools are below target, easiest first."""
    return [t for t in TIER_ORDER if Puzzle.objects.available(t).count() < pool_get(t).target]


def seed_batch_create(tier: str, count: int, *, filler: str, symmetry: str) -> SeedBatch:
    """Record an admin's request for `count` puzzles (checked options; nothing made yet)."""
    engine.generator.check_options(tier, filler, symmetry)
    if count < 1:
        raise ValueError("count must be at least 1")
    return SeedBatch.objects.create(tier=tier, filler=filler, symmetry=symmetry, requested=count)


class _StoreBehind:
    """Stores puzzles on a thread of its own while the caller makes the next one.

    A store is a few database round trips during which the engine would sit idle; on its own
    thread (with its own connection) it overlaps with making the next puzzle, since waiting on
    a socket releases the GIL. Each puzzle is still stored in its own transaction.
    """

    def __init__(self) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="puzzle-store")

    def submit(self, made: engine.Generated, **options: object) -> "Future[Optional[Puzzle]]":
        return self._pool.submit(puzzle_store, made, **options)

    def close(self) -> None:
        from django.db import connections

        self._pool.submit(connections.close_all).result()
        self._pool.shutdown()


def seed_batch_work(
    batch_id: int,
    *,
    budget_seconds: Optional[float] = None,
    rng: Optional[random.Random] = None,
    progress: Optional[Callable[[SeedBatch], None]] = None,
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
    pending: Optional[Future[Optional[Puzzle]]] = None

    def settle(stored: Optional[Puzzle]) -> None:
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


def _claim_puzzle(tier: str) -> Optional[Puzzle]:
    """Take the oldest unpublished puzzle of a tier, skipping rows another publisher holds."""
    candidate = (
        Puzzle.objects.available(tier)
        .select_for_update(skip_locked=True, of=("self",))
        .order_by("created", "pk")
        .first()
    )
    if candidate is None:
        return None
    # The conditional update is the claim on databases that cannot lock rows (SQLite).
    if not Puzzle.objects.filter(pk=candidate.pk, used=False).update(used=True):
        return None
    candidate.used = True
    return candidate


def _publish_slot(day: datetime.date, difficulty: str, tiers: list[str]) -> tuple[Optional[Puzzle], str]:
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


def daily_publish(day: Optional[datetime.date] = None, *, substitutes: bool = True) -> PublishReport:
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
    for substitutes_allowed in (False, True) if substitutes else (False,):
        for difficulty in list(waiting):
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
            if tier != difficulty:
                report.substitutes[difficulty] = tier
                log.error(
                    "the %s pool was empty: published a %s puzzle as the %s daily of %s",
                    difficulty, tier, difficulty, day,
                )
    report.missing = waiting
    if substitutes:
        for difficulty in waiting:
            log.critical("no puzzle at all to publish as the %s daily of %s", difficulty, day)
    return report


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


def dailies_publish_ahead(days: Optional[int] = None, *, substitutes: bool = True) -> list[PublishReport]:
    """Publish today and the following days, so midnight never finds an empty slot."""
    days = settings.PUBLISH_DAYS_AHEAD if days is None else days
    today = site_today()
    return [
        daily_publish(today + datetime.timedelta(days=n), substitutes=substitutes) for n in range(days + 1)
    ]


def dailies_missing(days: Optional[int] = None) -> bool:
    """Whether any slot from today to the publishing horizon is still empty."""
    days = settings.PUBLISH_DAYS_AHEAD if days is None else days
    today = site_today()
    filled = DailyPuzzle.objects.filter(
        date__gte=today, date__lte=today + datetime.timedelta(days=days)
    ).count()
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


# --- playing ----------------------------------------------------------------------------------


class StaleSave(Exception):
    """A save or submit started from an older version than the one stored (another tab won)."""

    def __init__(self, attempt: Attempt) -> None:
        super().__init__("Your progress was saved from another tab or device first.")
        self.attempt = attempt


class BadProgress(ValueError):
    """A payload that cannot be a player's position; the message says what is wrong."""


class AlreadySolved(Exception):
    """The attempt is solved; nothing about it changes any more."""


NOTE = re.compile(r"[1-9]{0,9}")
DIGITS = re.compile(r"[0-9]{81}")


def _check_notes(notes: object, givens: str, name: str) -> list[str]:
    if not isinstance(notes, list) or len(notes) != 81:
        raise BadProgress(f"{name} notes must be a list of 81 strings")
    clean = []
    for cell, mark in enumerate(notes):
        # Every save checks 162 of these, so the common case (an empty note) is the quick one.
        if mark == "":
            clean.append("")
            continue
        if not isinstance(mark, str) or not NOTE.fullmatch(mark):
            raise BadProgress(f"{name} notes of cell {cell + 1} must be digits 1-9")
        if len(set(mark)) != len(mark):
            raise BadProgress(f"{name} notes of cell {cell + 1} repeat a digit")
        clean.append("" if givens[cell] != "0" else "".join(sorted(mark)))
    return clean


def progress_clean(givens: str, digits: object, corner: object = None, centre: object = None) -> tuple[str, list[str], list[str]]:
    """Check and normalise a player's position against the puzzle's givens.

    Given cells must be empty or repeat the given; they are stored empty, since the givens
    belong to the puzzle, not to the player.
    """
    if not isinstance(digits, str) or not DIGITS.fullmatch(digits):
        raise BadProgress("digits must be 81 characters, 0-9")
    for cell, (given, mine) in enumerate(zip(givens, digits)):
        if given != "0" and mine not in ("0", given):
            raise BadProgress(f"cell {cell + 1} holds a given, which cannot be changed")
    digits = "".join("0" if given != "0" else mine for given, mine in zip(givens, digits))
    corner = _check_notes(corner if corner is not None else [""] * 81, givens, "corner")
    centre = _check_notes(centre if centre is not None else [""] * 81, givens, "centre")
    return digits, corner, centre


def attempt_open(user, daily: DailyPuzzle) -> Attempt:
    """The player's attempt at a daily (with its solve, if any), started on first opening.

    Starting it starts the clock: the first heartbeat counts from here.
    """
    attempt = Attempt.objects.select_related("solve").filter(user=user, daily=daily).first()
    if attempt is None:
        attempt, _ = Attempt.objects.get_or_create(
            user=user, daily=daily, defaults={"last_beat_at": timezone.now()}
        )
    attempt.daily = daily  # already loaded, with its puzzle
    return attempt


# What attempt_state reads of an attempt (and of its solve), in the models' field order.
_READ_ATTEMPT = ("id", "user_id", "daily_id", "digits", "corner", "centre", "version", "active_seconds",
                 "hint_stage", "hint_position")
_READ_SOLVE = ("id", "attempt_id", "seconds")


@functools.cache
def _read_query() -> tuple[list, list, str]:
    """attempt_read's fields (attempt's, solve's, in model order) and its SQL, worked out once."""
    attempt_fields = [f for f in Attempt._meta.concrete_fields if f.attname in _READ_ATTEMPT]
    solve_fields = [f for f in Solve._meta.concrete_fields if f.attname in _READ_SOLVE]
    columns = [f"a.{f.column}" for f in attempt_fields] + [f"s.{f.column}" for f in solve_fields]
    sql = (
        f"SELECT {', '.join(columns)} FROM {Attempt._meta.db_table} AS a"
        f" LEFT JOIN {Solve._meta.db_table} AS s ON s.attempt_id = a.id"
        " WHERE a.user_id = %s AND a.daily_id = %s"
    )
    return attempt_fields, solve_fields, sql


def attempt_read(user, daily: DailyPuzzle) -> Attempt:
    """The player's attempt with its solve, for showing it: one plain query (started if missing).

    The board asks for this on every opening of a puzzle, and Django's ORM spent longer building
    this query than the database spent answering it (0.7 of 1.1 ms of CPU on the bench machine),
    so it is written out here. The attempt holds only what attempt_state reads, the rest
    deferred: it is for reading, never for saving (writes go through attempt_locked or one UPDATE).
    """
    attempt_fields, solve_fields, sql = _read_query()
    with connection.cursor() as cursor:
        cursor.execute(sql, [user.pk, daily.pk])
        row = cursor.fetchone()
    if row is None:
        return attempt_open(user, daily)

    def python(fields: list, values: tuple) -> list:
        # The same conversions the ORM applies (JSON text to lists, say), field by field.
        converted = []
        for field, value in zip(fields, values):
            column = field.get_col(field.model._meta.db_table)
            for convert in connection.ops.get_db_converters(column) + column.get_db_converters(connection):
                value = convert(value, column, connection)
            converted.append(value)
        return converted

    attempt = Attempt.from_db(connection.alias, [f.attname for f in attempt_fields],
                              python(attempt_fields, row[:len(attempt_fields)]))
    solve_values = row[len(attempt_fields):]
    solve = None
    if solve_values[0] is not None:
        solve = Solve.from_db(connection.alias, [f.attname for f in solve_fields], python(solve_fields, solve_values))
    Attempt.solve.related.set_cached_value(attempt, solve)
    attempt.daily = daily
    return attempt


def _advance_clock(attempt: Attempt, now: datetime.datetime) -> None:
    """Count the time since the last sign of life, unless the gap says the player was away."""
    if hasattr(attempt, "solve"):
        return
    last = attempt.last_beat_at
    if last is not None:
        gap = (now - last).total_seconds()
        if 0 < gap <= settings.HEARTBEAT_GAP_SECONDS:
            attempt.active_seconds += gap
    attempt.last_beat_at = now


# An attempt named by its id, or by its player and daily (the daily loaded with its puzzle).
AttemptRef = Union[int, tuple[Any, DailyPuzzle]]


def attempt_locked(ref: AttemptRef) -> Attempt:
    """The attempt, row-locked for this transaction, with its puzzle and its solve if any.

    By player and daily it takes one query (the daily is already loaded) and starts the
    attempt if the player never opened it.
    """
    locking = Attempt.objects.select_for_update(of=("self",))
    if isinstance(ref, int):
        return locking.select_related("daily__puzzle", "solve").get(pk=ref)
    user, daily = ref
    attempt = locking.select_related("solve").filter(user=user, daily=daily).first()
    if attempt is None:
        attempt_open(user, daily)
        attempt = locking.select_related("solve").get(user=user, daily=daily)
    attempt.daily = daily
    return attempt


PROGRESS_FIELDS = ["digits", "corner", "centre", "version", "active_seconds", "last_beat_at", "updated_at"]


@dataclass(frozen=True)
class Saved:
    """What a save or a heartbeat tells the board: the new version and the time counted."""

    version: int
    active_seconds: float


def attempt_beat(ref: AttemptRef) -> Saved:
    """A heartbeat from a visible, unpaused page: advance the server's clock."""
    if isinstance(ref, tuple) and connection.vendor == "postgresql":
        saved = _write_in_one_statement(ref, None, None)
        if saved is not None:
            return saved
    with transaction.atomic():
        attempt = attempt_locked(ref)
        _advance_clock(attempt, timezone.now())
        attempt.save(update_fields=["active_seconds", "last_beat_at", "updated_at"])
        return Saved(attempt.version, attempt.active_seconds)


def attempt_save(ref: AttemptRef, *, version: int, digits: object, corner: object, centre: object) -> Saved:
    """Store a player's position if it was made on the newest version; raise StaleSave if not."""
    if isinstance(ref, tuple) and connection.vendor == "postgresql":
        # A malformed position is refused as such, whichever version it claims to follow.
        clean = progress_clean(ref[1].puzzle.givens, digits, corner, centre)
        saved = _write_in_one_statement(ref, version, clean)
        if saved is not None:
            return saved
        # Not applied: a stale version, a solved or a never-opened attempt. The careful path
        # below finds out which and answers accordingly.
    with transaction.atomic():
        attempt = attempt_locked(ref)
        if hasattr(attempt, "solve"):
            raise AlreadySolved()
        clean = progress_clean(attempt.daily.puzzle.givens, digits, corner, centre)
        if version != attempt.version:
            raise StaleSave(attempt)
        attempt.digits, attempt.corner, attempt.centre = clean
        attempt.version += 1
        _advance_clock(attempt, timezone.now())
        attempt.save(update_fields=PROGRESS_FIELDS)
        return Saved(attempt.version, attempt.active_seconds)


def _write_in_one_statement(
    ref: tuple[Any, DailyPuzzle], version: Optional[int], clean: Optional[tuple[str, list[str], list[str]]]
) -> Optional[Saved]:
    """PostgreSQL: a save (or, without a position, a heartbeat) as one conditional UPDATE.

    The row changes only if it exists, is unsolved and (for a save) is still at `version`; the
    clock advances exactly as _advance_clock does. One statement is its own transaction, so a
    save costs one round trip instead of four. None when nothing matched: the caller then takes
    the locking path, which explains why (stale, solved, or not opened yet). A concurrent submit
    holds the row lock and bumps the version, so a save racing it matches nothing.
    """
    user, daily = ref
    attempt_table, solve_table = Attempt._meta.db_table, Solve._meta.db_table
    params: dict[str, Any] = {
        "user": user.pk, "daily": daily.pk, "now": timezone.now(),
        "gap": float(settings.HEARTBEAT_GAP_SECONDS),
    }
    position = ""
    if clean is not None:
        digits, corner, centre = clean
        position = "digits = %(digits)s, corner = %(corner)s::jsonb, centre = %(centre)s::jsonb, version = a.version + 1,"
        params.update(digits=digits, corner=json.dumps(corner), centre=json.dumps(centre), version=version)
    sql = f"""
        UPDATE {attempt_table} AS a SET {position}
            active_seconds = a.active_seconds + CASE
                WHEN a.last_beat_at < %(now)s AND %(now)s - a.last_beat_at <= make_interval(secs => %(gap)s)
                THEN EXTRACT(EPOCH FROM %(now)s - a.last_beat_at) ELSE 0 END,
            last_beat_at = %(now)s, updated_at = %(now)s
        WHERE a.user_id = %(user)s AND a.daily_id = %(daily)s
            {"AND a.version = %(version)s" if clean is not None else ""}
            AND NOT EXISTS (SELECT 1 FROM {solve_table} AS s WHERE s.attempt_id = a.id)
        RETURNING a.version, a.active_seconds
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return Saved(row[0], float(row[1])) if row else None


@dataclass
class SubmitResult:
    solved: bool
    attempt: Attempt
    message: str = ""
    solve: Optional[Solve] = None


def attempt_submit(ref: AttemptRef, *, version: int, digits: object) -> SubmitResult:
    """Check a full grid against the rules and the givens; record the solve once."""
    with transaction.atomic():
        attempt = attempt_locked(ref)
        existing = getattr(attempt, "solve", None)
        if existing:
            return SubmitResult(True, attempt, solve=existing)
        givens = attempt.daily.puzzle.givens
        clean, _, _ = progress_clean(givens, digits, attempt.corner, attempt.centre)
        if version != attempt.version:
            raise StaleSave(attempt)
        board = [int(g) if g != "0" else int(d) for g, d in zip(givens, clean)]
        attempt.digits = clean
        attempt.version += 1
        now = timezone.now()
        _advance_clock(attempt, now)
        if 0 in board:
            message = "Not quite: some cells are still empty."
        elif engine.grid.conflicts(board):
            message = "Not quite: a digit appears twice in a row, column or box."
        else:
            message = ""
        if message:
            attempt.wrong_submissions += 1
            attempt.save()
            return SubmitResult(False, attempt, message=message)
        attempt.save()
        daily = attempt.daily
        floor = settings.LEADERBOARD_FLOOR_SECONDS.get(daily.difficulty, 0)
        solve = Solve.objects.create(
            attempt=attempt, user_id=attempt.user_id, daily_id=attempt.daily_id,
            seconds=attempt.active_seconds, solved_at=now,
            # A day's puzzle solved on a later day (in the site's zone) comes from the archive.
            late=timezone.localdate(now) != daily.date,
            hinted=attempt.hints_used > 0,
            flagged=attempt.active_seconds < floor,
        )
        return SubmitResult(True, attempt, solve=solve)


def _hint_stage(attempt: Attempt) -> int:
    from .hints import position_key  # hints builds on this module

    if not attempt.hint_stage or attempt.hint_position != position_key(attempt.digits, attempt.centre):
        return 0
    return attempt.hint_stage


def attempt_state(attempt: Optional[Attempt], daily: DailyPuzzle) -> dict:
    """What the board page needs to show a player's position; never the solution."""
    solve = getattr(attempt, "solve", None) if attempt else None
    return {
        "givens": daily.puzzle.givens,
        "digits": attempt.digits if attempt else "0" * 81,
        "corner": attempt.corner if attempt else [""] * 81,
        "centre": attempt.centre if attempt else [""] * 81,
        "version": attempt.version if attempt else 0,
        "elapsed": round(attempt.active_seconds, 1) if attempt else 0,
        "solved": solve is not None,
        "solve_seconds": round(solve.seconds, 1) if solve else None,
        "paused": False,
        # How far the hint for the stored position has been revealed (0: none, or it moved on).
        "hint_stage": _hint_stage(attempt) if attempt and not solve else 0,
    }
