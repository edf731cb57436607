"""Hints for the techniques beyond singles. On a phone, a position whose first step is an ALS-XZ
(five cells and one of the engine's longest explanations) gets its hint through the board's
button, shown in full, its cells marked on the grid, nothing wider than the screen and nothing over
the grid. On a desktop, a direct pointing is hinted as the placement it is, with the pattern that
gives it marked. docs/screenshots/hint-advanced-phone.png and hint-direct-dark.png are taken here."""

from __future__ import annotations

import pytest

from puzzles import engine
from puzzles.models import DailyPuzzle, site_today
from puzzles.play.hint_answers import peoples_words
from tests.browser.axe import assert_accessible
from tests.browser.pages import confirm_hint, hint_text, marked, screenshot, sign_up, wait_stage
from tests.factories import make_daily, make_known_puzzle

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A puzzle of bench/top1465.txt with its singles filled in: the first step left is an ALS-XZ.
ALS_XZ = "020003004800700390007000061003070008006002130500000000040800006008010020050009000"
# A puzzle of bench/se_rated.txt part way through (tests/engine/test_direct.py pins it): no single
# is left, and a direct pointing places the 7 of box 6.
DIRECT = "005401000003050901061309245017090400050000010008713520080030062100000053536020094"
PHONE = {"viewport": {"width": 375, "height": 667}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def _daily(givens: str, tier: str) -> DailyPuzzle:
    """Today's daily of `tier`: a position, as its givens, rated by the engine."""
    rating = engine.rate(givens)
    solution = "".join(str(d) for d in engine.solve(givens))
    puzzle = make_known_puzzle(givens, solution, tier=tier, score=rating.score, hardest=rating.hardest)
    return make_daily(site_today(), tier, puzzle)


@pytest.fixture
def advanced_daily(db) -> DailyPuzzle:
    """Today's expert daily: the ALS-XZ position above, as its givens."""
    return _daily(ALS_XZ, "expert")


@pytest.mark.screenshots
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_long_hint_shows_in_full_on_a_phone_with_its_cells_marked(chromium, live_server, advanced_daily, scheme):
    # The step the server will give, worked out here from the engine itself.
    step = engine.next_step(ALS_XZ, "0" * 81, [""] * 81)
    assert step.technique == "als-xz" and len(step.cells) >= 5 and len(step.explanation) > 300
    removed = sorted({e["cell"] for e in step.to_dict()["eliminations"]})

    context = chromium.new_context(color_scheme=scheme, **PHONE)
    page = context.new_page()
    sign_up(page, live_server.url, f"/daily/{advanced_daily.date.isoformat()}/expert/", f"chainer-{scheme}")
    for stage in (1, 2, 3):
        page.tap("#key-hint")
        if stage == 1:
            confirm_hint(page)
        wait_stage(page, stage)

    # The technique's name and the whole explanation, every word of it, then the one press it ends
    # in: the player keeps no notes, so the notes it leaves (its candidates are drawn).
    text = " ".join(hint_text(page).split())
    assert (
        text == f"{engine.technique_title('als-xz')}. {peoples_words(step.explanation)} Fill these notes How it works"
    )
    # The step's cells ringed, the cells that lose a candidate marked as such, nothing else.
    assert marked(page) == sorted(set(step.cells) | set(removed))
    assert marked(page, "remove") == removed
    assert marked(page, "cell") == sorted(set(step.cells) - set(removed))

    if scheme == "light":
        screenshot(page, "hint-advanced-phone.png")

    # On a short phone (no room under the keypad): nothing wider than the screen, the panel over the
    # keypad and not the grid, all of its text on screen without scrolling.
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    panel = page.locator("#sudoku-hint-panel")
    box, grid = panel.bounding_box(), page.locator("#sudoku-grid").bounding_box()
    assert box["y"] >= grid["y"] + grid["height"] - 0.5, (box, grid)
    assert box["x"] >= 0 and box["x"] + box["width"] <= 375 and box["y"] + box["height"] <= 667, box
    assert panel.evaluate("(p) => p.scrollHeight <= p.clientHeight + 1"), "the hint's text is cut off"
    # The last stage leaves nothing more to ask for: on a phone this short it takes the keypad's
    # whole height, Hint's row too, and its own button acts on it.
    assert page.locator("#key-hint").get_attribute("aria-disabled") == "true"
    assert page.locator("#sudoku-hint .hint-action").is_visible()
    assert_accessible(page, f"a long hint on a phone, {scheme}")
    context.close()


@pytest.mark.screenshots
def test_a_direct_step_is_hinted_as_the_placement_it_gives_with_its_pattern_marked(chromium, live_server):
    daily = _daily(DIRECT, "medium")
    step = engine.next_step(DIRECT, "0" * 81, [""] * 81)
    assert step.technique == "direct-pointing"
    ((target, digit),) = step.placements
    context = chromium.new_context(color_scheme="dark", viewport={"width": 1200, "height": 900})
    page = context.new_page()
    sign_up(page, live_server.url, f"/daily/{daily.date.isoformat()}/medium/", "director")
    for stage in (1, 2, 3):
        page.click("#key-hint")
        if stage == 1:
            confirm_hint(page)
        wait_stage(page, stage)
        if stage == 2:  # the technique's name and what it is, where to find it
            text = " ".join(hint_text(page).split())
            assert text == f"Direct pointing in box 9. {engine.technique_about('direct-pointing')} How it works"

    text = " ".join(hint_text(page).split())
    label = f"Place {digit} in row {target // 9 + 1}, column {target % 9 + 1}"
    assert (
        text
        == f"Direct pointing. {peoples_words(step.explanation)} {label} How it works Orange digits are the candidates."
    )
    # The box's 7s that point down column 7 ringed, the cell they leave for 7 in box 6 marked as
    # where it goes, and nothing removed: the step is a placement.
    assert marked(page, "place") == [target]
    assert marked(page, "cell") == sorted(set(step.cells) - {target})
    assert marked(page, "remove") == []
    assert f"{digit} goes here" in page.locator(f"#sudoku-grid td[data-cell='{target}']").get_attribute("aria-label")
    screenshot(page, "hint-direct-dark.png")
    assert_accessible(page, "a direct step's hint, dark")
    context.close()
