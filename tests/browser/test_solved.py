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


# The elements whose own text says "Solved in" and that take room on screen (a visually hidden
# heading, kept for screen readers, takes one pixel).
SHOWN_SOLVED_IN = """() => [...document.querySelectorAll('body *')].filter((el) => {
  if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.includes('Solved in'))) return false;
  const box = el.getBoundingClientRect();
  return box.width > 1 && box.height > 1 && getComputedStyle(el).visibility !== 'hidden';
}).map((el) => el.id || el.className)"""


@pytest.mark.parametrize("size", [(1280, 800), (390, 844), (667, 375)], ids=["desktop", "phone", "landscape"])
def test_a_solved_board_says_its_time_once(chromium, live_server, todays_easy, size):
    width, height = size
    context = chromium.new_context(viewport={"width": width, "height": height}, reduced_motion="reduce")
    page = context.new_page()
    path = f"/daily/{todays_easy.date.isoformat()}/easy/"
    sign_up(page, live_server.url, path, f"once-{width}")
    solve(page)
    for opened in ("just solved", "opened again"):
        page.wait_for_selector("#sudoku-results-slot #sudoku-results[data-solved=true]", timeout=10_000)
        assert page.evaluate(SHOWN_SOLVED_IN) == ["sudoku-solved"], opened
        time = page.locator("#sudoku-solved").inner_text().removeprefix("Solved in ")
        assert time == page.locator("#sudoku-timer").inner_text()
        # The results keep their heading for a screen reader's list of headings, with the same time.
        heading = page.get_by_role("heading", name=f"Solved in {time}")
        assert heading.count() == 1 and heading.get_attribute("id") == "results-title"
        page.reload()
        page.wait_for_selector("#sudoku[data-ready=true]")
    # The results as a page of their own show their title: nothing else there says it.
    page.goto(f"{live_server.url}{path}results/")
    assert page.evaluate(SHOWN_SOLVED_IN) == ["results-title"]
    context.close()
