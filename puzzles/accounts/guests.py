"""Guests: a visitor plays at once, as a real user row marked as a guest (models.Guest).

The row is made on the board's first write (views/api.py) and kept by the session cookie; it
has no usable password, and its username starts with GUEST_PREFIX, which sign-ups may not take
(adapter.USERNAME_VALIDATORS). Signing up turns the row itself into the account (adapter.py),
so nothing is copied; logging in to an existing account moves the guest's attempts over
(guest_merge). Guests are never ranked (leaderboard.py); idle ones are deleted by a beat task.
"""

from __future__ import annotations

import datetime
import logging
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.http import HttpRequest
from django.utils import timezone

from ..models import Attempt, BroughtAttempt, Guest, Hint, PracticeAnswer, Solve, TechniqueUse
from ..play.preferences import preferences_move
from .ratelimits import hourly_refund, hourly_wait

if TYPE_CHECKING:
    from django.contrib.auth.models import User as UserModel

log = logging.getLogger(__name__)

User = get_user_model()

GUEST_PREFIX = "guest-"

# Where a guest waits on the request while the sign-up and log-in pages treat them as a visitor
# (views/accounts.py), for the adapter to convert or merge them (adapter.py).
KEPT_GUEST = "guest"

GUEST_CREATIONS = "guest-creations"  # what the hourly limit per client counts

# Whose boards the session's player took over from a guest, by signing up or logging in from the
# guest's session: the state API says so (views/api.py), and the board takes over the undo
# history this device kept for that guest (static/js/undo.js), as it keeps it over a reload.
BOARDS_FROM_GUEST = "boards-from-guest"


class GuestsTooFast(Exception):
    """This address has made settings.GUEST_CREATIONS_PER_HOUR guests in the current hour."""

    def __init__(self, retry_after: int) -> None:
        super().__init__("Too many new guests from your address. Sign up or log in, or try again later.")
        self.retry_after = retry_after


def is_guest(user) -> bool:
    """Whether a (possibly anonymous) user is a guest. Only names with the guest prefix pay a query:
    the state API asks on every opening of a puzzle."""
    if not getattr(user, "is_authenticated", False) or not user.get_username().startswith(GUEST_PREFIX):
        return False
    return Guest.objects.filter(user_id=user.pk).exists()


def keep_guest(request: HttpRequest, guest: UserModel | None) -> None:
    """Keep the guest on the request (None: none any more)."""
    setattr(request, KEPT_GUEST, guest)


def kept_guest(request: HttpRequest) -> UserModel | None:
    """The guest kept on the request, if any."""
    return getattr(request, KEPT_GUEST, None)


def limit_guest_creations(address: str, now: float | None = None) -> float:
    """Count one guest creation for the address's client this hour; raise GuestsTooFast past the
    limit. The moment counted, for refund_guest_creation."""
    now = time.time() if now is None else now
    if (wait := hourly_wait(GUEST_CREATIONS, address, settings.GUEST_CREATIONS_PER_HOUR, now)) is not None:
        raise GuestsTooFast(wait)
    return now


def refund_guest_creation(address: str, counted_at: float) -> None:
    """Take back a creation counted at `counted_at`: its write was refused, so no guest was made."""
    hourly_refund(GUEST_CREATIONS, address, counted_at)


def guest_create():
    """A new guest user: a generated name no sign-up can take, no usable password."""
    with transaction.atomic():
        user = User(username=GUEST_PREFIX + secrets.token_hex(8))
        user.set_unusable_password()
        user.save()
        Guest.objects.create(user=user)
    return user


def guest_convert(user) -> None:
    """The guest row becomes a real account (its username and password are set by the sign-up)."""
    Guest.objects.filter(user_id=user.pk).delete()


def remember_guest_boards(request: HttpRequest, guest_id: int, dailies: Iterable[int] | None = None) -> None:
    """The session's player has the boards of guest `guest_id`: every one (a sign-up, None) or
    those of `dailies` (a log-in that moved them)."""
    request.session[BOARDS_FROM_GUEST] = [guest_id, None if dailies is None else sorted(dailies)]


def board_from_guest(request: HttpRequest, daily_id: int) -> int | None:
    """The guest whose board at this daily the session's player took over, if any."""
    kept = request.session.get(BOARDS_FROM_GUEST)
    if not isinstance(kept, list) or len(kept) != 2:
        return None
    guest_id, dailies = kept
    return guest_id if dailies is None or daily_id in dailies else None


@dataclass(frozen=True)
class Merged:
    moved: int  # the guest's attempts now the account's
    kept: int  # dailies both had played: the account's own attempt stayed, the guest's went
    dailies: tuple[int, ...] = ()  # the dailies of the attempts moved

    @property
    def message(self) -> str:
        if not self.moved and not self.kept:
            return ""
        parts = []
        if self.moved:
            parts.append(f"Moved {_puzzles(self.moved)} you played as a guest to your account")
        if self.kept:
            parts.append(f"kept your own progress on {_puzzles(self.kept)}")
        text = "; ".join(parts)
        return text[0].upper() + text[1:] + "."


def _puzzles(n: int) -> str:
    return f"{n} puzzle{'' if n == 1 else 's'}"


def guest_merge(guest, account) -> Merged:
    """Move the guest's attempts (with their solves, hints and technique uses) to the account for the dailies it
    has not touched, keep the account's own where both played, then delete the guest.

    All or nothing: one transaction, so a failure leaves the guest and the account as they were.
    """
    with transaction.atomic():
        # Lock the guest's row: two log-ins racing from the same session merge it once.
        if not list(User.objects.select_for_update().filter(pk=guest.pk, guest__isnull=False).values_list("pk")):
            return Merged(0, 0)
        theirs = Attempt.objects.filter(user=account)
        mine = Attempt.objects.filter(user=guest)
        both = mine.filter(daily__in=theirs.values("daily"))
        kept = both.count()
        moving_rows = list(mine.exclude(pk__in=both.values("pk")).values_list("pk", "daily_id"))
        moving = [pk for pk, _ in moving_rows]
        Solve.objects.filter(attempt_id__in=moving).update(user=account)
        Hint.objects.filter(attempt_id__in=moving).update(user=account)
        TechniqueUse.objects.filter(solve__attempt_id__in=moving).update(user=account)
        moved = Attempt.objects.filter(pk__in=moving).update(user=account)
        preferences_move(guest, account)
        PracticeAnswer.objects.filter(user=guest).update(user=account)
        # Puzzles the guest brought go along too, where the account has not played them itself.
        brought = BroughtAttempt.objects.filter(user=guest).exclude(puzzle__attempts__user=account)
        brought.update(user=account)
        User.objects.filter(pk=guest.pk).delete()  # its remaining attempts, solves and hints go with it
    return Merged(moved, kept, tuple(daily for _, daily in moving_rows))


def guests_idle(now: datetime.datetime | None = None):
    """Guests with no log-in (a guest is logged in once, when made) and no attempt touched since
    GUEST_TTL_DAYS ago, at a daily or a brought puzzle."""
    cutoff = (now or timezone.now()) - datetime.timedelta(days=settings.GUEST_TTL_DAYS)
    recent = Attempt.objects.filter(user=OuterRef("pk"), updated_at__gte=cutoff)
    brought = BroughtAttempt.objects.filter(user=OuterRef("pk"), updated_at__gte=cutoff)
    return User.objects.filter(guest__isnull=False, guest__created__lt=cutoff).filter(
        Q(last_login__isnull=True) | Q(last_login__lt=cutoff), ~Exists(recent), ~Exists(brought)
    )


def guests_delete_idle(now: datetime.datetime | None = None, batch: int = 500) -> int:
    """Delete idle guests with their attempts, solves and hints, `batch` users per transaction;
    the number deleted. Running it twice deletes nothing more."""
    deleted = 0
    while True:
        ids = list(guests_idle(now).values_list("pk", flat=True)[:batch])
        if not ids:
            break
        with transaction.atomic():
            # Checked again inside the transaction: a guest who came back meanwhile stays.
            _, counts = User.objects.filter(
                pk__in=list(guests_idle(now).filter(pk__in=ids).values_list("pk", flat=True))
            ).delete()
        deleted += counts.get(User._meta.label, 0)
        if len(ids) < batch:
            break
    log.info("deleted %d idle guests", deleted)
    return deleted
