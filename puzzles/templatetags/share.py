"""The share box's one tag: the results fragment (views.pages.results) knows the solve, and the
box it includes works out what to share from it, so the fragment's view needs no change."""

from __future__ import annotations

from django import template

from ..models import Solve
from ..results.share import Share, daily_url, share_for

register = template.Library()


@register.simple_tag
def share_of(solve: Solve | None) -> Share | None:
    """{% share_of solve as share %}: the text, title and link a player shares; None without a solve."""
    if not solve:
        return None
    return share_for(solve, daily_url(solve.daily))
