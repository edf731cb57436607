"""What every page's header needs, worked out once per process instead of once per request."""

from __future__ import annotations

from functools import cache

from django.http import HttpRequest
from django.urls import reverse

from .accounts.guests import is_guest

HEADER_URLS = {
    "home": "puzzles:home",
    "archive": "puzzles:archive",
    "stats": "puzzles:stats",
    "howto": "puzzles:howto",
    "learn": "puzzles:learn",
    "login": "account_login",
    "logout": "account_logout",
    "signup": "account_signup",
    "password_change": "account_change_password",
    "password_reset": "account_reset_password",
    "email": "account_email",
    "reminders": "puzzles:reminders",
    "account": "puzzles:account",
}


@cache
def _header_urls() -> dict[str, str]:
    # The URLs never change while a process runs (nor does the script prefix of a deployment),
    # and reversing them on every page was a measurable share of the puzzle page's time.
    return {key: reverse(name) for key, name in HEADER_URLS.items()}


def site_urls(request: HttpRequest) -> dict[str, dict[str, str]]:
    return {"site_urls": _header_urls()}


def guest(request: HttpRequest) -> dict[str, bool]:
    # A guest is logged in but has no account: the header offers sign-up, not a password change.
    return {"is_guest": is_guest(getattr(request, "user", None))}
