"""The picture a shared link shows: a day's puzzle, its givens only, drawn as a 1200x630 PNG.

Link previews (Open Graph, Twitter cards) want a 1.91:1 image of at least 1200x630. The grid
fills the left; the site, the difficulty and the date the right. The solution is never drawn:
draw_preview() takes the givens alone. The font is the one Pillow carries (load_default), so the
picture is the same on every machine, whatever fonts it has.
"""

from __future__ import annotations

import datetime
import io
from functools import cache

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 1200, 630
MARGIN = 45
GRID_SIZE = HEIGHT - 2 * MARGIN  # 540: a cell is 60 px
CELL_SIZE = GRID_SIZE // 9
TEXT_LEFT = MARGIN + GRID_SIZE + 60

# site.css's light theme: --bg, --fg, --accent.
BACKGROUND = "#fbfbfd"
INK = "#1b1b1f"
ACCENT = "#2456c9"
THIN_LINE = "#b9bac4"
MUTED = "#55565f"

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@cache
def _font(size: int) -> Font:
    return ImageFont.load_default(size=size)


def _grid(draw: ImageDraw.ImageDraw, givens: str) -> None:
    """The 9x9 grid at the left, box lines heavier, each given centred in its cell."""
    left = top = MARGIN
    draw.rectangle((left, top, left + GRID_SIZE, top + GRID_SIZE), fill="#ffffff")
    for i in range(10):
        if i % 3:
            offset = i * CELL_SIZE
            draw.line((left + offset, top, left + offset, top + GRID_SIZE), fill=THIN_LINE, width=2)
            draw.line((left, top + offset, left + GRID_SIZE, top + offset), fill=THIN_LINE, width=2)
    for i in range(0, 10, 3):
        offset = i * CELL_SIZE
        draw.line((left + offset, top - 2, left + offset, top + GRID_SIZE + 2), fill=INK, width=5)
        draw.line((left - 2, top + offset, left + GRID_SIZE + 2, top + offset), fill=INK, width=5)
    digit_font = _font(40)
    for cell, digit in enumerate(givens):
        if digit in "123456789":
            row, col = divmod(cell, 9)
            centre = (left + col * CELL_SIZE + CELL_SIZE / 2, top + row * CELL_SIZE + CELL_SIZE / 2)
            draw.text(centre, digit, fill=INK, font=digit_font, anchor="mm")


def _words(draw: ImageDraw.ImageDraw, difficulty: str, day: datetime.date, clues: int) -> None:
    """The site's name, the difficulty, the date and the count of givens, to the grid's right."""
    x = TEXT_LEFT
    draw.text((x, 120), "Daily Sudoku", fill=ACCENT, font=_font(52), anchor="ls")
    draw.text((x, 250), difficulty, fill=INK, font=_font(88), anchor="ls")
    draw.text((x, 330), f"{day.day} {day:%B %Y}", fill=INK, font=_font(44), anchor="ls")
    draw.text((x, 400), f"{clues} givens", fill=MUTED, font=_font(36), anchor="ls")
    draw.text((x, HEIGHT - MARGIN - 8), "Play it free in your browser", fill=ACCENT, font=_font(36), anchor="ls")


def draw_preview(givens: str, difficulty: str, day: datetime.date) -> bytes:
    """draw_preview(givens, 'Easy', date) -> PNG bytes, 1200x630: the givens (81 characters,
    '0' or '.' for an empty cell) on a grid, with the difficulty's name and the date."""
    if len(givens) != 81:
        raise ValueError(f"a puzzle has 81 cells, not {len(givens)}")
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    _grid(draw, givens)
    clues = sum(1 for digit in givens if digit in "123456789")
    _words(draw, difficulty, day, clues)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
