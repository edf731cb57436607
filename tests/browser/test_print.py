"""Sudoku on paper, in Chromium: the board printed is its grid, its tier and its date and nothing
else, black on white in either theme, the player's digits apart from the givens; the print page is
two sheets of A4 or Letter for five puzzles, one for fewer, and on screen it is axe-clean and
prints from the keyboard. docs/screenshots/print-board.png and print-page.png are taken here, in
print media at an A4 sheet's size (96 px to the inch), and print-page-screen*.png on screen."""

from __future__ import annotations

import datetime
import re
import zlib

import pytest

from puzzles.models import TIER_ORDER, site_today
from tests.browser.axe import assert_accessible
from tests.browser.pages import LOOKS, assert_fits, cell, digit_in, notes_in, screenshot, shoot, sign_up, wait_saved
from tests.factories import make_daily

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

A4_SHEET = {"viewport": {"width": 794, "height": 1123}}  # 210 x 297 mm at 96 px to the inch
PAGE_OBJECT = re.compile(rb"/Type\s*/Page\b(?!s)")  # a page's own object, not the /Pages tree

# What the board shows besides the grid and its title, every one of them gone from paper.
BOARD_EXTRAS = [
    ".site-header",
    "#sudoku-clock",
    "#sudoku-pause",
    "#sudoku-settings-open",
    "#sudoku-messages",
    "#sudoku-keypad",
    "#sudoku-results-slot",
    "#sudoku-keys",
    "#sudoku-guest",
    "#sudoku-settings",
    "#howto",
]

# Every element that paints something bigger than a pixel (a visually hidden label is one pixel)
# and is neither inside nor around the board's title and grid: what paper would show besides them.
PAINTED_BESIDES = """(keep) => {
  const kept = keep.map((s) => document.querySelector(s));
  return [...document.body.querySelectorAll("*")]
    .filter((e) => !kept.some((k) => k.contains(e) || e.contains(k)))
    .filter((e) => e.checkVisibility({ opacityProperty: true, visibilityProperty: true }))
    .filter((e) => { const r = e.getBoundingClientRect(); return r.width > 1 && r.height > 1; })
    .map((e) => e.id || e.className || e.tagName);
}"""

# Whether an element has no box at all, nor any descendant one.
NO_BOX = (
    "(e) => e.getClientRects().length === 0 && ![...e.querySelectorAll('*')].some((d) => d.getClientRects().length)"
)


def pages_in(pdf: bytes) -> int:
    return len(PAGE_OBJECT.findall(pdf))


def rectangles_by_page(pdf: bytes) -> list[int]:
    """How many rectangles (the `re` operator) each page of Chromium's PDF draws, in page order:
    every grid's frame is drawn with the same few, so a page's count is its grids' times that, and
    a grid cut between two sheets would be drawn on both."""
    objects = {int(n): body for n, body in re.findall(rb"(\d+) 0 obj(.*?)endobj", pdf, re.S)}
    counts = []
    for number in sorted(n for n, body in objects.items() if PAGE_OBJECT.search(body)):
        contents = re.search(rb"/Contents\s+(\d+) 0 R", objects[number])
        assert contents, "a page without its own content stream"
        stream = objects[int(contents.group(1))]
        raw = stream[stream.index(b"stream") + 6 : stream.rindex(b"endstream")].strip(b"\r\n")
        counts.append(len(re.findall(rb"\sre\b", zlib.decompress(raw))))
    return counts


def style_of(page, selector: str) -> dict:
    return page.eval_on_selector(
        selector,
        """(e) => { const s = getComputedStyle(e);
           return { color: s.color, weight: s.fontWeight, style: s.fontStyle, background: s.backgroundColor }; }""",
    )


@pytest.fixture
def todays_five(transactional_db):
    return {tier: make_daily(site_today(), tier) for tier in TIER_ORDER}


@pytest.mark.screenshots
@pytest.mark.parametrize(("theme", "who"), [("light", "guest"), ("dark", "player")])
def test_the_board_prints_its_grid_tier_and_date_alone_in_black_on_white(
    chromium, live_server, todays_easy, theme, who
):
    path = f"/daily/{todays_easy.date.isoformat()}/easy/"
    context = chromium.new_context(color_scheme=theme, **A4_SHEET)
    # The theme chosen in the board's settings, too: paper is white whatever it is.
    context.add_init_script(f"localStorage.setItem('sudoku:theme', '{theme}')")
    page = context.new_page()
    if who == "player":
        sign_up(page, live_server.url, path, f"printer-{theme}")
    else:
        page.goto(live_server.url + path)
        page.wait_for_selector("#sudoku[data-ready=visitor]")
    # A digit of the player's (r1c1's answer is 4), and a corner note beside it.
    cell(page, 0).click()
    page.keyboard.press("4")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Shift+7")
    assert digit_in(page, 0) == "4" and "7" in notes_in(page, 1, "corner")
    wait_saved(page)
    # On screen the controls are all there, with the guest's notice or the settings dialog open.
    assert page.locator("#sudoku-keypad").is_visible()
    if who == "guest":
        assert page.locator("#sudoku-guest").is_visible()
    else:
        page.click("#sudoku-settings-open")
        page.locator("#sudoku-settings").wait_for(state="visible")

    page.emulate_media(media="print")
    for selector in BOARD_EXTRAS:
        assert page.eval_on_selector(selector, NO_BOX), f"{selector} is on paper"
    assert page.evaluate(PAINTED_BESIDES, ["#sudoku-title", "#sudoku-grid"]) == []
    title = page.locator("#sudoku-title")
    assert title.is_visible()
    day = todays_easy.date
    assert title.inner_text().split() == ["Easy", f"{day:%a}", str(day.day), f"{day:%b}", f"{day:%Y}"]
    # Large, square, on the sheet: the grid takes most of an A4 sheet's width.
    grid = page.locator("#sudoku-grid").bounding_box()
    assert 560 <= grid["width"] <= 620 and abs(grid["width"] - grid["height"]) < 2
    # Black on white; the player's digit light, slanted and grey beside the bold black givens.
    assert style_of(page, "body")["background"] == "rgb(255, 255, 255)"
    given = style_of(page, "#cell-2")
    entry = style_of(page, "#cell-0")
    assert given == {"color": "rgb(0, 0, 0)", "weight": "700", "style": "normal", "background": "rgba(0, 0, 0, 0)"}
    assert entry["color"] == "rgb(74, 74, 74)" and entry["weight"] == "300" and entry["style"] == "italic"
    assert page.eval_on_selector("#cell-1 .cell-corner", NO_BOX)  # notes are play aids, not printed
    assert page.eval_on_selector("#sudoku-grid", "(e) => getComputedStyle(e).borderTopColor") == "rgb(0, 0, 0)"
    if theme == "light":
        screenshot(page, "print-board.png")
    # One sheet, on A4 and on Letter.
    for paper in ("A4", "Letter"):
        assert pages_in(page.pdf(format=paper)) == 1, paper

    page.emulate_media(media="screen")  # the stylesheet is paper's only: a screen never applies it
    assert page.locator("#sudoku-keypad").is_visible() and page.locator(".site-header").is_visible()
    context.close()


@pytest.mark.screenshots
def test_the_print_page_puts_five_puzzles_on_two_sheets_and_fewer_on_one(chromium, live_server, todays_five):
    context = chromium.new_context(color_scheme="dark", **A4_SHEET)
    page = context.new_page()
    page.goto(f"{live_server.url}/print/")
    for paper in ("A4", "Letter"):
        pdf = page.pdf(format=paper)
        assert pages_in(pdf) == 2, paper
        first, second = rectangles_by_page(pdf)  # three grids, then two, each whole on its sheet
        assert second > 0 and first * 2 == second * 3, (paper, first, second)

    page.emulate_media(media="print")
    for selector in (".site-header", "#print-button", ".print-play"):
        assert page.eval_on_selector(selector, NO_BOX), f"{selector} is on paper"
    assert style_of(page, "body")["background"] == "rgb(255, 255, 255)"
    assert page.eval_on_selector(".grid-drawing", "(e) => getComputedStyle(e).color") == "rgb(0, 0, 0)"
    # Two grids abreast, 86 mm each (325 px), the third centred under them; the second sheet starts
    # with the fourth: where a sheet breaks, a whole grid goes over (break-inside: avoid).
    boxes = page.locator(".print-puzzle").evaluate_all("(fs) => fs.map((f) => f.getBoundingClientRect().toJSON())")
    assert [round(b["width"]) for b in boxes] == [325] * 5
    assert boxes[0]["y"] == boxes[1]["y"] < boxes[2]["y"]
    middle = A4_SHEET["viewport"]["width"] / 2
    assert abs(boxes[2]["x"] + boxes[2]["width"] / 2 - middle) < 40
    breaks = page.locator(".print-sheet").evaluate_all("(ss) => ss.map((s) => getComputedStyle(s).breakBefore)")
    assert breaks == ["auto", "page"]
    assert (
        page.locator(".print-puzzle").evaluate_all("(fs) => fs.map((f) => getComputedStyle(f).breakInside)")
        == ["avoid"] * 5
    )
    screenshot(page, "print-page.png", full_page=True)

    # A past day with two puzzles out: one sheet.
    day = site_today() - datetime.timedelta(days=2)
    for tier in ("easy", "hard"):
        make_daily(day, tier)
    page.emulate_media(media="screen")
    page.goto(f"{live_server.url}/print/{day.isoformat()}/")
    for paper in ("A4", "Letter"):
        assert pages_in(page.pdf(format=paper)) == 1, paper
    context.close()


@pytest.mark.screenshots
@pytest.mark.parametrize("look", LOOKS)
def test_the_print_page_on_screen_reads_fine_and_prints_from_the_keyboard(chromium, live_server, todays_five, look):
    context = chromium.new_context(**LOOKS[look])
    # The browser's print dialog would wait for a person: count the calls instead.
    context.add_init_script("window.printed = 0; window.print = () => { window.printed += 1; };")
    page = context.new_page()
    page.goto(f"{live_server.url}/print/")
    button = page.locator("#print-button")
    button.wait_for(state="visible")
    assert page.locator(".print-puzzle .grid-drawing").count() == 5
    assert page.locator(".print-play").first.is_visible()
    assert_fits(page, f"print page, {look}")
    assert_accessible(page, f"print page, {look}")
    shoot(page, "print-page-screen", look)
    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "print-button":
            break
    assert page.evaluate("document.activeElement.id") == "print-button"
    page.keyboard.press("Enter")
    page.keyboard.press("Space")
    assert page.evaluate("window.printed") == 2
    context.close()


def test_the_home_page_and_the_boards_tools_lead_to_the_print_page(chromium, live_server, todays_five):
    context = chromium.new_context(**LOOKS["light"])
    page = context.new_page()
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Print today's puzzles").click()
    page.wait_for_url(f"{live_server.url}/print/")
    page.goto(f"{live_server.url}/daily/{site_today().isoformat()}/medium/")
    page.wait_for_selector("#sudoku[data-ready=visitor]")
    page.click("#key-more")
    link = page.locator("#sudoku-more").get_by_role("link", name="Print the day's puzzles")
    assert link.is_visible()
    assert_accessible(page, "board, Tools open")
    link.click()
    page.wait_for_url(f"{live_server.url}/print/{site_today().isoformat()}/")
    assert page.locator(".print-puzzle").count() == 5
    context.close()
