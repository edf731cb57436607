"""A day's leaderboard for one daily, and where a player's solve stands on it.

Only ranked solves count, by their ranked time, equal whole seconds sharing a place: the rule is
fairplay/ranking.py's, and its words fairplay/words.py's. A guest's solve is told where it would
place them, to invite a sign-up.
"""

from __future__ import annotations

import datetime
import functools
from bisect import bisect_left
from dataclasses import dataclass, field, replace
from typing import ClassVar

from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Max, Subquery, Sum
from django.db.models.lookups import GreaterThanOrEqual

from ..durations import format_duration
from ..fairplay import ranking, words
from ..models import DailyPuzzle, Guest, PlayerRating, Solve, SolveQuerySet, UsernameChange, site_today
from .unrated import new_account_step

TOP = 20


@dataclass(frozen=True)
class Row:
    rank: int
    username: str
    seconds: float
    is_player: bool = False
    solve_id: int | None = None  # for the link to its replay
    provisional: bool = False  # the player's rating is still new (ranking.is_provisional): marked "new"

    @property
    def time(self) -> str:
        return format_duration(self.seconds)


@dataclass
class Standing:
    """Where one player's solve stands: ranked with a percentile, or why it is not ranked."""

    seconds: float  # the player's own clock
    ranked: bool
    rank: int | None = None
    percentile: int | None = None  # share (0-100) of the day's ranked solvers strictly slower
    solvers: int = 0  # ranked solvers of the daily, the player included when ranked
    reasons: list[str] = field(default_factory=list)  # why the solve is not ranked
    today: bool = True  # the daily is today's (else the wording says "that day's")
    guest: bool = False  # a guest's solve, ranked otherwise: rank and solvers say where it would be
    ranked_seconds: float | None = None  # the time it is ranked by, when that reads otherwise than the clock
    new_account: bool = False  # a guest's solve, held back only as a new account's: a verified email ranks it
    step: words.Step | None = None  # an account's solve held back as a new account's: the link to the email page
    rated: bool = False  # not ranked for its day alone: it counts towards the player's rating
    checking: bool = False  # not judged yet (ranking.CHECKING): the page says so and asks again

    @property
    def time(self) -> str:
        return format_duration(self.seconds)

    @property
    def rank_shown(self) -> bool:
        """Whether the results say 'Rank 3 of 40': a ranked solve among others."""
        return self.ranked and self.solvers > 1

    @property
    def ranked_time(self) -> str:
        return format_duration(self.ranked_seconds) if self.ranked_seconds is not None else ""

    @property
    def sentence(self) -> str:
        """One line for the page: 'Faster than 62% of today's solvers.' or why not ranked."""
        if self.checking:
            return "Checking your time for the leaderboard…"
        if self.guest and not self.reasons and self.rank is not None:
            day = "today" if self.today else "that day"
            how = "sign up and verify your email" if self.new_account else "sign up"
            return f"Your time would be {ordinal(self.rank)} of {self.solvers} {day} — {how} to be ranked."
        if not self.ranked:
            rated = f" {words.LATE_BUT_RATED}" if self.rated else ""
            return "Not on the leaderboard: " + "; ".join(self.reasons) + "." + rated
        if self.solvers == 1:
            return "You're the only ranked solver so far."
        if self.rank == 1 and self.percentile == 0:  # every other ranked solver has the same time
            return f"Tied for the fastest time {'today' if self.today else 'that day'}."
        return f"Faster than {self.percentile}% of {'today' if self.today else 'that day'}'s solvers."


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass
class Leaderboard:
    daily: DailyPuzzle
    rows: list[Row]  # the top TOP, in order
    player_row: Row | None  # the player's own row when it is below the top
    solvers: int  # every ranked solve of the daily
    median: float | None = None  # the median ranked time (receipt.py shows it)
    key: str = ""  # names this board's ranked solves: a page may keep what it drew from the board under it

    # How ranking works, as the page writes it, and where to report a result: worked out when a
    # page draws them (the results keep that drawing, and most of their requests never ask).
    @property
    def rules(self) -> list[str]:
        return words.rules(self.daily.difficulty)

    @property
    def report_to(self) -> str:
        return words.report_address()

    report_words: ClassVar[str] = words.REPORT  # the sentence before the address, the same for every board


def _ranked(daily: DailyPuzzle) -> SolveQuerySet:
    return Solve.objects.ranked().filter(daily=daily).annotate(rank_time=ranking.RANK_TIME)


# The day's board (its top and its median) is the same for everyone, and every results page
# worked it out from four queries. It is kept in the shared cache under a fingerprint of the day's
# ranked solves (how many, and the sums of their ids and their players' ids) and of the names on
# it (the newest username change anywhere), read in one query: a new solve, a verdict or a hold
# decided again, a review, a guest's solves moved to their account, a deleted player, a new
# username all change it, so the board is as fresh as the request (a change keeping the count and
# both sums, two solves swapped at once with matching ids, would last BOARD_SECONDS at most). The
# "new" marks (players' ratings, moved by a task) may lag by BOARD_SECONDS too.
BOARD_SECONDS = 60


@dataclass(frozen=True)
class DayBoard:
    key: str  # the cache's key: the daily, its puzzle and the fingerprint of its ranked solves
    top: list[tuple[Row, int]]  # the top rows, each with its player's id
    solvers: int  # every ranked solve of the daily
    median: float | None  # the median ranked time, None without ranked solves
    # The ranked times in whole seconds, each once, in order, with how many ranked solves are
    # faster than each: a player's place and percentile are counted from them (by whole seconds,
    # as rank_among counts), not by two queries. They are as many as the day's times spread over
    # seconds, however many solved.
    seconds: tuple[int, ...] = ()
    faster: tuple[int, ...] = ()

    def faster_than(self, seconds: int) -> int:
        """How many ranked solves have a time under `seconds` whole seconds."""
        i = bisect_left(self.seconds, seconds)
        return self.faster[i] if i < len(self.seconds) else self.solvers


# A daily's id that none has, standing in for the daily in the fingerprint's SQL written once.
NO_DAILY = -1


Fingerprint = tuple[int, int | None, int | None, int | None]


@functools.cache
def fingerprint_sql() -> tuple[str, tuple]:
    """The fingerprint's query as the ORM writes it from Solve.objects.ranked(), for NO_DAILY:
    written once per process, as writing it took the ORM longer than the database takes to answer.
    Its columns are named n, ids, users and names (results/fastpath.py reads them in its own query)."""
    ranked = Solve.objects.ranked().filter(daily_id=NO_DAILY).order_by().values("daily_id")
    newest_name = UsernameChange.objects.order_by("-pk").values("pk")[:1]
    return (
        ranked.annotate(n=Count("pk"), ids=Sum("pk"), users=Sum("user_id"), names=Max(Subquery(newest_name)))
        .values_list("n", "ids", "users", "names")
        .query.sql_with_params()
    )


def fingerprint_of(daily: DailyPuzzle) -> Fingerprint:
    """How many ranked solves the daily has, the sums of their ids and of their players' ids, and
    the newest username change's id."""
    sql, params = fingerprint_sql()
    with connection.cursor() as cursor:
        cursor.execute(sql, [daily.pk if p == NO_DAILY else p for p in params])
        row = cursor.fetchone()
    return (row[0], row[1], row[2], row[3]) if row is not None else (0, None, None, None)


def board_key(daily: DailyPuzzle, fingerprint: Fingerprint, top: int = TOP) -> str:
    """Where the daily's board is kept while its ranked solves have that fingerprint."""
    solvers, ids, users, names = fingerprint
    return f"board:{daily.pk}:{daily.puzzle_id}:{top}:{solvers}:{ids}:{users}:{names}"


def day_board(
    daily: DailyPuzzle, top: int = TOP, *, fingerprint: Fingerprint | None = None, found: DayBoard | None = None
) -> DayBoard:
    """The daily's board as everyone sees it, from the cache while its ranked solves are the same.
    `fingerprint`: fingerprint_of(daily) if the caller read it already; `found`: what the caller
    read from the cache under board_key (the results page reads its keys in one go)."""
    key = board_key(daily, fingerprint_of(daily) if fingerprint is None else fingerprint, top)
    board = cache.get(key) if found is None else found
    if board is None:
        ranked = _ranked(daily)
        solves = list(ranked.select_related("user").order_by("rank_time", "solved_at", "pk")[:top])
        ranks = ranking.shared_ranks([int(ranking.rank_time(solve)) for solve in solves])
        ratings = {r.user_id: r for r in PlayerRating.objects.filter(user_id__in=[s.user_id for s in solves])}
        rows = [
            (
                Row(
                    rank,
                    solve.user.get_username(),
                    ranking.rank_time(solve),
                    solve_id=solve.pk,
                    provisional=ranking.is_provisional(ratings.get(solve.user_id)),
                ),
                solve.user_id,
            )
            for rank, solve in zip(ranks, solves)
        ]
        in_order = (
            Solve.objects.ranked().filter(daily=daily).annotate(rank_time=ranking.RANK_TIME).order_by("rank_time")
        )
        times = list(in_order.values_list("rank_time", flat=True))
        # day_median's rule, from the same times: the middle one, or the mean of the middle two.
        middle = times[(len(times) - 1) // 2 : len(times) // 2 + 1]
        median = sum(middle) / len(middle) if middle else None
        seconds: list[int] = []
        faster: list[int] = []
        for count, second in enumerate(int(t) for t in times):
            if not seconds or seconds[-1] != second:
                seconds.append(second)
                faster.append(count)
        board = DayBoard(key, rows, len(times), median, tuple(seconds), tuple(faster))
        cache.set(key, board, BOARD_SECONDS)
    return board


def leaderboard_for(
    daily: DailyPuzzle,
    user_id: int | None = None,
    top: int = TOP,
    *,
    board: DayBoard | None = None,
    standing: Standing | None = None,
    solve: Solve | None = None,
    provisional: bool | None = None,
) -> Leaderboard:
    """The daily's top `top` ranked solves, equal times sharing a rank, and the player's own row
    when it falls below them. A page that has the day's `board` and the player's `solve` with its
    `standing` already passes them, and the player's row is not looked for again; one that read
    the player's rating passes whether it is `provisional` (ranking.is_provisional)."""
    board = board or day_board(daily, top)
    rows = [replace(row, is_player=True) if uid == user_id else row for row, uid in board.top]
    player_row = None
    if user_id is not None and not any(uid == user_id for _, uid in board.top):
        if standing is not None and solve is not None:
            own = solve if standing.ranked else None  # the same rule as ranked() (fairplay/ranking.py)
        else:
            own = _ranked(daily).select_related("user").filter(user_id=user_id).first()
        if own is not None:
            own_time = ranking.rank_time(own)
            if provisional is None:
                provisional = ranking.is_provisional(PlayerRating.objects.filter(user_id=user_id).first())
            # The standing placed the same solve by the same rule (rank_among) a moment ago.
            rank = standing.rank if standing is not None and standing.rank is not None else None
            if rank is None:
                rank = ranking.rank_among(_ranked(daily), own_time)
            player_row = Row(rank, own.user.get_username(), own_time, True, own.pk, provisional)
    return Leaderboard(
        daily,
        rows,
        player_row,
        board.solvers,
        median=board.median,
        key=board.key,
    )


def standing_of(
    solve: Solve, board: DayBoard | None = None, guest: bool | None = None, today: datetime.date | None = None
) -> Standing:
    """Where a solve stands among the day's ranked solves of its daily; counted from its `board`
    when the page has read it already, with no query, as `guest` spares one when the page knows
    whether the player is a guest (and `today`, site_today(), when it has it)."""
    is_today = solve.daily.date == (today or site_today())
    if ranking.not_ranked_codes(solve) == [ranking.CHECKING]:
        return Standing(solve.seconds, ranked=False, today=is_today, checking=True)
    reasons = words.reasons_for_you(solve)
    mine = ranking.rank_time(solve)
    # Said only when the two read differently: the page shows the clock's time as the solve's.
    shown = mine if int(mine) != int(solve.seconds) else None

    def place() -> int:
        """rank_among's place, from the board when there is one."""
        return 1 + board.faster_than(int(mine)) if board is not None else ranking.rank_among(_ranked(solve.daily), mine)

    if guest is None:
        guest = Guest.objects.filter(user_id=solve.user_id).exists()
    if guest:
        # A guest is new by nature: signing up with an email and verifying it ranks the solve
        # (judge.account_verified), so the sign-up invitation still says where it would place.
        new_account = ranking.not_ranked_codes(solve) == [ranking.NEW_ACCOUNT]
        if reasons and not new_account:
            reasons.append("you play as a guest")
            return Standing(solve.seconds, ranked=False, reasons=reasons, today=is_today, guest=True)
        # Where the time would place them among the day's ranked solves, counting itself.
        solvers = (board.solvers if board is not None else _ranked(solve.daily).count()) + 1
        return Standing(
            solve.seconds,
            ranked=False,
            rank=place(),
            solvers=solvers,
            today=is_today,
            guest=True,
            ranked_seconds=shown,
            new_account=new_account,
        )
    if reasons:
        # A new account's: the step that verifies the address, worded for what it does for this
        # solve and for where the player's address is (one query, new accounts only).
        codes = ranking.not_ranked_codes(solve)
        step = new_account_step(solve, codes)
        rated = codes == [ranking.LATE]
        return Standing(solve.seconds, ranked=False, reasons=reasons, today=is_today, step=step, rated=rated)
    if board is not None:
        solvers, slower = board.solvers, board.solvers - board.faster_than(int(mine) + 1)
    else:
        ranked = _ranked(solve.daily)
        solvers = ranked.count()
        slower = ranked.filter(GreaterThanOrEqual(ranking.RANK_TIME, int(mine) + 1)).count()
    # Rounded down, so a player is never told they did better than they did.
    percentile = slower * 100 // solvers if solvers else 0
    return Standing(
        solve.seconds,
        ranked=True,
        rank=place(),
        percentile=percentile,
        solvers=solvers,
        today=is_today,
        ranked_seconds=shown,
    )


def median_time(daily: DailyPuzzle) -> tuple[float | None, int]:
    """The median of the daily's ranked times, and how many ranked solves there are; (None, 0) for
    none. Read with the day's board (see BOARD_SECONDS)."""
    board = day_board(daily, TOP)
    return board.median, board.solvers
