"""What a player shares after a solve: a few lines that say how it went and give nothing away.

The text names the site, the date, the difficulty, the time, whether the solve was clean (no
hints, no checks), the player's streak, a line for the techniques the puzzle needed (a square
each, coloured by tier, then the same in words), and the link to the day's puzzle. It never names a digit or a cell. share_text() is a pure function
of plain values; share_for() gathers them for one solve.
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings

from ..durations import format_duration
from ..engine import TECHNIQUE_BY_NAME, TECHNIQUES
from ..links import link
from ..models import DailyPuzzle, Solve, Tier, site_today
from .history import kept_streaks, recent_solve_ids

SITE_NAME = "Daily Sudoku"

# One square per technique the puzzle needed, coloured by the technique's tier: the line reads
# easiest to hardest, and warmer squares mean harder steps.
TIER_EMOJI: dict[str, str] = {
    "easy": "🟩",
    "medium": "🟨",
    "hard": "🟧",
    "expert": "🟥",
    "extreme": "🟪",
}
UNKNOWN_EMOJI = "⬜"  # a technique an imported puzzle names that the engine does not know
ENGINE_ORDER: dict[str, int] = {t.name: i for i, t in enumerate(TECHNIQUES)}


@dataclass(frozen=True)
class Share:
    title: str  # the share sheet's title: 'Daily Sudoku · Easy · 22 November 2026'
    text: str  # everything shared, the link on its last line
    url: str


def technique_emoji(techniques: Iterable[str]) -> str:
    """technique_emoji(['x-wing', 'naked-single', 'pointing']) -> '🟩🟨🟧': one square per
    technique, in the engine's order (easiest first), unknown names last."""
    return _emoji(frozenset(techniques))


@functools.lru_cache(maxsize=256)  # a puzzle's line, the same for every solver of its day
def _emoji(techniques: frozenset[str]) -> str:
    names = sorted(techniques, key=lambda n: (ENGINE_ORDER.get(n, len(ENGINE_ORDER)), n))
    tiers = (TECHNIQUE_BY_NAME[n].tier if n in TECHNIQUE_BY_NAME else "" for n in names)
    return "".join(TIER_EMOJI.get(tier, UNKNOWN_EMOJI) for tier in tiers)


def technique_line(techniques: Iterable[str]) -> str:
    """technique_line(['x-wing', 'naked-single', 'pointing']) -> '🟩🟨🟧 1 easy, 1 medium, 1 hard
    technique' (as many squares as techniques): the squares, and what they stand for in words, for
    a reader whose font has no coloured squares (it shows boxes) and for a screen reader."""
    return _line(frozenset(techniques))


@functools.lru_cache(maxsize=256)
def _line(techniques: frozenset[str]) -> str:
    squares = _emoji(techniques)
    if not squares:
        return ""
    names = {emoji: tier for tier, emoji in TIER_EMOJI.items()} | {UNKNOWN_EMOJI: "other"}
    counts = {names[square]: squares.count(square) for square in dict.fromkeys(squares)}
    words = ", ".join(f"{n} {tier}" for tier, n in counts.items())
    return f"{squares} {words} technique{'s' if len(squares) > 1 else ''}"


@functools.lru_cache(maxsize=64)  # a few dailies a day; the enum's label is slow to look up
def share_title(day: datetime.date, difficulty: str) -> str:
    """'Daily Sudoku · Easy · 22 November 2026'."""
    label = Tier(difficulty).label if difficulty in Tier.values else difficulty.capitalize()
    return f"{SITE_NAME} · {label} · {day.day} {day:%B %Y}"


def share_text(
    *,
    day: datetime.date,
    difficulty: str,
    seconds: float,
    clean: bool,
    streak: int,
    techniques: Iterable[str],
    url: str,
) -> str:
    """The lines a player shares: title, time and cleanliness, streak, techniques, link."""
    how = "clean: no hints, no checks" if clean else "with hints or checks"
    lines = [share_title(day, difficulty), f"⏱️ {format_duration(seconds)}, {how}"]
    if streak > 0:
        lines.append(f"🔥 {streak}-day streak")
    line = technique_line(techniques)
    if line:
        lines.append(line)
    lines.append(url)
    return "\n".join(lines)


def current_streak(solve: Solve) -> int:
    """The solver's current streak, as the stats page counts it (in the site's time zone), read from
    their solves made on the puzzle's own day alone (history.player_streaks)."""
    today = site_today()
    return kept_streaks(solve.user, today, recent_solve_ids(solve.user, today)).current


def site_url(path: str) -> str:
    """An absolute address on the site, from settings.SITE_URL and never the request's Host."""
    return settings.SITE_URL + path


def daily_url(daily: DailyPuzzle) -> str:
    """The daily's page as an absolute address, for a link that leaves the site."""
    return site_url(link("puzzles:daily", daily.date, daily.difficulty))


def share_for(solve: Solve, url: str, streak: int | None = None) -> Share:
    """The share of one solve (its daily and puzzle loaded), linking to `url`, the day's puzzle;
    `streak`: the solver's current_streak, if the caller has it already."""
    daily = solve.daily
    text = share_text(
        day=daily.date,
        difficulty=daily.difficulty,
        seconds=solve.seconds,
        clean=not solve.assisted,
        streak=current_streak(solve) if streak is None else streak,
        techniques=(daily.puzzle.techniques or {}).keys(),
        url=url,
    )
    return Share(title=share_title(daily.date, daily.difficulty), text=text, url=url)
