"""The count a write's bound on events reads (events.ensure_room_for_event), written out in SQL
beside the ORM rule it mirrors (events.event_counts_orm).

Every save, beat and submit asks it before it writes, so it is on the hottest path there is: the
ORM's aggregate with its join and two filtered counts cost about a millisecond of the web
worker's CPU to build, some two fifths of a save's (bench/load.py, 2026-11-26); this query,
spelled once from the models' tables and columns, costs a fraction of that. Its parity with the
ORM's is held by tests/test_event_bound.py on every database the suite runs on.
"""

from __future__ import annotations

import datetime
import functools

from django.db import connection

from ..models import Attempt, PlayEvent


@functools.cache
def _sql() -> str:
    event, attempt = PlayEvent._meta, Attempt._meta
    arrived = event.get_field("arrived_at").column
    return (
        f"SELECT COUNT(*), COALESCE(SUM(CASE WHEN e.{arrived} > %s THEN 1 ELSE 0 END), 0) "
        f"FROM {event.db_table} e JOIN {attempt.db_table} a ON a.{attempt.pk.column} = e.{event.get_field('attempt').column} "
        f"WHERE a.{attempt.get_field('user').column} = %s AND a.{attempt.get_field('daily').column} = %s"
    )


def event_counts(user_id: int, daily_id: int, since: datetime.datetime) -> tuple[int, int]:
    """(all events, those that arrived after `since`) of the player's attempt at the daily."""
    with connection.cursor() as cursor:
        cursor.execute(_sql(), [connection.ops.adapt_datetimefield_value(since), user_id, daily_id])
        total, recent = cursor.fetchone()
    return int(total), int(recent)
