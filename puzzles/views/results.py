"""The results fragment shown under the board after a solve: receipt, leaderboard, standing."""

from __future__ import annotations

import datetime

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from ..leaderboard import leaderboard_for, standing_of
from ..models import Solve, site_today
from ..receipt import receipt_for
from .play import _daily_or_404


@require_GET
@never_cache  # the leaderboard moves as others solve, and the fragment is one player's own
def results(request: HttpRequest, day: datetime.date, difficulty: str) -> HttpResponse:
    """An HTML fragment (no page around it) for board.js to insert; 404 until the player solved it.

    The same 404 for a logged-out visitor and a player who has not solved it: the receipt
    tells how the puzzle is solved, so it is never shown before the player's own solve.
    """
    daily = _daily_or_404(day, difficulty)
    solve = None
    if request.user.is_authenticated:
        solve = Solve.objects.filter(user=request.user, daily=daily).first()
        if solve is not None:
            solve.daily = daily  # already loaded, with its puzzle
    if solve is None:
        return render(request, "puzzles/_results.html", {"daily": daily, "solve": None}, status=404)
    context = {
        "daily": daily,
        "solve": solve,
        "standing": standing_of(solve),
        "receipt": receipt_for(daily),
        "board": leaderboard_for(daily, user_id=request.user.pk),
        "day_word": "today's" if daily.date == site_today() else "that day's",
    }
    return render(request, "puzzles/_results.html", context)
