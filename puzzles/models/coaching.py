"""What the site learns from a solve: its annotated review, and the techniques each placement took.

A review (puzzles/coaching/ makes it, by a task after the solve) is stored with the solve as three
lists, in the JSON every reader takes as is:

- placements, one per digit the player put in an empty cell or changed, in the order made::

      {"move": 12,            # how many moves of the replay's timeline had been made after it
       "ms": 81234,           # on the player's clock (fairplay/replays.py), when it was made
       "cell": 40, "digit": 7,
       "verdict": "logic",    # "logic" (a technique made it on the board the player had),
                              # "ahead" (nothing there did: placed ahead of the logic) or
                              # "wrong" (not the solution's digit)
       "technique": "x-wing", # the technique credited with it ("" when ahead or wrong)
       "steps": [{"technique": "x-wing", "text": "..."}, ...],  # what made it: the single,
                              # or the step and the single it leaves; in people's words
       "think_ms": 15400}     # since the previous progress (the last right digit, or the start)

- stalls, the longest stretches without progress, longest first::

      {"from_ms": 0, "to_ms": 250000, "move": 12,   # the move that ended it (0: none did)
       "available": [{"technique": "hidden-single", "text": "..."}, ...]}  # what was there

- mistakes, each wrong digit and how long it stayed::

      {"move": 30, "ms": 120000, "cell": 3, "digit": 5, "right": 8, "stayed_ms": 42000}

Each placement credited with a technique also gives a TechniqueUse row (one placed ahead gives
none), so the skill profile on /stats/ counts and times a player's techniques in the database,
not by reading every review.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class SolveReview(models.Model):
    """A solve's annotated review; made again when REVIEW_VERSION (coaching/) moves on."""

    solve = models.OneToOneField("puzzles.Solve", on_delete=models.CASCADE, primary_key=True, related_name="annotated")
    version = models.PositiveSmallIntegerField()
    made_at = models.DateTimeField(default=timezone.now)
    worker_ms = models.FloatField("time to make (ms)", default=0)
    placements = models.JSONField(default=list)
    stalls = models.JSONField(default=list)
    mistakes = models.JSONField(default=list)

    def __str__(self) -> str:
        return f"review of solve {self.solve_id}"


class TechniqueUse(models.Model):
    """One placement of a reviewed solve and the technique credited with it, with the time the
    player took to find it."""

    user = models.ForeignKey("auth.User", on_delete=models.CASCADE, related_name="technique_uses")
    solve = models.ForeignKey("puzzles.Solve", on_delete=models.CASCADE, related_name="technique_uses")
    technique = models.CharField(max_length=40)
    think_seconds = models.FloatField()
    solved_at = models.DateTimeField()  # the solve's, for the weekly trend

    class Meta:
        indexes = [models.Index(fields=["user", "technique", "solved_at"], name="techniqueuse_user_technique")]

    def __str__(self) -> str:
        return f"{self.technique} by {self.user_id} in solve {self.solve_id}"
