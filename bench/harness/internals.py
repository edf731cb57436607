"""The names past the engine's public face that the rating, generation and cheat benches use,
reached for here alone, so that one place changes when they move."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any


def format_duration(seconds: float) -> str:
    from puzzles.engine.clock import format_duration

    return format_duration(seconds)


def technique_tiers() -> dict[str, str]:
    """Every technique's name and the tier it belongs to."""
    from puzzles.engine.rater import tier_of
    from puzzles.engine.techniques import TECHNIQUES

    return {t.name: tier_of(t.name) for t in TECHNIQUES}


def hard_families() -> tuple[str, ...]:
    from puzzles.engine.families import FAMILIES

    return tuple(FAMILIES["hard"])


def family_stock(tier: str, hardest: Iterable[str | None]) -> dict[str, int]:
    from puzzles.engine.families import family_stock

    return family_stock(tier, hardest)


def generate_varied(tier: str, rng: random.Random, stock: dict[str, int]) -> Any:
    from puzzles.engine.generator import generate_varied

    return generate_varied(tier, rng, stock)
