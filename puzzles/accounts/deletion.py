"""Deleting a player: an account, or a guest, and everything the site holds about them.

`player_delete` removes the user row, and with it (the database's cascades) every attempt and its
record of play, solve, hint, check, review, rating and rating change, streak freeze, setting,
reminder and reminder sent, push subscription, practice answer, league membership, email address
and its confirmations, username change and signed-in session record; it also ends every session
the account logged in (allauth's UserSession knows them), hands each league the player owned to
its longest-standing member (or deletes it when nobody else is in it), and takes the player's
name and addresses out of the admin's log, whose entries about other objects may quote them
(a solve's "alice solved ..."). All of it in one transaction: a failure deletes nothing.

What stays, with no link to the person: the puzzles' ratings, which the player's rated solves
moved (numbers on each puzzle, docs/ratings.md), and so the ratings other players' later solves
were judged against. The day's boards drop the player's solves at once: their fingerprint
counts the ranked solves (results/leaderboard.py).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING

from allauth.account.models import EmailAddress
from allauth.usersessions.models import UserSession
from django.conf import settings
from django.contrib.admin.models import DELETION, LogEntry
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q

from ..models import League, Membership
from .logins import user_cache_key

if TYPE_CHECKING:
    from django.contrib.auth.models import User as UserModel

log = logging.getLogger(__name__)

User = get_user_model()

# What the admin's log says of a deletion, and what it says in place of the player's name or address.
DELETED_REPR = "a deleted player"


@dataclass(frozen=True)
class Deleted:
    leagues_handed_over: int
    leagues_deleted: int
    sessions_ended: int


def player_delete(user: UserModel, *, by_staff: UserModel | None = None) -> Deleted:
    """Delete the player and everything of theirs (this module's docstring says what stays). With
    `by_staff`, the admin's log records that a staff member deleted a player, and not whom."""
    names = identifiers(user)
    with transaction.atomic():
        # One deletion at a time for the row: a second request finds it gone and deletes nothing.
        if not User.objects.select_for_update().filter(pk=user.pk).exists():
            return Deleted(0, 0, 0)
        handed, dropped = _leagues_handed_over(user, names)
        keys = list(UserSession.objects.filter(user_id=user.pk).values_list("session_key", flat=True))
        _admin_log_forgets(user, names)
        User.objects.filter(pk=user.pk).delete()
        ended = _sessions_end(keys)
        if by_staff is not None:
            LogEntry.objects.create(
                user=by_staff,
                content_type=ContentType.objects.get_for_model(User),
                object_id=None,
                object_repr=DELETED_REPR,
                action_flag=DELETION,
                change_message="Deleted a player's account and data at the player's request.",
            )
        # A request reading the user before the commit may have kept it in the cache again.
        transaction.on_commit(lambda: cache.delete(user_cache_key(user.pk)))
    log.info("deleted a player: %d leagues handed over, %d deleted, %d sessions ended", handed, dropped, ended)
    return Deleted(handed, dropped, ended)


def identifiers(user: UserModel) -> list[str]:
    """The player's username and every email address the site has for them."""
    addresses = EmailAddress.objects.filter(user_id=user.pk).values_list("email", flat=True)
    return sorted({name for name in (user.get_username(), user.email, *addresses) if name})


def _leagues_handed_over(user: UserModel, names: list[str]) -> tuple[int, int]:
    """Each league the player owns goes to its longest-standing other member, its name no longer
    quoting the player's ("ada's friends" becomes "a deleted player's friends"); a league with no
    other member is deleted. How many were handed over, and how many deleted."""
    handed = dropped = 0
    for league in League.objects.select_for_update().filter(owner_id=user.pk):
        heir = Membership.objects.filter(league=league).exclude(user_id=user.pk).order_by("joined", "id").first()
        if heir is None:
            league.delete()
            dropped += 1
        else:
            League.objects.filter(pk=league.pk).update(owner_id=heir.user_id, name=_unquoted(league.name, names))
            handed += 1
    return handed, dropped


def _unquoted(text: str, names: list[str]) -> str:
    """`text` with every quotation of the player's name or addresses (case aside) put as DELETED_REPR."""
    if not names:
        return text
    pattern = re.compile("|".join(re.escape(name) for name in sorted(names, key=len, reverse=True)), re.IGNORECASE)
    return pattern.sub(DELETED_REPR, text)


def _admin_log_forgets(user: UserModel, names: list[str]) -> None:
    """Take the player out of the admin's log: the entries about their user row go, and entries
    about other objects that quote their name or an address keep their action with the words
    replaced. Entries the player made as staff go with their user row (Django's cascade)."""
    LogEntry.objects.filter(content_type=ContentType.objects.get_for_model(User), object_id=str(user.pk)).delete()
    if not names:
        return
    quoting = Q()
    for name in names:
        quoting |= Q(object_repr__icontains=name) | Q(change_message__icontains=name)
    for entry in LogEntry.objects.filter(quoting).exclude(user_id=user.pk).iterator():
        entry.object_repr = _unquoted(entry.object_repr, names)[:200]
        entry.change_message = _unquoted(entry.change_message, names)
        entry.save(update_fields=["object_repr", "change_message"])


def _sessions_end(keys: list[str]) -> int:
    """End the sessions with these keys, in the session store's cache and database alike."""
    store = import_module(settings.SESSION_ENGINE).SessionStore
    for key in keys:
        store(session_key=key).delete()
    return len(keys)
