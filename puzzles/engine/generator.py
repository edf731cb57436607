"""Making a puzzle of a chosen difficulty: fill a grid, clear it to a minimal puzzle, rate it,
and try again until the rating matches."""

from __future__ import annotations

import random
import time
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from typing import Any

from .catalogue import TIERS
from .clearer import SYMMETRIES, clear
from .fillers import DEFAULT_FILLER, FILLERS, FillStats, fill
from .grid import Grid, format_grid
from .rater import Rating, rate
from .solver import solved_by_propagation


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
    aim: Collection[str] | None = None,
) -> Generated:
    """generate(difficulty, rng, filler=..., symmetry=...) -> a minimal unique puzzle of that tier.

    Each try fills a new grid, clears it and rates it (_attempts). With `aim` (names of
    techniques) only a puzzle whose hardest technique is among them will do. Raises
    GenerationGaveUp after `max_tries` misses (no limit by default).
    """
    check_options(difficulty, filler, symmetry)
    started = time.perf_counter()
    stats: list[FillStats] = []
    attempts = _attempts(difficulty, rng, filler, symmetry, stats)
    tries = 0
    while max_tries is None or tries < max_tries:
        tries += 1
        made = next(attempts)
        if made is not None and (aim is None or made[2].hardest in aim):
            return _finished(made, filler, symmetry, tries, started, stats)
    raise GenerationGaveUp(f"no {difficulty} puzzle in {tries} tries")


def generate_stream(
    difficulty: str, rng: random.Random, filler: str = DEFAULT_FILLER, symmetry: str = "none"
) -> Iterator[Generated]:
    """generate_stream(difficulty, rng) -> every puzzle of the tier the tries make, in turn, without end.

    The first is the puzzle generate() makes from the same rng. Each one's tries, time and fills
    count from the one before, so a caller that keeps only some (a pool that wants variety,
    families.family_keeps) has made each of the others once, not thrown away the work.
    """
    check_options(difficulty, filler, symmetry)
    return _stream(difficulty, rng, filler, symmetry)


def _stream(difficulty: str, rng: random.Random, filler: str, symmetry: str) -> Iterator[Generated]:
    stats: list[FillStats] = []
    tries, started = 0, time.perf_counter()
    for made in _attempts(difficulty, rng, filler, symmetry, stats):
        tries += 1
        if made is not None:
            yield _finished(made, filler, symmetry, tries, started, list(stats))
            stats.clear()
            tries, started = 0, time.perf_counter()


def _attempts(
    difficulty: str, rng: random.Random, filler: str, symmetry: str, stats: list[FillStats]
) -> Iterator[tuple[Grid, Grid, Rating] | None]:
    """One item per try, without end: (solution, givens, rating) for a puzzle of the tier, None
    for a miss. Each try fills a new grid and clears it; the rater stops early once a puzzle
    needs more than the wanted tier, so a try that misses high costs little."""
    beyond_medium = TIERS.index(difficulty) > TIERS.index("medium")
    while True:
        solution, fill_stats = fill(rng, filler=filler)
        stats.append(fill_stats)
        givens = clear(solution, rng, symmetry=symmetry)
        if beyond_medium and solved_by_propagation(givens):
            # Singles, pointing and claiming suffice, so rate() would say easy or medium: a
            # miss known for a small part of the cost of rating it, and a common one.
            yield None
            continue
        rating = rate(givens, max_tier=difficulty, solution=solution)
        yield (solution, givens, rating) if rating.tier == difficulty else None


def _finished(
    made: tuple[Grid, Grid, Rating], filler: str, symmetry: str, tries: int, started: float, stats: list[FillStats]
) -> Generated:
    solution, givens, rating = made
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
