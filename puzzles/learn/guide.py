"""The guide's order and pages: the techniques by tier, each with its words, its worked example
and its neighbours, all from the engine's catalogue."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import TECHNIQUE_BY_NAME, TECHNIQUES, TIERS, technique_phrase
from .examples import Example, examples
from .words import Words, all_words

# What each tier asks of a player, in a line: the same five names as the daily difficulties.
TIER_WORDS: dict[str, str] = {
    "easy": "Singles only: find the one place for a digit, or the one digit for a cell.",
    "medium": "Digits confined to a line or a box, and pairs: one step of reasoning before a single.",
    "hard": "Fish, wings, short chains on one digit and unique rectangles: patterns across the grid.",
    "expert": "Quads, longer chains, colouring and almost locked sets: patterns of many cells.",
    "extreme": "Forcing chains: suppose a candidate and follow where it leads. And, last of all, trial and error.",
}


@dataclass(frozen=True)
class Entry:
    """One technique of the guide."""

    name: str
    title: str
    tier: str
    difficulty: float
    about: str
    unique: bool
    words: Words | None
    example: Example | None

    @property
    def phrase(self) -> str:
        """'an XY-wing', 'a naked pair': the technique mid-sentence."""
        return technique_phrase(self.name)


def entries() -> list[Entry]:
    """Every technique of the catalogue, easiest first, with its words and example."""
    words, found = all_words(), examples()
    return [
        Entry(t.name, t.title, t.tier, t.difficulty, t.about, t.unique, words.get(t.name), found.get(t.name))
        for t in TECHNIQUES
    ]


def by_tier() -> list[tuple[str, str, list[Entry]]]:
    """(tier, what it asks, its techniques) for each tier, easiest first."""
    every = entries()
    return [(tier, TIER_WORDS[tier], [e for e in every if e.tier == tier]) for tier in TIERS]


def entry_of(name: str) -> tuple[Entry, Entry | None, Entry | None] | None:
    """A technique's entry with the one before and the one after it, or None for an unknown name."""
    if name not in TECHNIQUE_BY_NAME:
        return None
    every = entries()
    index = next(i for i, e in enumerate(every) if e.name == name)
    before = every[index - 1] if index else None
    after = every[index + 1] if index + 1 < len(every) else None
    return every[index], before, after
