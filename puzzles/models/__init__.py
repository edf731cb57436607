"""Puzzles in the pools and the daily puzzles published from them, the players' attempts and solves;
the record of play (play.py), leagues (leagues.py) and brought puzzles (brought.py) apart.
Rules live here as constraints and querysets; the workflows that change them are in the packages
above (pipeline/ for pools and dailies, play/ and brought/ for a player's position and solve).
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.core.cache import caches
from django.db import models, transaction
from django.db.models import Q
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone

from ..durations import format_duration
from ..engine import TIERS

# The engine defines the tiers (easiest first); the site names them for people.
Tier = models.TextChoices("Tier", [(tier.upper(), (tier, tier.capitalize())) for tier in TIERS])  # type: ignore[call-overload]  # the stubs type only the class form
TIER_ORDER: tuple[str, ...] = TIERS


def nearest_tiers(tier: str) -> list[str]:
    """The other tiers, nearest first, the easier one first on a tie: a substitute's order."""
    here = TIER_ORDER.index(tier)
    others = [t for t in TIER_ORDER if t != tier]
    return sorted(others, key=lambda t: (abs(TIER_ORDER.index(t) - here), TIER_ORDER.index(t)))


def score_band(tier: str) -> tuple[int, int]:
    """The tier's score band (lowest, highest, both included), from settings.PUZZLE_SCORE_BANDS."""
    return settings.PUZZLE_SCORE_BANDS[tier]


def site_today() -> datetime.date:
    """Today's date in the site's time zone (settings.TIME_ZONE): the same day for every player."""
    return timezone.localdate()


class PuzzleQuerySet(models.QuerySet["Puzzle"]):
    def available(self, tier: str | None = None) -> PuzzleQuerySet:
        """Puzzles never published, optionally of one tier."""
        qs = self.filter(used=False)
        return qs.filter(tier=tier) if tier else qs

    def in_band(self, band: tuple[int, int]) -> PuzzleQuerySet:
        """Puzzles whose score is inside a band (lowest, highest, both included)."""
        return self.filter(score__range=band)

    def outside_band(self, band: tuple[int, int]) -> PuzzleQuerySet:
        return self.exclude(score__range=band)


class Puzzle(models.Model):
    givens = models.CharField(max_length=81, unique=True)
    solution = models.CharField(max_length=81)
    tier = models.CharField(max_length=16, choices=Tier.choices)
    score = models.IntegerField()
    hardest = models.CharField("hardest technique", max_length=40)
    techniques = models.JSONField(default=dict, help_text="technique name to count of steps")
    clues = models.PositiveSmallIntegerField()
    filler = models.CharField(max_length=32)
    symmetry = models.CharField(max_length=16, default="none")
    generation_ms = models.FloatField("time to make (ms)", default=0)
    created = models.DateTimeField(default=timezone.now, db_index=True)
    used = models.BooleanField(default=False)

    objects = PuzzleQuerySet.as_manager()

    class Meta:
        ordering = ["-created"]
        indexes = [models.Index(fields=["tier", "used"], name="puzzle_tier_used")]
        constraints = [
            models.CheckConstraint(condition=Q(givens__regex=r"^[0-9]{81}$"), name="puzzle_givens_81_digits"),
            models.CheckConstraint(condition=Q(solution__regex=r"^[1-9]{81}$"), name="puzzle_solution_81_digits"),
            models.CheckConstraint(condition=Q(clues__gte=17, clues__lte=81), name="puzzle_clues_in_range"),
        ]

    def __str__(self) -> str:
        return f"{self.get_tier_display()} #{self.pk} ({self.clues} clues)"


class DailyPuzzleQuerySet(models.QuerySet["DailyPuzzle"]):
    def for_date(self, day: datetime.date | None = None) -> DailyPuzzleQuerySet:
        """The dailies of one date (today in the site's time zone by default)."""
        return self.filter(date=day or site_today())


class DailyPuzzle(models.Model):
    date = models.DateField()
    difficulty = models.CharField(max_length=16, choices=Tier.choices)
    # One-to-one: a puzzle is published at most once, enforced by the database.
    puzzle = models.OneToOneField(Puzzle, on_delete=models.PROTECT, related_name="daily")
    substitute = models.BooleanField(
        default=False, help_text="the pool of this difficulty was empty; a nearby tier stood in"
    )
    published_at = models.DateTimeField(default=timezone.now)

    objects = DailyPuzzleQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "difficulty"]
        constraints = [
            models.UniqueConstraint(fields=["date", "difficulty"], name="one_daily_per_slot"),
        ]

    def __str__(self) -> str:
        return f"{self.date:%Y-%m-%d} {self.difficulty}"

    @staticmethod
    def cache_key(day: datetime.date, difficulty: str) -> str:
        return f"daily:{day.isoformat()}:{difficulty}"


class PoolQuerySet(models.QuerySet["Pool"]):
    def first_filling(self) -> set[str]:
        """The tiers whose pools are still making their first puzzles: no row yet, or never seen at
        their target and not at it now. Reads only (pages ask it on GET); mark_first_fills() is
        what remembers a pool once full. A pool's target counts puzzles inside the tier's score
        band, as refills do."""
        pools = {pool.tier: pool for pool in self.all()}
        return {
            tier
            for tier in TIER_ORDER
            if (pool := pools.get(tier)) is None or (pool.filled_at is None and pool.available_in_band < pool.target)
        }

    def mark_first_fills(self) -> None:
        """Remember every pool found at its target now (filled by refills, a seed batch or an
        import) as filled, so that running dry later does not count as a first fill again."""
        for pool in self.filter(filled_at__isnull=True):
            if pool.available_in_band >= pool.target:
                pool.mark_filled()


class Pool(models.Model):
    """One row per tier: the number of unpublished puzzles the workers keep ready.

    Its row is also the lock that stores into the pool take, so that two workers refilling
    the same tier at once cannot overfill it.
    """

    tier = models.CharField(max_length=16, choices=Tier.choices, unique=True)
    target = models.PositiveIntegerField(default=20)
    # Set when a fill task is queued and cleared when it ends, so the scheduler never stacks
    # up fill tasks for a tier that takes longer than one refill interval.
    fill_queued_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Set the first time the pool is seen at its target (mark_filled). Until then its tier's first
    # puzzles are still being made, as on a site's first start: no other tier stands in for it
    # (a substitute is for a pool that ran dry; publishing.daily_publish) and the pages say so.
    filled_at = models.DateTimeField("first filled", null=True, blank=True, editable=False)

    objects = PoolQuerySet.as_manager()

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.get_tier_display()} pool (target {self.target})"

    def mark_filled(self) -> None:
        """Record that the pool has reached its target; only the first time counts."""
        if self.filled_at is None:
            self.filled_at = timezone.now()
            Pool.objects.filter(pk=self.pk, filled_at__isnull=True).update(filled_at=self.filled_at)

    @property
    def available(self) -> int:
        return Puzzle.objects.available(self.tier).count()

    @property
    def available_in_band(self) -> int:
        return Puzzle.objects.available(self.tier).in_band(score_band(self.tier)).count()


class SeedBatch(models.Model):
    """An admin's request for N puzzles of a tier; `made` counts what has arrived.

    Stores bump `made` by a conditional update in the same transaction as the insert, so a
    task that runs twice can never make more than was asked.
    """

    tier = models.CharField(max_length=16, choices=Tier.choices)
    filler = models.CharField(max_length=32)
    symmetry = models.CharField(max_length=16, default="none")
    requested = models.PositiveIntegerField()
    made = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.CheckConstraint(condition=Q(made__lte=models.F("requested")), name="seed_made_le_requested"),
        ]

    def __str__(self) -> str:
        return f"{self.requested} {self.tier} ({self.made} made)"

    @property
    def done(self) -> bool:
        return self.made >= self.requested


EMPTY_DIGITS = "0" * 81


def empty_notes() -> list[str]:
    return [""] * 81


class Attempt(models.Model):
    """A player's attempt at one daily puzzle: their position (digits, notes and colours) and the
    active time.

    `version` goes up by one with every save; a save names the version it started from and is
    refused when another tab or device saved first. Time is counted by the server from the
    page's heartbeats, never taken from the client (attempts.py has the rule); `last_beat_at` is
    empty while no page of the puzzle is open.
    """

    user = models.ForeignKey("auth.User", on_delete=models.CASCADE, related_name="attempts")
    daily = models.ForeignKey(DailyPuzzle, on_delete=models.PROTECT, related_name="attempts")
    digits = models.CharField(max_length=81, default=EMPTY_DIGITS)
    corner = models.JSONField(default=empty_notes)
    centre = models.JSONField(default=empty_notes)
    # The colour indices (1-9) on each cell; givens may be coloured too.
    colours = models.JSONField(default=empty_notes)
    version = models.PositiveIntegerField(default=0)
    # When the position was last saved or submitted: the board compares two devices' edits by it.
    saved_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(default=timezone.now)
    last_beat_at = models.DateTimeField(null=True, blank=True)
    active_seconds = models.FloatField(default=0)
    wrong_submissions = models.PositiveIntegerField(default=0)
    # Hints: how many were shown, and how far the current one has been revealed (1 where to
    # look, 2 the technique, 3 the exact step) for the position it was asked on.
    hints_used = models.PositiveIntegerField(default=0)
    hint_stage = models.PositiveSmallIntegerField(default=0)
    hint_position = models.CharField(max_length=64, blank=True, default="")
    # Checks: how many times the player asked which of their digits are wrong.
    checks_used = models.PositiveIntegerField(default=0)
    # Moves in the record of play so far (models/play.py), kept here so the bound costs no count.
    moves_logged = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "daily"], name="one_attempt_per_player_and_daily"),
            models.CheckConstraint(condition=Q(digits__regex=r"^[0-9]{81}$"), name="attempt_digits_81"),
        ]

    def __str__(self) -> str:
        return f"{self.user} on {self.daily}"

    @property
    def is_solved(self) -> bool:
        """Whether the player has solved it (its solve is read once, then kept on the instance)."""
        return hasattr(self, "solve")

    @property
    def is_assisted(self) -> bool:
        """Whether the player had help (a hint or a check): its solve is not ranked."""
        return self.hints_used > 0 or self.checks_used > 0


class SolveQuerySet(models.QuerySet["Solve"]):
    def ranked(self) -> SolveQuerySet:
        """Solves that belong on a day's leaderboard: made on the day, without hints or checks, with
        a record of play that earns a rank (fairplay/ranking.py), not held for review (or approved after it),
        and by a player with an account (a guest is told where their time would place them)."""
        return self.filter(
            Q(flagged=False) | Q(review=Solve.Review.APPROVED),
            late=False,
            assisted=False,
            unranked="",
            user__guest__isnull=True,
        ).exclude(review=Solve.Review.DISQUALIFIED)

    def rated(self) -> SolveQuerySet:
        """Solves that move ratings (puzzles/ratings/): the ranked rule without its day, since a
        puzzle solved from the archive takes its player as long as on the day; so no hints or
        checks, a record of play that earns a rank, not held or disqualified, by an account."""
        return self.filter(
            Q(flagged=False) | Q(review=Solve.Review.APPROVED),
            assisted=False,
            unranked="",
            user__guest__isnull=True,
        ).exclude(review=Solve.Review.DISQUALIFIED)


class Solve(models.Model):
    """A player's one recorded solve of a daily puzzle, with the time the server measured.

    `late`: solved after the puzzle's own day (from the archive), so it extends no streak and
    is not ranked. `assisted`: the player had help, a hint or a check (Attempt.is_assisted); its
    column keeps its first name, `hinted`, from before checks. `flagged`: held for an admin's
    review, and kept off the leaderboard until approved; `held` says why (a floor, the player's
    history, a copy of an earlier record: fairplay/ranking.py's HOLD_CODES); `review` is the admin's
    answer. `unranked`: why the record of play does not earn a rank ("" when it does);
    `ranked_seconds`: the time the leaderboard ranks by, the clock's (older solves keep theirs).
    """

    class Review(models.TextChoices):
        NONE = "", "not reviewed"
        APPROVED = "approved", "approved"
        DISQUALIFIED = "disqualified", "disqualified"

    attempt = models.OneToOneField(Attempt, on_delete=models.CASCADE, related_name="solve")
    user = models.ForeignKey("auth.User", on_delete=models.CASCADE, related_name="solves")
    daily = models.ForeignKey(DailyPuzzle, on_delete=models.PROTECT, related_name="solves")
    seconds = models.FloatField()
    solved_at = models.DateTimeField(default=timezone.now)
    late = models.BooleanField("played late", default=False)
    assisted = models.BooleanField("with hints or checks", default=False, db_column="hinted")
    flagged = models.BooleanField("held for review", default=False, db_index=True)
    review = models.CharField(max_length=16, choices=Review.choices, blank=True, default="")
    unranked = models.CharField("not ranked because", max_length=40, blank=True, default="")
    ranked_seconds = models.FloatField(null=True, blank=True)
    # Why it is held for review, one of fairplay/ranking.py's HOLD_CODES ("" when it is not).
    held = models.CharField("held because", max_length=16, blank=True, default="")

    objects = SolveQuerySet.as_manager()

    class Meta:
        ordering = ["seconds"]
        constraints = [models.UniqueConstraint(fields=["user", "daily"], name="one_solve_per_player_and_daily")]
        # The second: the solves being checked (a handful), for the beat's sweep every second.
        indexes = [models.Index(fields=["daily", "seconds"], name="solve_daily_seconds")]
        indexes += [models.Index(fields=["solved_at"], condition=models.Q(unranked="checking"), name="solve_checking")]

    def __str__(self) -> str:
        return f"{self.user} solved {self.daily} in {format_duration(self.seconds)}"

    @property
    def rank_seconds(self) -> float:
        """The time the solve is judged by: its record of play's ranked time, else its clock's (older
        solves, judged before the record of play). fairplay/ranking.py's RANK_TIME as a value."""
        return self.ranked_seconds if self.ranked_seconds is not None else self.seconds


class Hint(models.Model):
    """One hint shown to a player: which stage of which step, on which position."""

    attempt = models.ForeignKey(Attempt, on_delete=models.CASCADE, related_name="hints")
    user = models.ForeignKey("auth.User", on_delete=models.CASCADE, related_name="hints")
    stage = models.PositiveSmallIntegerField()
    technique = models.CharField(max_length=40)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created"]
        indexes = [models.Index(fields=["user", "created"], name="hint_user_created")]

    def __str__(self) -> str:
        return f"{self.user} hint {self.stage} ({self.technique}) on {self.attempt.daily}"


class Check(models.Model):
    """One check of a player's digits against the solution: when, and how many were wrong. The
    checks' own rate limit counts these (play/hints.py: _limit_checks)."""

    attempt = models.ForeignKey(Attempt, on_delete=models.CASCADE, related_name="checks")
    wrong = models.PositiveSmallIntegerField()
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created"]
        indexes = [models.Index(fields=["attempt", "created"], name="check_attempt_created")]

    def __str__(self) -> str:
        return f"check on {self.attempt.daily}: {self.wrong} wrong"


# The models of their own modules, registered with the app through this package.
from .accounts import Guest, Preferences, UsernameChange  # noqa: E402, F401
from .brought import BroughtAttempt, BroughtPuzzle  # noqa: E402, F401
from .coaching import SolveReview, TechniqueUse  # noqa: E402, F401
from .leagues import League, Membership  # noqa: E402, F401
from .play import Placements, PlayEvent  # noqa: E402, F401
from .practice import PracticeAnswer, PracticePosition  # noqa: E402, F401
from .push import PushSubscription  # noqa: E402, F401
from .ratings import PlayerRating, PuzzleRating, RatingChange  # noqa: E402, F401
from .reminders import Reminder, ReminderSent  # noqa: E402, F401


@receiver([post_save, post_delete], sender=DailyPuzzle)
def _forget_cached_daily(sender: type, instance: DailyPuzzle, **kwargs: object) -> None:
    # An admin rescheduling or deleting a daily must not leave a stale copy behind: the shared
    # cache and this process's forget it now, other processes within seconds
    # (dailies.DAILY_LOCAL_SECONDS).
    # Once more at commit: a reader between the insert and the commit may have remembered a past
    # day's daily as missing (dailies.DAILY_ABSENT_SECONDS).
    key = DailyPuzzle.cache_key(instance.date, instance.difficulty)
    caches["default"].delete(key)
    caches["local"].delete(key)
    transaction.on_commit(lambda: caches["default"].delete(key))
