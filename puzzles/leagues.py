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

import datetime
from collections import defaultdict
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count

from . import fairplay
from .engine.clock import clock
from .guests import is_guest
from .models import TIER_ORDER, Attempt, DailyPuzzle, League, Membership, Solve
from .models.leagues import new_invite_code
from .ratelimits import hourly_allow

User = get_user_model()

MAX_MEMBERS = 100
MAX_LEAGUES_PER_PLAYER = 20
CREATIONS_PER_HOUR = 10
HOME_TOP = 3  # members shown on a league's card on the home page

# Why the record of play earns no rank (fairplay's codes), in a few words about someone else's solve.
UNRANKED_WORDS = {
    fairplay.NO_RECORD: "no record of the moves",
    fairplay.NEW_ACCOUNT: "new account",
    fairplay.IN_SUBMIT: "digits sent at the end",
    fairplay.LARGE_WRITES: "digits sent in bulk",
    fairplay.TOO_FAST: "faster than a person",
}


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


def week_of(day: datetime.date) -> tuple[datetime.date, datetime.date]:
    """The Monday and the Sunday of the week (dates in the site's time zone) that holds `day`."""
    monday = day - datetime.timedelta(days=day.weekday())
    return monday, monday + datetime.timedelta(days=6)


def solve_marks(solve: Solve) -> list[str]:
    """Why a solve is not on the day's leaderboard, in words (an empty list for a clean one)."""
    marks = []
    if solve.late:
        marks.append("late")
    if solve.hinted:
        marks.append("with hints or checks")
    if solve.review == Solve.Review.DISQUALIFIED:
        marks.append("disqualified")
    elif solve.flagged and solve.review != Solve.Review.APPROVED:
        marks.append("held for review")
    if solve.unranked:
        marks.append(f"not ranked: {UNRANKED_WORDS.get(solve.unranked, solve.unranked)}")
    return marks


@dataclass
class BoardRow:
    username: str
    rank: int | None = None  # among the league's ranked solves of the daily; None when not ranked
    seconds: float | None = None  # a ranked solve's ranked time, another's clock; None when not solved
    marks: list[str] = field(default_factory=list)  # why not ranked, in words
    started: bool = False  # an attempt without a solve yet
    is_player: bool = False

    @property
    def time(self) -> str:
        return clock(self.seconds)


@dataclass
class DifficultyBoard:
    difficulty: str
    daily: DailyPuzzle | None
    rows: list[BoardRow]  # ranked solves first (fastest first), other solves, then started ones
    not_played: list[str]  # members with no attempt at the daily

    @property
    def label(self) -> str:
        return self.difficulty.capitalize()


def _ranked_ids(solves: list[Solve]) -> set[int]:
    # The site's leaderboard decides what is ranked (Solve.objects.ranked()): a league ranks the
    # same solves, so a rule added there (an account's age, say) holds here without a change.
    return set(Solve.objects.ranked().filter(pk__in=[s.pk for s in solves]).values_list("pk", flat=True))


def _with_ranks(rows: list[BoardRow]) -> None:
    """Ranks for the ranked rows (already in order): equal whole-second times share one."""
    previous: BoardRow | None = None
    for position, row in enumerate(rows, start=1):
        tied = previous is not None and int(previous.seconds or 0) == int(row.seconds or 0)
        row.rank = previous.rank if tied and previous else position
        previous = row


def league_day(league: League, day: datetime.date, viewer_id: int | None = None) -> list[DifficultyBoard]:
    """The league's board of one day: for each difficulty, every member's solve (ranked ones with a
    rank, the others marked in words), who started and who has not played."""
    members = {m.user_id: m.user.get_username() for m in members_of(league)}
    dailies = {d.difficulty: d for d in DailyPuzzle.objects.filter(date=day)}
    solves = list(
        Solve.objects.filter(daily__in=dailies.values(), user_id__in=members)
        .annotate(rank_time=fairplay.RANK_TIME)
        .order_by("seconds", "pk")
    )
    ranked = _ranked_ids(solves)
    started = set(
        Attempt.objects.filter(daily__in=dailies.values(), user_id__in=members, solve__isnull=True).values_list(
            "daily_id", "user_id"
        )
    )
    boards = []
    for tier in TIER_ORDER:
        daily = dailies.get(tier)
        if daily is None:
            boards.append(DifficultyBoard(tier, None, [], []))
            continue
        mine = [s for s in solves if s.daily_id == daily.pk]
        # Ranked solves by the time the leaderboard ranks them by (leaderboard.py), as it shows them.
        clean = [
            BoardRow(members[s.user_id], seconds=s.rank_time, is_player=s.user_id == viewer_id)
            for s in sorted((s for s in mine if s.pk in ranked), key=lambda s: (s.rank_time, s.solved_at, s.pk))
        ]
        _with_ranks(clean)
        others = [
            BoardRow(
                members[s.user_id],
                seconds=s.seconds,
                marks=solve_marks(s) or ["not ranked"],
                is_player=s.user_id == viewer_id,
            )
            for s in mine
            if s.pk not in ranked
        ]
        done = {s.user_id for s in mine}
        playing = sorted(
            (
                BoardRow(name, marks=["started, not finished"], started=True, is_player=uid == viewer_id)
                for uid, name in members.items()
                if uid not in done and (daily.pk, uid) in started
            ),
            key=lambda row: row.username.lower(),
        )
        idle = sorted(
            (name for uid, name in members.items() if uid not in done and (daily.pk, uid) not in started),
            key=str.lower,
        )
        boards.append(DifficultyBoard(tier, daily, clean + others + playing, idle))
    return boards


@dataclass
class StandingRow:
    username: str
    clean: int  # clean solves over the days
    seconds: float  # their total time
    rank: int = 0
    is_player: bool = False

    @property
    def time(self) -> str:
        return clock(self.seconds) if self.clean else "—"


def _standing(names: dict[int, str], totals: dict[int, list[float]], viewer_id: int | None) -> list[StandingRow]:
    rows = [
        StandingRow(name, len(totals.get(uid, [])), sum(totals.get(uid, [])), is_player=uid == viewer_id)
        for uid, name in names.items()
    ]
    rows.sort(key=lambda r: (-r.clean, int(r.seconds), r.username.lower()))
    previous: StandingRow | None = None
    for position, row in enumerate(rows, start=1):
        tied = previous is not None and (previous.clean, int(previous.seconds)) == (row.clean, int(row.seconds))
        row.rank = previous.rank if tied and previous else position
        previous = row
    return rows


def _clean_times(user_ids, first: datetime.date, last: datetime.date) -> dict[int, list[float]]:
    times: dict[int, list[float]] = defaultdict(list)
    clean = Solve.objects.ranked().filter(user_id__in=user_ids, daily__date__gte=first, daily__date__lte=last)
    for uid, seconds in clean.annotate(rank_time=fairplay.RANK_TIME).values_list("user_id", "rank_time"):
        times[uid].append(seconds)
    return times


def league_standing(
    league: League, first: datetime.date, last: datetime.date, viewer_id: int | None = None
) -> list[StandingRow]:
    """Every member's standing over the dailies from `first` to `last` (the module's rule)."""
    names = {m.user_id: m.user.get_username() for m in members_of(league)}
    return _standing(names, _clean_times(list(names), first, last), viewer_id)


@dataclass
class LeagueCard:
    league: League
    top: list[StandingRow]  # the first HOME_TOP members with a clean solve today
    player: StandingRow | None  # the player's own row when it is below them
    members: int


def home_cards(user, day: datetime.date) -> list[LeagueCard]:
    """For the home page: each of the player's leagues with its standing for `day`, in a few queries
    whatever the number of leagues."""
    leagues = list(League.objects.filter(memberships__user=user))
    if not leagues:
        return []
    names: dict[int, dict[int, str]] = defaultdict(dict)
    memberships = Membership.objects.filter(league__in=leagues).values_list("league_id", "user_id", "user__username")
    for league_id, uid, username in memberships:
        names[league_id][uid] = username
    everyone = {uid for members in names.values() for uid in members}
    times = _clean_times(everyone, day, day)
    cards = []
    for league in leagues:
        rows = _standing(names[league.pk], times, user.pk)
        top = [row for row in rows[:HOME_TOP] if row.clean]
        own = next((row for row in rows if row.is_player), None)
        below = own if own is not None and own.clean and own not in top else None
        cards.append(LeagueCard(league, top, below, len(names[league.pk])))
    return cards
