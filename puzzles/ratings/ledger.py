"""The ratings kept in solve order: ratings_catch_up() makes the RatingChange rows agree with the
rated solves, whatever order they arrived in and however often it runs.

The ledger is the RatingChange rows in order (solved_at, then the solve's id). Inside the rewind
window (settings.RATING_REWIND_HOURS back from now), the ledger should hold exactly the rated solves
in that order. At the first place where it does not (a new rated solve, or one that stopped being
rated, say disqualified) every change from there is wound back, newest first, by restoring the
before-values it kept, and the rated solves from there are played forward again. A solve that
becomes rated only after the window has passed over it is applied at the end, in arrival order,
its change placed at the moment it was applied; a ledger entry older than the window stays as it
is, even if its solve is disqualified later.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, Min, Q
from django.utils import timezone

from ..models import PlayerRating, PuzzleRating, RatingChange, Solve
from . import glicko2
from .contest import expected_seconds, judged_seconds, prior, score

Key = tuple[datetime.datetime, int]  # a solve's place in the order: (solved_at, solve id)

# Any fixed number will do: PostgreSQL's advisory locks are named by one, shared by every worker.
ADVISORY_LOCK = 250_001


def _lock() -> None:
    """Hold the ratings' lock until the transaction ends: one catch-up at a time."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [ADVISORY_LOCK])
    # SQLite lets one transaction write at a time, which serialises catch-ups by itself.


def _plan(now: datetime.datetime) -> tuple[list[Key], list[Key]]:
    """(the ledger inside the window, the rated solves as it should hold them), both in order."""
    since = now - datetime.timedelta(hours=settings.RATING_REWIND_HOURS)
    rows = list(
        RatingChange.objects.filter(solved_at__gte=since)
        .order_by("solved_at", "solve_id")
        .values_list("solved_at", "solve_id", "solve__solved_at")
    )
    ledger = [(at, solve_id) for at, solve_id, _ in rows]
    placed = {solve_id: at for at, solve_id in ledger}
    # Solves applied late sit in the window by their change, not by their own time: asked by id.
    placed_late = [solve_id for _, solve_id, made in rows if made < since]
    rated = Solve.objects.rated()
    wanted = [
        (placed.get(solve_id, solved_at), solve_id)
        for solve_id, solved_at in rated.filter(Q(solved_at__gte=since) | Q(pk__in=placed_late)).values_list(
            "pk", "solved_at"
        )
    ]
    wanted.sort()
    late = list(
        rated.filter(solved_at__lt=since, rating_change__isnull=True).order_by("pk").values_list("pk", flat=True)
    )
    if late:
        # After everything already there, so that applying them winds nothing back.
        at = max([now, *(key[0] for key in ledger[-1:]), *(key[0] for key in wanted[-1:])])
        wanted += [(at, solve_id) for solve_id in late]
    return ledger, wanted


def _first_difference(ledger: list[Key], wanted: list[Key]) -> int:
    for index, (held, should) in enumerate(zip(ledger, wanted)):
        if held != should:
            return index
    return min(len(ledger), len(wanted))


@dataclass
class _Book:
    """The rating rows touched by one catch-up, changed in memory and written once at the end."""

    now: datetime.datetime
    players: dict[int, PlayerRating] = field(default_factory=dict)
    puzzles: dict[int, PuzzleRating] = field(default_factory=dict)
    new: set[tuple[str, int]] = field(default_factory=set)
    # on_day_counts of the players about to be touched, before the ledger changes.
    on_day_before: dict[int, OnDay] = field(default_factory=dict)

    def load(self, users: Iterable[int], puzzles: Iterable[int]) -> None:
        """Read the rows not yet in hand (those in hand may have changed since)."""
        missing_users, missing_puzzles = set(users) - set(self.players), set(puzzles) - set(self.puzzles)
        self.players.update((r.user_id, r) for r in PlayerRating.objects.filter(user_id__in=missing_users))
        self.puzzles.update((r.puzzle_id, r) for r in PuzzleRating.objects.filter(puzzle_id__in=missing_puzzles))

    def player(self, user_id: int) -> PlayerRating:
        if user_id not in self.players:
            self.players[user_id] = PlayerRating(user_id=user_id)
            self.new.add(("player", user_id))
        return self.players[user_id]

    def puzzle(self, puzzle_id: int, tier: str) -> PuzzleRating:
        if puzzle_id not in self.puzzles:
            rating, deviation, volatility = prior(tier)
            self.puzzles[puzzle_id] = PuzzleRating(
                puzzle_id=puzzle_id, rating=rating, deviation=deviation, volatility=volatility
            )
            self.new.add(("puzzle", puzzle_id))
        return self.puzzles[puzzle_id]

    def save(self) -> None:
        """Write the rows touched, with each player's counts of what their rating rests on moved as
        the ledger's moved (on_day_counts before and after: moved, not set, as `solves` is)."""
        fields = ["rating", "deviation", "volatility", "solves", "updated_at"]
        after = on_day_counts(self.players)
        for user_id, row in self.players.items():
            now, before = after.get(user_id, OnDay()), self.on_day_before.get(user_id, OnDay())
            row.on_day_solves = max(0, row.on_day_solves + now.solves - before.solves)
            row.on_days = max(0, row.on_days + now.days - before.days)
            if now.since is not None:  # the first stays first: a solve wound back leaves it
                row.on_day_since = min(row.on_day_since or now.since, now.since)
        players = [(("player", key) in self.new, row) for key, row in self.players.items()]
        PlayerRating.objects.bulk_create([row for new, row in players if new])
        PlayerRating.objects.bulk_update([row for new, row in players if not new], [*fields, *ON_DAY_FIELDS])
        puzzles = [(("puzzle", key) in self.new, row) for key, row in self.puzzles.items()]
        PuzzleRating.objects.bulk_create([row for new, row in puzzles if new])
        PuzzleRating.objects.bulk_update([row for new, row in puzzles if not new], fields)


# What a player's rating rests on beyond its count of solves (PlayerRating's docstring).
ON_DAY_FIELDS = ["on_day_solves", "on_days", "on_day_since"]


@dataclass(frozen=True)
class OnDay:
    """A player's rated solves of dailies made on their day, their different days, the first's moment."""

    solves: int = 0
    days: int = 0
    since: datetime.datetime | None = None


def on_day_counts(user_ids: Iterable[int]) -> dict[int, OnDay]:
    """Each player's OnDay as the ledger holds it now: one query; a player with none is left out."""
    return {
        row["user_id"]: OnDay(row["solves"], row["days"], row["since"])
        for row in RatingChange.objects.filter(user_id__in=list(user_ids), solve__late=False)
        .values("user_id")
        .annotate(solves=Count("pk"), days=Count("solve__daily__date", distinct=True), since=Min("solve__solved_at"))
    }


def _state(row: PlayerRating | PuzzleRating) -> glicko2.Rating:
    return row.rating, row.deviation, row.volatility


def _set(
    row: PlayerRating | PuzzleRating, state: list[float] | glicko2.Rating, solves: int, now: datetime.datetime
) -> None:
    row.rating, row.deviation, row.volatility = state
    row.solves = max(0, row.solves + solves)
    row.updated_at = now


def _wind_back(book: _Book, changes: list[RatingChange]) -> None:
    """Undo changes, newest first, by restoring what each kept from before it; then delete them."""
    book.load((c.user_id for c in changes), (c.puzzle_id for c in changes))
    for change in reversed(changes):
        _set(book.players[change.user_id], change.player_before, -1, book.now)
        _set(book.puzzles[change.puzzle_id], change.puzzle_before, -1, book.now)
    RatingChange.objects.filter(pk__in=[c.pk for c in changes]).delete()


def _play_forward(book: _Book, keys: list[Key]) -> None:
    """Apply rated solves in the order given, each a contest of its own; their changes are stored."""
    solves = Solve.objects.filter(pk__in=[solve_id for _, solve_id in keys]).select_related("daily__puzzle")
    by_id = {solve.pk: solve for solve in solves}
    book.load((s.user_id for s in by_id.values()), (s.daily.puzzle_id for s in by_id.values()))
    changes = []
    for at, solve_id in keys:
        solve = by_id[solve_id]
        player, puzzle = book.player(solve.user_id), book.puzzle(solve.daily.puzzle_id, solve.daily.puzzle.tier)
        seconds = judged_seconds(solve)
        result = score(seconds)
        player_before, puzzle_before = _state(player), _state(puzzle)
        player_after, puzzle_after = glicko2.contest(player_before, puzzle_before, result)
        _set(player, player_after, 1, book.now)
        _set(puzzle, puzzle_after, 1, book.now)
        changes.append(
            RatingChange(
                solve_id=solve_id,
                user_id=solve.user_id,
                puzzle_id=solve.daily.puzzle_id,
                solved_at=at,
                seconds=seconds,
                score=result,
                expected_seconds=expected_seconds(player_before[0], puzzle_before[0]),
                player_before=list(player_before),
                player_after=list(player_after),
                puzzle_before=list(puzzle_before),
                puzzle_after=list(puzzle_after),
                applied_at=book.now,
            )
        )
    RatingChange.objects.bulk_create(changes)


def ratings_catch_up(now: datetime.datetime | None = None) -> int:
    """Bring the ratings up to the rated solves, in solve order; how many solves it applied (those
    wound back and played again included). Running it again at once applies none."""
    now = now or timezone.now()
    with transaction.atomic():
        _lock()
        ledger, wanted = _plan(now)
        start = _first_difference(ledger, wanted)
        if start == len(ledger) == len(wanted):
            return 0
        book = _Book(now)
        undone = list(
            RatingChange.objects.filter(solve_id__in=[solve_id for _, solve_id in ledger[start:]]).order_by(
                "solved_at", "solve_id"
            )
        )
        touched = {c.user_id for c in undone} | set(
            Solve.objects.filter(pk__in=[solve_id for _, solve_id in wanted[start:]]).values_list("user_id", flat=True)
        )
        book.on_day_before = on_day_counts(touched)
        if undone:
            _wind_back(book, undone)
        _play_forward(book, wanted[start:])
        book.save()
    return len(wanted) - start
