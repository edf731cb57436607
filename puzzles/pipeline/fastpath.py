"""The pipeline's hot path written out in SQL, beside the ORM rule it mirrors (pools.py): on
PostgreSQL a seed batch claims a unit of its count and inserts its puzzle in one statement.

The statement is spelled from the models' tables and columns (`_meta`), so a field added to Puzzle
is written here too; a test holds it to the ORM path.
"""

from __future__ import annotations

import contextlib
import logging

from django.db import IntegrityError, connection, transaction

from ..models import Puzzle, SeedBatch

log = logging.getLogger("puzzles.pipeline")


def store_for_batch_in_one_statement(row: Puzzle, batch_id: int) -> Puzzle | None:
    """PostgreSQL: claim a unit of the batch and insert the puzzle in a single statement.

    The same rule as the ORM path, pools._store_with_orm (no claim, no row; a duplicate undoes the
    claim), which a test holds it to, but one
    round trip instead of four: storing was the largest part of a worker's time per puzzle
    beyond the engine's own. A single statement is its own transaction.
    """
    fields = [f for f in Puzzle._meta.concrete_fields if not f.primary_key]
    batch = SeedBatch._meta
    columns = ", ".join(f.column for f in fields)
    values = ", ".join(["%s"] * len(fields))
    made, requested = batch.get_field("made").column, batch.get_field("requested").column  # type: ignore[union-attr]
    sql = (
        f"WITH claim AS (UPDATE {batch.db_table} SET {made} = {made} + 1 "
        f"WHERE {batch.pk.column} = %s AND {made} < {requested} RETURNING {batch.pk.column}) "
        f"INSERT INTO {Puzzle._meta.db_table} ({columns}) SELECT {values} FROM claim RETURNING {Puzzle._meta.pk.column}"
    )
    params = [batch_id, *(f.get_db_prep_save(f.pre_save(row, add=True), connection) for f in fields)]
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
