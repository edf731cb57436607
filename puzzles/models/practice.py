"""Practice: positions where a technique is the next step, and each player's answers to them.

A position is kept as the digits and every cell's candidates (bit d - 1 for digit d), with the
puzzle's solution, which only the server reads (puzzles/practice/ checks answers against it).
"""

from __future__ import annotations

import hashlib

from django.db import models
from django.utils import timezone


def position_key(digits: str, cands: list[int]) -> str:
    """One position's fingerprint: the same digits and candidates give the same key."""
    return hashlib.sha1((digits + ",".join(map(str, cands))).encode()).hexdigest()


class PracticePosition(models.Model):
    class Source(models.TextChoices):
        POOL = "pool", "a pool puzzle"
        GENERATED = "generated", "a puzzle made for practice"

    technique = models.CharField(max_length=40)
    digits = models.CharField(max_length=81)
    cands = models.JSONField(help_text="81 candidate masks, bit d - 1 for digit d, 0 for a filled cell")
    solution = models.CharField(max_length=81)
    key = models.CharField(max_length=40, editable=False)
    # Whether the answer is a placement (else eliminations): the step the walk took there places.
    places = models.BooleanField(default=False)
    source = models.CharField(max_length=16, choices=Source.choices)
    # A pool puzzle the position came from; a generated one is kept only as givens.
    puzzle = models.ForeignKey(
        "puzzles.Puzzle", null=True, blank=True, on_delete=models.SET_NULL, related_name="practice_positions"
    )
    givens = models.CharField(max_length=81)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["technique", "key"], name="practice_position_once"),
            models.CheckConstraint(
                condition=models.Q(digits__regex=r"^[0-9]{81}$") & models.Q(solution__regex=r"^[1-9]{81}$"),
                name="practice_position_is_81_digits",
            ),
        ]
        indexes = [models.Index(fields=["technique", "id"])]

    def __str__(self) -> str:
        return f"{self.technique} #{self.pk}"

    def save(self, *args: object, **kwargs: object) -> None:
        self.key = position_key(self.digits, self.cands)
        super().save(*args, **kwargs)  # type: ignore[arg-type]


class PracticeAnswer(models.Model):
    """One checked answer: what the counts on /stats/ are made of."""

    user = models.ForeignKey("auth.User", on_delete=models.CASCADE, related_name="practice_answers")
    # The technique is kept on the answer, so a count outlives a position taken from the pool.
    position = models.ForeignKey(PracticePosition, null=True, on_delete=models.SET_NULL, related_name="answers")
    technique = models.CharField(max_length=40)
    right = models.BooleanField()
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["user", "technique"])]

    def __str__(self) -> str:
        return f"{self.technique} {'right' if self.right else 'wrong'} by {self.user_id}"
