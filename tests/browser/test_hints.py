"""Hints and the results in a real browser: the first hint of a solve still to be ranked asks
first, then three stages of a hint, then the solve and its receipt."""

from __future__ import annotations

import re

import pytest

from puzzles import engine
from puzzles.engine import UNITS, technique_title, unit_name
from puzzles.models import Attempt, Hint, Solve
from puzzles.play.hint_answers import peoples_words
from tests.browser.axe import assert_accessible
from tests.browser.pages import (
    GIVENS,
    SOLUTION,
    cell,
    confirm_hint,
    digit_in,
    hint_text,
    marked,
    open_tool,
    screenshot,
    sign_up,
    wait_ready,
    wait_saved,
    wait_stage,
)

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

UNIT = re.compile(r"\b(row|column|box) [1-9]\b")


@pytest.mark.screenshots
def test_a_player_takes_a_hint_in_three_stages_then_solves_and_sees_the_receipt(chromium, live_server, todays_easy):
    # The step the server will hint at on the untouched board, worked out here independently.
    step = engine.next_step(GIVENS, "0" * 81, [""] * 81)
    unit = sorted(UNITS[step.houses[0]])
    path = f"/daily/{todays_easy.date.isoformat()}/easy/"
    context = chromium.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    sign_up(page, live_server.url, path, "hinter")
    button = page.locator("#key-hint")
    assert button.inner_text() == "Hint"
    assert hint_text(page) == "" and marked(page) == []

    # Stage 1: where to look, the unit marked on the board (once the player has said yes to a hint).
    button.click()
    confirm_hint(page)
    wait_stage(page, 1)
    assert UNIT.search(hint_text(page)) and unit_name(step.houses[0]) in hint_text(page)
    assert "not ranked" in hint_text(page)
    assert marked(page, "area") == unit
    assert button.inner_text() == "More"

    # Stage 2, by the keyboard shortcut: the technique's name and what it is.
    cell(page, 0).click()
    page.keyboard.press("h")
    wait_stage(page, 2)
    assert technique_title(step.technique) in hint_text(page)
    assert marked(page, "area") == unit
    assert button.inner_text() == "Show me"

    # Stage 3: the step itself, its cell marked as where the digit goes; nothing more to show.
    button.click()
    wait_stage(page, 3)
    assert peoples_words(step.explanation) in hint_text(page)
    assert "Place 4 in row 5, column 6" in hint_text(page)  # its one press, not pressed
    ((target, digit),) = step.placements
    assert marked(page, "place") == [target]
    assert f"{digit} goes here" in cell(page, target).get_attribute("aria-label")
    assert button.get_attribute("aria-disabled") == "true"
    # The hint is shown, never played.
    assert digit_in(page, target) == ""
    screenshot(page, "hint.png")

    # Escape closes it and takes the marks off; the button says Hint, and a press shows the step again.
    page.keyboard.press("Escape")
    assert hint_text(page) == "" and marked(page) == []
    assert button.inner_text() == "Hint"  # nothing on screen: a press shows the step again

    # Its one press, by the keyboard: the digit placed as the player's own move (one undo step),
    # the hint gone with the position it was for, the focus on the cell.
    button.click()
    wait_stage(page, 3)
    page.locator("#sudoku-hint .hint-action").focus()
    page.keyboard.press("Enter")
    assert digit_in(page, target) == str(digit) and hint_text(page) == "" and marked(page) == []
    assert page.evaluate("document.activeElement.id") == f"cell-{target}"
    assert "Undo takes it back" in page.locator("#sudoku-notice").inner_text()
    page.keyboard.press("Control+z")
    assert digit_in(page, target) == ""

    # Another hint, then a change to the board: it no longer applies and goes away.
    button.click()
    wait_stage(page, 3)
    empties = [i for i, g in enumerate(GIVENS) if g == "0"]
    cell(page, empties[0]).click()
    page.keyboard.press(SOLUTION[empties[0]])
    assert hint_text(page) == "" and marked(page) == []
    assert button.inner_text() == "Hint"

    for i in empties[1:]:
        cell(page, i).click()
        page.keyboard.press(SOLUTION[i])
    solved = page.locator("#sudoku-solved[role=status]")
    solved.wait_for(state="visible", timeout=10_000)
    assert "Solved" in solved.inner_text()

    # The results arrive under the board: what the puzzle took, and why this solve is not ranked.
    results = page.locator("#sudoku-results-slot #sudoku-results[data-solved=true]")
    results.wait_for(timeout=10_000)
    assert "What this puzzle took" in results.locator("#receipt-title").inner_text()
    assert results.locator(".results-technique").first.inner_text().startswith("Naked single")
    assert "you used hints" in results.locator(".results-standing").inner_text()
    assert results.locator("#leaderboard-title").is_visible()
    assert Solve.objects.get(user__username="hinter").assisted is True
    page.wait_for_selector(".sudoku-board:not(.is-celebrating)")  # the shot after the wave, not halfway
    screenshot(page, "receipt.png", full_page=True)

    # Coming back to a solved puzzle shows the results straight away, and no hint button.
    page.reload()
    page.locator("#sudoku-results[data-solved=true]").wait_for(timeout=10_000)
    assert not button.is_visible()
    context.close()


def test_a_refused_or_failed_hint_says_why_and_the_game_goes_on(chromium, live_server, todays_easy, settings):
    settings.HINTS_PER_MINUTE = 1
    path = f"/daily/{todays_easy.date.isoformat()}/easy/"
    context = chromium.new_context(viewport={"width": 375, "height": 667}, is_mobile=True, has_touch=True)
    page = context.new_page()
    sign_up(page, live_server.url, path, "eager")
    page.tap("#key-hint")
    confirm_hint(page)
    wait_stage(page, 1)
    # With a hint showing, the grid and the keypad are still on a phone's screen.
    keypad = page.locator("#sudoku-keypad").bounding_box()
    assert keypad["y"] + keypad["height"] <= 667

    # Over the limit, on a new position (the stages of one hint are free): the server's message,
    # naming hints, and no marks. (A phone this short has no room under the keypad: the hint lies
    # over it, so it is closed first.)
    page.locator("#sudoku-hint-close").tap()
    cell(page, 1).tap()
    page.tap(f"#sudoku-keypad [data-digit='{SOLUTION[1]}']")
    page.tap("#key-hint")
    page.wait_for_function(
        "() => document.querySelector('#sudoku-hint-panel').dataset.state === 'error'", timeout=10_000
    )
    assert "try again in" in hint_text(page) and "hints" in hint_text(page)
    assert marked(page) == []

    # Offline: said plainly, and playing and saving carry on once back.
    context.set_offline(True)
    page.locator("#sudoku-hint-close").tap()
    assert hint_text(page) == ""
    page.tap("#key-hint")
    page.wait_for_function(
        "() => document.querySelector('#sudoku-hint-panel').dataset.state === 'error'", timeout=10_000
    )
    assert "connection" in hint_text(page)
    context.set_offline(False)
    cell(page, 0).tap()
    page.tap("#sudoku-keypad [data-digit='4']")
    assert digit_in(page, 0) == "4"
    assert hint_text(page) == ""  # the board changed: the message went with the old position
    wait_saved(page)
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_first_hint_of_a_solve_without_help_asks_first_and_cancel_takes_nothing(
    chromium, live_server, todays_easy, scheme
):
    context = chromium.new_context(viewport={"width": 1200, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    asked = []
    page.on("request", lambda request: asked.append(request.url) if request.url.endswith("/hint/") else None)
    sign_up(page, live_server.url, f"/daily/{todays_easy.date.isoformat()}/easy/", f"asker-{scheme}")
    dialog = page.locator("#sudoku-confirm")
    button = page.locator("#key-hint")

    def cancelled() -> None:
        """Nothing was asked or recorded, no hint is shown, and the clock runs on, unpaused."""
        assert asked == [] and not Hint.objects.exists()
        assert Attempt.objects.filter(hints_used__gt=0).count() == 0
        assert hint_text(page) == "" and button.inner_text() == "Hint"
        assert not page.locator("#sudoku-paused").is_visible()

    # By the keyboard, from the Hint button: the dialog says what a hint costs and takes the focus;
    # Escape cancels, and the focus is back on the button.
    button.focus()
    page.keyboard.press("Enter")
    dialog.locator("#sudoku-confirm-ok").wait_for()
    assert dialog.is_visible() and "will not be ranked" in dialog.inner_text()
    assert page.evaluate("document.activeElement.closest('dialog')?.id") == "sudoku-confirm"
    assert_accessible(page, f"the first hint's confirmation, {scheme}")
    page.keyboard.press("Escape")
    page.wait_for_function("() => document.activeElement.id === 'key-hint'")  # once the dialog has closed
    assert not dialog.is_visible()
    cancelled()

    # By H, in the grid: Cancel, and the focus is back on the cell.
    cell(page, 1).click()
    page.keyboard.press("h")
    dialog.get_by_role("button", name="Cancel").click()
    page.wait_for_function("() => document.activeElement.id === 'cell-1'")
    cancelled()
    page.keyboard.press("4")  # the board plays on: a digit goes in, and is saved
    wait_saved(page)
    assert Attempt.objects.get(user__username=f"asker-{scheme}").hints_used == 0

    # Taken: the hint as before. Its next stages, and the next hint, ask nothing more.
    page.keyboard.press("h")
    confirm_hint(page)
    wait_stage(page, 1)
    assert len(asked) == 1 and Attempt.objects.get(user__username=f"asker-{scheme}").hints_used == 1
    page.keyboard.press("h")
    wait_stage(page, 2)
    assert not dialog.is_visible()
    # A reload knows the solve has had a hint (the state API says): a new position's hint asks nothing.
    page.reload()
    wait_ready(page)
    cell(page, 1).click()
    page.keyboard.press("Backspace")
    page.keyboard.press("h")
    wait_stage(page, 1)
    assert not dialog.is_visible() and len(asked) == 3
    context.close()

    # A solve already checked is off the leaderboard: its first hint comes at once.
    context = chromium.new_context(viewport={"width": 1200, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    sign_up(page, live_server.url, f"/daily/{todays_easy.date.isoformat()}/easy/", f"checker-{scheme}")
    open_tool(page, "check")
    page.locator("#sudoku-confirm").get_by_role("button", name="Check").click()
    page.locator("#sudoku-notice", has_text="No wrong digits").wait_for()
    page.click("#key-hint")
    wait_stage(page, 1)
    assert not page.locator("#sudoku-confirm").is_visible()
    context.close()
