"""The site's views, one module per area: play (today's puzzles, the board and its API, accounts)."""

from .play import csrf_failure

__all__ = ["csrf_failure"]
