"""A browser's Web Push subscription: one row per device a player turned notifications on for.

The endpoint is the push service's address for that browser (unique: a browser that subscribes
again, perhaps for another player, moves its row); `p256dh` and `auth` are the browser's public
key and secret, both base64url, which pywebpush encrypts each message with (RFC 8291). A row is
deleted when the push service answers 404 or 410 for it: that browser has unsubscribed.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class PushSubscription(models.Model):
    user = models.ForeignKey("auth.User", on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)  # push.ENDPOINT_LENGTH
    p256dh = models.CharField(max_length=128)
    auth = models.CharField(max_length=64)
    created = models.DateTimeField(default=timezone.now)
    last_used = models.DateTimeField(null=True, blank=True, help_text="the last push the service accepted")

    def __str__(self) -> str:
        return f"push device {self.pk} of {self.user_id}"

    def info(self) -> dict:
        """The subscription as the browser's PushSubscription.toJSON() gives it, which pywebpush takes."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}
