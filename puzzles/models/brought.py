"""Puzzles a player brings (pasted, or opened from a /play/?p= link) and their attempts at them.

Tables of their own, not Puzzle and Attempt rows: every query that picks a puzzle (the pools, the
dailies, the archive, practice) and every one that ranks or rates a solve (Solve, the
leaderboards, the ratings, the streaks) reads those tables, so a brought puzzle can enter none of
them by construction, and its solve ranks nothing. The engine checked and rated it before it was
stored (brought/checking.py); its attempt keeps the position, the clock and the moves as a
daily's does, in one row (brought/attempts.py has the rules).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone

from ..engine import TIERS
from . import EMPTY_DIGITS, empty_notes

# models.Tier's choices, written out: this module is imported while models/__init__ is loading.
TIER_CHOICES = [(tier, tier.capitalize()) for tier in TIERS]


class BroughtPuzzle(models.Model):
    """A puzzle with exactly one solution, as the engine found and rated it."""

    givens = models.CharField(max_length=81, unique=True)
    solution = models.CharField(max_length=81)
    tier = models.CharField(max_length=16, choices=TIER_CHOICES)
    score = models.IntegerField()
    hardest = models.CharField("hardest technique", max_length=40, blank=True, default="")
    clues = models.PositiveSmallIntegerField()
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(givens__regex=r"^[0-9]{81}$"), name="brought_givens_81_digits"),
            models.CheckConstraint(condition=Q(solution__regex=r"^[1-9]{81}$"), name="brought_solution_81_digits"),
        ]

    def __str__(self) -> str:
        return f"brought {self.get_tier_display()} #{self.pk} ({self.clues} clues)"


class BroughtAttempt(models.Model):
    """A player's attempt at a brought puzzle: the position, the clock, the assists, the moves made
    (packed as record_of_play/moves.py packs them, each with its moment on the clock in place of
    its age), and the solve's time once solved. Never ranked: there is no Solve row for it."""

    user = models.ForeignKey("auth.User", on_delete=models.CASCADE, related_name="brought_attempts")
    puzzle = models.ForeignKey(BroughtPuzzle, on_delete=models.CASCADE, related_name="attempts")
    digits = models.CharField(max_length=81, default=EMPTY_DIGITS)
    corner = models.JSONField(default=empty_notes)
    centre = models.JSONField(default=empty_notes)
    colours = models.JSONField(default=empty_notes)
    version = models.PositiveIntegerField(default=0)
    saved_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(default=timezone.now)
    last_beat_at = models.DateTimeField(null=True, blank=True)
    active_seconds = models.FloatField(default=0)
    hints_used = models.PositiveIntegerField(default=0)
    hint_stage = models.PositiveSmallIntegerField(default=0)
    hint_position = models.CharField(max_length=64, blank=True, default="")
    checks_used = models.PositiveIntegerField(default=0)
    moves = models.BinaryField(default=b"", blank=True)
    moves_logged = models.PositiveIntegerField(default=0)
    solved_at = models.DateTimeField(null=True, blank=True)
    solve_seconds = models.FloatField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "puzzle"], name="one_brought_attempt_per_player"),
            models.CheckConstraint(condition=Q(digits__regex=r"^[0-9]{81}$"), name="brought_attempt_digits_81"),
        ]

    def __str__(self) -> str:
        return f"{self.user} on {self.puzzle}"

    @property
    def is_solved(self) -> bool:
        return self.solved_at is not None
