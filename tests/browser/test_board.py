"""A player's morning, in a real browser: sign up, play, reload, resume elsewhere, solve."""

from __future__ import annotations

import pytest

from puzzles.models import Solve
from tests.browser.pages import (
    GIVENS,
    PASSWORD,
    SOLUTION,
    cell,
    digit_in,
    notes_in,
    screenshot,
    sign_up,
    wait_ready,
    wait_saved,
)

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.screenshots
def test_a_new_player_plays_reloads_resumes_elsewhere_and_solves(chromium, live_server, todays_easy):
    path = f"/daily/{todays_easy.date.isoformat()}/easy/"
    context = chromium.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    sign_up(page, live_server.url, path, "ada")

    # Digits by keyboard: r1c1 is empty, its answer is 4.
    cell(page, 0).click()
    page.keyboard.press("4")
    assert digit_in(page, 0) == "4"
    # A corner note by Shift+digit one cell to the right, then undone and redone.
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Shift+7")
    assert "7" in notes_in(page, 1, "corner")
    page.keyboard.press("Control+z")
    assert "7" not in notes_in(page, 1, "corner")
    page.keyboard.press("Control+y")
    assert "7" in notes_in(page, 1, "corner")
    # A digit by the on-screen keypad: r1c4 is empty, its answer is 9.
    cell(page, 3).click()
    page.click("#sudoku-keypad [data-digit='9']")
    assert digit_in(page, 3) == "9"
    # A given cannot be changed.
    cell(page, 2).click()
    page.keyboard.press("5")
    assert digit_in(page, 2) == "3"
    wait_saved(page)
    screenshot(page, "desktop.png")

    page.reload()
    wait_ready(page)
    assert digit_in(page, 0) == "4" and digit_in(page, 3) == "9"
    assert "7" in notes_in(page, 1, "corner")

    # The same player on a second browser picks up exactly there.
    other = chromium.new_context()
    second = other.new_page()
    second.goto(f"{live_server.url}/accounts/login/?next={path}")
    second.fill("#id_login", "ada")  # allauth's log-in takes a username or an email
    second.fill("#id_password", PASSWORD)
    second.click("button[type=submit]")
    second.wait_for_url(f"{live_server.url}{path}")
    wait_ready(second)
    assert digit_in(second, 0) == "4" and digit_in(second, 3) == "9"
    other.close()

    # Fill the rest with one mistake: r1c2 (answer 8) gets a 3, which clashes in row 1.
    empties = [i for i, g in enumerate(GIVENS) if g == "0" and i not in (0, 3)]
    for i in empties:
        cell(page, i).click()
        page.keyboard.press("3" if i == 1 else SOLUTION[i])
    alert = page.locator("#sudoku-alert")
    alert.wait_for(state="visible", timeout=10_000)
    assert "Not quite" in alert.inner_text()
    assert not Solve.objects.exists()

    cell(page, 1).click()
    page.keyboard.press("8")
    solved = page.locator("#sudoku-solved[role=status]")
    solved.wait_for(state="visible", timeout=10_000)
    assert "Solved" in solved.inner_text()
    assert Solve.objects.filter(user__username="ada").count() == 1
    context.close()


@pytest.mark.screenshots
def test_on_a_phone_the_grid_and_keypad_fit_and_the_keypad_plays(chromium, live_server, todays_easy):
    path = f"/daily/{todays_easy.date.isoformat()}/easy/"
    for scheme, shot in (("light", "phone.png"), ("dark", "phone-dark.png")):
        context = chromium.new_context(
            viewport={"width": 375, "height": 667},
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
            color_scheme=scheme,
        )
        page = context.new_page()
        sign_up(page, live_server.url, path, f"phone-{scheme}")
        grid = page.locator("#sudoku-grid").bounding_box()
        keypad = page.locator("#sudoku-keypad").bounding_box()
        assert grid["y"] + grid["height"] <= 667 and keypad["y"] + keypad["height"] <= 667
        assert grid["width"] <= 375
        cell(page, 0).tap()
        page.tap("#sudoku-keypad [data-digit='4']")
        assert digit_in(page, 0) == "4"
        # Centre notes from the keypad's mode switch.
        page.locator("label", has=page.locator("#mode-centre")).click()
        cell(page, 1).tap()
        page.tap("#sudoku-keypad [data-digit='2']")
        assert "2" in notes_in(page, 1, "centre")
        wait_saved(page)
        screenshot(page, shot)
        context.close()


def test_keyboard_alone_plays_and_pause_hides_the_grid(chromium, live_server, todays_easy):
    path = f"/daily/{todays_easy.date.isoformat()}/easy/"
    context = chromium.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    sign_up(page, live_server.url, path, "keys")
    # Into the grid with Tab only, then arrows: the first cell takes the focus first.
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "cell-0":
            break
    assert page.evaluate("document.activeElement.id") == "cell-0"
    assert cell(page, 0).get_attribute("aria-label").startswith("Row 1, Column 1, empty")
    page.keyboard.press("4")
    page.keyboard.press("ArrowDown")  # r2c1 is a given 9
    assert page.evaluate("document.activeElement.id") == "cell-9"
    assert "given 9" in cell(page, 9).get_attribute("aria-label")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Control+2")  # a centre note in r2c2
    assert "2" in notes_in(page, 10, "centre")
    page.keyboard.press("Backspace")
    assert notes_in(page, 10, "centre") == ""
    # A clash is announced, not only coloured: a second 4 in row 1.
    cell(page, 1).click()
    page.keyboard.press("4")
    assert "conflict" in cell(page, 1).get_attribute("aria-label")
    page.keyboard.press("Backspace")
    wait_saved(page)

    page.click("#sudoku-pause")
    assert page.locator("#sudoku-paused").is_visible()
    assert page.locator("#sudoku-grid").evaluate("el => el.closest('[inert]') !== null || !el.checkVisibility()")
    page.click("#sudoku-resume")
    assert not page.locator("#sudoku-paused").is_visible()
    assert digit_in(page, 0) == "4"
    context.close()


def test_a_stale_tab_adopts_the_newer_progress_instead_of_overwriting_it(chromium, live_server, todays_easy):
    path = f"/daily/{todays_easy.date.isoformat()}/easy/"
    context = chromium.new_context()
    first = context.new_page()
    sign_up(first, live_server.url, path, "twotabs")
    second = context.new_page()
    second.goto(f"{live_server.url}{path}")
    wait_ready(second)
    # The second tab saves first...
    cell(second, 0).click()
    second.keyboard.press("4")
    wait_saved(second)
    # ...so the first tab's save of an older version is refused, and it takes the newer board.
    cell(first, 3).click()
    first.keyboard.press("9")
    first.wait_for_function(
        "() => document.querySelector('#cell-0 .cell-digit').textContent.trim() === '4'", timeout=10_000
    )
    assert "other" in first.locator("#sudoku-notice").inner_text().lower()
    context.close()


def test_the_shared_page_names_the_player_lets_them_log_out_and_lets_a_visitor_play_as_a_guest(
    chromium, live_server, todays_easy
):
    # The page is the same document for everyone; board.js asks the state API who is here.
    path = f"/daily/{todays_easy.date.isoformat()}/easy/"
    context = chromium.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    sign_up(page, live_server.url, path, "grace_hopper")
    header = page.locator(".site-header")
    assert header.locator("#account-name").inner_text() == "grace_hopper"
    assert header.get_by_role("link", name="Stats").is_visible()
    assert not page.locator("#sudoku-guest").is_visible()
    assert page.locator("#sudoku-grid").get_attribute("aria-readonly") is None

    # Log out from this page's header: its form has the token board.js put there.
    header.get_by_role("button", name="Log out").click()
    page.wait_for_load_state()
    assert page.get_by_role("button", name="Log out").count() == 0

    # The same page for a visitor (before issue 12's guest play: read-only with "Log in to play"):
    # playable at once, saying they play as a guest, with the ways to sign up or log in and back.
    page.goto(f"{live_server.url}{path}")
    page.wait_for_selector("#sudoku[data-ready=visitor]", timeout=10_000)
    notice = page.locator("#sudoku-guest[role=status]")
    assert notice.is_visible() and "Playing as a guest" in notice.inner_text()
    login = notice.get_by_role("link", name="log in")
    assert login.is_visible() and login.get_attribute("href") == f"/accounts/login/?next={path}"
    assert notice.get_by_role("link", name="sign up").get_attribute("href") == f"/accounts/signup/?next={path}"
    assert header.get_by_role("link", name="Log in").is_visible()
    assert not header.get_by_role("link", name="Stats").is_visible()
    assert page.locator("#sudoku-grid").get_attribute("aria-readonly") is None
    assert page.locator("#sudoku-keypad").is_visible() and page.locator("#sudoku-clock").is_visible()
    context.close()
