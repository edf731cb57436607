"""A day's leaderboard for one daily, and where a player's solve stands on it.

Only ranked solves count (Solve.objects.ranked(): on the day, without hints, not flagged, not a
guest's). A guest's solve is told where it would place them, to invite a sign-up.
Times are compared to the whole second, as the page shows them: two players both shown 4:05
share a rank, and the one listed first is the faster by the fraction, then the earlier.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.conf import settings

from .models import DailyPuzzle, Guest, Solve, SolveQuerySet, site_today
from .record import format_duration as clock

TOP = 20


@dataclass(frozen=True)
class Row:
    rank: int
    username: str
    seconds: float
    is_player: bool = False

    @property
    def time(self) -> str:
        return clock(self.seconds)


@dataclass
class Standing:
    """Where one player's solve stands: ranked with a percentile, or why it is not ranked."""

    seconds: float
    ranked: bool
    rank: int | None = None
    percentile: int | None = None  # share (0-100) of the day's ranked solvers strictly slower
    solvers: int = 0  # ranked solvers of the daily, the player included when ranked
    reasons: list[str] = field(default_factory=list)  # why the solve is not ranked
    today: bool = True  # the daily is today's (else the wording says "that day's")
    guest: bool = False  # a guest's solve, ranked otherwise: rank and solvers say where it would be

    @property
    def time(self) -> str:
        return clock(self.seconds)

    @property
    def sentence(self) -> str:
        """One line for the page: 'Faster than 62% of today's solvers.' or why not ranked."""
        if self.guest and not self.reasons:
            day = "today" if self.today else "that day"
            return f"Your time would be {ordinal(self.rank)} of {self.solvers} {day} — sign up to be ranked."
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


def _ranked(daily: DailyPuzzle) -> SolveQuerySet:
    return Solve.objects.ranked().filter(daily=daily)


def leaderboard_for(daily: DailyPuzzle, user_id: int | None = None, top: int = TOP) -> Leaderboard:
    """The daily's top `top` ranked solves, equal times sharing a rank, and the player's own row
    when it falls below them."""
    ranked = _ranked(daily)
    solves = list(ranked.select_related("user").order_by("seconds", "solved_at", "pk")[:top])
    rows: list[Row] = []
    for position, solve in enumerate(solves, start=1):
        tied = rows and int(rows[-1].seconds) == int(solve.seconds)
        rank = rows[-1].rank if tied else position
        rows.append(Row(rank, solve.user.get_username(), solve.seconds, solve.user_id == user_id))
    player_row = None
    if user_id is not None and not any(r.is_player for r in rows):
        own = ranked.select_related("user").filter(user_id=user_id).first()
        if own is not None:
            player_row = Row(_rank_of(ranked, own.seconds), own.user.get_username(), own.seconds, True)
    return Leaderboard(daily, rows, player_row, ranked.count())


def _rank_of(ranked: SolveQuerySet, seconds: float) -> int:
    """1 + the ranked solves shown with a smaller whole-second time."""
    return 1 + ranked.filter(seconds__lt=int(seconds)).count()


def _not_ranked_because(solve: Solve) -> list[str]:
    reasons = []
    if solve.late:
        reasons.append("you played it after its day")
    if solve.hinted:
        reasons.append("you used hints or checks")
    if solve.flagged:
        floor = settings.LEADERBOARD_FLOOR_SECONDS.get(solve.daily.difficulty, 0)
        reasons.append(f"it was under {clock(floor)}, so it is flagged as too fast until an admin checks it")
    return reasons


def standing_of(solve: Solve) -> Standing:
    """Where a solve stands among the day's ranked solves of its daily."""
    reasons = _not_ranked_because(solve)
    today = solve.daily.date == site_today()
    ranked = _ranked(solve.daily)
    if Guest.objects.filter(user_id=solve.user_id).exists():
        if reasons:
            reasons.append("you play as a guest")
            return Standing(solve.seconds, ranked=False, reasons=reasons, today=today, guest=True)
        # Where the time would place them among the day's ranked solves, counting itself.
        rank, solvers = _rank_of(ranked, solve.seconds), ranked.count() + 1
        return Standing(solve.seconds, ranked=False, rank=rank, solvers=solvers, today=today, guest=True)
    if reasons:
        return Standing(solve.seconds, ranked=False, reasons=reasons, today=today)
    solvers = ranked.count()
    slower = ranked.filter(seconds__gte=int(solve.seconds) + 1).count()
    # Rounded down, so a player is never told they did better than they did.
    percentile = slower * 100 // solvers if solvers else 0
    return Standing(
        solve.seconds,
        ranked=True,
        rank=_rank_of(ranked, solve.seconds),
        percentile=percentile,
        solvers=solvers,
        today=today,
    )


def median_time(daily: DailyPuzzle) -> tuple[float | None, int]:
    """The median of the daily's ranked solve times, and how many there are; (None, 0) for none."""
    ranked = _ranked(daily).order_by("seconds")
    count = ranked.count()
    if not count:
        return None, 0
    middle = list(ranked.values_list("seconds", flat=True)[(count - 1) // 2 : count // 2 + 1])
    return sum(middle) / len(middle), count
