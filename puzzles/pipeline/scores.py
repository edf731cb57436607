"""A puzzle's score as people read it: hundredths of the Sudoku Explainer scale, 427 as "4.27"."""

from __future__ import annotations

UNRATED = "unrated"


def score_text(score: int | None) -> str:
    """427 -> "4.27"; 0 or None (a row the current rater has not scored) -> "unrated"."""
    if not score:
        return UNRATED
    return f"{score / 100:.2f}"


def band_text(band: tuple[int, int]) -> str:
    """(320, 470) -> "3.20 to 4.70"."""
    return f"{band[0] / 100:.2f} to {band[1] / 100:.2f}"
