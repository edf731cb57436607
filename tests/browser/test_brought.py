"""Play any puzzle in a real browser: pasted into the box, played as a visitor (the first move makes
a guest), kept over a reload, a hint, the solve and its review; axe clean on the paste box, the
board and the results, on a desktop and a phone."""

from __future__ import annotations

import pytest

from puzzles.models import BroughtAttempt
from tests.browser.axe import assert_accessible
from tests.browser.pages import (
    GIVENS,
    LOOKS,
    SOLUTION,
    assert_fits,
    cell,
    confirm_hint,
    digit_in,
    wait_ready,
    wait_saved,
    wait_stage,
)

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EMPTY = [i for i, g in enumerate(GIVENS) if g == "0"]
RESULTS = "#sudoku-results-slot #sudoku-results[data-solved=true]"


def enter(page, i: int, digit: str) -> None:
    cell(page, i).click()
    page.keyboard.press(digit)


def paste(page, base: str, text: str) -> None:
    page.goto(f"{base}/play/")
    page.fill("#play-puzzle", text)
    page.get_by_role("button", name="Play it").click()


@pytest.mark.parametrize("look", ["light", "dark-phone"])
def test_a_pasted_puzzle_is_played_kept_hinted_solved_and_reviewed(chromium, live_server, look):
    context = chromium.new_context(**LOOKS[look], reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{live_server.url}/play/")
    assert_accessible(page, f"the paste box ({look})")
    assert_fits(page, f"the paste box ({look})")

    # Nine lines with dots, as a puzzle is often written: the address is the one form of it.
    dotted = GIVENS.replace("0", ".")
    paste(page, live_server.url, "\n".join(dotted[i : i + 9] for i in range(0, 81, 9)))
    page.wait_for_url(f"{live_server.url}/play/?p={GIVENS}")
    page.wait_for_selector("#sudoku[data-ready=visitor]", timeout=10_000)
    title = " ".join(page.locator("#sudoku-title").inner_text().split())  # no-break spaces as spaces
    assert "brought, not ranked" in title
    assert page.locator("#play-link").input_value() == f"{live_server.url}/play/?p={GIVENS}"
    assert_accessible(page, f"the brought board ({look})")
    assert_fits(page, f"the brought board ({look})")

    # A few moves, kept over a reload (the first made the visitor a guest).
    for i in EMPTY[:3]:
        enter(page, i, SOLUTION[i])
    wait_saved(page)
    page.reload()
    wait_ready(page)
    assert [digit_in(page, i) for i in EMPTY[:3]] == [SOLUTION[i] for i in EMPTY[:3]]
    assert BroughtAttempt.objects.get().digits.count("0") == 81 - 3  # the givens are not the player's

    # A hint: asked first, then its first stage.
    page.click("#key-hint")
    confirm_hint(page)
    wait_stage(page, 1)
    assert page.locator("#sudoku-hint").inner_text().strip()
    page.click("#sudoku-hint-close")

    for i in EMPTY[3:]:
        enter(page, i, SOLUTION[i])
    page.wait_for_selector(RESULTS, timeout=15_000)
    results = page.locator("#sudoku-results")
    assert "not ranked, moves no rating" in results.inner_text()
    page.wait_for_selector("#sudoku-review[data-review-state=ready]")
    assert page.locator("#review-timeline li").count() > 0
    assert BroughtAttempt.objects.get().hints_used == 1
    assert_accessible(page, f"the brought puzzle's results ({look})")
    assert_fits(page, f"the brought puzzle's results ({look})")
    context.close()


def test_a_puzzle_with_two_solutions_is_refused_in_words(chromium, live_server):
    context = chromium.new_context(**LOOKS["light"])
    page = context.new_page()
    paste(page, live_server.url, "0" * 80 + "1")
    alert = page.get_by_role("alert")
    assert "more than one solution" in alert.inner_text()
    assert page.locator("#play-puzzle").get_attribute("aria-invalid") == "true"
    assert_accessible(page, "the paste box refusing a puzzle")
    context.close()
