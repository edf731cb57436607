"""What every page's header needs, worked out once per process instead of once per request."""

from __future__ import annotations

from functools import cache

from django.http import HttpRequest
from django.urls import reverse

HEADER_URLS = {
    "home": "puzzles:home",
    "archive": "puzzles:archive",
    "stats": "puzzles:stats",
    "login": "login",
    "logout": "logout",
    "signup": "puzzles:signup",
    "password_change": "password_change",
}


@cache
def _header_urls() -> dict[str, str]:
    # The URLs never change while a process runs (nor does the script prefix of a deployment),
    # and reversing them on every page was a measurable share of the puzzle page's time.
    return {key: reverse(name) for key, name in HEADER_URLS.items()}


def site_urls(request: HttpRequest) -> dict[str, dict[str, str]]:
    return {"site_urls": _header_urls()}
