"""The one way the site writes a solve time, as the board's clock shows it: m:ss, h:mm:ss past an hour.

Pure functions of seconds, here with the engine's other text formats because the models (a solve's
name in the admin) may import only the engine; the record, the leaderboard, the share text and the
templates' duration filter use them too.
"""

from __future__ import annotations


def format_duration(seconds: float) -> str:
    """Seconds as the board's clock reads them (whole seconds, rounded down): 4:05, 1:02:03."""
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def clock(seconds: float | None) -> str:
    """A time for the page, or a dash when there is none."""
    return "—" if seconds is None else format_duration(seconds)
