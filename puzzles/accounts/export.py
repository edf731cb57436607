"""Download my data: everything the site holds about one player, as one JSON document written in
chunks (docs/accounts.md, "Download my data", has the schema, key by key, and how its version moves).

The document is never whole in memory. The small parts (the account, settings, streaks, rating,
leagues, reminders, devices) are written as they are read; the long lists go by batches: the
rating history, the reminders sent and the practice answers through the database's cursor, and the
attempts (export_play.py) BATCH at a time, each batch a fixed handful of queries. So a year of
daily play costs a few dozen queries and holds one batch's rows at once.

Only the player's own side of anything shared: a league's name and their membership, never its
members (and its invite code only to its owner); a rating change's player side, not the puzzle's;
a push device's service host and dates, never its address in full nor its keys.
"""

from __future__ import annotations

import datetime
import re
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from allauth.account.models import EmailAddress
from allauth.usersessions.models import UserSession
from django.http import StreamingHttpResponse
from django.utils import timezone

from ..fairplay.ranking import is_provisional
from ..models import (
    BroughtAttempt,
    Guest,
    League,
    Membership,
    PlayerRating,
    PracticeAnswer,
    Preferences,
    PushSubscription,
    RatingChange,
    Reminder,
    ReminderSent,
    UsernameChange,
    site_today,
)
from ..record_of_play.moves import unpack
from ..results.history import player_streaks
from .export_json import array, dump
from .export_play import attempts_of
from .ratelimits import HOUR, address_group, window_wait

SCHEMA = "daily-sudoku-export"
VERSION = 2  # moves on when a key changes meaning or goes away; a new key keeps it (docs/accounts.md)
EXPORTS_PER_HOUR = 10  # per account and per client address: a person downloads a few times at most


class ExportsTooFast(Exception):
    """EXPORTS_PER_HOUR downloads this hour, by the account or from the address; retry_after is
    the wait in seconds until the hour turns."""

    def __init__(self, retry_after: int, who: str) -> None:
        minutes = max(1, -(-retry_after // 60))
        super().__init__(
            f"Too many downloads of your data by {who} this hour: try again in {minutes} minute{'s' * (minutes > 1)}."
        )
        self.retry_after = retry_after


def export_limit(user_id: int, address: str, now: float | None = None) -> None:
    """Count one download for the account and one for the client address (an IPv6 one by its /64);
    raise ExportsTooFast past either's EXPORTS_PER_HOUR."""
    now = time.time() if now is None else now
    for key, who in ((f"user:{user_id}", "your account"), (f"address:{address_group(address)}", "your network")):
        if (wait := window_wait(f"exports:{key}", EXPORTS_PER_HOUR, HOUR, now)) is not None:
            raise ExportsTooFast(wait, who)


def export_filename(username: str, day: datetime.date) -> str:
    """The name the browser saves it under: daily-sudoku-<username>-<date>.json, the name cut to
    the letters a header and a file system take as they are (names from before the rule may not)."""
    return f"daily-sudoku-{re.sub(r'[^A-Za-z0-9._-]', '_', username)}-{day.isoformat()}.json"


def export_download(user) -> StreamingHttpResponse:
    """The player's data as a download, daily-sudoku-<username>-<date>.json, streamed as it is
    written and kept by no cache (the player's page and the admin's action both answer with it)."""
    download = StreamingHttpResponse(export_chunks(user), content_type="application/json")
    download["Content-Disposition"] = f'attachment; filename="{export_filename(user.get_username(), site_today())}"'
    download["Cache-Control"] = "private, no-store"
    return download


def export_chunks(user, now: datetime.datetime | None = None) -> Iterator[str]:
    """The player's data as JSON text, in chunks to be written one after the other (the module's
    docstring says how it stays small). Nothing is read before the first chunk is asked for."""
    now = now or timezone.now()
    yield "{" + f'"schema":{dump(SCHEMA)},"version":{VERSION},"exported_at":{dump(now)}'
    parts: list[tuple[str, Any]] = [
        ("account", lambda: _account(user)),
        ("settings", lambda: _settings(user)),
        ("streaks", lambda: _streaks(user, timezone.localdate(now))),
        ("rating", lambda: _rating(user)),
        ("leagues", lambda: _leagues(user)),
        ("reminder", lambda: _reminder(user)),
        ("push_devices", lambda: _push_devices(user)),
        ("signed_in_devices", lambda: _signed_in_devices(user)),
        ("username_changes", lambda: _username_changes(user)),
    ]
    for key, read in parts:
        yield f',\n"{key}":{dump(read())}'
    lists: list[tuple[str, Iterator[str]]] = [
        ("rating_history", array(_rating_history(user))),
        ("reminders_sent", array(_reminders_sent(user))),
        ("practice_answers", array(_practice_answers(user))),
        ("brought_puzzles", array(_brought_puzzles(user))),
        ("attempts", array(attempts_of(user), encode=str)),  # each attempt JSON text already
    ]
    for key, chunks in lists:
        yield f',\n"{key}":'
        yield from chunks
    yield "}\n"


# --- the parts ------------------------------------------------------------------------------------


def _account(user) -> dict[str, Any]:
    guest = Guest.objects.filter(user_id=user.pk).values_list("created", flat=True).first()
    addresses = EmailAddress.objects.filter(user_id=user.pk).order_by("-primary", "email")
    return {
        "username": user.username,
        "email": user.email,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "date_joined": user.date_joined,
        "last_login": user.last_login,
        "guest": guest is not None,
        "guest_since": guest,
        "email_addresses": [
            {"email": email, "verified": verified, "primary": primary}
            for email, verified, primary in addresses.values_list("email", "verified", "primary")
        ],
    }


def _signed_in_devices(user) -> list[dict[str, Any]]:
    sessions = UserSession.objects.filter(user_id=user.pk).order_by("created_at")
    return [
        {"signed_in": created, "address": ip, "browser": agent, "last_seen": seen}
        for created, ip, agent, seen in sessions.values_list("created_at", "ip", "user_agent", "last_seen_at")
    ]


def _username_changes(user) -> list[datetime.datetime]:
    return list(
        UsernameChange.objects.filter(user_id=user.pk).order_by("changed_at").values_list("changed_at", flat=True)
    )


def _settings(user) -> dict[str, Any]:
    row = Preferences.objects.filter(user_id=user.pk).values_list("values", "updated_at").first()
    values, updated_at = row or ({}, None)
    return {"chosen": values, "updated_at": updated_at}


def _streaks(user, today: datetime.date) -> dict[str, Any]:
    found = player_streaks(user, today)
    return {
        "as_of": today,
        "current": found.current,
        "best": found.best,
        "freezes": found.freezes,
        "frozen_days": list(found.frozen),
        "next_freeze_in": found.next_freeze_in,
    }


def _rating(user) -> dict[str, Any] | None:
    rating = PlayerRating.objects.filter(user_id=user.pk).first()
    if rating is None:
        return None
    return {
        "rating": rating.rating,
        "deviation": rating.deviation,
        "volatility": rating.volatility,
        "provisional": is_provisional(rating),
        "solves": rating.solves,
        "on_day_solves": rating.on_day_solves,
        "on_days": rating.on_days,
        "on_day_since": rating.on_day_since,
        "updated_at": rating.updated_at,
    }


def _rating_history(user) -> Iterator[dict[str, Any]]:
    rows = (
        RatingChange.objects.filter(user_id=user.pk)
        .order_by("solved_at", "solve_id")
        .values_list(
            *("solve__daily__date", "solve__daily__difficulty", "solved_at", "seconds", "score"),
            *("expected_seconds", "player_before", "player_after", "applied_at"),
        )
    )
    for date, difficulty, solved_at, seconds, score, expected, before, after, applied_at in rows.iterator(2000):
        yield {
            "daily": {"date": date, "difficulty": difficulty},
            "ordered_at": solved_at,
            "seconds": seconds,
            "score": score,
            "expected_seconds": expected,
            "before": before,
            "after": after,
            "applied_at": applied_at,
        }


def _leagues(user) -> list[dict[str, Any]]:
    rows = Membership.objects.filter(user_id=user.pk).order_by("joined", "id")
    found = [
        {"name": name, "created": created, "joined": joined, "owner": owner_id == user.pk}
        | ({"invite_code": code} if owner_id == user.pk else {})
        for name, created, joined, owner_id, code in rows.values_list(
            "league__name", "league__created", "joined", "league__owner_id", "league__invite_code"
        )
    ]
    # A league the player owns without being in it (no page makes one; an admin could).
    alone = League.objects.filter(owner_id=user.pk).exclude(memberships__user_id=user.pk).order_by("created", "id")
    found += [
        {"name": name, "created": created, "joined": None, "owner": True, "invite_code": code}
        for name, created, code in alone.values_list("name", "created", "invite_code")
    ]
    return found


def _reminder(user) -> dict[str, Any] | None:
    fields = ("email", "push", "hour", "time_zone", "updated_at")
    return Reminder.objects.filter(user_id=user.pk).values(*fields).first()


def _reminders_sent(user) -> Iterator[dict[str, Any]]:
    rows = ReminderSent.objects.filter(user_id=user.pk).order_by("day")
    for day, created, failed in rows.values_list("day", "created", "failed").iterator(2000):
        yield {"day": day, "created": created, "failed": failed}


def _push_devices(user) -> list[dict[str, Any]]:
    rows = PushSubscription.objects.filter(user_id=user.pk).order_by("created", "id")
    return [
        {"service": urlsplit(endpoint).hostname or "", "created": created, "last_used": last_used}
        for endpoint, created, last_used in rows.values_list("endpoint", "created", "last_used")
    ]


def _practice_answers(user) -> Iterator[dict[str, Any]]:
    rows = PracticeAnswer.objects.filter(user_id=user.pk).order_by("created", "id")
    for technique, right, created in rows.values_list("technique", "right", "created").iterator(2000):
        yield {"technique": technique, "right": right, "created": created}


def _brought_puzzles(user) -> Iterator[dict[str, Any]]:
    """Each puzzle the player brought and played (models/brought.py): the puzzle, their position,
    clock and assists, and their moves, each at its moment on the clock in milliseconds."""
    rows = BroughtAttempt.objects.filter(user_id=user.pk).select_related("puzzle").order_by("started_at", "id")
    for attempt in rows.iterator(200):
        yield {
            "givens": attempt.puzzle.givens,
            "tier": attempt.puzzle.tier,
            "started_at": attempt.started_at,
            "digits": attempt.digits,
            "corner": attempt.corner,
            "centre": attempt.centre,
            "colours": attempt.colours,
            "seconds": attempt.active_seconds,
            "hints": attempt.hints_used,
            "checks": attempt.checks_used,
            "solved_at": attempt.solved_at,
            "solve_seconds": attempt.solve_seconds,
            "moves": [[m.age_ms, m.layer, [list(c) for c in m.cells]] for m in unpack(attempt.moves or b"")],
        }
