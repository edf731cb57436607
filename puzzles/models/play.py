"""The record of play: what a player's board did and when, as the server received it.

Every write of an attempt adds one event, stamped with the server's clock on arrival: the page
opening or closing (the clock's own events, attempts.py), a save or the submit with the moves the
board made since its last write (packed by record_of_play/moves.py), a hint or a check. Events are only ever
added, never changed, and an attempt holds at most a bounded number of moves
(settings.PLAY_MOVES_PER_ATTEMPT). The ranking rules (fairplay/ranking.py) and the replays read them.
A judged solve's digits placed, with their times, are kept beside it (Placements) to find copies.
"""

from __future__ import annotations

from django.db import models


class PlayEvent(models.Model):
    """One entry of an attempt's record, in the order the server received them (by id)."""

    class Kind(models.TextChoices):
        OPEN = "open", "page opened"
        CLOSE = "close", "page closed"
        SAVE = "save", "moves saved"
        SUBMIT = "submit", "grid submitted"
        HINT = "hint", "hint shown"
        CHECK = "check", "digits checked"

    attempt = models.ForeignKey("puzzles.Attempt", on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    arrived_at = models.DateTimeField()
    # A save's or the submit's moves, in record_of_play/moves.py's packed form (empty for the other kinds).
    moves = models.BinaryField(default=b"", blank=True)
    # How many digits this write put in cells that had none (the server's own count, from the
    # position before and after it: what the ranking rules trust), and the digits after it.
    placed = models.PositiveSmallIntegerField(default=0)
    digits = models.CharField(max_length=81, blank=True, default="")
    # The attempt's clock after this event, in seconds (play/attempts.py has its rule): how much of
    # the stretch since the event before was counted. None on events from before it was kept.
    clock = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["attempt", "id"]
        indexes = [models.Index(fields=["attempt", "id"], name="playevent_attempt_id")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} at {self.arrived_at:%H:%M:%S} ({self.attempt})"


class Placements(models.Model):
    """A solve's digits placed, in order, with their times on the clock (fairplay/copies.py packs
    them), kept when it is judged, and a fingerprint of the order of each half: an earlier solve
    of the same daily sharing one is a record this one may copy. A table beside the solve, not
    columns of it: every leaderboard and results read loads solves, and only the judge and the
    review read these. Solves judged before they were kept have none."""

    solve = models.OneToOneField("puzzles.Solve", on_delete=models.CASCADE, primary_key=True, related_name="placed")
    # The solve's daily again, so that one index finds a daily's solves sharing a half.
    daily = models.ForeignKey("puzzles.DailyPuzzle", on_delete=models.CASCADE, related_name="+")
    head = models.CharField(max_length=16, blank=True, default="")
    tail = models.CharField(max_length=16, blank=True, default="")
    placements = models.BinaryField(default=b"", blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["daily", "head"], name="placements_daily_head"),
            models.Index(fields=["daily", "tail"], name="placements_daily_tail"),
        ]

    def __str__(self) -> str:
        return f"placements of solve {self.solve_id}"
