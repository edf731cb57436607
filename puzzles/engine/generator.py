"""Making a puzzle of a chosen difficulty: fill a grid, clear it to a minimal puzzle, rate it,
and try again until the rating matches."""

from __future__ import annotations

import random
import time
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .catalogue import TIERS
from .clearer import SYMMETRIES, clear
from .families import FAMILIES, FAMILY_OF, least_stocked
from .fillers import DEFAULT_FILLER, FILLERS, FillStats, fill
from .grid import Grid, format_grid
from .rater import Rating, rate
from .solver import solved_by_propagation

# Tries a varied hard puzzle may spend looking for the least-stocked family before it settles
# for the best puzzle met on the way (generate_varied). That is a few hard puzzles' worth of
# tries, so aiming costs at most a few puzzles' time; bench/hardest.py --aimed measures it.
AIM_TRIES = 18


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


def generate_varied(
    difficulty: str,
    rng: random.Random,
    stock: Mapping[str, int],
    filler: str = DEFAULT_FILLER,
    symmetry: str = "none",
    aim_tries: int = AIM_TRIES,
) -> Generated:
    """generate_varied(difficulty, rng, stock) -> a puzzle of the tier, aimed at variety.

    `stock` counts the puzzles already held per family of the tier (families.py); the puzzle
    is aimed at the family with the fewest (any of them on a tie). Aiming never stalls: once
    `aim_tries` tries are spent, the puzzle of the tier met on the way whose family is least
    stocked is taken (or, if none was met, the next one made), so aiming costs at most
    `aim_tries` tries more than any puzzle of the tier. A tier without families is made by
    generate().
    """
    if difficulty not in FAMILIES:
        return generate(difficulty, rng, filler=filler, symmetry=symmetry)
    check_options(difficulty, filler, symmetry)
    aim = {t for family in least_stocked(difficulty, stock) for t in FAMILIES[difficulty][family]}
    started = time.perf_counter()
    stats: list[FillStats] = []
    best: tuple[Grid, Grid, Rating] | None = None
    for tries, made in enumerate(_attempts(difficulty, rng, filler, symmetry, stats), start=1):
        if made is not None:
            if made[2].hardest in aim:
                return _finished(made, filler, symmetry, tries, started, stats)
            if best is None or _stocked(made, stock) < _stocked(best, stock):
                best = made
        if tries >= aim_tries and best is not None:
            return _finished(best, filler, symmetry, tries, started, stats)
    raise AssertionError("unreachable: the tries never end")


def _stocked(made: tuple[Grid, Grid, Rating], stock: Mapping[str, int]) -> int:
    """How many puzzles the stock holds of the family of a made puzzle's hardest technique."""
    return stock.get(FAMILY_OF.get(made[2].hardest or "", ""), 0)


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
