"""Template filters shared by the site's pages."""

from django import template

from ..engine.clock import clock

register = template.Library()


@register.filter
def duration(seconds: float | None) -> str:
    """Seconds as every clock of the site shows them, m:ss, h:mm:ss past an hour (a dash for
    none): {{ solve.seconds|duration }} -> 4:05, 1:02:03."""
    return clock(seconds)
