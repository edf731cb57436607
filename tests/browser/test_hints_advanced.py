"""A hint for one of the longer techniques on a phone: a position whose first step is an ALS-XZ
(five cells and one of the engine's longest explanations) gets its hint through the board's
button, shown in full, its cells marked on the grid, nothing wider than the screen and nothing over
the grid. docs/screenshots/hint-advanced-phone.png is taken here."""

from __future__ import annotations

import pytest

from puzzles import engine
from puzzles.models import DailyPuzzle, Puzzle, site_today
from tests.browser.axe import assert_accessible
from tests.browser.test_board import SHOTS, sign_up
from tests.browser.test_hints import hint_text, marked, wait_stage

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A puzzle of bench/top1465.txt with its singles filled in: the first step left is an ALS-XZ.
ALS_XZ = "020003004800700390007000061003070008006002130500000000040800006008010020050009000"
PHONE = {"viewport": {"width": 375, "height": 667}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


@pytest.fixture
def advanced_daily(db) -> DailyPuzzle:
    """Today's expert daily: the ALS-XZ position above, as its givens."""
    solution = "".join(str(d) for d in engine.solve(ALS_XZ))
    puzzle = Puzzle.objects.create(
        givens=ALS_XZ, solution=solution, tier="expert", score=660, hardest="als-xz",
        clues=81 - ALS_XZ.count("0"), filler="imported",
    )  # fmt: skip
    return DailyPuzzle.objects.create(date=site_today(), difficulty="expert", puzzle=puzzle)


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
        wait_stage(page, stage)

    # The technique's name and the whole explanation, every word of it.
    text = " ".join(hint_text(page).split())
    assert text == f"{engine.technique_title('als-xz')}. {step.explanation}"
    # The step's cells ringed, the cells that lose a candidate marked as such, nothing else.
    assert marked(page) == sorted(set(step.cells) | set(removed))
    assert marked(page, "remove") == removed
    assert marked(page, "cell") == sorted(set(step.cells) - set(removed))

    if scheme == "light":
        page.screenshot(path=str(SHOTS / "hint-advanced-phone.png"))

    # On the phone: nothing wider than the screen, the panel over the keypad and not the grid, all
    # of its text on screen without scrolling, and the row with the hint button still at hand.
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    panel = page.locator("#sudoku-hint-panel")
    box, grid = panel.bounding_box(), page.locator("#sudoku-grid").bounding_box()
    assert box["y"] >= grid["y"] + grid["height"] - 0.5, (box, grid)
    assert box["x"] >= 0 and box["x"] + box["width"] <= 375 and box["y"] + box["height"] <= 667, box
    assert panel.evaluate("(p) => p.scrollHeight <= p.clientHeight + 1"), "the hint's text is cut off"
    button = page.locator("#key-hint").bounding_box()
    assert button["y"] >= box["y"] + box["height"] and button["y"] + button["height"] <= 667
    assert_accessible(page, f"a long hint on a phone, {scheme}")
    context.close()
