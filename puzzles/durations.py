"""The one way the site writes a solve time, as the board's clock shows it: m:ss, h:mm:ss past an hour.

Pure functions of seconds, in a leaf module that imports nothing of the app, so that every layer
can use them: the models (a solve's name in the admin), the ranking rule's words, a player's
history, the leaderboard, the leagues and the templates' duration filter.
"""

from __future__ import annotations


def format_duration(seconds: float) -> str:
    """Seconds as the board's clock reads them (whole seconds, rounded down): 4:05, 1:02:03."""
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def duration_or_dash(seconds: float | None) -> str:
    """A time for the page, or a dash when there is none."""
    return "—" if seconds is None else format_duration(seconds)
