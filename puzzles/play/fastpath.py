"""The attempt's hot paths written out in SQL, beside the ORM rules they mirror (attempts.py).

A save, an open or a close is one statement on PostgreSQL (write_in_one_statement); opening a
puzzle reads the attempt in one written-out query on every database (attempt_row). Both are
spelled from the models' tables and columns (`_meta`), never from hand-typed names, and tests hold
each to its ORM twin in every state of an attempt (tests/test_attempts.py). Why each exists, and
what it saves, is in docs/architecture.md and measured by bench/web.py.
"""

from __future__ import annotations

import datetime
import functools
import json
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Field, Model
from django.utils import timezone

from ..fairplay.ranking import CHECKING
from ..models import Attempt, PlayEvent, Solve
from ..record_of_play.moves import Move, pack
from .positions import Position

# The attempt's fields that the board's read shows (attempts.Shown, in its order); the solve's
# seconds come after them.
SHOWN_FIELDS = (
    *("digits", "corner", "centre", "colours", "version", "saved_at", "last_beat_at"),
    *("active_seconds", "hint_stage", "hint_position", "checks_used", "hints_used"),
)


def column(model: type[Model], name: str) -> str:
    """The database column of a model's field."""
    field = model._meta.get_field(name)
    assert isinstance(field, Field)  # every field named here is concrete (a relation's reverse has no column)
    return field.column


@functools.cache
def _write_columns() -> dict[str, str]:
    names: tuple[str, ...] = ("id", "user", "daily", "digits", "corner", "centre", "colours", "version", "saved_at")
    names += ("active_seconds", "last_beat_at", "updated_at", "moves_logged")
    return {name: column(Attempt, name) for name in names}


def write_in_one_statement(
    user_id: int,
    daily_id: int,
    version: int | None,
    clean: Position | None,
    *,
    kind: str | None,
    moves: Sequence[Move] = (),
) -> tuple[int, float] | None:
    """PostgreSQL: a save (with `clean`) or a heartbeat (without) as one statement, a conditional
    UPDATE and, when `kind` names the event to log, the INSERT of that event; (version, seconds).

    The row changes only if it exists, is unsolved and (for a save) is still at `version` with
    room for its moves, and (when it logs an event) while its record of play has room for one more
    (record_of_play/events.py: the minute's bound and the attempt's); the clock advances exactly as
    attempts._advance_clock does (the gap since the last sign of life counts, up to the limit),
    and the event is the one record_of_play.events.play_log writes. One statement is its own
    transaction, so a save costs one round trip instead of five; the event is written with the
    update or not at all. None when nothing matched, or on another database: the caller then takes
    the locking path, which explains why (stale, full, too fast, solved, or not opened yet). A
    concurrent submit holds the row lock and bumps the version, so a save racing it matches nothing.
    """
    written = _one_statement(user_id, daily_id, version, clean, kind=kind, moves=moves)
    return (written[0], float(written[1])) if written else None


# What a submit's statement returns after the version and the clock: the rest of what the board
# shows (attempts.Shown, less the digits, which the submit sent) and the solve's id.
SUBMIT_RETURNS = (
    *("corner", "centre", "colours", "saved_at"),
    *("hint_stage", "hint_position", "checks_used", "hints_used"),
)


def submit_in_one_statement(
    user_id: int, daily_id: int, version: int, digits: str, *, late: bool, moves: Sequence[Move] = ()
) -> tuple[Any, ...] | None:
    """PostgreSQL: a right submit as one statement: the save's conditional UPDATE of the digits
    and the clock, the INSERT of its "submit" event and the INSERT of the solve, being checked
    (fairplay/judge.py judges it after the answer), as attempts.attempt_submit's locking path
    records them; the row is decided as a save's is, and the attempt's bound on events does not
    apply to a submit. (version, seconds, *SUBMIT_RETURNS, solve id), or None when nothing matched
    or on another database (the locking path then says why)."""
    row = _one_statement(user_id, daily_id, version, digits, kind="submit", moves=moves, late=late)
    if row is None:
        return None
    version, seconds, corner, centre, colours, saved_at, *rest = row
    return (version, float(seconds), _notes(corner), _notes(centre), _notes(colours), _moment(saved_at), *rest)


def _solve_insert() -> str:
    """The end of a submit's statement: the solve, as attempts.attempt_submit's locking path
    creates it (being checked, with help, a hint or a check, as the attempt counts it, and its
    other columns at their defaults, given as parameters), and the answer's row."""
    columns, _ = _solve_columns()
    named = ("attempt", "user", "daily", "seconds", "solved_at", "late", "assisted", "unranked")
    return f""", solved AS (
            INSERT INTO {Solve._meta.db_table} ({", ".join([*(column(Solve, name) for name in named), *columns])})
            SELECT w.id, %(user)s, %(daily)s, w.active_seconds, %(now)s, %(late)s,
                w.hints_used > 0 OR w.checks_used > 0, %(checking)s
                {"".join(f", %(default{i})s" for i in range(len(columns)))}
            FROM w RETURNING {column(Solve, "id")} AS id
        )
        SELECT w.version, w.active_seconds, {", ".join(f"w.{name}" for name in SUBMIT_RETURNS)}, solved.id
        FROM w, solved"""


@functools.cache
def _solve_columns() -> tuple[list[str], list[Any]]:
    """The solve's columns that a submit's statement leaves at their defaults, and those defaults
    as the database stores them (any field added later is filled as the ORM would)."""
    named = {"id", "attempt", "user", "daily", "seconds", "solved_at", "late", "assisted", "unranked"}
    fields = [f for f in Solve._meta.concrete_fields if f.name not in named]
    return [f.column for f in fields], [f.get_db_prep_save(f.get_default(), connection) for f in fields]


def _one_statement(
    user_id: int,
    daily_id: int,
    version: int | None,
    clean: Position | str | None,
    *,
    kind: str | None,
    moves: Sequence[Move] = (),
    late: bool | None = None,
) -> tuple[Any, ...] | None:
    """The statement of write_in_one_statement, or with `late` given (and `clean` the digits) of
    submit_in_one_statement; its row, or None."""
    if connection.vendor != "postgresql":
        return None
    now = timezone.now()
    params: dict[str, Any] = {
        "user": user_id,
        "daily": daily_id,
        "now": now,
        "gap": float(settings.HEARTBEAT_GAP_SECONDS),
        "kind": kind,
        "moves": pack(moves),
    }
    writes = ""
    if clean is not None:
        digits = clean if isinstance(clean, str) else clean[0]
        writes = "digits"
        if not isinstance(clean, str):  # a save writes the notes and colours; a submit leaves them
            _, corner, centre, colours = clean
            writes = "position"
            params.update(corner=json.dumps(corner), centre=json.dumps(centre), colours=json.dumps(colours))
        params.update(
            digits=digits,
            version=version,
            count=len(moves),
            limit=settings.PLAY_MOVES_PER_ATTEMPT,
            filled=[cell + 1 for cell, digit in enumerate(digits) if digit != "0"],  # substr counts from 1
        )
    if kind is not None:
        params.update(
            since=now - datetime.timedelta(minutes=1),
            per_minute=settings.PLAY_EVENTS_PER_MINUTE,
            per_attempt=settings.PLAY_EVENTS_PER_ATTEMPT,
        )
    if late is not None:
        params.update(late=late, checking=CHECKING, **{f"default{i}": v for i, v in enumerate(_solve_columns()[1])})
    event = "" if kind is None else "submit" if kind == "submit" else "play"
    with connection.cursor() as cursor:
        cursor.execute(_statement(writes, bool(moves), event, late is not None), params)
        return cursor.fetchone()


@functools.cache
def _statement(writes: str, moves: bool, event: str, solving: bool) -> str:
    """_one_statement's SQL for its shape, written out from the models' tables and columns once
    per process: `writes` "" (a heartbeat), "digits" (a submit's) or "position" (a save's, notes
    and colours too); `moves` whether the write carries moves (their bound); `event` "" (none),
    "submit" or "play" (another kind, under the attempt's bound too); `solving`: a submit's solve."""
    c = _write_columns()
    names = ("attempt", "kind", "arrived_at", "moves", "placed", "digits", "clock")
    event_columns = [column(PlayEvent, name) for name in names]
    attempt_table, solve_table, event_table = Attempt._meta.db_table, Solve._meta.db_table, PlayEvent._meta.db_table
    position, source, placed = "", "", "0"
    target = f"a.{c['user']} = %(user)s AND a.{c['daily']} = %(daily)s"
    if writes:
        position = f"""{c["digits"]} = %(digits)s, {c["version"]} = a.{c["version"]} + 1, {c["saved_at"]} = %(now)s,
            {c["moves_logged"]} = a.{c["moves_logged"]} + %(count)s,"""
        if writes == "position":
            position += f"""{c["corner"]} = %(corner)s::jsonb, {c["centre"]} = %(centre)s::jsonb,
                {c["colours"]} = %(colours)s::jsonb,"""
        # The digits before the save, for its event's count of the cells it filled; read under
        # the row's lock, so that no other write comes between them and the update.
        source = f"""FROM (SELECT {c["id"]}, {c["digits"]} FROM {attempt_table}
            WHERE {c["user"]} = %(user)s AND {c["daily"]} = %(daily)s FOR UPDATE) AS b"""
        target += f" AND a.{c['id']} = b.{c['id']} AND a.{c['version']} = %(version)s"
        if moves:
            target += f" AND a.{c['moves_logged']} + %(count)s <= %(limit)s"
        placed = "(SELECT count(*) FROM unnest(%(filled)s::int[]) AS cell WHERE substr(w.before, cell, 1) = '0')"
    if event:
        # The record of play's bound on events (record_of_play/events.py), the submit aside from
        # the attempt's: the counts that events.ensure_room_for_event reads, here under the lock.
        arrived, attempt_column = column(PlayEvent, "arrived_at"), column(PlayEvent, "attempt")
        whole = "" if event == "submit" else " AND count(*) < %(per_attempt)s"
        target += f""" AND (SELECT count(*) FILTER (WHERE e.{arrived} > %(since)s) < %(per_minute)s{whole}
            FROM {event_table} AS e WHERE e.{attempt_column} = a.{c["id"]})"""
    active, beat = c["active_seconds"], c["last_beat_at"]
    returned = ", ".join(f"a.{column(Attempt, name)} AS {name}" for name in SUBMIT_RETURNS)
    sql = f"""
        UPDATE {attempt_table} AS a SET {position}
            {active} = a.{active} + CASE
                WHEN a.{beat} < %(now)s
                THEN LEAST(EXTRACT(EPOCH FROM %(now)s - a.{beat}), %(gap)s) ELSE 0 END,
            {beat} = %(now)s, {c["updated_at"]} = %(now)s
        {source}
        WHERE {target}
            AND NOT EXISTS (SELECT 1 FROM {solve_table} AS s WHERE s.{column(Solve, "attempt")} = a.{c["id"]})
        RETURNING a.{c["version"]} AS version, a.{active} AS active_seconds, a.{c["id"]} AS id,
            a.{c["digits"]} AS digits{f", b.{c['digits']} AS before" if writes else ""}
            {f", {returned}" if solving else ""}
    """
    if event:
        answer = _solve_insert() if solving else "SELECT w.version, w.active_seconds FROM w"
        sql = f"""
            WITH w AS ({sql}), logged AS (
                INSERT INTO {event_table}
                    ({", ".join(event_columns)})
                SELECT w.id, %(kind)s, %(now)s, %(moves)s, {placed}, w.digits, w.active_seconds FROM w
            )
            {answer}
        """
    return sql


@functools.cache
def _read_sql() -> str:
    """attempt_row's query, written out from the models' tables and columns once per process."""
    a, s = Attempt._meta, Solve._meta
    columns = [f"a.{column(Attempt, name)}" for name in SHOWN_FIELDS] + [f"s.{column(Solve, 'seconds')}"]
    return (
        f"SELECT {', '.join(columns)} FROM {a.db_table} AS a"
        f" LEFT JOIN {s.db_table} AS s ON s.{column(Solve, 'attempt')} = a.{a.pk.column}"
        f" WHERE a.{column(Attempt, 'user')} = %s AND a.{column(Attempt, 'daily')} = %s"
    )


def _notes(value: object) -> list[str]:
    # PostgreSQL's driver may hand JSON over decoded; SQLite hands over its text.
    return value if isinstance(value, list) else json.loads(str(value))


def _moment(value: object) -> datetime.datetime | None:
    # SQLite's adapter hands over the stored UTC time without its zone (the ORM adds it).
    if isinstance(value, datetime.datetime) and timezone.is_naive(value):
        return timezone.make_aware(value, datetime.UTC)
    assert value is None or isinstance(value, datetime.datetime)  # with its zone
    return value


def attempt_row(user_id: int, daily_id: int) -> tuple[Any, ...] | None:
    """The attempt's SHOWN_FIELDS and its solve's seconds (None if unsolved), decoded as the ORM
    would; None if the player has not started. The ORM's query cost more CPU than the database's
    answer on the route every opening of a puzzle takes (bench/web.py measures it)."""
    with connection.cursor() as cursor:
        cursor.execute(_read_sql(), [user_id, daily_id])
        row = cursor.fetchone()
    if row is None:
        return None
    digits, corner, centre, colours, version, saved_at, last_beat_at, *rest = row
    notes = (_notes(corner), _notes(centre), _notes(colours))
    return (digits, *notes, version, _moment(saved_at), _moment(last_beat_at), *rest)
