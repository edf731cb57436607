"""The technique guide in a browser: every /learn/ page axe-clean in light and dark, on a phone
(390x844) and a desktop (1280x800), fitting the screen, readable without a mouse; and the
screenshots of the guide and of one technique's page (docs/screenshots/learn*.png)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from puzzles.engine import TECHNIQUES
from tests.browser.axe import assert_accessible
from tests.browser.pages import assert_fits, screenshot

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
LOOKS = {
    "light": {"color_scheme": "light", **DESKTOP},
    "dark": {"color_scheme": "dark", **DESKTOP},
    "light-phone": {"color_scheme": "light", **PHONE},
    "dark-phone": {"color_scheme": "dark", **PHONE},
}
SHOT_NAME = {"light": "", "dark": "-dark", "light-phone": "-phone", "dark-phone": "-dark-phone"}
SHOWN = "xy-wing"  # the technique page the screenshots show


@pytest.fixture
def look_page(chromium, live_server):
    contexts = []

    def open_page(look: str):
        context = chromium.new_context(**LOOKS[look])
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


# Every page in two looks that cross both themes with both sizes; in the other two, the guide and
# a page for each tier (the pages share one template and differ in their board and words).
EVERY_PAGE = ("light", "dark-phone")


@pytest.mark.parametrize("look", LOOKS)
def test_every_page_of_the_guide_is_accessible_and_fits(look_page, live_server, look):
    page = look_page(look)
    names = [t.name for t in TECHNIQUES]
    if look not in EVERY_PAGE:
        names = [
            next(t.name for t in TECHNIQUES if t.tier == tier) for tier in dict.fromkeys(t.tier for t in TECHNIQUES)
        ]
    paths = [reverse("puzzles:learn")] + [reverse("puzzles:learn-technique", args=[name]) for name in names]
    for path in paths:
        response = page.goto(live_server.url + path)
        assert response is not None and response.status == 200, path
        assert_fits(page, f"{path}, {look}")
        assert_accessible(page, f"{path}, {look}")


@pytest.mark.screenshots
@pytest.mark.parametrize("look", LOOKS)
def test_the_guide_and_a_technique_page_as_a_player_sees_them(look_page, live_server, look):
    page = look_page(look)
    page.goto(live_server.url + reverse("puzzles:learn"))
    # The guide's top: the words the site uses and the first tiers.
    bottom = page.evaluate("document.querySelector('#tier-hard').getBoundingClientRect().top + scrollY")
    width = page.viewport_size["width"]
    screenshot(
        page, f"learn{SHOT_NAME[look]}.png", full_page=True, clip={"x": 0, "y": 0, "width": width, "height": bottom}
    )
    page.goto(live_server.url + reverse("puzzles:learn-technique", args=[SHOWN]))
    board = page.locator(".learn-board")
    assert board.locator("td.learn-cell").count() == 81
    # The board is inside the screen, with its cells square, on every screen.
    box = board.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    cell = board.locator("td.learn-cell").first.bounding_box()
    assert cell is not None and abs(cell["width"] - cell["height"]) <= 1.5
    screenshot(page, f"learn-technique{SHOT_NAME[look]}.png", full_page=True)


def test_the_guide_is_read_with_the_keyboard_from_the_words_to_a_technique(look_page, live_server):
    page = look_page("light")
    page.goto(live_server.url + reverse("puzzles:learn"))
    first = page.locator(".learn-item-link").first
    first.focus()
    page.keyboard.press("Enter")
    page.wait_for_url(f"**{reverse('puzzles:learn-technique', args=[TECHNIQUES[0].name])}")
    assert page.locator("h1").inner_text() == TECHNIQUES[0].title
    page.locator("a[rel=next]").focus()
    page.keyboard.press("Enter")
    page.wait_for_url(f"**{reverse('puzzles:learn-technique', args=[TECHNIQUES[1].name])}")
    # The board's text for a screen reader: a removed candidate is said to be removed, not only drawn.
    page.goto(live_server.url + reverse("puzzles:learn-technique", args=["pointing"]))
    assert "removed" in page.locator("del.learn-cand").first.inner_text()
