"""Leagues: small boards among friends. A player makes one, shares its invite link, and its
members see each other's times for every daily (leagues.py has the rules)."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from django.db import models
from django.utils import timezone

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def new_invite_code() -> str:
    """An unguessable code for a league's invite link (16 random bytes, URL-safe)."""
    return secrets.token_urlsafe(16)


class League(models.Model):
    name = models.CharField(max_length=60)
    owner = models.ForeignKey("auth.User", on_delete=models.CASCADE, related_name="leagues_owned")
    invite_code = models.CharField(max_length=32, unique=True, default=new_invite_code)
    created = models.DateTimeField(default=timezone.now)
    members: models.ManyToManyField[User, Membership] = models.ManyToManyField(
        "auth.User", through="Membership", related_name="leagues"
    )

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey("auth.User", on_delete=models.CASCADE, related_name="memberships")
    joined = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["joined", "id"]
        constraints = [models.UniqueConstraint(fields=["league", "user"], name="one_membership_per_player")]

    def __str__(self) -> str:
        return f"{self.user} in {self.league}"
