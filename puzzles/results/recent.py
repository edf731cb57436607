"""A player's attempts at a few dailies (the home page's: today's and yesterday's), with what the
cards and yesterday's results show of each and of its solve, and nothing else.

Two ways to the same answer: `attempts_shown`, the rule through the ORM, and
`attempts_written_out`, the same query spelled once from the models' tables and columns (`_meta`)
and its rows made into the same unsaved-looking instances by hand, which the home page uses: the
ORM spent more CPU building the query and its instances than PostgreSQL spent answering it.
tests/test_home.py holds the two to the same answer.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from django.db import connection
from django.db.models import Field, Model

from ..models import Attempt, Solve

# What the cards and yesterday's results read of an attempt, and of its solve.
ATTEMPT_SHOWN = ("daily", "digits", "active_seconds")
SOLVE_SHOWN = ("seconds", "assisted", "late")


def attempts_shown(user_id: int, daily_ids: Sequence[int]) -> dict[int, Attempt]:
    """The player's attempts at those dailies by daily id, each with its solve if any: the ORM's
    query, only the fields shown."""
    shown = (*(f"{n}_id" if n == "daily" else n for n in ATTEMPT_SHOWN), *(f"solve__{n}" for n in SOLVE_SHOWN))
    mine = Attempt.objects.filter(user_id=user_id, daily_id__in=daily_ids).select_related("solve").only(*shown)
    return {a.daily_id: a for a in mine}


def _loaded(model: type[Model], names: Sequence[str]) -> list[Field]:
    """The model's concrete fields among `names` with its primary key, in the model's own order
    (the order Model.from_db takes values in)."""
    wanted = {model._meta.get_field(name).name for name in names} | {model._meta.pk.name}
    return [field for field in model._meta.concrete_fields if field.name in wanted]


@functools.cache
def _query(dailies: int) -> str:
    """attempts_shown's query for that many dailies, written out once per process."""
    a, s = Attempt._meta, Solve._meta
    columns = [f"a.{f.column}" for f in _loaded(Attempt, ATTEMPT_SHOWN)]
    columns += [f"s.{f.column}" for f in _loaded(Solve, ("attempt", *SOLVE_SHOWN))]
    user, daily, solved = a.get_field("user"), a.get_field("daily"), s.get_field("attempt")
    assert isinstance(user, Field) and isinstance(daily, Field) and isinstance(solved, Field)
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
        cursor.execute(_query(len(daily_ids)), [user_id, *daily_ids])
        rows = cursor.fetchall()
    attempt_names = [f.attname for f in _loaded(Attempt, ATTEMPT_SHOWN)]
    solve_names = [f.attname for f in _loaded(Solve, ("attempt", *SOLVE_SHOWN))]
    cut = len(attempt_names)
    found = {}
    for row in rows:
        attempt = Attempt.from_db(connection.alias, attempt_names, row[:cut])
        solve = None
        if row[cut] is not None:
            solve = Solve.from_db(connection.alias, solve_names, row[cut:])
            Solve.attempt.field.set_cached_value(solve, attempt)
        Attempt.solve.related.set_cached_value(attempt, solve)
        found[attempt.daily_id] = attempt
    return found
