"""A league's boards: its members' solves of one day, and the standing over some days (a week, or
today on the home page), ranked by the same rule as the site's leaderboard (fairplay/ranking.py).
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass, field

from ..durations import clock
from ..fairplay import ranking
from ..models import TIER_ORDER, Attempt, DailyPuzzle, League, Membership, Solve
from .membership import members_of

HOME_TOP = 3  # members shown on a league's card on the home page

# Why the record of play earns no rank (fairplay's codes), in a few words about someone else's solve.
UNRANKED_WORDS = {
    ranking.NO_RECORD: "no record of the moves",
    ranking.NEW_ACCOUNT: "new account",
    ranking.IN_SUBMIT: "digits sent at the end",
    ranking.LARGE_WRITES: "digits sent in bulk",
    ranking.TOO_FAST: "faster than a person",
}


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
        .annotate(rank_time=ranking.RANK_TIME)
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
    for uid, seconds in clean.annotate(rank_time=ranking.RANK_TIME).values_list("user_id", "rank_time"):
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
