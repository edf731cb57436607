"""Logging in, and finding the logged-in player on every request without a database query.

django-allauth's backend logs in by username or email; like Django's ModelBackend underneath it,
it reads the user from the database on each request. With a cache shared by every process
(Redis: settings.SHARED_CACHE), the user is read from it instead, and dropped from it whenever
the user row is saved or deleted (a password change, a deactivation, a login), so no process
sees a stale user. With a per-process cache that could not be kept right, the backend does
exactly what allauth's does. A guest is never logged in by a password (accounts/guests.py).
"""

from __future__ import annotations

from typing import Any

from allauth.account.auth_backends import AuthenticationBackend
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models.signals import post_delete, post_save
from django.http import HttpRequest

from .accounts.guests import is_guest
from .accounts.logins import user_cache_key

USER_CACHE_SECONDS = 600

User = get_user_model()


class CachedModelBackend(AuthenticationBackend):
    def authenticate(self, request: HttpRequest | None, **credentials: Any) -> Any | None:
        user = super().authenticate(request, **credentials)
        # A guest lives in the session that made it: whatever password it came by (a reset
        # through an address it added, say), it logs in nowhere else until it signs up.
        return None if user is not None and is_guest(user) else user

    def get_user(self, user_id: Any) -> Any | None:
        if not settings.SHARED_CACHE:
            return super().get_user(user_id)
        user = cache.get(user_cache_key(user_id))
        if user is None:
            try:
                user = User._default_manager.get(pk=user_id)
            except (User.DoesNotExist, ValueError, TypeError):
                return None
            cache.set(user_cache_key(user_id), user, USER_CACHE_SECONDS)
        return user if self.user_can_authenticate(user) else None


def forget_cached_user(sender: type, instance: Any, **kwargs: Any) -> None:
    cache.delete(user_cache_key(instance.pk))


# Connected when the app loads (apps.py), in every process that could change a user.
def connect_signals() -> None:
    post_save.connect(forget_cached_user, sender=User, dispatch_uid="forget_cached_user_on_save")
    post_delete.connect(forget_cached_user, sender=User, dispatch_uid="forget_cached_user_on_delete")
