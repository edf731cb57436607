"""Whether a solve earns a place on the day's leaderboard: the rules, in one place.

A solve is judged once, as it is recorded (attempts.attempt_submit). A solve faster than its
difficulty's floor (settings.LEADERBOARD_FLOOR_SECONDS) is held for an admin's review.
"""

from __future__ import annotations

from django.conf import settings

from .models import Solve


def solve_judge(solve: Solve) -> None:
    """Decide and save whether `solve` is held for review (Solve.flagged)."""
    floor = settings.LEADERBOARD_FLOOR_SECONDS.get(solve.daily.difficulty, 0)
    solve.flagged = solve.seconds < floor
    solve.save(update_fields=["flagged"])
