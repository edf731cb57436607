"""The guide's words: for each technique, what to look for, why it works and what it lets you do.

They are written in words/<tier>.md, a "## name" heading per technique (the engine's name) and
three paragraphs under it, read once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..engine import TIERS

WORDS_DIR = Path(__file__).with_name("words")
HEADING = re.compile(r"^## (\S+)\s*$", re.MULTILINE)
COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


@dataclass(frozen=True)
class Words:
    look: str  # what to look for
    why: str  # why it works
    gives: str  # what it lets you remove or place


def parse(text: str) -> dict[str, list[str]]:
    """{name: [paragraph, ...]} from the text of one words file."""
    parts = HEADING.split(COMMENT.sub("", text))
    found: dict[str, list[str]] = {}
    for name, body in zip(parts[1::2], parts[2::2]):
        found[name] = [" ".join(p.split()) for p in body.strip().split("\n\n") if p.strip()]
    return found


@cache
def all_words() -> dict[str, Words]:
    """Every technique's words, from the files of every tier; a section of three paragraphs only."""
    found: dict[str, Words] = {}
    for tier in TIERS:
        path = WORDS_DIR / f"{tier}.md"
        if path.exists():
            for name, paragraphs in parse(path.read_text()).items():
                if len(paragraphs) == 3:
                    found[name] = Words(*paragraphs)
    return found
