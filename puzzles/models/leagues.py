"""Leagues: small boards among friends. A player makes one, shares its invite link, and its
members see each other's times for every daily (leagues.py has the rules)."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from django.core.cache import cache
from django.db import models, transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
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

    @staticmethod
    def cache_key(user_id: int) -> str:
        """Where whether the player is in any league is kept (leagues/boards.py's in_a_league)."""
        return f"in-a-league:{user_id}"


@receiver([post_save, post_delete], sender=Membership)
def _forget_in_a_league(sender: type, instance: Membership, **kwargs: object) -> None:
    # Joining, leaving, a removal, a league deleted (its memberships go one by one, with this
    # signal): the player's kept answer is dropped now, and again at commit, after a home page
    # that read the memberships before the commit may have kept the old one.
    key = Membership.cache_key(instance.user_id)
    cache.delete(key)
    transaction.on_commit(lambda: cache.delete(key))
