"""Families of hardest techniques, so the pools can ask for variety.

A week of hard dailies should not be seven XY-wings: a refill keeps a puzzle only while its
family has room in the pool (family_keeps). Only the hard tier is split so far. The table names
techniques only; tests/engine/test_generator.py keeps it in step with the catalogue (every
technique of a split tier in exactly one family, and nothing else).
"""

from __future__ import annotations

import math
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
        "uniqueness": (
            "unique-rectangle-1",
            "unique-rectangle-2",
            "unique-rectangle-3",
            "unique-rectangle-4",
            "unique-loop",
        ),
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


# No family may fill more than this share of a pool, so the common ones (skyscrapers, XY-wings)
# leave room for the rest.
FAMILY_SHARE = 0.4
# A refill aims (family_keeps with aiming) for this share of its time budget, then keeps any
# puzzle it has room for, so a family rarely met cannot hold its pool short for long.
AIM_SHARE = 0.5


def family_keeps(hardest: str | None, stock: Mapping[str, int], target: int, aiming: bool = True) -> bool:
    """Whether a pool of `target` puzzles, holding `stock` per family of its tier, keeps one more
    whose hardest technique is `hardest`.

    It keeps any while there is room; but while `aiming`, once its family is held it keeps one
    more only with room to spare for a puzzle of each family still missing, and while its family
    holds less than FAMILY_SHARE of the target. So no puzzle a pool has room for is wasted, and
    one filled from empty keeps a place for every family, the rare ones too.
    """
    held = sum(stock.values())
    family = FAMILY_OF.get(hardest or "", "")
    if not aiming or stock.get(family, 0) == 0:
        return held < target
    missing = sum(1 for count in stock.values() if count == 0)
    return held + missing < target and stock[family] < math.ceil(FAMILY_SHARE * target)
