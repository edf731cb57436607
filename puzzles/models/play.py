"""The record of play: what a player's board did and when, as the server received it.

Every write of an attempt adds one event, stamped with the server's clock on arrival: the page
opening or closing (the clock's own events, attempts.py), a save or the submit with the moves the
board made since its last write (packed by record_of_play/moves.py), a hint or a check. Events are only ever
added, never changed, and an attempt holds at most a bounded number of moves
(settings.PLAY_MOVES_PER_ATTEMPT). The ranking rules (fairplay/ranking.py) and the replays read them.
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
