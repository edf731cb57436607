"""The solved moment in a real browser: a celebration on the board, none for reduced motion."""

from __future__ import annotations

import pytest

from tests.browser.pages import GIVENS, SOLUTION, cell, sign_up

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The animations running on the grid's cells (Web Animations: CSS animations show up there too).
CELL_ANIMATIONS = "() => document.getAnimations().filter((a) => a.effect?.target?.matches?.('#sudoku-grid td')).length"


def solve(page) -> None:
    for i, given in enumerate(GIVENS):
        if given == "0":
            cell(page, i).click()
            page.keyboard.press(SOLUTION[i])
    page.wait_for_selector("#sudoku-solved:not(:empty)", timeout=10_000)


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_board_celebrates_a_solve_unless_the_player_prefers_reduced_motion(
    chromium, live_server, todays_easy, motion
):
    context = chromium.new_context(viewport={"width": 1200, "height": 900}, reduced_motion=motion)
    page = context.new_page()
    path = f"/daily/{todays_easy.date.isoformat()}/easy/"
    sign_up(page, live_server.url, path, f"solver-{motion}")
    solve(page)
    assert page.locator("#sudoku-solved").inner_text().startswith("Solved in 0:")  # m:ss, as everywhere
    celebrating = page.locator(".sudoku-board").evaluate("el => el.classList.contains('is-celebrating')")
    running = page.evaluate(CELL_ANIMATIONS)
    if motion == "reduce":
        assert not celebrating and running == 0
    else:
        assert celebrating and running > 0
        page.wait_for_function(CELL_ANIMATIONS.replace(".length", ".length === 0"), timeout=5_000)
        assert not page.locator(".sudoku-board").evaluate("el => el.classList.contains('is-celebrating')")
    # Opening a puzzle solved before does not celebrate again.
    page.reload()
    page.wait_for_selector("#sudoku[data-ready=true]")
    assert page.evaluate(CELL_ANIMATIONS) == 0
    context.close()
