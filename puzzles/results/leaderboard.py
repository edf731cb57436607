"""A day's leaderboard for one daily, and where a player's solve stands on it.

Only ranked solves count (Solve.objects.ranked(): on the day, without hints, with a record of play
that earns a rank, not held for review, not a guest's; ranking.py has the rules). A guest's solve
is told where it would place them, to invite a sign-up.
Solves are ranked by their ranked time (ranking.RANK_TIME: the time the page was open, as the
record shows it; the clock's time for solves older than the record), compared to the whole second,
as the page shows them: two players both shown 4:05 share a rank, and the one listed first is the
faster by the fraction, then the earlier.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..fairplay import ranking
from ..models import DailyPuzzle, Guest, Solve, SolveQuerySet, site_today
from .history import format_duration as clock

TOP = 20


@dataclass(frozen=True)
class Row:
    rank: int
    username: str
    seconds: float
    is_player: bool = False
    solve_id: int | None = None  # for the link to its replay

    @property
    def time(self) -> str:
        return clock(self.seconds)


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

    @property
    def time(self) -> str:
        return clock(self.seconds)

    @property
    def ranked_time(self) -> str:
        return clock(self.ranked_seconds) if self.ranked_seconds is not None else ""

    @property
    def sentence(self) -> str:
        """One line for the page: 'Faster than 62% of today's solvers.' or why not ranked."""
        if self.guest and not self.reasons:
            day = "today" if self.today else "that day"
            how = "sign up and verify your email" if self.new_account else "sign up"
            return f"Your time would be {ordinal(self.rank)} of {self.solvers} {day} — {how} to be ranked."
        if not self.ranked:
            return "Not on the leaderboard: " + "; ".join(self.reasons) + "."
        if self.solvers == 1:
            return "You're the only ranked solver so far."
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
    rules: list[str] = field(default_factory=list)  # how ranking works, as the page writes it


def _ranked(daily: DailyPuzzle) -> SolveQuerySet:
    return Solve.objects.ranked().filter(daily=daily).annotate(rank_time=ranking.RANK_TIME)


def rank_time(solve: Solve) -> float:
    """The time a solve is ranked by (ranking.RANK_TIME, for one solve)."""
    return solve.ranked_seconds if solve.ranked_seconds is not None else solve.seconds


def leaderboard_for(daily: DailyPuzzle, user_id: int | None = None, top: int = TOP) -> Leaderboard:
    """The daily's top `top` ranked solves, equal times sharing a rank, and the player's own row
    when it falls below them."""
    ranked = _ranked(daily)
    solves = list(ranked.select_related("user").order_by("rank_time", "solved_at", "pk")[:top])
    rows: list[Row] = []
    for position, solve in enumerate(solves, start=1):
        tied = rows and int(rows[-1].seconds) == int(solve.rank_time)
        rank = rows[-1].rank if tied else position
        rows.append(Row(rank, solve.user.get_username(), solve.rank_time, solve.user_id == user_id, solve.pk))
    player_row = None
    if user_id is not None and not any(r.is_player for r in rows):
        own = ranked.select_related("user").filter(user_id=user_id).first()
        if own is not None:
            player_row = Row(_rank_of(ranked, own.rank_time), own.user.get_username(), own.rank_time, True, own.pk)
    return Leaderboard(daily, rows, player_row, ranked.count(), ranking.rules(daily.difficulty))


def _rank_of(ranked: SolveQuerySet, seconds: float) -> int:
    """1 + the ranked solves shown with a smaller whole-second ranked time."""
    return 1 + ranked.filter(rank_time__lt=int(seconds)).count()


def _not_ranked_because(solve: Solve) -> list[str]:
    reasons = []
    if solve.late:
        reasons.append("you played it after its day")
    if solve.hinted:
        reasons.append("you used hints or checks")
    if solve.unranked:
        reasons.append(ranking.reason(solve.unranked))
    if solve.review == Solve.Review.DISQUALIFIED:
        reasons.append("it was disqualified after review")
    elif solve.flagged and solve.review != Solve.Review.APPROVED:
        reasons.append(ranking.held_because(solve))
    return reasons


def standing_of(solve: Solve) -> Standing:
    """Where a solve stands among the day's ranked solves of its daily."""
    reasons = _not_ranked_because(solve)
    today = solve.daily.date == site_today()
    ranked = _ranked(solve.daily)
    mine = rank_time(solve)
    # Said only when the two read differently: the page shows the clock's time as the solve's.
    shown = mine if int(mine) != int(solve.seconds) else None
    if Guest.objects.filter(user_id=solve.user_id).exists():
        # A guest is new by nature: signing up with an email and verifying it ranks the solve
        # (ranking.account_verified), so the sign-up invitation still says where it would place.
        new_account = reasons == [ranking.reason(ranking.NEW_ACCOUNT)]
        if reasons and not new_account:
            reasons.append("you play as a guest")
            return Standing(solve.seconds, ranked=False, reasons=reasons, today=today, guest=True)
        # Where the time would place them among the day's ranked solves, counting itself.
        rank, solvers = _rank_of(ranked, mine), ranked.count() + 1
        return Standing(
            solve.seconds,
            ranked=False,
            rank=rank,
            solvers=solvers,
            today=today,
            guest=True,
            ranked_seconds=shown,
            new_account=new_account,
        )
    if reasons:
        return Standing(solve.seconds, ranked=False, reasons=reasons, today=today)
    solvers = ranked.count()
    slower = ranked.filter(rank_time__gte=int(mine) + 1).count()
    # Rounded down, so a player is never told they did better than they did.
    percentile = slower * 100 // solvers if solvers else 0
    return Standing(
        solve.seconds,
        ranked=True,
        rank=_rank_of(ranked, mine),
        percentile=percentile,
        solvers=solvers,
        today=today,
        ranked_seconds=shown,
    )


def median_time(daily: DailyPuzzle) -> tuple[float | None, int]:
    """The median of the daily's ranked times, and how many ranked solves there are; (None, 0) for none."""
    return ranking.day_median(daily)
