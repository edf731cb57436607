"""The results page's read: the player's solve of a daily with its review (and its attempt, for
the page's drawing), and the ids of their solves of today's and yesterday's dailies (the share's
streak is kept under them, history.streaks_key).

Two ways to the same answer: `solve_read_orm`, the rules through the ORM (two queries), and
`solve_read`, the same in one written-out query spelled once from the models' tables and columns
(`_meta`), its rows made into the instances the ORM would have made, which the results page uses.
The player's solves are few (one a daily); the review and the attempt are joined to the row of
this daily's solve alone. tests/test_results_read.py holds the two to the same answer.
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Callable, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Field, Model

from ..models import Attempt, DailyPuzzle, Solve, SolveReview
from .history import ONE_DAY, recent_solve_ids

# A column's value as the ORM hands it over (the database's converters, then the field's).
Converter = Callable[[Any], Any]


def solve_read_orm(
    user: User, daily: DailyPuzzle, today: datetime.date, attempt: bool
) -> tuple[Solve | None, list[int]]:
    """The player's solve of `daily` with its review (and its attempt if asked), or None; and the
    ids of their solves of `today`'s and the day before's dailies, in order."""
    mine = Solve.objects.select_related("annotated", *(("attempt",) if attempt else ()))
    solve = mine.filter(user=user, daily=daily).first()
    return solve, sorted(recent_solve_ids(user, today))


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
def _query(attempt: bool) -> str:
    """solve_read's query, written out once per process (with the attempt's columns or not)."""
    s, r, a, d = Solve._meta, SolveReview._meta, Attempt._meta, DailyPuzzle._meta
    mine, daily_of = _field(Solve, "user").column, _field(Solve, "daily").column
    columns = [f"s.{f.column}" for f in _columns(Solve)] + [f"r.{f.column}" for f in _columns(SolveReview)]
    joins = (
        f" JOIN {d.db_table} AS d ON d.{d.pk.column} = s.{daily_of}"
        f" LEFT JOIN {r.db_table} AS r ON r.{_field(SolveReview, 'solve').column} = s.{s.pk.column}"
        f" AND s.{daily_of} = %(daily)s"
    )
    if attempt:
        columns += [f"a.{f.column}" for f in _columns(Attempt)]
        joins += (
            f" LEFT JOIN {a.db_table} AS a ON a.{a.pk.column} = s.{_field(Solve, 'attempt').column}"
            f" AND s.{daily_of} = %(daily)s"
        )
    date = _field(DailyPuzzle, "date").column
    return (
        f"SELECT {', '.join(columns)} FROM {s.db_table} AS s{joins}"
        f" WHERE s.{mine} = %(user)s"
        f" AND (s.{daily_of} = %(daily)s OR d.{date} BETWEEN %(yesterday)s AND %(today)s)"
    )


def _made(model: type[Model], values: Sequence[Any]) -> Any:
    """An instance of `model` from its concrete fields' raw values, as the ORM would load it."""
    names = [f.attname for f in _columns(model)]
    return model.from_db(connection.alias, names, [convert(v) for convert, v in zip(_converters(model), values)])


def solve_read(user: User, daily: DailyPuzzle, today: datetime.date, attempt: bool) -> tuple[Solve | None, list[int]]:
    """solve_read_orm's answer in one written-out query: the solve with its review cached (None if
    it has none, so asking costs no query) and its attempt if asked; the recent solves' ids."""
    params: dict[str, int | datetime.date] = {
        "user": user.pk,
        "daily": daily.pk,
        "today": today,
        "yesterday": today - ONE_DAY,
    }
    with connection.cursor() as cursor:
        cursor.execute(_query(attempt), params)
        rows = cursor.fetchall()
    solves, reviews = len(_columns(Solve)), len(_columns(SolveReview))
    solve, recent = None, []
    for row in rows:
        found: Solve = _made(Solve, row[:solves])
        if found.daily_id == daily.pk:
            solve = found
            review = row[solves : solves + reviews]
            Solve.annotated.related.set_cached_value(solve, None if review[0] is None else _made(SolveReview, review))
            if attempt:
                Solve.attempt.field.set_cached_value(solve, _made(Attempt, row[solves + reviews :]))
        if _recent(found, daily, today):
            recent.append(found.pk)
    return solve, sorted(recent)


def _recent(solve: Solve, daily: DailyPuzzle, today: datetime.date) -> bool:
    return solve.daily_id != daily.pk or today - ONE_DAY <= daily.date <= today
