"""Download my data, the attempts: each with its position, its record of play (every event, each
move decoded with its time), its hints and checks, and its solve with the fair-play verdict, the
annotated review and the placements kept for it (export.py writes the rest; docs/accounts.md the
schema).

Attempts go BATCH at a time, in the order of their dailies (date, then tier, easiest first); a
batch is read in a fixed number of queries whatever its size: the attempts with their daily and
solve, then the events, hints, checks, reviews and placements of all of them at
once, as rows rather than model instances (a year of play is some 25,000 events: instances would
cost more than the rest of the export). A move's time follows the rule the ranking and the
replays use (fairplay/timing.py: move_times, on_the_clock), so the file says what the site judged.
A review's lists go out as the database keeps them, as JSON text: decoding and encoding them
again would be a third of the export's time.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from types import SimpleNamespace
from typing import Any, NamedTuple

import orjson
from django.db.models import TextField
from django.db.models.functions import Cast

from ..fairplay.copies import unpack as unpack_placements
from ..fairplay.ranking import not_ranked_codes
from ..fairplay.timing import move_times, on_the_clock
from ..models import TIER_ORDER, Attempt, Check, Hint, Placements, PlayEvent, SolveReview
from ..record_of_play.moves import LAYERS, Move
from .export_json import dump

BATCH = 200  # attempts read together: some 3,000 events, a few megabytes
LAYER_NAMES = dict(zip(LAYERS, ("digits", "corner", "centre", "colours")))
REVIEW_LISTS = ("placements", "stalls", "mistakes")  # a SolveReview's JSON lists
NOTES = ("corner", "centre", "colours")  # an attempt's JSON lists of 81 sets

# The columns read of an attempt, its daily and its solve (None on each solve column: no solve).
ATTEMPT = (
    *("pk", "daily__date", "daily__difficulty", "daily__substitute", "daily__puzzle__givens"),
    *("started_at", "saved_at", "last_beat_at", "updated_at", "active_seconds"),
    *("version", "digits"),
    *("wrong_submissions", "hints_used", "hint_stage", "checks_used", "moves_logged"),
)
SOLVE = ("pk", "seconds", "ranked_seconds", "solved_at", "late", "assisted", "unranked", "flagged", "held", "review")


class Event(NamedTuple):
    """An event of the record of play as the export reads it (timing.Written)."""

    kind: str
    arrived_at: datetime.datetime
    moves: bytes | memoryview
    placed: int
    digits: str
    clock: float | None


# A move as the export writes it: when, the clock then and whether it counted (None, None for a
# record from before events kept their clock), the move.
Timed = tuple[datetime.datetime, float | None, bool | None, Move]


def _order(difficulty: str) -> int:
    return TIER_ORDER.index(difficulty) if difficulty in TIER_ORDER else len(TIER_ORDER)


def attempts_of(user) -> Iterator[str]:
    """Every attempt of the player, in the order of their dailies, each as JSON text."""
    rows = Attempt.objects.filter(user_id=user.pk).values_list("pk", "daily__date", "daily__difficulty")
    ids = [pk for pk, _, _ in sorted(rows, key=lambda r: (r[1], _order(r[2]), r[0]))]
    for start in range(0, len(ids), BATCH):
        yield from _batch(ids[start : start + BATCH])


def _grouped(rows: Iterable[tuple]) -> dict[int, list[tuple]]:
    """Rows whose first value is a key, as lists by that key (the rest of each row)."""
    found: dict[int, list[tuple]] = defaultdict(list)
    for row in rows:
        found[row[0]].append(row[1:])
    return found


def _with(text: str, key: str, raw: str) -> str:
    """A JSON object's text with one more key, whose value is JSON text already."""
    return f'{text[:-1]},"{key}":{raw}}}'


def _batch(ids: Sequence[int]) -> Iterator[str]:
    attempts = {
        row["pk"]: row
        for row in Attempt.objects.filter(pk__in=ids).values(
            *ATTEMPT,
            *(f"solve__{name}" for name in SOLVE),
            **{f"{name}_text": Cast(name, TextField()) for name in NOTES},
        )
    }
    events: dict[int, list[Event]] = defaultdict(list)
    rows = PlayEvent.objects.filter(attempt_id__in=ids).order_by("attempt_id", "id")
    for attempt_id, *fields in rows.values_list("attempt_id", *Event._fields):
        events[attempt_id].append(Event(*fields))
    hints = _grouped(
        Hint.objects.filter(attempt_id__in=ids)
        .order_by("created", "id")
        .values_list("attempt_id", "created", "stage", "technique")
    )
    checks = _grouped(
        Check.objects.filter(attempt_id__in=ids).order_by("created", "id").values_list("attempt_id", "created", "wrong")
    )
    solves = [row["solve__pk"] for row in attempts.values() if row["solve__pk"] is not None]
    lists = (Cast(name, TextField()) for name in REVIEW_LISTS)
    reviews = _grouped(
        SolveReview.objects.filter(solve_id__in=solves).values_list("solve_id", "version", "made_at", *lists)
    )
    placed = _grouped(
        Placements.objects.filter(solve_id__in=solves).values_list("solve_id", "head", "tail", "placements")
    )
    for pk in ids:
        row = attempts[pk]
        entry = _attempt(row, events.get(pk, []))
        entry["hints"] = [{"at": at, "stage": stage, "technique": t} for at, stage, t in hints.get(pk, [])]
        entry["checks"] = [{"at": at, "wrong": wrong} for at, wrong in checks.get(pk, [])]
        solve_pk = row["solve__pk"]
        if solve_pk is None:
            yield _with(dump(entry), "solve", "null")
            continue
        solve = _solve({name: row[f"solve__{name}"] for name in SOLVE}, placed.get(solve_pk))
        review = _review(reviews.get(solve_pk))
        yield _with(dump(entry), "solve", _with(dump(solve), "annotated_review", review))


def _attempt(row: dict[str, Any], events: list[Event]) -> dict[str, Any]:
    return {
        "daily": {
            "date": row["daily__date"],
            "difficulty": row["daily__difficulty"],
            "substitute": row["daily__substitute"],
            "givens": row["daily__puzzle__givens"],
        },
        "started_at": row["started_at"],
        "saved_at": row["saved_at"],
        "last_beat_at": row["last_beat_at"],
        "updated_at": row["updated_at"],
        "active_seconds": row["active_seconds"],
        "position": {
            "version": row["version"],
            "digits": row["digits"],
            **{name: orjson.Fragment(row[f"{name}_text"]) for name in NOTES},  # as kept: JSON text
        },
        "wrong_submissions": row["wrong_submissions"],
        "hints_used": row["hints_used"],
        "hint_stage": row["hint_stage"],
        "checks_used": row["checks_used"],
        "moves_logged": row["moves_logged"],
        "events": _record(events, row["started_at"]),
    }


def _record(events: list[Event], started_at: datetime.datetime) -> list[dict[str, Any]]:
    """The events in the order received, each move with its time: on the attempt's clock where the
    record kept it (on_the_clock), else the moment alone (move_times, as an older replay reads it)."""
    kept = on_the_clock(events, started_at)
    timed: Sequence[tuple[Event, Sequence[Timed]]] = kept if kept is not None else _moments(events, started_at)
    return [
        {
            "kind": event.kind,
            "arrived_at": event.arrived_at,
            "clock": event.clock,
            "placed": event.placed,
            "digits": event.digits,
            "moves": [
                {
                    "at": at,
                    "clock": clock,
                    "counted": inside,
                    "age_ms": move.age_ms,
                    "layer": LAYER_NAMES[move.layer],
                    "cells": move.cells,
                }
                for at, clock, inside, move in counted
            ],
        }
        for event, counted in timed
    ]


def _moments(events: list[Event], started_at: datetime.datetime) -> list[tuple[Event, list[Timed]]]:
    """The events of a record from before events kept their clock, each move with its moment alone."""
    timed: list[tuple[Event, list[Timed]]] = []
    previous = started_at
    for event in events:
        moves: list[Timed] = [(at, None, None, move) for at, move in move_times(event, previous)]
        timed.append((event, moves))
        previous = max(previous, event.arrived_at)
    return timed


def _solve(fields: dict[str, Any], placed: list[tuple] | None) -> dict[str, Any]:
    """The solve as the export writes it, less its annotated review (_review, added as it is kept)."""
    verdict = SimpleNamespace(**{name: fields[name] for name in ("late", "assisted", "unranked", "review", "flagged")})
    return {
        **{name: fields[name] for name in SOLVE if name != "pk"},
        "not_ranked": not_ranked_codes(verdict),
        "placements": None
        if not placed
        else {"head": placed[0][0], "tail": placed[0][1], "digits": unpack_placements(placed[0][2])},
    }


def _review(rows: list[tuple] | None) -> str:
    """The solve's annotated review as JSON text, its lists as the database keeps them; "null" for none."""
    if not rows:
        return "null"
    version, made_at, *lists = rows[0]
    head = dump({"version": version, "made_at": made_at})
    return head[:-1] + "".join(f',"{name}":{text}' for name, text in zip(REVIEW_LISTS, lists)) + "}"
