"""Who plays: the guest mark on a visitor's user row, and each player's settings for the board."""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class Guest(models.Model):
    """Marks a user row as a guest: a visitor's player, made on their first move and kept by
    their session cookie (accounts/guests.py). Signing up turns the same row into the account, so every
    attempt, solve and hint keeps its key; its last activity (log-in or attempt) decides when an
    idle one is deleted."""

    user = models.OneToOneField("auth.User", on_delete=models.CASCADE, primary_key=True, related_name="guest")
    created = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"guest {self.user}"


class Preferences(models.Model):
    """A player's settings for the board, a guest's too: only the keys the player chose
    (preferences.py holds every key, its default and what it may be)."""

    user = models.OneToOneField("auth.User", on_delete=models.CASCADE, related_name="preferences")
    values = models.JSONField(default=dict)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "preferences"

    def __str__(self) -> str:
        return f"settings of {self.user}"
