"""Fish: a digit whose places in N lines fall in N crossing lines (x-wing, swordfish, jellyfish).

Each finder takes a pencil-marked position (see steps.py) and returns its first Step, or None.
Every finder here is sound for every solution of the position: it never removes a digit that
some solution puts in that cell.
"""

from __future__ import annotations

from .grid import COL_OF, DIGITS_OF, POPCOUNT, ROW_OF, Grid, Mask
from .steps import Candidates, Step, join_words, removals_text, unions

_FISH_NAMES = {2: "x-wing", 3: "swordfish", 4: "jellyfish"}


def _line_places(cands: Candidates) -> tuple[list[list[Mask]], list[list[Mask]]]:
    """For each digit, each row's columns and each column's rows where it is still possible."""
    by_row = [[0] * 9 for _ in range(10)]
    by_col = [[0] * 9 for _ in range(10)]
    for cell, mask in enumerate(cands):
        if mask:
            r, c = ROW_OF[cell], COL_OF[cell]
            for d in DIGITS_OF[mask]:
                by_row[d][r] |= 1 << c
                by_col[d][c] |= 1 << r
    return by_row, by_col


def _fish(cands: Candidates, size: int) -> Step | None:
    """`size` rows whose places for a digit fall in `size` columns (or the other way round):
    the digit fills those columns from these rows, so it leaves the rest of the columns."""
    by_row, by_col = _line_places(cands)
    for digit in range(1, 10):
        for rows_first in (True, False):
            base, cover = (by_row[digit], by_col[digit]) if rows_first else (by_col[digit], by_row[digit])
            pool = [line for line in range(9) if 2 <= POPCOUNT[base[line]] <= size]
            if len(pool) < size:
                continue
            for chosen, spots in unions([base[line] for line in pool], size):
                lines = tuple(pool[i] for i in chosen)
                inside = 0
                for line in lines:
                    inside |= 1 << line
                covers = tuple(x for x in range(9) if spots >> x & 1)
                elims = []
                for x in covers:
                    for y in range(9):
                        if cover[x] >> y & 1 and not inside >> y & 1:
                            elims.append(((y * 9 + x) if rows_first else (x * 9 + y), digit))
                if not elims:
                    continue
                elims.sort()
                used = tuple(
                    sorted(
                        (ln * 9 + x) if rows_first else (x * 9 + ln)
                        for ln in lines
                        for x in covers
                        if base[ln] >> x & 1
                    )
                )
                base_units = tuple(ln if rows_first else 9 + ln for ln in lines)
                cover_units = tuple(9 + x if rows_first else x for x in covers)
                kind, other = ("rows", "columns") if rows_first else ("columns", "rows")
                return Step(
                    _FISH_NAMES[size],
                    base_units + cover_units,
                    used,
                    (digit,),
                    eliminations=tuple(elims),
                    explanation=(
                        f"In {kind} {join_words([str(ln + 1) for ln in lines])}, {digit} can only go in "
                        f"{other} {join_words([str(x + 1) for x in covers])}, so those {other} get their "
                        f"{digit}s from these {kind}: {removals_text(elims)}."
                    ),
                )
    return None


def x_wing(digits: Grid, cands: Candidates) -> Step | None:
    """A fish on two lines."""
    return _fish(cands, 2)


def swordfish(digits: Grid, cands: Candidates) -> Step | None:
    """A fish on three lines."""
    return _fish(cands, 3)


def jellyfish(digits: Grid, cands: Candidates) -> Step | None:
    """A fish on four lines."""
    return _fish(cands, 4)
