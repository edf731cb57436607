"""Retention: what the site deletes once it no longer needs it, once a day (beat's apply-retention
entry, pipeline/tasks.apply_retention), each kind after a period of its own. docs/accounts.md
("Retention") states them for players; the privacy page quotes it.

- Sessions, once expired: SESSION_COOKIE_AGE (Django's two weeks) after they were last saved. The
  site's two engines (db, and cached_db with CACHE_URL) keep them in Django's table; the cached copy
  expires by itself. With them, allauth's record of each signed-in device whose session ended.
- Guests idle for GUEST_TTL_DAYS, with their attempts, solves and hints (guests.guests_idle has the
  rule), whether they solved anything or not. Solves earn a guest no longer stay: a guest is
  reachable only through its session cookie, sent afresh on its first write of a day
  (views/decorators.guest_session_kept) and lapsing SESSION_COOKIE_AGE (two weeks) after it, so a
  guest idle for 30 days has lost its cookie and nobody can come back to its streak; a longer
  period for guests with solves would keep rows nobody can reach. Guests' solves are never ranked
  nor rated, so the leaderboards and the ratings lose nothing.
- The mail log: a ReminderSent claim MAIL_LOG_DAYS after its day. The hourly run reads only the
  claims for a player's own local date (reminders.due_filter), in no zone more than CLAIM_DAYS from
  the site's, so the period is never taken under that; the claims are kept longer only to answer a
  player who asks why a reminder came, or did not.
- The record of play (PlayEvent) of attempts left unsolved and untouched for ABANDONED_RECORD_DAYS.
  A solved attempt's record stays: the replay, the review and fair play read it. The attempt itself
  stays, with its position, clock, hints and checks (pages count those), and so does its count of
  the moves it logged (Attempt.moves_logged): finished later, its solve is judged by
  fairplay/judge.record_cut_short to have no whole record ("no-record": not ranked nor rated),
  since moves that filled its grid are gone. The per-attempt bounds go on counting the
  deleted moves and no longer the deleted events, which gives the player room, never takes it.
- A brought puzzle's attempt (models/brought.py) left unsolved and untouched as long: the attempt
  goes whole, since its moves are in its row and nothing else reads it (no solve, no rank). The
  puzzle stays: it is the engine's verdict on a grid, and holds nothing of the player.

Each kind deletes in batches, one transaction each, checking its rule again inside it, so a player
who comes back during the run keeps what is theirs; a run cut short keeps what it deleted, and a
second run deletes nothing more. No new batch starts once the run's deadline has passed: the rest
waits for the next day.
"""

from __future__ import annotations

import datetime
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module

from allauth.usersessions.models import UserSession
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from ..models import Attempt, BroughtAttempt, PlayEvent, ReminderSent, Solve
from .guests import guests_delete_idle

log = logging.getLogger(__name__)

BATCH = 500  # rows, or guests, deleted in one transaction
ATTEMPTS_BATCH = 100  # attempts whose records go in one transaction (a record holds up to thousands of events)
CLAIM_DAYS = 2  # a reminder claim is read on its local day, at most this many days from the site's date


def _until_done(batch: Callable[[], tuple[int, bool]], deadline: float | None) -> int:
    """Run `batch` (it deletes one batch: how many rows went, and whether more may be left) until
    nothing is left or `deadline` (time.monotonic()) has passed; how many rows went in all."""
    deleted = 0
    while deadline is None or time.monotonic() < deadline:
        count, more = batch()
        deleted += count
        if not more:
            break
    return deleted


def _delete_batch(queryset: QuerySet, size: int) -> tuple[int, bool]:
    """Delete up to `size` rows of `queryset`, checked again as they go: how many went, and whether
    the batch was full (more may be left)."""
    keys = list(queryset.values_list("pk", flat=True)[:size])
    if not keys:
        return 0, False
    with transaction.atomic():
        deleted, _ = queryset.filter(pk__in=keys).delete()
    return deleted, len(keys) == size


def sessions_delete_expired(
    now: datetime.datetime | None = None, batch: int = BATCH, deadline: float | None = None
) -> int:
    """Delete the sessions past their expiry date; how many went. An engine with no table of
    Django's (cache, signed cookies, files) is left to its own clear_expired(), which counts nothing."""
    store = import_module(settings.SESSION_ENGINE).SessionStore
    if not issubclass(store, DatabaseSessionStore):
        store.clear_expired()
        return 0
    expired = store.get_model_class().objects.filter(expire_date__lt=now or timezone.now())
    return _until_done(lambda: _delete_batch(expired, batch), deadline)


def devices_delete_ended(batch: int = BATCH, deadline: float | None = None) -> int:
    """Delete the records of signed-in devices (allauth's UserSession: an address and a browser
    name) whose session has ended, expired or signed out; how many went. With an engine that keeps
    no table of Django's, allauth's own list purges them as the player opens it."""
    store = import_module(settings.SESSION_ENGINE).SessionStore
    if not issubclass(store, DatabaseSessionStore):
        return 0
    live = store.get_model_class().objects.filter(session_key=OuterRef("session_key"))
    ended = UserSession.objects.filter(~Exists(live))
    return _until_done(lambda: _delete_batch(ended, batch), deadline)


def mail_log_old(now: datetime.datetime | None = None) -> QuerySet[ReminderSent]:
    """Reminder claims whose day is over MAIL_LOG_DAYS (never under CLAIM_DAYS) before the site's
    date at `now`."""
    days = max(settings.MAIL_LOG_DAYS, CLAIM_DAYS)
    cutoff = timezone.localdate(now or timezone.now()) - datetime.timedelta(days=days)
    return ReminderSent.objects.filter(day__lt=cutoff)


def mail_log_delete_old(now: datetime.datetime | None = None, batch: int = BATCH, deadline: float | None = None) -> int:
    """Delete the reminder claims past MAIL_LOG_DAYS; how many went."""
    old = mail_log_old(now)
    return _until_done(lambda: _delete_batch(old, batch), deadline)


def attempts_abandoned(now: datetime.datetime | None = None) -> QuerySet[Attempt]:
    """Attempts never solved, untouched (Attempt.updated_at: every write and heartbeat) for
    ABANDONED_RECORD_DAYS, that still have events in their record of play."""
    cutoff = (now or timezone.now()) - datetime.timedelta(days=settings.ABANDONED_RECORD_DAYS)
    return Attempt.objects.filter(
        ~Exists(Solve.objects.filter(attempt_id=OuterRef("pk"))),
        Exists(PlayEvent.objects.filter(attempt_id=OuterRef("pk"))),
        updated_at__lt=cutoff,
    )


def records_delete_abandoned(
    now: datetime.datetime | None = None, batch: int = ATTEMPTS_BATCH, deadline: float | None = None
) -> int:
    """Delete the record of play of abandoned attempts (attempts_abandoned), `batch` attempts per
    transaction; how many events went. The attempts themselves stay."""
    now = now or timezone.now()
    after = 0

    def one_batch() -> tuple[int, bool]:
        nonlocal after
        ids = list(attempts_abandoned(now).filter(pk__gt=after).order_by("pk").values_list("pk", flat=True)[:batch])
        if not ids:
            return 0, False
        after = ids[-1]
        with transaction.atomic():
            # Locked and checked again: an attempt a player's write holds, or has touched since,
            # keeps its record (that write's event is theirs too).
            kept = attempts_abandoned(now).filter(pk__in=ids).select_for_update(skip_locked=True)
            deleted, _ = PlayEvent.objects.filter(attempt_id__in=list(kept.values_list("pk", flat=True))).delete()
        return deleted, len(ids) == batch

    return _until_done(one_batch, deadline)


def brought_abandoned(now: datetime.datetime | None = None) -> QuerySet[BroughtAttempt]:
    """Attempts at brought puzzles never solved, untouched (every write and beat) for ABANDONED_RECORD_DAYS."""
    cutoff = (now or timezone.now()) - datetime.timedelta(days=settings.ABANDONED_RECORD_DAYS)
    return BroughtAttempt.objects.filter(solved_at__isnull=True, updated_at__lt=cutoff)


def brought_delete_abandoned(
    now: datetime.datetime | None = None, batch: int = ATTEMPTS_BATCH, deadline: float | None = None
) -> int:
    """Delete abandoned attempts at brought puzzles (brought_abandoned), `batch` per transaction,
    each checked again under its lock; how many went."""
    now = now or timezone.now()

    def one_batch() -> tuple[int, bool]:
        with transaction.atomic():
            ids = list(
                brought_abandoned(now)
                .order_by("pk")
                .select_for_update(skip_locked=True)
                .values_list("pk", flat=True)[:batch]
            )
            deleted, _ = BroughtAttempt.objects.filter(pk__in=ids).delete()
        return deleted, len(ids) == batch

    return _until_done(one_batch, deadline)


@dataclass
class Removed:
    """What one run of retention_apply deleted, kind by kind."""

    sessions: int = 0  # expired sessions
    devices: int = 0  # records of signed-in devices whose session ended
    guests: int = 0  # idle guests (their attempts, solves and hints went with them)
    mail_log: int = 0  # reminder claims
    events: int = 0  # events of abandoned attempts' records of play
    brought: int = 0  # abandoned attempts at brought puzzles
    out_of_time: bool = False  # the deadline passed: anything left waits for the next run


def retention_apply(now: datetime.datetime | None = None, budget_seconds: float | None = None) -> Removed:
    """Delete every kind the site no longer needs (the module's docstring has the rules), starting
    no new batch once `budget_seconds` have passed; what went, logged on one line."""
    now = now or timezone.now()
    deadline = time.monotonic() + budget_seconds if budget_seconds is not None else None
    removed = Removed()
    removed.sessions = sessions_delete_expired(now, deadline=deadline)
    removed.devices = devices_delete_ended(deadline=deadline)
    removed.guests = guests_delete_idle(now)  # a few a day: no deadline of its own
    removed.mail_log = mail_log_delete_old(now, deadline=deadline)
    removed.events = records_delete_abandoned(now, deadline=deadline)
    removed.brought = brought_delete_abandoned(now, deadline=deadline)
    removed.out_of_time = deadline is not None and time.monotonic() >= deadline
    log.info(
        "retention: deleted %d expired sessions (%d device records), %d idle guests, %d mail-log entries, "
        "%d events of abandoned records, %d abandoned attempts at brought puzzles%s",
        removed.sessions,
        removed.devices,
        removed.guests,
        removed.mail_log,
        removed.events,
        removed.brought,
        " (out of time: anything left waits for the next run)" if removed.out_of_time else "",
    )
    return removed
