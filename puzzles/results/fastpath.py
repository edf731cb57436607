"""The results' hot reads written out in SQL, each beside the ORM rule it mirrors: the home
page's read of a player's attempts at today's and yesterday's dailies (attempts_written_out, of
attempts_shown), and the results page's read of a solve, the player's recent solves and the day's
board's fingerprint (solve_read, of solve_read_orm). Both are spelled once per process from the
models' tables and columns (`_meta`), and their rows made into the instances the ORM would have
made (its converters applied, the relations it would have loaded cached, a missing one as
missing): the ORM spent more CPU building these queries and their instances than PostgreSQL spent
answering them. tests/test_home.py and tests/test_results_read.py hold each to its twin.
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

from ..models import Attempt, DailyPuzzle, PlayerRating, Solve, SolveReview
from .history import ONE_DAY, recent_solve_ids
from .leaderboard import NO_DAILY, Fingerprint, fingerprint_of, fingerprint_sql

# A column's value as the ORM hands it over (the database's converters, then the field's).
Converter = Callable[[Any], Any]
# A parameter of a query: its name, given by the caller, or "" and its own value.
Param = tuple[str, Any]


# --- turning rows into instances --------------------------------------------------------------------


def _field(model: type[Model], name: str) -> Field:
    field = model._meta.get_field(name)
    assert isinstance(field, Field)  # every field named here is concrete
    return field


@functools.cache
def _loaded(model: type[Model], names: tuple[str, ...] | None = None) -> tuple[Field, ...]:
    """The model's concrete fields (those among `names` and its primary key, if named), in the
    model's own order: the order Model.from_db takes values in. Worked out once per process."""
    if names is None:
        return tuple(model._meta.concrete_fields)
    wanted = {_field(model, name).name for name in names} | {model._meta.pk.name}
    return tuple(field for field in model._meta.concrete_fields if field.name in wanted)


@functools.cache
def _attnames(model: type[Model], names: tuple[str, ...] | None = None) -> tuple[str, ...]:
    return tuple(f.attname for f in _loaded(model, names))


@functools.cache
def _converters(model: type[Model], names: tuple[str, ...] | None = None) -> tuple[Converter | None, ...]:
    """Each loaded field's conversion from the database's value, as the ORM's compiler applies it,
    or None for a field the database hands over as the ORM keeps it (most, on PostgreSQL)."""
    found: list[Converter | None] = []
    for field in _loaded(model, names):
        col = field.get_col(model._meta.db_table)
        steps = [*connection.ops.get_db_converters(col), *col.get_db_converters(connection)]
        found.append(functools.partial(_convert, tuple(steps), col) if steps else None)
    return tuple(found)


def _convert(steps: Sequence[Callable[..., Any]], col: Any, value: Any) -> Any:
    for step in steps:
        value = step(value, col, connection)
    return value


def _made(model: type[Model], values: Sequence[Any], names: tuple[str, ...] | None = None) -> Any:
    """An instance of `model` from its loaded fields' raw values, as the ORM would load it."""
    converted = [v if convert is None else convert(v) for convert, v in zip(_converters(model, names), values)]
    return model.from_db(connection.alias, _attnames(model, names), converted)


# --- the home page: a player's attempts at a few dailies -----------------------------------------------

# What the cards and yesterday's results read of an attempt, and of its solve.
ATTEMPT_SHOWN = ("daily", "digits", "active_seconds")
SOLVE_SHOWN = ("attempt", "seconds", "assisted", "late")


def attempts_shown(user_id: int, daily_ids: Sequence[int]) -> dict[int, Attempt]:
    """The player's attempts at those dailies by daily id, each with its solve if any: the ORM's
    query, only the fields shown."""
    shown = ("daily_id", *ATTEMPT_SHOWN[1:], *(f"solve__{n}" for n in SOLVE_SHOWN[1:]))
    mine = Attempt.objects.filter(user_id=user_id, daily_id__in=daily_ids).select_related("solve").only(*shown)
    return {a.daily_id: a for a in mine}


@functools.cache
def _attempts_query(dailies: int) -> str:
    """attempts_shown's query for that many dailies, written out once per process."""
    a, s = Attempt._meta, Solve._meta
    columns = [f"a.{f.column}" for f in _loaded(Attempt, ATTEMPT_SHOWN)]
    columns += [f"s.{f.column}" for f in _loaded(Solve, SOLVE_SHOWN)]
    user, daily, solved = _field(Attempt, "user"), _field(Attempt, "daily"), _field(Solve, "attempt")
    return (
        f"SELECT {', '.join(columns)} FROM {a.db_table} AS a"
        f" LEFT JOIN {s.db_table} AS s ON s.{solved.column} = a.{a.pk.column}"
        f" WHERE a.{user.column} = %s AND a.{daily.column} IN ({', '.join(['%s'] * dailies)})"
    )


def attempts_written_out(user_id: int, daily_ids: Sequence[int]) -> dict[int, Attempt]:
    """attempts_shown's answer from one written-out query: the same attempts, each with its solve
    (or the knowledge that it has none, so asking costs no query), the same fields loaded."""
    if not daily_ids:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(_attempts_query(len(daily_ids)), [user_id, *daily_ids])
        rows = cursor.fetchall()
    cut = len(_loaded(Attempt, ATTEMPT_SHOWN))
    found = {}
    for row in rows:
        attempt = _made(Attempt, row[:cut], ATTEMPT_SHOWN)
        solve = None
        if row[cut] is not None:
            solve = _made(Solve, row[cut:], SOLVE_SHOWN)
            Solve.attempt.field.set_cached_value(solve, attempt)
        Attempt.solve.related.set_cached_value(attempt, solve)
        found[attempt.daily_id] = attempt
    return found


# --- the results page: a solve, the player's recent solves, the day's board's fingerprint ----------


# What the page reads of the solve's review: what names it (results/review_part.py), not its
# content, which is drawn once and kept; a page that must draw it loads the rest.
REVIEW_KEY = ("version", "made_at")
# What the page reads of the attempt: the digits, for the drawing of the player's grid.
ATTEMPT_DRAWN = ("digits",)
# What the page reads of the player's rating: whether it is still new (ranking.is_provisional),
# for the "new" mark on the player's own row when it is below the top.
RATING_READ = ("solves", "on_day_solves", "on_days", "deviation")


@dataclass(frozen=True)
class Read:
    """What the results page reads: the player's solve of the daily (with its review, and its
    attempt if asked) or None, the ids of their solves of today's and yesterday's dailies in
    order, the fingerprint of the daily's ranked solves (leaderboard.fingerprint_of), and the
    player's rating (RATING_READ of it) or None while they have none."""

    solve: Solve | None
    recent: list[int]
    fingerprint: Fingerprint
    rating: PlayerRating | None = None


def solve_read_orm(user: User, daily: DailyPuzzle, today: datetime.date, attempt: bool) -> Read:
    """The results page's read through the ORM, in four queries."""
    mine = Solve.objects.select_related("annotated", *(("attempt",) if attempt else ()))
    kept = {f.name for f in _loaded(SolveReview, REVIEW_KEY)}
    mine = mine.defer(*(f"annotated__{f.name}" for f in _loaded(SolveReview) if f.name not in kept))
    if attempt:
        kept = {f.name for f in _loaded(Attempt, ATTEMPT_DRAWN)}
        mine = mine.defer(*(f"attempt__{f.name}" for f in _loaded(Attempt) if f.name not in kept))
    solve = mine.filter(user=user, daily=daily).first()
    rating = PlayerRating.objects.filter(user=user).only(*RATING_READ).first()
    return Read(solve, sorted(recent_solve_ids(user, today)), fingerprint_of(daily), rating)


@functools.cache
def _solve_query(attempt: bool) -> tuple[str, tuple[Param, ...]]:
    """solve_read's query, written out once per process (with the attempt's columns or not), and
    its parameters in order: each named (given by the caller) or a value of its own. One row, the
    solve's, or none: the recent solves' ids come in one column of it, so only that solve's columns
    are read and decoded. Its text depends on the database's vendor (an array on PostgreSQL, a list
    of text on SQLite): a process has one database, so kept per process it is always its own."""
    s, r, a, d = Solve._meta, SolveReview._meta, Attempt._meta, DailyPuzzle._meta
    mine, daily_of = _field(Solve, "user").column, _field(Solve, "daily").column
    columns = [f"s.{f.column}" for f in _loaded(Solve)] + [f"r.{f.column}" for f in _loaded(SolveReview, REVIEW_KEY)]
    joins = f" LEFT JOIN {r.db_table} AS r ON r.{_field(SolveReview, 'solve').column} = s.{s.pk.column}"
    if attempt:
        columns += [f"a.{f.column}" for f in _loaded(Attempt, ATTEMPT_DRAWN)]
        joins += f" LEFT JOIN {a.db_table} AS a ON a.{a.pk.column} = s.{_field(Solve, 'attempt').column}"
    p = PlayerRating._meta
    columns += [f"p.{f.column}" for f in _loaded(PlayerRating, RATING_READ)]
    joins += f" LEFT JOIN {p.db_table} AS p ON p.{p.pk.column} = s.{mine}"
    # The ids of the player's solves of today's and yesterday's dailies (history.recent_solve_ids).
    date = _field(DailyPuzzle, "date").column
    recent = (
        f"SELECT o.{s.pk.column} AS id FROM {s.db_table} AS o JOIN {d.db_table} AS od"
        f" ON od.{d.pk.column} = o.{daily_of} WHERE o.{mine} = %s AND od.{date} BETWEEN %s AND %s"
    )
    if connection.vendor == "postgresql":
        columns.append(f"ARRAY({recent})")
    else:  # SQLite: the ids as text, "3,7,12"
        columns.append(f"(SELECT group_concat(id) FROM ({recent}))")
    names: tuple[Param, ...] = (("user", None), ("yesterday", None), ("today", None))
    # The fingerprint's own query (one row, or none without ranked solves), on the solve's row.
    fingerprint, params = fingerprint_sql()
    columns += ["f.n", "f.ids", "f.users", "f.names"]
    joins += f" LEFT JOIN ({fingerprint}) AS f ON 1 = 1"
    names += tuple(("daily", None) if p == NO_DAILY else ("", p) for p in params)
    sql = f"SELECT {', '.join(columns)} FROM {s.db_table} AS s{joins} WHERE s.{mine} = %s AND s.{daily_of} = %s"
    return sql, (*names, ("user", None), ("daily", None))


def solve_read(user: User, daily: DailyPuzzle, today: datetime.date, attempt: bool) -> Read:
    """solve_read_orm's answer in one written-out query: the solve with its review cached (None if
    it has none, so asking costs no query) and its attempt if asked; the recent solves' ids; the
    fingerprint and the player's rating, read with them. A player with no solve of the daily is
    shown nothing, and is given no recent solves, fingerprint nor rating."""
    sql, names = _solve_query(attempt)
    known: dict[str, Any] = {"user": user.pk, "daily": daily.pk, "today": today, "yesterday": today - ONE_DAY}
    with connection.cursor() as cursor:
        cursor.execute(sql, [known[name] if name else value for name, value in names])
        row = cursor.fetchone()
    if row is None:
        return Read(None, [], (0, None, None, None))
    solves, reviews = len(_loaded(Solve)), len(_loaded(SolveReview, REVIEW_KEY))
    ratings = len(_loaded(PlayerRating, RATING_READ))
    solve = _made(Solve, row[:solves])
    review = row[solves : solves + reviews]
    Solve.annotated.related.set_cached_value(
        solve, None if review[0] is None else _made(SolveReview, review, REVIEW_KEY)
    )
    if attempt:
        Solve.attempt.field.set_cached_value(solve, _made(Attempt, row[solves + reviews : -5 - ratings], ATTEMPT_DRAWN))
    rated = row[-5 - ratings : -5]
    rating = None if all(value is None for value in rated) else _made(PlayerRating, rated, RATING_READ)
    recent, n, ids, users, names = row[-5:]
    if isinstance(recent, str):  # SQLite's text
        recent = [int(pk) for pk in recent.split(",")]
    fingerprint: Fingerprint = (n, ids, users, names) if n is not None else (0, None, None, None)
    return Read(solve, sorted(recent or []), fingerprint, rating)
