"""Always-on candidates in a real browser: turned on in the settings, every empty cell's candidates
are drawn as centre notes (or corner notes) and kept up to date from the digits; a candidate the
player takes out stays out, across a digit placed and erased and across a reload. Saved as real
notes, so the server (and the hint engine) has them; axe clean, light and dark, phone and desktop."""

from __future__ import annotations

import json

import pytest

from puzzles.models import Attempt, Preferences
from tests.browser.axe import assert_accessible
from tests.browser.pages import (
    DESKTOP,
    GIVENS,
    PHONE,
    cell,
    digit_in,
    notes_in,
    open_tool,
    shoot,
    sign_up,
    wait_ready,
    wait_saved,
)
from tests.browser.test_board_tools import candidates

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Row 1 is _ _ 3 _ 2 _ 6 _ _: r1c2 (1) takes the player's removal; r2c2 (10) shares its box and
# column, r1c8 (7) its row.
REMOVED_IN, PEER, ROW_PEER = 1, 10, 7


def choose(page, style: str) -> None:
    """Always-on candidates set to `style` in the settings dialog, by keyboard, and saved."""
    page.locator("#sudoku-settings-open").focus()
    page.keyboard.press("Enter")
    dialog = page.locator("#sudoku-settings")
    dialog.locator(f"input[name=auto_candidates][value={style}]").check()
    page.wait_for_function("() => document.querySelector('#sudoku-settings-status').textContent === 'Saved'")
    page.keyboard.press("Escape")
    assert not dialog.is_visible()


def saved(response, cell: int) -> bool:
    """A save answered, of a board with a digit in `cell`."""
    if not (response.url.endswith("/save/") and response.ok):
        return False
    return json.loads(response.request.post_data)["digits"][cell] != "0"


def board_digits(page) -> str:
    """The grid as drawn, 81 characters, 0 for an empty cell."""
    return "".join(digit_in(page, i) or "0" for i in range(81))


def assert_all_candidates(page, layer: str, less: dict[int, str] | None = None) -> None:
    """Every empty cell's `layer` notes are its candidates, less the digits `less` names for a cell."""
    board = board_digits(page)
    drawn = page.evaluate(
        f"() => [...document.querySelectorAll('#sudoku-grid .cell-{layer}')].map((el) => el.dataset.notes || '')"
    )
    for i, ch in enumerate(board):
        if ch != "0":
            continue
        wanted = "".join(d for d in candidates(board, i) if d not in (less or {}).get(i, ""))
        assert drawn[i] == wanted, f"cell {i}: {drawn[i]!r}, the candidates less the removals are {wanted!r}"


def test_always_on_candidates_follow_the_digits_and_keep_the_players_removals(chromium, live_server, todays_easy):
    context = chromium.new_context(**DESKTOP)
    page = context.new_page()
    path = f"/daily/{todays_easy.date.isoformat()}/easy/"
    sign_up(page, live_server.url, path, "auto")
    choose(page, "centre")
    assert Preferences.objects.get(user__username="auto").values == {"auto_candidates": "centre"}
    assert page.locator("#sudoku-notice").inner_text() == "Candidates now kept as centre notes."
    assert_all_candidates(page, "centre")

    # A digit placed: its peers' notes lose it at once.
    cell(page, 0).click()
    page.keyboard.press("4")
    assert "4" not in notes_in(page, PEER, "centre") and "4" not in notes_in(page, ROW_PEER, "centre")
    assert_all_candidates(page, "centre")

    # The player takes a candidate out of r1c2; another digit elsewhere does not bring it back.
    board = board_digits(page)
    gone = candidates(board, REMOVED_IN)[-1]
    assert gone in candidates(board, PEER), "the test needs a digit that may go in the peer too"
    with page.expect_response(lambda r: saved(r, 80) and gone not in json.loads(r.request.post_data)["centre"][1]):
        cell(page, REMOVED_IN).click()
        page.keyboard.press(f"Control+{gone}")
        removals = {REMOVED_IN: gone}
        assert_all_candidates(page, "centre", removals)
        cell(page, 80).click()
        page.keyboard.press(candidates(board, 80)[0])
        assert_all_candidates(page, "centre", removals)

    # Saved as real notes: the server has what the board draws.
    attempt = Attempt.objects.get(user__username="auto")
    assert gone not in attempt.centre[REMOVED_IN] and attempt.centre[ROW_PEER] == notes_in(page, ROW_PEER, "centre")

    # The same digit placed in a peer and erased again: it comes back where the player never took
    # it out, and stays out where they did.
    cell(page, PEER).click()
    page.keyboard.press(gone)
    page.keyboard.press("Backspace")
    assert digit_in(page, PEER) == ""
    assert_all_candidates(page, "centre", removals)

    # After a reload: the setting, the notes and the removal all hold.
    wait_saved(page)
    page.reload()
    wait_ready(page)
    assert_all_candidates(page, "centre", removals)
    cell(page, PEER).click()
    page.keyboard.press(gone)
    page.keyboard.press("Backspace")
    assert_all_candidates(page, "centre", removals)

    # Put back by the player, it is a candidate like the others again.
    cell(page, REMOVED_IN).click()
    page.keyboard.press(f"Control+{gone}")
    assert_all_candidates(page, "centre")

    # Corner style: the notes move to the corners, and are kept there.
    cell(page, REMOVED_IN).click()
    page.keyboard.press(f"Control+{gone}")
    choose(page, "corner")
    assert_all_candidates(page, "corner", removals)
    assert all(notes_in(page, i, "centre") == "" for i in range(81))
    cell(page, 3).click()
    page.keyboard.press(candidates(board_digits(page), 3)[0])
    assert_all_candidates(page, "corner", removals)
    # One undo takes back that digit and what it did to the notes.
    page.keyboard.press("Control+z")
    assert digit_in(page, 3) == ""
    assert_all_candidates(page, "corner", removals)

    # Restart: the board as it started, with every candidate and nothing taken out.
    open_tool(page, "restart")
    page.locator("#sudoku-confirm").get_by_role("button", name="Restart").click()
    page.wait_for_function("() => document.querySelector('#cell-0 .cell-digit').textContent === ''")
    assert_all_candidates(page, "corner")
    open_tool(page, "restart")
    assert page.locator("#sudoku-notice").inner_text().startswith("Nothing to clear")

    # Off: the notes stay as they are, and a digit no longer changes them (remove_notes still does).
    choose(page, "off")
    before = notes_in(page, PEER, "corner")
    cell(page, PEER).click()
    page.keyboard.press(gone)
    page.keyboard.press("Backspace")
    assert notes_in(page, PEER, "corner") == before
    context.close()


@pytest.mark.screenshots
@pytest.mark.parametrize(
    ("look", "options"),
    [
        ("light", {"color_scheme": "light", **DESKTOP}),
        ("dark", {"color_scheme": "dark", **DESKTOP}),
        ("light-phone", {"color_scheme": "light", **PHONE}),
        ("dark-phone", {"color_scheme": "dark", **PHONE}),
        ("light-landscape", {"color_scheme": "light", **PHONE, "viewport": {"width": 667, "height": 375}}),
    ],
)
def test_the_setting_and_the_kept_candidates_pass_axe_in_every_look(chromium, live_server, todays_easy, look, options):
    context = chromium.new_context(**options)
    page = context.new_page()
    sign_up(page, live_server.url, f"/daily/{todays_easy.date.isoformat()}/easy/", f"auto-{look}")
    page.click("#sudoku-settings-open")
    page.locator("#sudoku-settings input[name=auto_candidates][value=centre]").check()
    page.wait_for_function("() => document.querySelector('#sudoku-settings-status').textContent === 'Saved'")
    assert_accessible(page, f"the settings with always-on candidates, {look}")
    shoot(page, "settings-candidates", look)
    page.keyboard.press("Escape")
    cell(page, GIVENS.index("0")).click()
    page.keyboard.press("4")
    assert_accessible(page, f"the board with always-on candidates, {look}")
    shoot(page, "candidates", look)
    context.close()
