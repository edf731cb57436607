"""Seed batches on PostgreSQL: claim a unit of the batch and insert its puzzle in one statement."""

from __future__ import annotations

import contextlib
import json
import logging

from django.db import IntegrityError, connection, transaction

from .models import Puzzle, SeedBatch

log = logging.getLogger("puzzles.pipeline")


_PUZZLE_COLUMNS = (
    "givens",
    "solution",
    "tier",
    "score",
    "hardest",
    "techniques",
    "clues",
    "filler",
    "symmetry",
    "generation_ms",
    "created",
    "used",
)


def store_for_batch_in_one_statement(row: Puzzle, batch_id: int) -> Puzzle | None:
    """PostgreSQL: claim a unit of the batch and insert the puzzle in a single statement.

    The same rule as the ORM path, pipeline._store_with_orm (no claim, no row; a duplicate undoes the
    claim), which a test holds it to, but one
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
        batch_id,
        row.givens,
        row.solution,
        row.tier,
        row.score,
        row.hardest,
        json.dumps(row.techniques),
        row.clues,
        row.filler,
        row.symmetry,
        row.generation_ms,
        row.created,
        row.used,
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
