"""axe-core finds nothing on the board in any state a player brings it to: notes, colours, a
selection of many cells, a conflict, a hint, the Tools panel, a confirmation, the settings, paused,
and solved with the results; light and dark, on a desktop and on a phone.

Besides the WCAG and best-practice rules, the experimental label-content-name-mismatch runs here:
a cell's label must contain what the cell shows (a cell showing "357" is not "notes 3 5 7")."""

from __future__ import annotations

import pytest

from tests.browser.axe import report, violations
from tests.browser.pages import DESKTOP, GIVENS, PHONE, SOLUTION, cell, confirm_hint, sign_up, wait_stage

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RULES = ["label-content-name-mismatch"]


class Audit:
    """axe run on the page in each state it is brought to; every state's violations are kept, so a
    failure lists them all."""

    def __init__(self, page, look: str) -> None:
        self.page, self.look, self.found = page, look, []

    def check(self, state: str) -> None:
        found = violations(self.page, rules=RULES)
        if found:
            self.found.append(f"board, {state}, {self.look}:\n{report(found)}")

    def assert_clean(self) -> None:
        assert not self.found, "axe found violations:\n\n" + "\n\n".join(self.found)


def open_board(chromium, live_server, daily, options: dict, username: str):
    context = chromium.new_context(**options)
    page = context.new_page()
    sign_up(page, live_server.url, f"/daily/{daily.date.isoformat()}/easy/", username)
    return page


def add_notes(page) -> None:
    """Corner notes 3 5 7 in r1c2, centre notes 1 4 in r1c4, both kinds in r1c6."""
    cell(page, 1).click()
    for d in "357":
        page.keyboard.press(f"Shift+{d}")
    cell(page, 3).click()
    for d in "14":
        page.keyboard.press(f"Control+{d}")
    cell(page, 5).click()
    page.keyboard.press("Shift+1")
    page.keyboard.press("Control+7")
    assert "corner notes 3 5 7" in cell(page, 1).get_attribute("aria-label")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_board_in_every_state_passes_axe_on_a_desktop(chromium, live_server, todays_easy, scheme):
    page = open_board(chromium, live_server, todays_easy, {"color_scheme": scheme, **DESKTOP}, f"axe-{scheme}")
    audit = Audit(page, f"{scheme}, desktop")
    cell(page, 0).click()
    audit.check("plain")

    add_notes(page)
    audit.check("corner and centre notes")

    # Colours: one in r1c8, two in r1c9, and one under the digit 4 in r1c1 (by V mode).
    cell(page, 7).click()
    page.keyboard.press("Alt+2")
    cell(page, 8).click()
    page.keyboard.press("Alt+4")
    page.keyboard.press("Alt+7")
    cell(page, 0).click()
    page.keyboard.press("4")
    page.keyboard.press("v")
    page.keyboard.press("5")
    page.keyboard.press("z")
    assert page.locator("#sudoku-grid .cell-colour-index").count() == 3
    audit.check("colours")

    cell(page, 18).click()
    for i in (19, 27, 40):
        cell(page, i).click(modifiers=["Control"])
    assert page.locator("#sudoku-grid td.is-selected").count() == 4
    audit.check("a selection of four cells")

    cell(page, 10).click()
    page.keyboard.press("9")  # r2c1 is a given 9
    assert page.locator("#sudoku-grid td.is-conflict").count() == 2
    audit.check("a conflict")
    page.keyboard.press("Backspace")

    for stage in (1, 2, 3):
        page.keyboard.press("h")
        if stage == 1:
            page.locator("#sudoku-confirm[open]").wait_for()
            audit.check("the first hint's confirmation")
            confirm_hint(page)
        wait_stage(page, stage)
        audit.check(f"a hint at stage {stage}")
    page.keyboard.press("Escape")

    page.click("#key-more")
    page.locator("#sudoku-more").wait_for()
    audit.check("the Tools panel open")
    page.click("#sudoku-more [data-action=check]")
    page.locator("#sudoku-confirm[open]").wait_for()
    audit.check("the Check confirmation")
    page.get_by_role("button", name="Cancel").click()

    page.click("#sudoku-settings-open")
    page.locator("#sudoku-settings[open]").wait_for()
    audit.check("the settings")
    page.get_by_role("button", name="Done").click()

    page.click("#sudoku-pause")
    page.locator("#sudoku-paused").wait_for()
    audit.check("paused")
    page.click("#sudoku-resume")

    for i in (i for i, g in enumerate(GIVENS) if g == "0" and i != 0):  # r1c1 has its 4: a second 4 takes it out
        cell(page, i).click()
        page.keyboard.press(SOLUTION[i])
    page.locator("#sudoku-results[data-solved=true]").wait_for(timeout=10_000)
    audit.check("solved, with the results")
    audit.assert_clean()
    page.context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_board_passes_axe_on_a_phone(chromium, live_server, todays_easy, scheme):
    page = open_board(chromium, live_server, todays_easy, {"color_scheme": scheme, **PHONE}, f"axe-phone-{scheme}")
    audit = Audit(page, f"{scheme}, phone")
    audit.check("plain")
    add_notes(page)
    audit.check("corner and centre notes")
    page.tap("#key-hint")
    page.locator("#sudoku-confirm[open]").wait_for()
    audit.check("the first hint's confirmation")
    confirm_hint(page)
    wait_stage(page, 1)
    audit.check("a hint open")
    audit.assert_clean()
    page.context.close()
