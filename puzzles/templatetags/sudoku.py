"""Template filters shared by the site's pages."""

from django import template

from ..record import format_duration

register = template.Library()


@register.filter
def duration(seconds: float) -> str:
    """Seconds as the board's clock shows them: {{ solve.seconds|duration }} -> 4:05."""
    return format_duration(seconds or 0)
