"""Show mistakes in a real browser (static/js/mistakes.js): off by default; turning it on asks
first; then each digit placed is checked by the server, a wrong one struck through and ringed
(not by colour alone) and "wrong" in its cell's label, and the solve has checks, so it is not
ranked; light and dark, axe clean."""

from __future__ import annotations

import pytest

from puzzles.models import Attempt, Preferences
from tests.browser.axe import assert_accessible
from tests.browser.pages import GIVENS, SOLUTION, cell, log_in, sign_up, wait_ready, wait_saved
from tests.browser.test_board_sync import enter

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def wrong_digit(i: int) -> str:
    """A digit the givens allow in cell i that is not the solution's: wrong, and no conflict."""
    row, col = divmod(i, 9)
    seen = {
        GIVENS[j] for j in range(81) if j // 9 == row or j % 9 == col or (j // 27, j % 9 // 3) == (row // 3, col // 3)
    }
    return next(d for d in "123456789" if d not in seen and d != SOLUTION[i])


def marked(page) -> list[int]:
    return sorted(
        int(i) for i in page.locator("#sudoku-grid td.is-wrong").evaluate_all("cs => cs.map(c => c.dataset.cell)")
    )


def checks_used(username: str) -> int:
    return Attempt.objects.get(user__username=username).checks_used


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_show_mistakes_asks_first_then_marks_each_wrong_digit_as_it_is_placed(
    chromium, live_server, todays_easy, scheme
):
    context = chromium.new_context(viewport={"width": 1200, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    checked = []
    page.on("request", lambda request: checked.append(request.post_data) if request.url.endswith("/check/") else None)
    path = f"/daily/{todays_easy.date.isoformat()}/easy/"
    username = f"mistaken-{scheme}"
    sign_up(page, live_server.url, path, username)

    # The cells played here (1, 13, 39, 54, 70) share no row, column or box, so no digit is a conflict.
    # Off by default: a wrong digit is placed, and nothing is asked or marked.
    enter(page, 1, wrong_digit(1))
    enter(page, 13, SOLUTION[13])
    wait_saved(page)
    assert checked == [] and marked(page) == []

    # Turned on by the keyboard: the confirmation says what it costs, over the settings; Escape
    # leaves it off, asks nothing, and the focus is back on the checkbox.
    page.click("#sudoku-settings-open")
    page.locator("#sudoku-settings[open]").wait_for()  # what it does loads with the first press
    setting = page.locator("#sudoku-settings input[name=show_mistakes]")
    assert not setting.is_checked()
    setting.focus()
    page.keyboard.press("Space")
    confirm = page.locator("#sudoku-confirm")
    confirm.locator("#sudoku-confirm-ok").wait_for()
    assert "not ranked" in confirm.inner_text()
    assert page.evaluate("document.activeElement.closest('dialog')?.id") == "sudoku-confirm"
    assert_accessible(page, f"show mistakes asked, {scheme}")
    page.keyboard.press("Escape")
    page.wait_for_function("() => document.activeElement.name === 'show_mistakes'")  # the dialog's close
    assert not confirm.is_visible() and not setting.is_checked()
    assert checked == [] and not Preferences.objects.filter(user__username=username, values__has_key="show_mistakes")

    # Confirmed: on, saved for the player, and the wrong digit already there is marked at once.
    page.keyboard.press("Space")
    confirm.get_by_role("button", name="Show mistakes").click()
    page.wait_for_function("() => document.querySelector('#sudoku-settings-status').textContent === 'Saved'")
    assert setting.is_checked() and Preferences.objects.get(user__username=username).values["show_mistakes"] is True
    page.wait_for_selector("#cell-1.is-wrong")
    assert marked(page) == [1] and checks_used(username) == 1
    page.get_by_role("button", name="Done").click()

    # Each digit placed is asked about: a wrong one marked, "wrong" said, struck through (and
    # ringed), not by colour alone; a right one not.
    enter(page, 39, wrong_digit(39))
    page.wait_for_selector("#cell-39.is-wrong")
    wait_saved(page)
    with page.expect_response(lambda response: response.url.endswith("/check/")):
        enter(page, 70, SOLUTION[70])
    assert marked(page) == [1, 39]
    assert "wrong" in cell(page, 39).get_attribute("aria-label") and "wrong" not in cell(page, 70).get_attribute(
        "aria-label"
    )
    digit = cell(page, 39).locator(".cell-digit")
    assert "line-through" in digit.evaluate("el => getComputedStyle(el).textDecorationLine")
    assert cell(page, 39).evaluate("el => getComputedStyle(el, '::before').borderStyle") == "solid"
    assert_accessible(page, f"mistakes shown, {scheme}", rules=["label-content-name-mismatch"])
    # Putting the right digit in takes the mark off.
    enter(page, 39, SOLUTION[39])
    page.wait_for_function("() => !document.querySelector('#cell-39').classList.contains('is-wrong')")
    assert marked(page) == [1]
    wait_saved(page)
    assert checks_used(username) >= 3  # one a placement, the server's count: the solve is not ranked

    # Reloaded: the marks come back (this solve has had checks already).
    page.reload()
    wait_ready(page)
    page.wait_for_selector("#cell-1.is-wrong")
    assert marked(page) == [1]

    # Turned off: the marks go, and a digit placed asks nothing.
    page.click("#sudoku-settings-open")
    page.locator("#sudoku-settings[open]").wait_for()
    setting.uncheck()
    page.wait_for_function("() => document.querySelector('#sudoku-settings-status').textContent === 'Saved'")
    page.get_by_role("button", name="Done").click()
    assert marked(page) == []
    asked = len(checked)
    enter(page, 54, wrong_digit(54))
    wait_saved(page)
    assert len(checked) == asked and marked(page) == []
    context.close()


def test_a_board_opened_with_show_mistakes_on_says_what_it_costs_before_the_first_digit(
    chromium, live_server, todays_easy, django_user_model
):
    user = django_user_model.objects.create_user("shown", password="a long enough password 1")
    Preferences.objects.create(user=user, values={"show_mistakes": True})
    context = chromium.new_context(viewport={"width": 1200, "height": 900})
    log_in(context, live_server.url, user)
    page = context.new_page()
    checked = []
    page.on("request", lambda request: checked.append(request.url) if request.url.endswith("/check/") else None)
    page.goto(f"{live_server.url}/daily/{todays_easy.date.isoformat()}/easy/")
    wait_ready(page)
    page.locator("#sudoku-notice", has_text="Show mistakes is on").wait_for()
    assert "will not be ranked" in page.locator("#sudoku-notice").inner_text()
    assert checked == []  # nothing asked, nothing counted, until a digit is placed
    enter(page, 1, wrong_digit(1))
    page.wait_for_selector("#cell-1.is-wrong")
    assert len(checked) == 1 and checks_used("shown") == 1
    context.close()
