"""Reminders a player chose (by email now; push is a second channel on the same row) and the
claim that each player is reminded at most once per day of their own calendar.

Their own model rather than keys of Preferences.values: the hourly task asks the database for
every player whose hour has come in their zone, a query over columns with an index, and the board
never needs these settings (Preferences.values is sent to the board on every puzzle).
"""

from __future__ import annotations

import uuid

from django.db import models
from django.db.models import Q
from django.utils import timezone


class Reminder(models.Model):
    """One player's reminder settings: off until they turn a channel on; `hour` (0-23) is a local
    hour in `time_zone`, an IANA name (accounts/reminders.py validates it with zoneinfo)."""

    user = models.OneToOneField("auth.User", on_delete=models.CASCADE, related_name="reminder")
    email = models.BooleanField("by email", default=False)
    push = models.BooleanField("by notification", default=False)  # to each of the player's PushSubscriptions
    hour = models.PositiveSmallIntegerField(default=8)
    time_zone = models.CharField(max_length=64)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(hour__lte=23), name="reminder_hour_0_23")]
        # The task's question: the players with a channel on, zone by zone.
        indexes = [
            models.Index(
                fields=["time_zone", "hour"], name="reminder_zone_hour", condition=Q(email=True) | Q(push=True)
            )
        ]

    def __str__(self) -> str:
        return f"reminder of {self.user} at {self.hour}:00 {self.time_zone}"


class ReminderSent(models.Model):
    """A player's claim on one local day: inserted before anything is sent, and unique, so that
    two runs of the task (or two workers) never remind the same player twice that day. `claim`
    names the run that inserted it; `failed` records a send that did not go (it is not retried)."""

    user = models.ForeignKey("auth.User", on_delete=models.CASCADE, related_name="reminders_sent")
    day = models.DateField(help_text="the player's own date, in their zone")
    claim = models.UUIDField(default=uuid.uuid4, editable=False)
    created = models.DateTimeField(default=timezone.now)
    failed = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "day"], name="one_reminder_per_player_and_day")]
        indexes = [models.Index(fields=["claim"], name="remindersent_claim")]

    def __str__(self) -> str:
        return f"{self.user} reminded on {self.day:%Y-%m-%d}"
