"""The results page's read: the player's solve of a daily with its review (and its attempt, for
the page's drawing), the ids of their solves of today's and yesterday's dailies (the share's
streak is kept under them, history.streaks_key), and the fingerprint of the day's ranked solves
(the day's board is kept under it, leaderboard.board_key).

Two ways to the same answer: `solve_read_orm`, the rules through the ORM (three queries), and
`solve_read`, the same in one written-out query spelled once from the models' tables and columns
(`_meta`), its rows made into the instances the ORM would have made, which the results page uses.
The player's solves are few (one a daily); the review and the attempt are joined to the row of
this daily's solve alone. tests/test_results_read.py holds the two to the same answer.
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Field, Model

from ..models import Attempt, DailyPuzzle, Solve, SolveReview
from .history import ONE_DAY, recent_solve_ids
from .leaderboard import NO_DAILY, Fingerprint, fingerprint_of, fingerprint_sql

# A column's value as the ORM hands it over (the database's converters, then the field's).
Converter = Callable[[Any], Any]
# A parameter of the query: its name, given by the caller, or "" and its own value.
Param = tuple[str, Any]


@dataclass(frozen=True)
class Read:
    """What the results page reads: the player's solve of the daily (with its review, and its
    attempt if asked) or None, the ids of their solves of today's and yesterday's dailies in
    order, and the fingerprint of the daily's ranked solves (leaderboard.fingerprint_of)."""

    solve: Solve | None
    recent: list[int]
    fingerprint: Fingerprint


def solve_read_orm(user: User, daily: DailyPuzzle, today: datetime.date, attempt: bool) -> Read:
    """The results page's read through the ORM, in three queries."""
    mine = Solve.objects.select_related("annotated", *(("attempt",) if attempt else ()))
    solve = mine.filter(user=user, daily=daily).first()
    return Read(solve, sorted(recent_solve_ids(user, today)), fingerprint_of(daily))


def _columns(model: type[Model]) -> list[Field]:
    return list(model._meta.concrete_fields)


@functools.cache
def _converters(model: type[Model]) -> tuple[Converter, ...]:
    """Each concrete field's conversion from the database's value, as the ORM's compiler applies it."""
    found = []
    for field in _columns(model):
        col = field.get_col(model._meta.db_table)
        steps = [*connection.ops.get_db_converters(col), *col.get_db_converters(connection)]
        found.append(functools.partial(_convert, tuple(steps), col))
    return tuple(found)


def _convert(steps: Sequence[Callable[..., Any]], col: Any, value: Any) -> Any:
    for step in steps:
        value = step(value, col, connection)
    return value


def _field(model: type[Model], name: str) -> Field:
    field = model._meta.get_field(name)
    assert isinstance(field, Field)  # every field named here is concrete
    return field


@functools.cache
def _query(attempt: bool) -> tuple[str, tuple[Param, ...]]:
    """solve_read's query, written out once per process (with the attempt's columns or not), and
    its parameters in order: each named (given by the caller) or a value of its own."""
    s, r, a, d = Solve._meta, SolveReview._meta, Attempt._meta, DailyPuzzle._meta
    mine, daily_of = _field(Solve, "user").column, _field(Solve, "daily").column
    columns = [f"s.{f.column}" for f in _columns(Solve)] + [f"r.{f.column}" for f in _columns(SolveReview)]
    joins = (
        f" JOIN {d.db_table} AS d ON d.{d.pk.column} = s.{daily_of}"
        f" LEFT JOIN {r.db_table} AS r ON r.{_field(SolveReview, 'solve').column} = s.{s.pk.column}"
        f" AND s.{daily_of} = %s"
    )
    names: tuple[Param, ...] = (("daily", None),)
    if attempt:
        columns += [f"a.{f.column}" for f in _columns(Attempt)]
        joins += (
            f" LEFT JOIN {a.db_table} AS a ON a.{a.pk.column} = s.{_field(Solve, 'attempt').column}"
            f" AND s.{daily_of} = %s"
        )
        names += (("daily", None),)
    # The fingerprint's own query (one row, or none without ranked solves), on every row.
    fingerprint, params = fingerprint_sql()
    columns += ["f.n", "f.ids", "f.users"]
    joins += f" LEFT JOIN ({fingerprint}) AS f ON 1 = 1"
    names += tuple(("daily", None) if p == NO_DAILY else ("", p) for p in params)
    date = _field(DailyPuzzle, "date").column
    sql = (
        f"SELECT {', '.join(columns)} FROM {s.db_table} AS s{joins}"
        f" WHERE s.{mine} = %s AND (s.{daily_of} = %s OR d.{date} BETWEEN %s AND %s)"
    )
    return sql, (*names, ("user", None), ("daily", None), ("yesterday", None), ("today", None))


def _made(model: type[Model], values: Sequence[Any]) -> Any:
    """An instance of `model` from its concrete fields' raw values, as the ORM would load it."""
    names = [f.attname for f in _columns(model)]
    return model.from_db(connection.alias, names, [convert(v) for convert, v in zip(_converters(model), values)])


def solve_read(user: User, daily: DailyPuzzle, today: datetime.date, attempt: bool) -> Read:
    """solve_read_orm's answer in one written-out query: the solve with its review cached (None if
    it has none, so asking costs no query) and its attempt if asked; the recent solves' ids; the
    fingerprint, read with them (a player with no solve at all is shown no board, and is given
    none)."""
    sql, names = _query(attempt)
    known: dict[str, Any] = {"user": user.pk, "daily": daily.pk, "today": today, "yesterday": today - ONE_DAY}
    with connection.cursor() as cursor:
        cursor.execute(sql, [known[name] if name else value for name, value in names])
        rows = cursor.fetchall()
    solves, reviews = len(_columns(Solve)), len(_columns(SolveReview))
    solve, recent = None, []
    fingerprint: Fingerprint = (0, None, None)
    for row in rows:
        found: Solve = _made(Solve, row[:solves])
        if found.daily_id == daily.pk:
            solve = found
            review = row[solves : solves + reviews]
            Solve.annotated.related.set_cached_value(solve, None if review[0] is None else _made(SolveReview, review))
            if attempt:
                Solve.attempt.field.set_cached_value(solve, _made(Attempt, row[solves + reviews : -3]))
        if _recent(found, daily, today):
            recent.append(found.pk)
        n, ids, users = row[-3:]
        fingerprint = (n, ids, users) if n is not None else (0, None, None)
    return Read(solve, sorted(recent), fingerprint)


def _recent(solve: Solve, daily: DailyPuzzle, today: datetime.date) -> bool:
    return solve.daily_id != daily.pk or today - ONE_DAY <= daily.date <= today
