"""Families of hardest techniques, so the pools can ask for variety.

A week of hard dailies should not be seven XY-wings: refills aim at the family the pool holds
least of (generator.generate_varied). Only the hard tier is split so far. The table names
techniques only; tests/engine/test_generator.py keeps it in step with the catalogue (every
technique of a split tier in exactly one family, and nothing else).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

FAMILIES: dict[str, dict[str, tuple[str, ...]]] = {
    "hard": {
        "fish": ("x-wing", "swordfish"),
        "subsets": ("naked-triple", "hidden-triple"),
        "wings": ("xy-wing", "xyz-wing"),
        "one-digit patterns": (
            "skyscraper",
            "two-string-kite",
            "turbot-fish",
            "empty-rectangle",
            "grouped-skyscraper",
            "grouped-two-string-kite",
        ),
        "uniqueness": ("unique-rectangle-1", "unique-rectangle-2", "unique-rectangle-3", "unique-rectangle-4"),
    },
}
FAMILY_OF: dict[str, str] = {
    technique: family
    for families in FAMILIES.values()
    for family, techniques in families.items()
    for technique in techniques
}


def family_stock(tier: str, hardest: Iterable[str | None]) -> dict[str, int]:
    """family_stock(tier, hardest) -> puzzles per family of the tier (0 for a family with none),
    from the hardest techniques of the puzzles held; {} for a tier without families."""
    stock = dict.fromkeys(FAMILIES.get(tier, {}), 0)
    for name in hardest:
        family = FAMILY_OF.get(name or "")
        if family in stock:
            stock[family] += 1
    return stock


def least_stocked(tier: str, stock: Mapping[str, int]) -> tuple[str, ...]:
    """The tier's families holding the fewest puzzles in `stock` (all of them on a tie)."""
    families = FAMILIES[tier]
    fewest = min(stock.get(family, 0) for family in families)
    return tuple(family for family in families if stock.get(family, 0) == fewest)
