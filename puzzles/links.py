"""Addresses reversed once per process, not once per link drawn.

Django's reverse() walks the URL patterns every time it is called, and the pages players open
most draw many links: the results' review links each placement to its technique's guide page,
the home page each card to its puzzle. An address never changes while a process runs (nor does
a deployment's script prefix, which is part of the key all the same), so each one is kept after
its first reversal, the least recently drawn falling out past LINKS_KEPT. Templates draw them with
{% link %} (templatetags/sudoku.py), the same arguments as {% url %}.
"""

from __future__ import annotations

import functools
from typing import Any

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.urls import get_script_prefix, reverse

LINKS_KEPT = 8192


@functools.lru_cache(maxsize=LINKS_KEPT)
def _reversed(prefix: str, name: str, args: tuple[Any, ...]) -> str:
    return reverse(name, args=args)


def link(name: str, *args: Any) -> str:
    """reverse(name, args=args), kept: the same answer, once per process and address."""
    return _reversed(get_script_prefix(), name, args)


@receiver(setting_changed)
def _forget(setting: str, **kwargs: Any) -> None:
    if setting == "ROOT_URLCONF":  # a test's own URLs
        _reversed.cache_clear()
