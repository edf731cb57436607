"""Template filters shared by the site's pages."""

from django import template

from .. import links
from ..durations import duration_or_dash
from ..fairplay import words
from ..pipeline.scores import score_text

register = template.Library()


@register.filter
def duration(seconds: float | None) -> str:
    """Seconds as every clock of the site shows them, m:ss, h:mm:ss past an hour (a dash for
    none): {{ solve.seconds|duration }} -> 4:05, 1:02:03."""
    return duration_or_dash(seconds)


@register.filter
def score(value: int | None) -> str:
    """A puzzle's score in hundredths as people read it: {{ puzzle.score|score }} -> 4.27."""
    return score_text(value)


@register.simple_tag
def ranking_asks() -> str:
    """{% ranking_asks %}: what ranking asks of an account (fairplay/words.py), for the sign-up form."""
    return words.ranking_asks()


@register.simple_tag(name="link")
def link_tag(name: str, *args: object) -> str:
    """{% link 'puzzles:daily' day tier %}: {% url %}'s address, kept once reversed (links.py);
    `as name` keeps it in the context, as with {% url %}."""
    return links.link(name, *args)
