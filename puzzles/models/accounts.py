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


class UsernameChange(models.Model):
    """One change of a player's username: when, not from what (the old name is not kept, so an
    account deleted later leaves no trace of it). The rule on how often a name may change counts
    these (accounts/renaming.py), and the newest one's id is part of the fingerprint the day's
    boards are kept under (results/leaderboard.py), so a board shows a new name at once."""

    user = models.ForeignKey("auth.User", on_delete=models.CASCADE, related_name="username_changes")
    changed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["user", "changed_at"], name="usernamechange_user")]

    def __str__(self) -> str:
        return f"username change of {self.user_id} at {self.changed_at:%Y-%m-%d %H:%M}"
