"""Figures: one percentile, and the lines of the benches' tables."""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def percentile(values: Iterable[float], q: float) -> float:
    """The value at fraction `q` of the sorted values (nearest rank from below); NaN for none."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def row(*cells: object, widths: Sequence[int] = (-22, 12), sep: str = "  ") -> str:
    """One line of a table: each cell padded to its width (negative: aligned left), the last
    width serving every further cell."""
    padded = []
    for i, cell in enumerate(cells):
        width = widths[min(i, len(widths) - 1)]
        padded.append(f"{cell!s:<{-width}}" if width < 0 else f"{cell!s:>{width}}")
    return sep.join(padded)


def markdown_row(*cells: object) -> str:
    return "| " + " | ".join(str(cell) for cell in cells) + " |"


def markdown_header(*titles: str) -> str:
    return markdown_row(*titles) + "\n" + markdown_row(*(["---"] * len(titles)))
