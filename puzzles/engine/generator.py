"""Making a puzzle of a chosen difficulty: fill a grid, clear it to a minimal puzzle, rate it,
and try again until the rating matches."""

from __future__ import annotations

import random
import time
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from .clearer import SYMMETRIES, clear
from .fillers import DEFAULT_FILLER, FILLERS, FillStats, fill
from .grid import Grid, format_grid
from .rater import TIERS, Rating, rate


class GenerationGaveUp(RuntimeError):
    """No puzzle of the wanted tier turned up within the allowed tries."""


@dataclass
class Generated:
    """A finished puzzle and the record of how it was made."""

    givens: Grid
    solution: Grid
    rating: Rating
    filler: str
    symmetry: str
    tries: int
    milliseconds: float
    fill_stats: list[FillStats] = field(default_factory=list)

    @property
    def difficulty(self) -> str:
        return self.rating.tier

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready values, the exchange format of the command line and the tasks."""
        return {
            "givens": format_grid(self.givens),
            "solution": format_grid(self.solution),
            "difficulty": self.rating.tier,
            "score": self.rating.score,
            "hardest": self.rating.hardest,
            "techniques": dict(self.rating.techniques),
            "clues": sum(1 for d in self.givens if d),
            "filler": self.filler,
            "symmetry": self.symmetry,
            "tries": self.tries,
            "milliseconds": round(self.milliseconds, 2),
            "restarts": sum(s.restarts for s in self.fill_stats),
            "rollbacks": sum(s.rollbacks for s in self.fill_stats),
        }


def check_options(difficulty: str, filler: str, symmetry: str) -> None:
    """Raise ValueError, naming the choices, for an unknown tier, filler or symmetry."""
    if difficulty not in TIERS:
        raise ValueError(f"unknown difficulty {difficulty!r}; choose one of {', '.join(TIERS)}")
    if filler not in FILLERS:
        raise ValueError(f"unknown filler {filler!r}; choose one of {', '.join(FILLERS)}")
    if symmetry not in SYMMETRIES:
        raise ValueError(f"unknown symmetry {symmetry!r}; choose one of {', '.join(SYMMETRIES)}")


def generate(
    difficulty: str,
    rng: random.Random,
    filler: str = DEFAULT_FILLER,
    symmetry: str = "none",
    max_tries: int | None = None,
    band: tuple[int, int] | None = None,
    aim: Collection[str] | None = None,
) -> Generated:
    """generate(difficulty, rng, filler=..., symmetry=...) -> a minimal unique puzzle of that tier.

    Each try fills a new grid and clears it; the rater stops early once a puzzle needs more
    than the wanted tier, so a try that misses high costs little. With `band` (lowest, highest
    score, both included) only a puzzle whose score falls inside it will do; with `aim` (names
    of techniques) only one whose hardest technique is among them. Raises GenerationGaveUp after
    `max_tries` misses (no limit by default).
    """
    check_options(difficulty, filler, symmetry)
    started = time.perf_counter()
    stats: list[FillStats] = []
    tries = 0
    while max_tries is None or tries < max_tries:
        tries += 1
        solution, fill_stats = fill(rng, filler=filler)
        stats.append(fill_stats)
        givens = clear(solution, rng, symmetry=symmetry)
        rating = rate(givens, max_tier=difficulty)
        if rating.tier == difficulty and _wanted(rating, band, aim):
            return Generated(
                givens=givens,
                solution=solution,
                rating=rating,
                filler=filler,
                symmetry=symmetry,
                tries=tries,
                milliseconds=(time.perf_counter() - started) * 1000,
                fill_stats=stats,
            )
    raise GenerationGaveUp(f"no {difficulty} puzzle in {tries} tries")


def _wanted(rating: Rating, band: tuple[int, int] | None, aim: Collection[str] | None) -> bool:
    """Whether a puzzle of the right tier also meets the score band and the aimed techniques."""
    if band is not None and not band[0] <= rating.score <= band[1]:
        return False
    return aim is None or rating.hardest in aim
