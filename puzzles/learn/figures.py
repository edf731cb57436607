"""The guide's figure of the grid's words: row 2 and column 7 shaded, box 9 outlined, r2c7
marked, with the rows and columns numbered the way cell names count them. An inline SVG, so it
takes the page's colours (light or dark) from CSS classes."""

from __future__ import annotations

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

CELL = 10
MARGIN = 9  # room for the row and column numbers
SIZE = 9 * CELL

ROW, COLUMN, BOX = 1, 6, 8  # row 2, column 7, box 9, counted from 0


def houses_svg() -> SafeString:
    """The figure, described by the figure's caption (aria-describedby on the page)."""
    shade = format_html_join(
        "",
        '<rect class="{}" x="{}" y="{}" width="{}" height="{}"/>',
        [
            ("figure-row", MARGIN, MARGIN + ROW * CELL, SIZE, CELL),
            ("figure-column", MARGIN + COLUMN * CELL, MARGIN, CELL, SIZE),
            ("figure-cell", MARGIN + COLUMN * CELL, MARGIN + ROW * CELL, CELL, CELL),
        ],
    )
    thin = " ".join(
        f"M{MARGIN + n * CELL} {MARGIN}v{SIZE}M{MARGIN} {MARGIN + n * CELL}h{SIZE}" for n in range(1, 9) if n % 3
    )
    thick = " ".join(f"M{MARGIN + n * CELL} {MARGIN}v{SIZE}M{MARGIN} {MARGIN + n * CELL}h{SIZE}" for n in (3, 6))
    box_x, box_y = MARGIN + (BOX % 3) * 3 * CELL, MARGIN + (BOX // 3) * 3 * CELL
    labels = format_html_join(
        "",
        '<text x="{}" y="{}">{}</text>',
        [(MARGIN + n * CELL + CELL / 2, MARGIN / 2, f"c{n + 1}") for n in range(9)]
        + [(MARGIN / 2, MARGIN + n * CELL + CELL / 2, f"r{n + 1}") for n in range(9)],
    )
    cell_x, cell_y = MARGIN + COLUMN * CELL + CELL / 2, MARGIN + ROW * CELL + CELL / 2
    return format_html(
        '<svg class="learn-houses" viewBox="0 0 {} {}" role="img" aria-labelledby="houses-caption">'
        "{}"
        '<path class="figure-thin" d="{}"/><path class="figure-thick" d="{}"/>'
        '<rect class="figure-frame" x="{}" y="{}" width="{}" height="{}"/>'
        '<rect class="figure-box" x="{}" y="{}" width="{}" height="{}"/>'
        '<g class="figure-labels">{}</g>'
        '<text class="figure-cell-name" x="{}" y="{}">r2c7</text>'
        "</svg>",
        MARGIN + SIZE + 1,
        MARGIN + SIZE + 1,
        shade,
        thin,
        thick,
        MARGIN,
        MARGIN,
        SIZE,
        SIZE,
        box_x + 0.75,
        box_y + 0.75,
        3 * CELL - 1.5,
        3 * CELL - 1.5,
        labels,
        cell_x,
        cell_y,
    )
