"""Reminders the player chooses: their settings (off by default, a local hour in their own zone,
by email, by push notification to their devices, or both) and the hourly run that sends the day's
reminders.

Who is due: a player with email on and a verified address (allauth's EmailAddress), or push on
and a device subscribed (push.py), whose chosen hour has come on their own calendar today, who
has not been reminded on that local day, is no guest, and has not played today. "Played" means
an attempt at any of today's dailies (the site's day, the puzzles the mail would list): opening a
puzzle and making a move is coming back.

At most once per player and local day: each batch claims its players by inserting
ReminderSent(user, day) rows, unique on (user, day), in the transaction that selects them with
FOR UPDATE SKIP LOCKED (so workers running at once split the due players rather than queue on
them); a worker whose insert meets another's claim keeps none of it. Mail goes only after the
claim commits, so a message the server refuses (or one cut short, perhaps sent) is logged and
marked, and not retried that day: a reminder missed is better than two. Only claims never tried
are released, when the server is down or the task's time is up: those players are due again at
the next run. A player's push goes with their mail, just before it, under the same claim. A mail
over its address's cap (mailcap.py) is skipped and its claim marked failed: that day is done.
"""

from __future__ import annotations

import datetime
import logging
import re
import time
import uuid
import zoneinfo
from collections import defaultdict
from dataclasses import dataclass
from functools import cache

from allauth.account.models import EmailAddress
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import get_connection
from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from ..models import TIER_ORDER, Attempt, DailyPuzzle, Guest, PushSubscription, Reminder, ReminderSent
from ..results.history import player_streaks
from . import mailcap, push, reminder_mail
from .guests import is_guest

log = logging.getLogger(__name__)

BATCH = 100  # players claimed, then mailed, at a time: one transaction's worth of row locks


# --- settings -----------------------------------------------------------------------------------


@cache
def time_zones() -> tuple[str, ...]:
    """The IANA zone names this machine knows, sorted (read once: it walks the zone files)."""
    return tuple(sorted(zoneinfo.available_timezones()))


# The zones the settings list offers: those named for a place (an area and a city) and UTC, not
# the old aliases and oddities a machine also knows ("US/Eastern", "GB-Eire", "Factory"). A zone a
# player already has stays valid and is offered to them (reminder_form.py).
PLACE_ZONE = re.compile(r"(Africa|America|Antarctica|Arctic|Asia|Atlantic|Australia|Europe|Indian|Pacific)/.+")


@cache
def offered_time_zones() -> tuple[str, ...]:
    """The zones the settings list shows, sorted."""
    return tuple(name for name in time_zones() if name == "UTC" or PLACE_ZONE.fullmatch(name))


def is_time_zone(name: str) -> bool:
    """Whether `name` is an IANA zone name zoneinfo can load."""
    return name in time_zones()


def can_email(user: User) -> bool:
    """Whether the player has an address the site may remind: verified, on an account (no guest)."""
    return not is_guest(user) and EmailAddress.objects.filter(user=user, verified=True).exists()


def unverified_address(user: User) -> str | None:
    """The player's address still waiting for its verification link, if any."""
    return EmailAddress.objects.filter(user=user, verified=False).values_list("email", flat=True).first()


def reminder_of(user: User) -> Reminder:
    """The player's reminder settings; unsaved and off when they never chose any."""
    found = Reminder.objects.filter(user=user).first()
    return found or Reminder(user=user, email=False, push=False, hour=8, time_zone=settings.TIME_ZONE)


def reminder_save(user: User, *, email: bool, hour: int, time_zone: str, push: bool = False) -> Reminder:
    """Store the player's choice (the form has checked it: a valid zone, an hour 0-23, email only
    with a verified address, push only when the site offers it)."""
    reminder, _ = Reminder.objects.update_or_create(
        user=user, defaults={"email": email, "push": push, "hour": hour, "time_zone": time_zone}
    )
    return reminder


def reminders_stop(user_id: int) -> bool:
    """Turn off every channel of a player's reminders; whether any was on."""
    on = Q(email=True) | Q(push=True)
    return Reminder.objects.filter(on, user_id=user_id).update(email=False, push=False) > 0


# --- who is due ---------------------------------------------------------------------------------


def local_days(now: datetime.datetime, zones: list[str]) -> dict[str, datetime.datetime]:
    """Each zone's local time at `now`; zones zoneinfo no longer knows are left out (and logged)."""
    found = {}
    for name in zones:
        try:
            found[name] = now.astimezone(zoneinfo.ZoneInfo(name))
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            log.warning("reminders: unknown time zone %r skipped", name)
    return found


def due_filter(now: datetime.datetime, zones: list[str]) -> tuple[Q, dict[str, datetime.date]]:
    """The condition for reminders whose hour has come today in their zone and not yet claimed
    on that local day, and each zone's local date. Zones that share a local date and hour share
    one clause, so the query has a few dozen clauses at most, however many zones players chose."""
    locals_ = local_days(now, zones)
    groups: dict[tuple[datetime.date, int], list[str]] = defaultdict(list)
    for name, moment in locals_.items():
        groups[(moment.date(), moment.hour)].append(name)
    condition = Q(pk__in=[])
    for (day, hour), names in groups.items():
        claimed = ReminderSent.objects.filter(user_id=OuterRef("user_id"), day=day)
        condition |= Q(~Exists(claimed), time_zone__in=names, hour__lte=hour)
    return condition, {name: moment.date() for name, moment in locals_.items()}


def due_reminders(now: datetime.datetime, todays: list[int]) -> tuple[QuerySet[Reminder], dict[str, datetime.date]]:
    """Reminders to send now (the module's docstring has the rule; `todays` are the ids of
    today's dailies), each with its `address` and `username`, and each zone's local date at `now`.

    Every condition on another table is an EXISTS on its index, never a join: a join of the
    users with their guest marks was planned as a nested loop over all users for each reminder
    (14 s a batch at 5,000 players, bench/reminders.py)."""
    on = Q(email=True) | Q(push=True)
    zones = list(Reminder.objects.filter(on).values_list("time_zone", flat=True).distinct())
    condition, days = due_filter(now, zones)
    address = EmailAddress.objects.filter(user_id=OuterRef("user_id"), verified=True).order_by("-primary", "pk")
    # A channel the player can be reached on: mail to a verified address, or a device subscribed.
    reachable = Q(email=True, has_address=True) | Q(push=True, has_device=True)
    queryset = (
        Reminder.objects.filter(condition, on)
        .alias(
            has_address=Exists(EmailAddress.objects.filter(user_id=OuterRef("user_id"), verified=True)),
            has_device=Exists(PushSubscription.objects.filter(user_id=OuterRef("user_id"))),
        )
        .filter(
            reachable,
            Exists(User.objects.filter(pk=OuterRef("user_id"), is_active=True)),
            ~Exists(Guest.objects.filter(user_id=OuterRef("user_id"))),
            ~Exists(Attempt.objects.filter(user_id=OuterRef("user_id"), daily_id__in=todays)),
        )
        .annotate(
            address=Subquery(address.values("email")[:1]),
            username=Subquery(User.objects.filter(pk=OuterRef("user_id")).values("username")[:1]),
        )
    )
    return queryset, days


# --- the run ------------------------------------------------------------------------------------


@dataclass
class RunReport:
    sent: int = 0
    failed: int = 0
    batches: int = 0
    pushed: int = 0  # push messages the push services accepted (one per device)
    push_failed: int = 0  # refused or unreachable: logged, the device kept
    push_gone: int = 0  # 404 or 410: the device is forgotten
    capped: int = 0  # mails not sent, their address over its cap (mailcap.py): claimed, not retried
    stopped: bool = False  # the mail server was down: the players left are due at the next run


Claimed = list[tuple[Reminder, datetime.date]]


def claim_batch(
    due: QuerySet[Reminder], days: dict[str, datetime.date], now: datetime.datetime, size: int, after: int
) -> tuple[int, Claimed]:
    """Claim up to `size` of the `due` reminders past the id `after` for their players' local
    days, in one transaction: the last id looked at (0 when none was left) and the ones this run
    claimed (another worker may hold the rest).

    Each batch starts past the last one's ids, so a run reads each row once, not once per batch:
    a row left behind was claimed, or locked by another worker that claims it (if that worker
    fails first, the next run finds the player still due)."""
    run = uuid.uuid4()
    with transaction.atomic():
        rows = list(
            due.filter(pk__gt=after)
            .select_for_update(skip_locked=True, of=("self",))
            .only("id", "user_id", "time_zone", "hour", "email", "push")
            .order_by("pk")[:size]
        )
        if not rows:
            return 0, []
        ReminderSent.objects.bulk_create(
            [ReminderSent(user_id=r.user_id, day=days[r.time_zone], claim=run, created=now) for r in rows],
            ignore_conflicts=True,
        )
        # A row another worker inserted first keeps its own claim: only ours are ours to send.
        ours = set(ReminderSent.objects.filter(claim=run).values_list("user_id", flat=True))
    return rows[-1].pk, [(r, days[r.time_zone]) for r in rows if r.user_id in ours]


class MailServerDown(Exception):
    """The mail server could not be reached, or refused several messages in a row; what the
    batch had sent and had refused before."""

    sent = failed = 0


FAILURES_IN_A_ROW = 3  # refused this often in a row, the server is taken for down, not the addresses


def claims_mark(claims: list[tuple[int, datetime.date]], *, failed: bool) -> None:
    """Mark claims as failed (kept: not retried that day), or release them (deleted: due again)."""
    if not claims:
        return
    condition = Q(pk__in=[])
    for user_id, day in claims:
        condition |= Q(user_id=user_id, day=day)
    claimed = ReminderSent.objects.filter(condition)
    if failed:
        claimed.update(failed=True)
    else:
        claimed.delete()


def send_batch(
    claimed: Claimed, today: datetime.date, puzzles: list, report: RunReport | None = None
) -> tuple[int, int]:
    """Remind each claimed player: push to their devices when push is on (counted in `report`;
    push.py logs its failures, which never stop the batch), then mail when email is on, over one
    connection; the mails (sent, failed). A message the server refuses, or one over its address's
    cap (counted in `report`), is logged and its claim marked failed, never retried. When the server cannot be reached (or
    refuses FAILURES_IN_A_ROW in a row), or the task's soft time limit strikes, the claims not yet
    tried are released, so those players are due again at the next run, and MailServerDown (or
    the time limit) is raised: nothing went to them, so trying again cannot remind anyone twice."""
    failed: list[tuple[int, datetime.date]] = []
    capped: list[tuple[int, datetime.date]] = []  # marked failed like the refused, not counted with them
    tried = sent = in_a_row = 0
    report = report or RunReport()
    connection = get_connection()
    try:
        if any(reminder.email for reminder, _ in claimed):  # a batch of push only needs no server
            connection.open()
        for reminder, day in claimed:
            recipient = reminder_mail.Recipient(
                user_id=reminder.user_id,
                name=reminder.username,  # type: ignore[attr-defined]  # annotated by due_reminders
                address=reminder.address,  # type: ignore[attr-defined]  # annotated by due_reminders
                streak=player_streaks(User(pk=reminder.user_id), today).current,
            )
            tried += 1
            if reminder.push:
                counts = push.push_reminder(reminder.user_id, push.reminder_payload(puzzles, recipient.streak))
                report.pushed += counts[push.Outcome.SENT]
                report.push_failed += counts[push.Outcome.FAILED]
                report.push_gone += counts[push.Outcome.GONE]
            if not (reminder.email and recipient.address):
                continue
            try:
                message = reminder_mail.reminder_message(recipient, today, puzzles, connection=connection)
                went = mailcap.send(message, kind="reminder")
            except SoftTimeLimitExceeded:
                failed.append((reminder.user_id, day))  # perhaps half sent: kept, so never sent twice
                raise
            except Exception:
                log.exception("reminders: the reminder to user %d was not sent", reminder.user_id)
                failed.append((reminder.user_id, day))
                in_a_row += 1
                if in_a_row >= FAILURES_IN_A_ROW:
                    raise MailServerDown(f"{in_a_row} reminders refused in a row") from None
            else:
                in_a_row = 0
                if went:
                    sent += 1
                else:
                    report.capped += 1
                    capped.append((reminder.user_id, day))
    except (Exception, SoftTimeLimitExceeded) as exc:
        untried = [(r.user_id, day) for r, day in claimed[tried:]]
        claims_mark(untried, failed=False)
        claims_mark(failed + capped, failed=True)
        log.error("reminders: stopped (%s); %d players left due for the next run", exc, len(untried))
        if isinstance(exc, SoftTimeLimitExceeded):
            raise
        down = exc if isinstance(exc, MailServerDown) else MailServerDown(str(exc))
        down.sent, down.failed = sent, len(failed)
        raise down from exc if down is not exc else None
    finally:
        connection.close()
    claims_mark(failed + capped, failed=True)
    return sent, len(failed)


def reminders_send(
    now: datetime.datetime | None = None, batch: int = BATCH, budget_seconds: float | None = None
) -> RunReport:
    """Send every reminder due at `now`, a batch at a time (safe to run at any time, and at once
    on several workers: the claims decide who mails whom). No new batch is claimed once
    `budget_seconds` have passed: what is left stays due for the next run."""
    now = now or timezone.now()
    deadline = time.monotonic() + budget_seconds if budget_seconds is not None else None
    today = timezone.localdate(now)  # the site's day at `now` (site_today's rule): the dailies' date
    report = RunReport()
    dailies = list(DailyPuzzle.objects.for_date(today))
    if not dailies:
        log.warning("reminders: no puzzles published for %s; nobody reminded", today)
        return report
    dailies.sort(key=lambda d: TIER_ORDER.index(d.difficulty) if d.difficulty in TIER_ORDER else len(TIER_ORDER))
    puzzles = reminder_mail.puzzle_links(dailies)
    due, days = due_reminders(now, [daily.pk for daily in dailies])
    after = 0
    while deadline is None or time.monotonic() < deadline:
        after, claimed = claim_batch(due, days, now, batch, after)
        if not after:
            return report
        report.batches += 1
        if claimed:
            try:
                sent, failed = send_batch(claimed, today, puzzles, report)
            except MailServerDown as down:
                report.sent += down.sent
                report.failed += down.failed
                report.stopped = True
                return report
            report.sent += sent
            report.failed += failed
    return report
