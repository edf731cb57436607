"""The tools strong players use, in a real browser: a selection of many cells, the four modes with
colours, candidates, the keypad's counts, check, restart and the settings, each kept on the server."""

from __future__ import annotations

import itertools
import json

import pytest

from puzzles.models import Attempt, Preferences, Solve
from tests.browser.pages import (
    GIVENS,
    PASSWORD,
    SOLUTION,
    cell,
    digit_in,
    drag,
    notes_in,
    open_tool,
    screenshot,
    shown_seconds,
    sign_up,
    wait_ready,
    wait_saved,
)

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Row 5 is 7 _ _ _ _ _ _ _ 8: cells 37 to 43 are empty.
ROW5 = [37, 38, 39]


def corner(page, i: int) -> str:
    return notes_in(page, i, "corner")


def centre(page, i: int) -> str:
    return notes_in(page, i, "centre")


def selected(page) -> list[int]:
    return page.evaluate(
        "[...document.querySelectorAll('#sudoku-grid [aria-selected=true]')].map(c => +c.dataset.cell)"
    )


def saves(digits: str):
    """A predicate for page.expect_response: the board's save of `digits` (81 characters), answered."""
    return lambda r: r.url.endswith("/save/") and r.ok and json.loads(r.request.post_data)["digits"] == digits


def candidates(board: str, i: int) -> str:
    """The digits the rules allow in cell i of `board` (81 characters, 0 for empty)."""
    row, col = divmod(i, 9)
    seen = set()
    for j, ch in enumerate(board):
        r, c = divmod(j, 9)
        if r == row or c == col or (r // 3, c // 3) == (row // 3, col // 3):
            seen.add(ch)
    return "".join(d for d in "123456789" if d not in seen)


@pytest.fixture
def board_page(chromium, live_server, todays_easy):
    context = chromium.new_context(viewport={"width": 1200, "height": 900})
    context.clock.install()  # runs as the real one does, until a test moves it on
    page = context.new_page()
    path = f"/daily/{todays_easy.date.isoformat()}/easy/"
    sign_up(page, live_server.url, path, "tools")
    yield page, path
    context.close()


@pytest.mark.screenshots
def test_a_selection_of_many_cells_takes_notes_colours_digits_and_erase(board_page):
    page, _ = board_page
    drag(page, ROW5)
    assert selected(page) == ROW5
    # SudokuPad's rule: a note that not every selected cell has is added to all of them...
    page.keyboard.press("Shift+5")
    assert [corner(page, i) for i in ROW5] == ["5", "5", "5"]
    # ...and one that every selected cell has is taken from all of them.
    page.keyboard.press("Shift+5")
    assert [corner(page, i) for i in ROW5] == ["", "", ""]
    # Ctrl+click takes a cell out of the selection; a centre note goes to the other two.
    cell(page, 39).click(modifiers=["Control"])
    assert selected(page) == [37, 38]
    page.keyboard.press("Control+4")
    assert [centre(page, i) for i in ROW5] == ["4", "4", ""]
    # Shift+click adds; in colour mode (V) a digit paints a colour, named in every cell's label.
    cell(page, 39).click(modifiers=["Shift"])
    page.keyboard.press("v")
    assert page.locator("#mode-colour").is_checked()
    page.keyboard.press("2")
    for i in ROW5:
        assert "colour 2 red" in cell(page, i).get_attribute("aria-label")
        assert cell(page, i).locator(".cell-colour-index").get_attribute("data-n") == "2"
    page.keyboard.press("Alt+7")  # Alt: one colour whatever the mode
    assert "colours 2 red, 7 blue" in cell(page, 37).get_attribute("aria-label")
    # Z back to digits: a digit goes to every selected cell; Erase takes them all away again.
    page.keyboard.press("z")
    assert page.locator("#mode-normal").is_checked()
    page.keyboard.press("6")
    assert [digit_in(page, i) for i in ROW5] == ["6", "6", "6"]
    assert "conflict" in cell(page, 37).get_attribute("aria-label")
    page.keyboard.press("Backspace")
    assert [digit_in(page, i) for i in ROW5] == ["", "", ""]
    # Space cycles the modes; Ctrl+A selects every cell and Escape goes back to the focused one.
    page.keyboard.press(" ")
    assert page.locator("#mode-corner").is_checked()
    page.keyboard.press("z")
    page.keyboard.press("Control+a")
    assert len(selected(page)) == 81
    page.keyboard.press("Escape")
    assert selected(page) == [39]

    # Colours and notes are part of the position: saved, and back after a reload.
    wait_saved(page)
    attempt = Attempt.objects.get(user__username="tools")
    assert attempt.colours[37] == "27" and attempt.colours[39] == "27"
    assert attempt.centre[37] == "4"
    page.reload()
    wait_ready(page)
    assert "colours 2 red, 7 blue" in cell(page, 37).get_attribute("aria-label")
    assert centre(page, 38) == "4"

    # For the README: notes, colours and a selection of three.
    cell(page, 1).click()
    page.keyboard.press("Shift+1")
    page.keyboard.press("Shift+8")
    drag(page, [40, 41, 42])
    page.keyboard.press("Alt+5")
    wait_saved(page)
    screenshot(page, "tools.png")


def test_fill_candidates_is_one_undo_step_and_the_keypad_counts_what_is_left(board_page):
    page, _ = board_page
    left = lambda d: page.locator(f"#sudoku-keypad [data-digit='{d}'] .key-left-n").inner_text()  # noqa: E731
    for d in "123456789":
        assert left(d) == str(9 - GIVENS.count(d))
    cell(page, 0).click()
    page.keyboard.press("4")
    assert left("4") == str(9 - GIVENS.count("4") - 1)
    assert page.locator("#sudoku-keypad [data-digit='4']").inner_text().replace("\n", "").endswith("left")

    open_tool(page, "fill")
    board = "4" + GIVENS[1:]
    for i in (1, 10, 40, 80):
        assert centre(page, i) == candidates(board, i), i  # from the player's own digits, by the rules
    assert centre(page, 0) == "" and digit_in(page, 0) == "4"
    page.keyboard.press("Control+z")
    assert all(centre(page, i) == "" for i in (1, 10, 40, 80))
    assert digit_in(page, 0) == "4", "one undo takes back the candidates, not the digit before them"


def test_check_asks_first_marks_wrong_digits_and_the_solve_is_not_ranked(board_page):
    page, _ = board_page
    wrong = str(int(SOLUTION[0]) % 9 + 1)
    cell(page, 0).click()
    page.keyboard.press(wrong)
    cell(page, 1).click()
    page.keyboard.press(SOLUTION[1])
    wait_saved(page)

    # The page says what checking costs before anything is asked; cancelling asks nothing.
    open_tool(page, "check")
    dialog = page.locator("#sudoku-confirm")
    assert dialog.is_visible() and "not be ranked" in dialog.inner_text()
    dialog.get_by_role("button", name="Cancel").click()
    assert not dialog.is_visible()
    assert Attempt.objects.get(user__username="tools").checks_used == 0

    open_tool(page, "check")
    dialog.get_by_role("button", name="Check").click()
    page.wait_for_selector("#cell-0.is-wrong")
    assert "wrong" in cell(page, 0).get_attribute("aria-label")
    assert "wrong" not in cell(page, 1).get_attribute("aria-label")
    assert "1 wrong digit" in page.locator("#sudoku-notice").inner_text()
    assert Attempt.objects.get(user__username="tools").checks_used == 1
    # The mark goes once the digit changes.
    cell(page, 0).click()
    page.keyboard.press(SOLUTION[0])
    assert not cell(page, 0).evaluate("el => el.classList.contains('is-wrong')")

    # Restart clears the board after a confirmation, and the clock keeps running.
    page.clock.run_for(1500)  # the page's clock, moved on: the timer shows some time played
    page.wait_for_function("() => document.querySelector('#sudoku-timer').textContent !== '0:00'")
    before = shown_seconds(page)
    open_tool(page, "restart")
    assert "clock keeps running" in dialog.inner_text()
    with page.expect_response(saves("0" * 81)):  # the board saves after a quiet moment
        dialog.get_by_role("button", name="Restart").click()
        page.wait_for_function("() => document.querySelector('#cell-0 .cell-digit').textContent === ''")
        assert digit_in(page, 1) == ""
        assert shown_seconds(page) >= before
    assert Attempt.objects.get(user__username="tools").digits == "0" * 81

    # Solved after a check: recorded, and kept off the leaderboard like a solve with hints.
    for i, given in enumerate(GIVENS):
        if given == "0":
            cell(page, i).click()
            page.keyboard.press(SOLUTION[i])
    page.wait_for_selector("#sudoku-solved:not(:empty)", timeout=10_000)
    solve = Solve.objects.get(user__username="tools")
    assert solve.assisted and not Solve.objects.ranked().filter(pk=solve.pk).exists()


def test_settings_by_keyboard_are_kept_on_the_server_and_follow_the_player(board_page, chromium, live_server):
    page, path = board_page
    opener = page.locator("#sudoku-settings-open")
    opener.focus()
    page.keyboard.press("Enter")
    dialog = page.locator("#sudoku-settings")
    dialog.wait_for()  # what it does loads with the first press (tool-actions.js)
    assert page.evaluate("document.activeElement.closest('dialog')?.id") == "sudoku-settings"
    for name in ("highlight_same", "highlight_units", "wrap_arrows", "remove_notes", "show_timer"):
        dialog.locator(f"input[name={name}]").focus()
        page.keyboard.press("Space")
    dialog.locator("input[name=theme][value=dark]").check()
    page.wait_for_function("() => document.querySelector('#sudoku-settings-status').textContent === 'Saved'")
    page.keyboard.press("Escape")
    assert not dialog.is_visible()
    assert page.evaluate("document.activeElement.id") == "sudoku-settings-open"
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    # Saved for the player, every key as chosen.
    page.wait_for_function(
        "async (url) => (await (await fetch(url)).json()).settings.wrap_arrows === true", arg="/api/settings/"
    )
    values = Preferences.objects.get(user__username="tools").values
    assert values["theme"] == "dark" and values["wrap_arrows"] is True and values["highlight_same"] is False
    assert values["highlight_units"] is False and values["remove_notes"] is False and values["show_timer"] is False

    # The same player on another device gets them all.
    other = chromium.new_context(viewport={"width": 1200, "height": 900})
    second = other.new_page()
    second.goto(f"{live_server.url}/accounts/login/?next={path}")
    second.fill("#id_login", "tools")
    second.fill("#id_password", PASSWORD)
    second.click("button[type=submit]")
    second.wait_for_url(f"{live_server.url}{path}")
    wait_ready(second)
    second.wait_for_function("() => document.documentElement.dataset.theme === 'dark'")
    assert not second.locator("#sudoku-timer").is_visible(), "the timer is hidden by the setting"
    # Arrows wrap: right from the last column comes in at the first.
    cell(second, 8).click()
    second.keyboard.press("ArrowRight")
    assert second.evaluate("document.activeElement.id") == "cell-0"
    # The same digit is not highlighted; placing a digit leaves its peers' notes alone.
    cell(second, 1).click()
    second.keyboard.press("Shift+4")
    cell(second, 0).click()
    second.keyboard.press("4")
    assert corner(second, 1) == "4"
    cell(second, 2).click()  # a given 3, which has other 3s on the board
    assert second.locator("#sudoku-grid td.is-same").count() == 0
    assert second.locator("#sudoku-grid td.is-peer").count() == 0, "no row, column and box highlight either"
    other.close()


def test_a_guest_has_settings_too_and_the_keyboard_reference_lists_the_keys(chromium, live_server, todays_easy):
    context = chromium.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.goto(f"{live_server.url}/daily/{todays_easy.date.isoformat()}/easy/")
    page.wait_for_selector("#sudoku[data-ready=visitor]")
    keys = page.locator("#sudoku-keys")
    keys.locator("summary").click()
    keys.locator("dt").first.wait_for()  # written as it opens (key-help.js)
    listed = keys.locator("dt").all_inner_texts()
    for key in ("Ctrl/Cmd+A", "Escape", "Z", "X", "C", "V", "Space, N", "H"):
        assert key in listed
    assert any(key.startswith("Alt/Option+1") for key in listed)
    page.click("#sudoku-settings-open")
    page.locator("#sudoku-settings input[name=theme][value=light]").check()
    page.wait_for_function("() => document.querySelector('#sudoku-settings-status').textContent === 'Saved'")
    page.keyboard.press("Escape")
    guest = Preferences.objects.get()
    assert guest.user.username.startswith("guest-") and guest.values == {"theme": "light"}
    page.reload()
    wait_ready_any = "#sudoku[data-ready]"
    page.wait_for_selector(wait_ready_any)
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    context.close()


def test_a_finger_dragged_over_the_grid_selects_cells_on_a_phone(chromium, live_server, todays_easy):
    context = chromium.new_context(viewport={"width": 375, "height": 667}, is_mobile=True, has_touch=True)
    page = context.new_page()
    sign_up(page, live_server.url, f"/daily/{todays_easy.date.isoformat()}/easy/", "finger")
    # A real touch sequence, as the phone's screen sends it (Playwright's touchscreen only taps).
    cdp = context.new_cdp_session(page)
    points = []
    for i in ROW5:
        box = cell(page, i).bounding_box()
        points.append({"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2})
    scroll_before = page.evaluate("window.scrollY")
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [points[0]]})
    for start, end in itertools.pairwise(points):
        for k in range(1, 5):
            x = start["x"] + (end["x"] - start["x"]) * k / 4
            y = start["y"] + (end["y"] - start["y"]) * k / 4
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    assert selected(page) == ROW5
    assert page.evaluate("window.scrollY") == scroll_before, "the drag selected; it did not scroll the page"
    # A tap straight after the drag still enters the digit (a fast player's next move).
    page.tap("#sudoku-keypad [data-digit='2']")
    assert [digit_in(page, i) for i in ROW5] == ["2", "2", "2"]
    context.close()
