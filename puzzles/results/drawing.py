"""A small drawing of a grid for the pages that list puzzles: an inline SVG of the givens, and of a
player's own digits when there are any.

It is drawn from the givens and the player's entries only, never from the puzzle's solution, so no
page can leak an answer through it. The SVG names itself with a <title> (role="img"); its digits
are a picture, not text a screen reader reads out cell by cell.
"""

from __future__ import annotations

from functools import lru_cache

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

CELL = 10  # one cell in the drawing's own units; the page sets the drawing's size
SIZE = 9 * CELL
DIGITS = frozenset("123456789")

# The grid's lines as one path each: thin between cells, thick between boxes and round the edge.
THIN_LINES = " ".join(f"M{n * CELL} 0V{SIZE}M0 {n * CELL}H{SIZE}" for n in range(1, 9) if n % 3)
THICK_LINES = " ".join(f"M{n * CELL} 0V{SIZE}M0 {n * CELL}H{SIZE}" for n in (3, 6))


@lru_cache(maxsize=512)
def _digits(cells: str, css_class: str, weight: int) -> SafeString:
    """One <text> per filled cell of an 81-character grid (anything but 1-9 is an empty cell).

    Written out rather than escaped piece by piece: only the digits 1-9 and numbers reach the
    markup, so there is nothing to escape, and the home page draws five grids a request. The same
    givens are drawn for every player, so a grid's digits are kept once made."""
    texts = "".join(
        f'<text x="{index % 9 * CELL + CELL // 2}" y="{index // 9 * CELL + CELL // 2}">{digit}</text>'
        for index, digit in enumerate(cells[:81])
        if digit in DIGITS
    )
    if not texts:
        return SafeString("")
    return format_html(
        '<g class="grid-drawing-{}" fill="currentColor" font-weight="{}" text-anchor="middle"'
        ' dominant-baseline="central">{}</g>',
        css_class,
        weight,
        mark_safe(texts),  # digits and numbers only (above)
    )


def entries_of(givens: str, digits: str) -> str:
    """The player's own digits: their entries in cells that are not givens (a given is never theirs)."""
    return "".join(d if g not in DIGITS and d in DIGITS else "0" for g, d in zip(givens, digits))


@lru_cache(maxsize=1024)  # a day's cards are the same drawings for most players: a few KB each
def grid_svg(givens: str, title: str, digits: str = "") -> SafeString:
    """An inline SVG of a 9x9 grid: the givens, and the player's `digits` (their position), named by
    `title`. Both are 81 characters, '0' (or '.') for an empty cell.

    It draws in the text colour by its own attributes, so it needs no stylesheet; a page's CSS may
    colour the player's digits (.grid-drawing-entry) and size it (.grid-drawing)."""
    return format_html(
        '<svg class="grid-drawing" viewBox="-1 -1 {box} {box}" role="img" focusable="false"'
        ' font-family="system-ui, sans-serif" font-size="6.4">'
        "<title>{title}</title>"
        '<rect x="0" y="0" width="{size}" height="{size}" fill="none" stroke="currentColor"'
        ' stroke-opacity="0.8" stroke-width="0.9"/>'
        '<path d="{thin}" fill="none" stroke="currentColor" stroke-opacity="0.22" stroke-width="0.35"/>'
        '<path d="{thick}" fill="none" stroke="currentColor" stroke-opacity="0.8" stroke-width="0.7"/>'
        "{givens}{entries}</svg>",
        box=SIZE + 2,
        size=SIZE,
        title=title,
        thin=THIN_LINES,
        thick=THICK_LINES,
        givens=_digits(givens, "given", 600),
        entries=_digits(entries_of(givens, digits), "entry", 400) if digits else "",
    )
