"""Ratings from real play: every player and every puzzle, in the spirit of lichess's puzzle
ratings (Glicko-2; docs/ratings.md states the model). puzzles/ratings/ keeps them.

A rating is three numbers, Glicko-2's: the rating, its deviation (how unsure it is) and the
volatility. Each rated solve (Solve.objects.rated()) is one contest between its player and its
puzzle; its RatingChange keeps both sides before and after it, in solve order (solved_at, then
id), so the ratings can be wound back to any solve and played forward again: what makes them
the same whatever order the solves arrive in, and whatever a task run twice does.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone

START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06


class Standing(models.Model):
    """Glicko-2's three numbers for one side of the contests, and how many rated solves made them."""

    rating = models.FloatField(default=START_RATING)
    deviation = models.FloatField(default=START_DEVIATION)
    volatility = models.FloatField(default=START_VOLATILITY)
    solves = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        abstract = True


class PlayerRating(Standing):
    """A player's rating, and what it rests on beyond its count of solves: how many of them were
    dailies solved on their day (the rest from the archive), on how many different days those were
    (fairplay/ranking.is_provisional reads both), and when the first of them was made
    (fairplay/against.first_month_at_the_top); the ledger keeps them with the solves."""

    user = models.OneToOneField("auth.User", on_delete=models.CASCADE, primary_key=True, related_name="rating")
    on_day_solves = models.PositiveIntegerField(default=0)
    on_days = models.PositiveIntegerField(default=0)
    on_day_since = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.rating:.0f} ± {self.deviation:.0f}"


class PuzzleRating(Standing):
    puzzle = models.OneToOneField("puzzles.Puzzle", on_delete=models.CASCADE, primary_key=True, related_name="played")

    def __str__(self) -> str:
        return f"puzzle {self.puzzle_id}: {self.rating:.0f} ± {self.deviation:.0f}"


class RatingChange(models.Model):
    """One rated solve: the contest's result and both sides' ratings before and after it."""

    solve = models.OneToOneField(
        "puzzles.Solve", on_delete=models.CASCADE, primary_key=True, related_name="rating_change"
    )
    user = models.ForeignKey("auth.User", on_delete=models.CASCADE, related_name="rating_changes")
    puzzle = models.ForeignKey("puzzles.Puzzle", on_delete=models.CASCADE, related_name="rating_changes")
    solved_at = models.DateTimeField()  # the solve's: with the solve's id, the order of play
    seconds = models.FloatField()  # the time judged (the ranked time)
    score = models.FloatField()  # the result for the player, 0 to 1 (docs/ratings.md)
    expected_seconds = models.FloatField()  # what the two ratings before it expected
    player_before = models.JSONField()  # [rating, deviation, volatility]
    player_after = models.JSONField()
    puzzle_before = models.JSONField()
    puzzle_after = models.JSONField()
    applied_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            models.Index(fields=["solved_at", "solve"], name="ratingchange_order"),
            models.Index(fields=["user", "solved_at"], name="ratingchange_user"),
            models.Index(fields=["puzzle", "solved_at"], name="ratingchange_puzzle"),
        ]

    def __str__(self) -> str:
        return f"rating change of solve {self.solve_id}"
