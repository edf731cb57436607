"""Leagues: small boards among friends. A player with an account makes one, shares its invite
link, and its members see each other's times for every daily and a weekly standing.

The rules, in one place:
- Only players with an account own or join leagues; a guest is asked to sign up (accounts.py
  keeps a guest's play when they do).
- A league holds at most MAX_MEMBERS players, a player belongs to at most MAX_LEAGUES_PER_PLAYER.
- The owner cannot leave their league: they delete it, which removes it for every member.
- A client address makes at most CREATIONS_PER_HOUR leagues an hour (the guests' fixed window).
- The standing over some days (a week, or today on the home page): the most clean solves first
  (ranked solves: made on the puzzle's day, without hints or checks, not held for review, as the
  site's leaderboard counts them), then the smaller total of their ranked times (the times the
  leaderboard ranks them by), to the second.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count

from ..accounts.guests import is_guest
from ..accounts.ratelimits import hourly_allow
from ..models import League, Membership
from ..models.leagues import new_invite_code

User = get_user_model()

MAX_MEMBERS = 100
MAX_LEAGUES_PER_PLAYER = 20
CREATIONS_PER_HOUR = 10


class LeagueRefused(Exception):
    """A change to a league the rules refuse; its message is for the player."""


class LeaguesTooFast(LeagueRefused):
    """This address made CREATIONS_PER_HOUR leagues in the current hour."""

    def __init__(self, retry_after: int) -> None:
        minutes = max(1, -(-retry_after // 60))
        super().__init__(
            f"Too many new leagues from your address this hour: try again in {minutes} minute{'s' * (minutes > 1)}."
        )
        self.retry_after = retry_after


# --- who may do what ---------------------------------------------------------------------------


def can_play_in_leagues(user) -> bool:
    """A logged-in player with an account: not a visitor, not a guest."""
    return getattr(user, "is_authenticated", False) and not is_guest(user)


def league_of_member(league_id: int, user) -> League | None:
    """The league if `user` is one of its members, else None (the view's 404: a league's existence
    is never told to anyone outside it)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return League.objects.select_related("owner").filter(pk=league_id, memberships__user=user).first()


def league_by_code(code: str) -> League | None:
    """The league an invite code opens; None for a code no league has (mistyped, replaced, deleted)."""
    return League.objects.filter(invite_code=code).first()


# --- changes -----------------------------------------------------------------------------------


def creation_allow(address: str, now: float | None = None) -> None:
    """Count one league made from `address` this hour; raise LeaguesTooFast past the limit."""
    if (wait := hourly_allow("league-creations", address, CREATIONS_PER_HOUR, now)) is not None:
        raise LeaguesTooFast(wait)


def _lock_player(user) -> None:
    # The player's row is the lock on their number of leagues: two tabs creating or joining at
    # once cannot take them past the limit. Always taken before a league's row (no deadlock).
    list(User.objects.select_for_update().filter(pk=user.pk).values_list("pk"))


def _check_room_for(user) -> None:
    if Membership.objects.filter(user=user).count() >= MAX_LEAGUES_PER_PLAYER:
        raise LeagueRefused(
            f"You are in {MAX_LEAGUES_PER_PLAYER} leagues, the most a player can be in. Leave one to make room."
        )


def league_create(owner, name: str) -> League:
    """A new league named `name`, owned by `owner`, who is its first member."""
    if not can_play_in_leagues(owner):
        raise LeagueRefused("Sign up to make a league: guests cannot own one.")
    with transaction.atomic():
        _lock_player(owner)
        _check_room_for(owner)
        league = League.objects.create(name=name, owner=owner)
        Membership.objects.create(league=league, user=owner)
    return league


def league_join(league: League, user) -> bool:
    """Make `user` a member of `league`; True if they joined now, False if they already were."""
    if not can_play_in_leagues(user):
        raise LeagueRefused("Sign up to join a league: guests cannot join one.")
    with transaction.atomic():
        _lock_player(user)
        # The league's row is the lock on its number of members.
        list(League.objects.select_for_update().filter(pk=league.pk).values_list("pk"))
        if Membership.objects.filter(league=league, user=user).exists():
            return False
        _check_room_for(user)
        if Membership.objects.filter(league=league).count() >= MAX_MEMBERS:
            raise LeagueRefused(f"{league.name} is full: a league has at most {MAX_MEMBERS} members.")
        Membership.objects.create(league=league, user=user)
    return True


def league_leave(league: League, user) -> None:
    """`user` leaves `league` (nothing happens if they were not in it). The owner cannot: they
    delete the league instead."""
    if league.owner_id == user.pk:
        raise LeagueRefused("You own this league, so you cannot leave it. Delete it instead.")
    Membership.objects.filter(league=league, user=user).delete()


def league_remove(league: League, by, member_id: int) -> None:
    """The owner (`by`) removes a member; removing one already gone does nothing."""
    if league.owner_id != by.pk:
        raise PermissionError("Only the league's owner removes members.")
    if member_id == league.owner_id:
        raise LeagueRefused("The owner cannot be removed. Delete the league instead.")
    Membership.objects.filter(league=league, user_id=member_id).delete()


def league_delete(league: League, by) -> None:
    """The owner (`by`) deletes the league with its memberships, for every member."""
    if league.owner_id != by.pk:
        raise PermissionError("Only the league's owner deletes it.")
    league.delete()


def league_new_code(league: League, by) -> str:
    """The owner (`by`) replaces the invite code: the old link stops working. The new code."""
    if league.owner_id != by.pk:
        raise PermissionError("Only the league's owner replaces its invite link.")
    league.invite_code = new_invite_code()
    league.save(update_fields=["invite_code"])
    return league.invite_code


# --- reading -----------------------------------------------------------------------------------


def leagues_of(user) -> list[League]:
    """The player's leagues, by name, each with `member_count`."""
    return list(
        League.objects.filter(pk__in=Membership.objects.filter(user=user).values("league_id"))
        .select_related("owner")
        .annotate(member_count=Count("memberships"))
    )


def members_of(league: League) -> list[Membership]:
    """The league's memberships, first to join first, with their users."""
    return list(league.memberships.select_related("user").order_by("joined", "id"))
