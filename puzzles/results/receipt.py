"""The technique receipt shown after a solve: what the puzzle required, and why its difficulty.

The counts and the hardest technique are stored on the Puzzle. The hardest step's wording comes
from rating the puzzle again (a few milliseconds), kept per puzzle in this process's memory (the
"local" cache, for what depends on a puzzle alone: every results page reads it, and the shared
cache would add a round trip to each): the database stays the only real copy, and a cache that
fails only costs the rating.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.core.cache import caches

from .. import engine
from ..durations import format_duration
from ..engine import TECHNIQUE_BY_NAME, TECHNIQUES, article_for, technique_about, technique_phrase, technique_title
from ..models import DailyPuzzle, Puzzle, Tier
from .leaderboard import Leaderboard, median_time

log = logging.getLogger(__name__)
cache = caches["local"]

HARDEST_CACHE_SECONDS = 24 * 3600  # a puzzle's rating never changes; a day bounds a stale entry


@dataclass(frozen=True)
class TechniqueCount:
    name: str
    title: str
    count: int
    tier: str

    @property
    def in_guide(self) -> bool:
        """Whether the technique guide (/learn/<name>/) has a page for it: the engine's techniques do."""
        return self.name in TECHNIQUE_BY_NAME


@dataclass(frozen=True)
class HardestStep:
    name: str
    title: str
    about: str
    explanation: str  # the engine's sentence for the first step of that technique

    @property
    def in_guide(self) -> bool:
        return self.name in TECHNIQUE_BY_NAME


@dataclass
class Receipt:
    tier: str  # the puzzle's own rating
    difficulty: str  # the daily's slot; differs from tier for a substitute
    techniques: list[TechniqueCount]
    steps: int
    hardest: HardestStep | None
    median_seconds: float | None
    median_solvers: int

    @property
    def tier_label(self) -> str:
        return Tier(self.tier).label if self.tier in Tier.values else self.tier

    @property
    def difficulty_label(self) -> str:
        return Tier(self.difficulty).label if self.difficulty in Tier.values else self.difficulty

    @property
    def median(self) -> str:
        return format_duration(self.median_seconds) if self.median_seconds is not None else ""

    @property
    def why(self) -> str:
        """Why the puzzle earned its difficulty, in one sentence."""
        if self.hardest is None:
            return f"It is rated {self.tier_label}."
        if self.hardest.name == "trial-and-error":
            return f"It is rated {self.tier_label}: at one point no technique applies and a guess has to be tested."
        tier = TECHNIQUE_BY_NAME[self.hardest.name].tier if self.hardest.name in TECHNIQUE_BY_NAME else self.tier
        if tier == "easy":
            return f"It is rated {self.tier_label}: singles alone solve it."
        needs = technique_phrase(self.hardest.name) if self.hardest.name in TECHNIQUE_BY_NAME else self.hardest.title
        return f"It is rated {self.tier_label} because it needs {needs}, {article_for(tier)} {tier} technique."


def _ordered_counts(techniques: dict) -> list[TechniqueCount]:
    """The stored counts in the engine's order (easiest first); unknown names at the end."""
    known = [t.name for t in TECHNIQUES]
    names = [n for n in known if n in techniques] + sorted(n for n in techniques if n not in known)
    return [
        TechniqueCount(
            name,
            technique_title(name),
            int(techniques[name]),
            TECHNIQUE_BY_NAME[name].tier if name in TECHNIQUE_BY_NAME else "",
        )
        for name in names
    ]


def _hardest_explanation(puzzle: Puzzle) -> dict | None:
    """{'technique', 'explanation'} of the puzzle's hardest step, from the engine's rating.

    The stored hardest technique is looked for first; a puzzle imported with a rating of its
    own may not need it when the engine rates it, and then the engine's hardest step is used.
    """
    try:
        rating = engine.rate(puzzle.givens)
    except engine.InvalidGrid:
        log.error("puzzle %s cannot be rated for its receipt", puzzle.pk)
        return None
    wanted = [puzzle.hardest, rating.hardest]
    for name in wanted:
        step = next((s for s in rating.steps if s.technique == name), None)
        if step is not None:
            return {"technique": step.technique, "explanation": step.explanation}
    return None


def hardest_step(puzzle: Puzzle) -> HardestStep | None:
    """The puzzle's hardest step with its wording, cached per puzzle (cache errors are ignored)."""
    key = f"receipt:hardest:{puzzle.pk}"
    found = None
    try:
        found = cache.get(key)
    except Exception:  # any backend's failure: the cache is only ever a shortcut
        log.warning("cache unavailable reading %s", key, exc_info=True)
    if found is None:
        found = _hardest_explanation(puzzle)
        if found is None:
            return None
        try:
            cache.set(key, found, HARDEST_CACHE_SECONDS)
        except Exception:
            log.warning("cache unavailable writing %s", key, exc_info=True)
    name = found["technique"]
    return HardestStep(name, technique_title(name), technique_about(name), found["explanation"])


def receipt_for(daily: DailyPuzzle, board: Leaderboard | None = None) -> Receipt:
    """What the daily's puzzle required and the day's median time; show it only after a solve.
    The median is the day's `board`'s when the page has read it already."""
    puzzle = daily.puzzle
    counts = _ordered_counts(puzzle.techniques or {})
    median, solvers = (board.median, board.solvers) if board is not None else median_time(daily)
    return Receipt(
        tier=puzzle.tier,
        difficulty=daily.difficulty,
        techniques=counts,
        steps=sum(c.count for c in counts),
        hardest=hardest_step(puzzle),
        median_seconds=median,
        median_solvers=solvers,
    )
