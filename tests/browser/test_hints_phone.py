"""A hint on a phone, for a player who keeps no notes: the hint's text, the candidates it draws in
the cells it is about, and the keypad all on screen together (the panel no longer lies over the
keypad), axe clean, in light and dark; then its one-press action writes those notes through the
board's own move path (saved, undoable). docs/screenshots/hint-phone.png and
hint-phone-dark.png are taken here."""

from __future__ import annotations

import pytest

from puzzles import engine
from puzzles.models import Attempt, PlayEvent, site_today
from puzzles.record_of_play.moves import unpack
from tests.browser.axe import assert_accessible
from tests.browser.pages import cell, confirm_hint, hint_text, notes_in, screenshot, sign_up, wait_saved, wait_stage
from tests.factories import make_daily, make_known_puzzle

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# top-1465's 197th with its singles filled in: the next step is a hidden pair in box 5, the
# issue's dead end (no notes anywhere, so nothing on the board to remove).
HIDDEN_PAIR = "200700100000050090001004003000000800000040060009006002700500600050670030006403001"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def overlap(a: dict, b: dict) -> bool:
    """Whether two bounding boxes share any area."""
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def on_screen(box: dict, width: int = 390, height: int = 844) -> bool:
    return box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= width and box["y"] + box["height"] <= height


@pytest.fixture
def hidden_pair_daily(db):
    rating = engine.rate(HIDDEN_PAIR)
    solution = "".join(str(d) for d in engine.solve(HIDDEN_PAIR))
    puzzle = make_known_puzzle(HIDDEN_PAIR, solution, tier="hard", score=rating.score, hardest=rating.hardest)
    return make_daily(site_today(), "hard", puzzle)


@pytest.mark.screenshots
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_hint_its_drawn_candidates_and_the_keypad_show_together_on_a_phone(
    chromium, live_server, hidden_pair_daily, scheme
):
    step = engine.next_step(HIDDEN_PAIR, "0" * 81, [""] * 81)
    assert step.technique == "hidden-pair"
    cands = engine.position_candidates(HIDDEN_PAIR)
    box = [c for c in engine.UNITS[step.houses[0]] if HIDDEN_PAIR[c] == "0"]
    removed = {}
    for c, d in step.eliminations:
        removed.setdefault(c, set()).add(d)

    context = chromium.new_context(color_scheme=scheme, **PHONE)
    page = context.new_page()
    sign_up(page, live_server.url, f"/daily/{hidden_pair_daily.date.isoformat()}/hard/", f"pairs-{scheme}")
    for stage in (1, 2, 3):
        page.tap("#key-hint")
        if stage == 1:
            confirm_hint(page)
        wait_stage(page, stage)

    # The text, in people's words, with the action at its end.
    text = " ".join(hint_text(page).split())
    assert text.startswith("Hidden pair. In box 5,") and "(r" in text
    action = page.locator("#sudoku-hint .hint-action")
    assert action.inner_text() == "Fill these notes"

    # The candidates of the box drawn in its cells (the player keeps no notes), the removed ones struck.
    for c in box:
        drawn = cell(page, c).locator(".cell-hint span").evaluate_all("spans => spans.map(s => s.dataset.n)")
        assert drawn == [str(d) for d in cands[c]], c
        struck = cell(page, c).locator(".cell-hint .is-removed").evaluate_all("spans => spans.map(s => s.dataset.n)")
        assert struck == [str(d) for d in sorted(removed.get(c, ()))], c
        label = cell(page, c).get_attribute("aria-label")
        assert f"hint: candidates {' '.join(str(d) for d in cands[c])}" in label, label
        assert on_screen(cell(page, c).bounding_box())

    # All of it on screen at once, nothing over anything: the panel, the grid and the whole keypad.
    panel = page.locator("#sudoku-hint-panel").bounding_box()
    grid = page.locator("#sudoku-grid").bounding_box()
    keys = page.locator("#sudoku-keypad").bounding_box()
    assert on_screen(panel) and on_screen(grid) and on_screen(keys), (panel, grid, keys)
    assert not overlap(panel, keys) and not overlap(panel, grid), (panel, grid, keys)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for key in page.locator("#sudoku-keypad button:visible").all():
        b = key.bounding_box()
        hit = page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y)?.closest('#sudoku-keypad') !== null",
            [b["x"] + b["width"] / 2, b["y"] + b["height"] / 2],
        )
        assert hit, f"{key.inner_text()} is covered"
    assert page.locator("#sudoku-hint-panel").evaluate("(p) => p.scrollHeight <= p.clientHeight + 1")
    screenshot(page, "hint-phone.png" if scheme == "light" else "hint-phone-dark.png")
    assert_accessible(page, f"a hint with its candidates drawn, on a phone, {scheme}")

    # One press writes the notes the step leaves; the hint closes; it is saved and Undo takes it back.
    action.tap()
    page.wait_for_function("() => !document.querySelector('#sudoku-hint-panel').dataset.state")
    expected = {c: "".join(str(d) for d in cands[c] if d not in removed.get(c, ())) for c in box}
    assert {c: notes_in(page, c, "centre") for c in box} == expected
    assert page.locator("#sudoku-grid .cell-hint span").count() == 0
    wait_saved(page)
    attempt = Attempt.objects.get(user__username=f"pairs-{scheme}")
    assert {c: attempt.centre[c] for c in box} == expected
    # In the record of play as centre notes the player wrote (layer "n"), and nothing else.
    moves = [m for e in PlayEvent.objects.filter(attempt=attempt) if e.moves for m in unpack(e.moves)]
    assert {m.layer for m in moves} == {"n"}
    assert {i: v for m in moves for i, v in m.cells} == expected
    page.tap("#key-undo")
    assert all(notes_in(page, c, "centre") == "" for c in box)
    context.close()


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("landscape", {"viewport": {"width": 667, "height": 375}, "is_mobile": True, "has_touch": True}),
        ("desktop", {"viewport": {"width": 1280, "height": 800}}),
    ],
)
def test_the_last_stage_and_its_button_are_in_sight_beside_the_grid(
    chromium, live_server, hidden_pair_daily, name, options
):
    context = chromium.new_context(**options)
    page = context.new_page()
    sign_up(page, live_server.url, f"/daily/{hidden_pair_daily.date.isoformat()}/hard/", f"pairs-{name}")
    for stage in (1, 2, 3):
        page.click("#key-hint")
        if stage == 1:
            confirm_hint(page)
        wait_stage(page, stage)
    width, height = options["viewport"]["width"], options["viewport"]["height"]
    action = page.locator("#sudoku-hint .hint-action")
    action.scroll_into_view_if_needed()
    panel = page.locator("#sudoku-hint-panel").bounding_box()
    grid = page.locator("#sudoku-grid").bounding_box()
    assert not overlap(panel, grid), (panel, grid)
    assert on_screen(action.bounding_box(), width, height)
    assert page.locator("#sudoku-grid .cell-hint span").count() > 0
    assert_accessible(page, f"a hint with its candidates drawn, {name}")
    context.close()


def test_a_guests_hint_on_a_tall_phone_covers_no_part_of_the_guest_notice(chromium, live_server, hidden_pair_daily):
    # The hint lies under the keypad on a phone this tall, where the guest's notice is: while the
    # hint is open the notice gives way (it is back once the hint closes), never half covered.
    context = chromium.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{live_server.url}/daily/{hidden_pair_daily.date.isoformat()}/hard/")
    page.wait_for_selector("#sudoku[data-ready=visitor]")
    if page.evaluate("document.querySelector('#howto')?.open"):
        page.get_by_role("button", name="Got it").tap()
    page.tap("#key-hint")
    confirm_hint(page)
    wait_stage(page, 1)
    notice = page.locator("#sudoku-guest")
    hint = page.locator("#sudoku-hint").bounding_box()
    assert not (notice.is_visible() and overlap(hint, notice.bounding_box())), (
        "the hint covers part of the guest notice"
    )
    page.tap("#sudoku-hint-close")
    page.wait_for_function("() => !document.querySelector('#sudoku-hint-panel').dataset.state")
    assert notice.is_visible()
    context.close()
