"""Serving a practice position and checking a player's answer to it.

The position's solution and the instances of its technique stay on the server: the page gets the
digits and candidates, and an instance only once the player's answer matched it.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Count, Q

from .. import engine
from ..accounts.ratelimits import MINUTE, address_group, window_wait
from ..engine import Verdict, judge
from ..models import PracticeAnswer, PracticePosition
from .pool import PRACTISED, servable

# How many of a player's latest answered positions a new one avoids, where the pool allows.
RECENT = 8


class BadAnswer(ValueError):
    """An answer the page would never send: the message says what is wrong with it."""


class ChecksTooFast(Exception):
    """More practice checks in a minute than settings.PRACTICE_CHECKS_PER_MINUTE allows."""

    def __init__(self, retry_after: int, who: str) -> None:
        super().__init__(f"That's a lot of practice checks from {who}: try again in {retry_after} seconds.")
        self.retry_after = retry_after


def practice_position(technique: str, user: Any = None, after: int | None = None) -> PracticePosition | None:
    """A position for `technique`, not `after` (the one just shown) nor, where the pool allows,
    one the player answered lately; None while the pool is empty. Reads only."""
    pool = servable().filter(technique=technique)
    ids = list(pool.values_list("pk", flat=True))
    if not ids:
        return None
    avoid = {after}
    if user is not None and user.is_authenticated:
        answered = PracticeAnswer.objects.filter(user=user, technique=technique).order_by("-created")
        avoid |= set(answered.values_list("position_id", flat=True)[:RECENT])
    fresh = [pk for pk in ids if pk not in avoid] or [pk for pk in ids if pk != after] or ids
    return pool.get(pk=random.choice(fresh))


def position_for_page(position: PracticePosition) -> dict[str, Any]:
    """What the page draws: the digits and each empty cell's candidates, and nothing more."""
    return {
        "id": position.pk,
        "technique": position.technique,
        "places": position.places,
        "digits": [int(d) for d in position.digits],
        "candidates": [list(mask_digits(mask)) for mask in position.cands],
    }


def mask_digits(mask: int) -> tuple[int, ...]:
    """The digits of a candidate mask, lowest first."""
    return tuple(d for d in range(1, 10) if mask & (1 << (d - 1)))


def _pair(value: Any) -> tuple[int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        or not (0 <= value[0] <= 80 and 1 <= value[1] <= 9)
    ):
        raise BadAnswer("Each mark must be [cell, digit]: a cell from 0 to 80 and a digit from 1 to 9.")
    return value[0], value[1]


def answer_clean(payload: dict[str, Any]) -> tuple[frozenset[tuple[int, int]], tuple[int, int] | None]:
    """The eliminations and the placement of a posted answer; BadAnswer for anything else."""
    marks = payload.get("eliminations", [])
    placement = payload.get("placement")
    if not isinstance(marks, list) or len(marks) > 81 * 9:
        raise BadAnswer("eliminations must be a list of [cell, digit] marks.")
    eliminations = frozenset(_pair(m) for m in marks)
    if placement is not None:
        placement = _pair(placement)
        if eliminations:
            raise BadAnswer("Send eliminations or a placement, not both.")
    if not eliminations and placement is None:
        raise BadAnswer("Mark at least one candidate, or choose a placement.")
    return eliminations, placement


def practice_limit(user_id: int, address: str, now: float | None = None) -> None:
    """Count one check for the player and for the client address (an IPv6 one by its /64);
    ChecksTooFast past the limit."""
    now = time.time() if now is None else now
    limit = settings.PRACTICE_CHECKS_PER_MINUTE
    for key, who in ((f"user:{user_id}", "you"), (f"address:{address_group(address)}", "your network")):
        if (wait := window_wait(f"practice-checks:{key}", limit, MINUTE, now)) is not None:
            raise ChecksTooFast(wait, who)


@dataclass
class Checked:
    verdict: Verdict
    position: PracticePosition

    def to_dict(self) -> dict[str, Any]:
        """The answer the page shows: the instance only when the player found it."""
        v = self.verdict
        out: dict[str, Any] = {"outcome": v.outcome, "message": v.message}
        if v.outcome == "right" and v.instance is not None:
            out["instance"] = v.instance.to_dict()
        if v.outcome == "partly":
            out["left"] = len(v.left)
        out["wrong"] = [{"cell": c, "digit": d, "name": engine.cell_name(c), "why": why} for (c, d), why in v.wrong]
        return out


def practice_check(user: Any, position: PracticePosition, payload: dict[str, Any]) -> Checked:
    """Judge a posted answer and record it for the player's counts. BadAnswer for a malformed
    one (nothing is recorded)."""
    eliminations, placement = answer_clean(payload)
    verdict = judge(
        list(map(int, position.digits)),
        list(position.cands),
        position.technique,
        list(map(int, position.solution)),
        eliminations,
        placement,
    )
    PracticeAnswer.objects.create(
        user=user, position=position, technique=position.technique, right=verdict.outcome == "right"
    )
    return Checked(verdict, position)


def practice_counts(user: Any) -> list[dict[str, Any]]:
    """The player's practice per technique, catalogue order: positions tried and answered right."""
    rows = (
        PracticeAnswer.objects.filter(user=user)
        .values("technique")
        .annotate(
            tried=Count("position", distinct=True),
            right=Count("position", filter=Q(right=True), distinct=True),
        )
    )
    by_name = {r["technique"]: r for r in rows}
    return [
        {
            "technique": name,
            "title": engine.technique_title(name),
            "tried": by_name[name]["tried"],
            "right": by_name[name]["right"],
        }
        for name in PRACTISED
        if name in by_name
    ]
