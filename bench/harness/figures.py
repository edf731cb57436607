"""Figures: one percentile, and the lines of the benches' tables."""

from __future__ import annotations

import statistics
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


def ranks(values: Sequence[float]) -> list[float]:
    """Ranks from 1, tied values sharing the average of the ranks they span."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for i in order[start : end + 1]:
            out[i] = (start + end) / 2 + 1
        start = end + 1
    return out


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Spearman's rho with average ranks for ties; None when fewer than two pairs or a side is constant."""
    if len(xs) != len(ys):
        raise ValueError("spearman needs two sequences of one length")
    if len(xs) < 2:
        return None
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    if vx == 0 or vy == 0:
        return None
    return cov / (vx * vy) ** 0.5
