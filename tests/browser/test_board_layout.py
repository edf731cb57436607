"""The board's layout in a real browser: nothing moves under the pointer when a message appears,
the title row stays in line with the grid, a board that cannot be played highlights nothing, and
on a phone every key is big enough and everything that matters is on screen."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.browser.pages import (
    GIVENS,
    SOLUTION,
    cell,
    confirm_hint,
    hint_text,
    log_in,
    marked,
    sign_up,
    wait_ready,
    wait_stage,
)
from tests.factories import solve_through_api

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"viewport": {"width": 1200, "height": 900}}
PHONE = {"viewport": {"width": 375, "height": 667}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
PHONE_ON_ITS_SIDE = {**PHONE, "viewport": {"width": 667, "height": 375}}
SMALL_PHONE = {**PHONE, "viewport": {"width": 320, "height": 568}}


def board_path(daily) -> str:
    return f"/daily/{daily.date.isoformat()}/easy/"


# Every layout shift from now on, with what moved: the observer starts once the board is ready.
WATCH_SHIFTS = """() => {
  const since = performance.now();
  const where = (r) => r && `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}x${Math.round(r.height)}`;
  const name = (node) => !node ? "?" : node.id ? `#${node.id}`
    : `${node.nodeName.toLowerCase()}${node.className ? "." + String(node.className).trim().split(/\\s+/).join(".") : ""}`;
  window.layoutShifts = [];
  const keep = (list) => {
    for (const entry of list.getEntries()) {
      if (entry.startTime < since) continue;
      window.layoutShifts.push({
        value: entry.value,
        sources: (entry.sources || []).map((s) => `${name(s.node)} ${where(s.previousRect)} -> ${where(s.currentRect)}`),
      });
    }
  };
  window.shiftObserver = new PerformanceObserver(keep);
  window.shiftObserver.observe({ type: "layout-shift", buffered: true });
  window.takeShifts = async () => {
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    keep({ getEntries: () => window.shiftObserver.takeRecords() });
    return window.layoutShifts;
  };
}"""


@pytest.mark.parametrize("look", ["desktop", "phone"])
def test_notices_a_hint_and_the_not_quite_alert_move_nothing_on_the_page(chromium, live_server, todays_easy, look):
    context = chromium.new_context(**(DESKTOP if look == "desktop" else PHONE))
    page = context.new_page()
    path = board_path(todays_easy)
    sign_up(page, live_server.url, path, f"still-{look}")
    cell(page, 0).click()
    page.evaluate(WATCH_SHIFTS)

    # A notice: Space changes the entry mode and says so; Z goes back to digits.
    page.keyboard.press("Space")
    page.locator("#sudoku-notice", has_text="Entry: corner notes").wait_for()
    page.keyboard.press("z")
    # A hint, taken by its button (where the pointer is) to its last stage, then closed.
    hint = page.locator("#key-hint")
    for stage in (1, 2, 3):
        hint.click()
        if stage == 1:
            confirm_hint(page)
        wait_stage(page, stage)
    page.click("#sudoku-hint-close")
    assert hint_text(page) == ""
    # A full grid with one wrong digit: r1c2 (answer 8) gets a 3.
    for i in (i for i, g in enumerate(GIVENS) if g == "0"):
        cell(page, i).click()
        page.keyboard.press("3" if i == 1 else SOLUTION[i])
    page.locator("#sudoku-alert", has_text="Not quite").wait_for(timeout=10_000)

    shifts = page.evaluate("window.takeShifts()")
    assert shifts == [], f"{len(shifts)} layout shift(s) on {look}:\n" + "\n".join(
        f"{shift['value']:.4f}: {'; '.join(shift['sources'])}" for shift in shifts
    )
    context.close()


def test_a_closed_or_reloaded_hint_leaves_the_button_saying_hint(chromium, live_server, todays_easy):
    context = chromium.new_context(**DESKTOP)
    page = context.new_page()
    sign_up(page, live_server.url, board_path(todays_easy), "closer")
    button = page.locator("#key-hint")
    button.click()
    confirm_hint(page)
    wait_stage(page, 1)
    button.click()
    wait_stage(page, 2)
    assert button.inner_text() == "Show me"

    page.click("#sudoku-hint-close")
    assert hint_text(page) == "" and marked(page) == []
    assert button.inner_text() == "Hint"

    button.click()
    wait_stage(page, 2)  # the hint closed comes back as it was
    page.reload()
    wait_ready(page)
    assert hint_text(page) == "" and marked(page) == []
    assert button.inner_text() == "Hint"
    context.close()


BAR_AND_GRID = """() => {
  const box = (selector) => document.querySelector(selector).getBoundingClientRect();
  const [bar, title, grid] = [box(".sudoku-bar"), box("#sudoku-title"), box("#sudoku-grid")];
  return { bar: [bar.left, bar.width], title: title.left, grid: grid.left };
}"""


def test_opening_the_keyboard_shortcuts_keeps_the_title_row_in_line_with_the_grid(chromium, live_server, todays_easy):
    context = chromium.new_context(**DESKTOP)
    page = context.new_page()
    sign_up(page, live_server.url, board_path(todays_easy), "shortcuts")
    closed = page.evaluate(BAR_AND_GRID)
    assert closed["title"] == closed["grid"] == closed["bar"][0]

    page.click("#sudoku-keys summary")
    page.get_by_text("Ctrl/Cmd+A", exact=True).wait_for()
    assert page.evaluate(BAR_AND_GRID) == closed
    context.close()


HIGHLIGHTED = "#sudoku-grid td.is-selected, #sudoku-grid td.is-peer, #sudoku-grid td.is-same"


def test_a_board_that_cannot_be_played_shows_no_selection_highlights(chromium, live_server, todays_easy):
    path = board_path(todays_easy)
    # A visitor's board before their position has arrived: the state API is held back meanwhile.
    context = chromium.new_context(**DESKTOP)
    page = context.new_page()
    held = []
    page.route("**/state/", lambda route: held.append(route))
    page.goto(live_server.url + path)
    page.wait_for_function("() => document.querySelector('#save-status').dataset.state === 'loading'")
    cell(page, 20).click()  # r3c3, a given 1
    page.keyboard.press("ArrowRight")
    assert page.locator(HIGHLIGHTED).count() == 0
    held[0].continue_()
    page.wait_for_selector("#sudoku[data-ready=visitor]", timeout=10_000)
    cell(page, 20).click()  # now it plays: the highlights are there
    assert page.locator(HIGHLIGHTED).count() > 0
    context.close()

    # A solved board, with its results.
    solver = User.objects.create_user("solver")
    client = Client()
    client.force_login(solver)
    solve_through_api(client, todays_easy)
    context = chromium.new_context(**DESKTOP)
    log_in(context, live_server.url, solver)
    page = context.new_page()
    page.goto(live_server.url + path)
    page.locator("#sudoku-results[data-solved=true]").wait_for(timeout=10_000)
    cell(page, 10).click()  # r2c2, one of the player's digits (6)
    page.keyboard.press("ArrowRight")
    assert page.locator(HIGHLIGHTED).count() == 0
    context.close()


# Each visible key of the keypad: its name and its box.
KEYS = """() => [...document.querySelectorAll("#sudoku-keypad button, #sudoku-keypad .keypad-modes label")]
  .filter((key) => key.checkVisibility())
  .map((key) => {
    const { left, top, right, bottom, width, height } = key.getBoundingClientRect();
    return { name: key.id || key.dataset.digit || key.textContent.trim(), left, top, right, bottom, width, height };
  })"""
TOUCH_ONLY = "matchMedia('(hover: none) and (pointer: coarse)').matches"


def test_on_a_phone_every_key_is_a_44px_target_and_a_touch_screen_lists_no_shortcuts(
    chromium, live_server, todays_easy
):
    context = chromium.new_context(**PHONE)
    page = context.new_page()
    sign_up(page, live_server.url, board_path(todays_easy), "thumbs")
    keys = page.evaluate(KEYS)
    assert len(keys) == 4 + 10 + 4  # the modes, the digits and Erase, the tools
    small = [
        f"{key['name']} {key['width']:.1f}x{key['height']:.1f}" for key in keys if min(key["width"], key["height"]) < 44
    ]
    assert not small, f"keys smaller than 44 px at 375x667: {small}"
    assert page.evaluate(TOUCH_ONLY)
    assert not page.locator("#sudoku-keys").is_visible()
    context.close()

    context = chromium.new_context(**DESKTOP)
    page = context.new_page()
    sign_up(page, live_server.url, board_path(todays_easy), "keyboardist")
    assert not page.evaluate(TOUCH_ONLY)
    assert page.locator("#sudoku-keys").is_visible()
    context.close()


def test_a_phone_on_its_side_shows_the_grid_the_keypad_and_hint_without_scrolling(chromium, live_server, todays_easy):
    context = chromium.new_context(**PHONE_ON_ITS_SIDE)
    page = context.new_page()
    sign_up(page, live_server.url, board_path(todays_easy), "sideways")
    assert page.evaluate("scrollY") == 0
    grid = page.locator("#sudoku-grid").bounding_box()
    hint = page.locator("#key-hint").bounding_box()
    boxes = {"grid": {**grid, "right": grid["x"] + grid["width"], "bottom": grid["y"] + grid["height"]}}
    boxes["Hint"] = {**hint, "right": hint["x"] + hint["width"], "bottom": hint["y"] + hint["height"]}
    for key in page.evaluate(KEYS):
        boxes[key["name"]] = {"x": key["left"], "y": key["top"], "right": key["right"], "bottom": key["bottom"]}
    outside = [
        f"{name} {box['x']:.0f},{box['y']:.0f} to {box['right']:.0f},{box['bottom']:.0f}"
        for name, box in boxes.items()
        if box["x"] < 0 or box["y"] < 0 or box["right"] > 667 or box["bottom"] > 375
    ]
    assert not outside, f"off a 667x375 screen: {outside}"
    context.close()


def test_the_narrowest_phone_scrolls_nothing_sideways(chromium, live_server, todays_easy):
    context = chromium.new_context(**SMALL_PHONE)
    page = context.new_page()
    sign_up(page, live_server.url, board_path(todays_easy), "narrow")
    for state in ("the board", "a hint", "the Tools panel"):
        if state == "a hint":
            page.tap("#key-hint")
            confirm_hint(page)
            wait_stage(page, 1)
        elif state == "the Tools panel":
            page.tap("#sudoku-hint-close")
            page.tap("#key-more")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 320, f"{state} is {width} px wide on a 320 px screen"
    context.close()


# Every layout shift since the page began, by what moved. takeLoadShifts() answers once the page has
# drawn two more frames (a shift is measured as a frame is drawn) and the observer has handed over
# what it holds: after it, no shift of what was on screen when it was called is still to come.
WATCH_LOAD_SHIFTS = """(() => {
  window.loadShifts = [];
  const keep = (entries) => {
    for (const e of entries) window.loadShifts.push(e.sources.map((s) => s.node?.id || s.node?.className || '?').join(' '));
  };
  const observer = new PerformanceObserver((list) => keep(list.getEntries()));
  observer.observe({ type: 'layout-shift', buffered: true });
  window.takeLoadShifts = async () => {
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    keep(observer.takeRecords());
    return window.loadShifts;
  };
})()
"""


@pytest.mark.parametrize("look", ["desktop", "phone"])
def test_nothing_moves_while_the_board_loads_for_a_visitor_or_a_player(chromium, live_server, todays_easy, look):
    # The page is the same for everyone; the keypad, the clock and (for a visitor) the guest's
    # notice appear once the state API has answered. Watched from the first paint this time, on a
    # processor slowed down as a cheap phone's is: Chromium then paints pages it has read only in
    # part (a CI run saw the board re-centre as its column arrived), which the page's
    # rel=expect link holds back until the board has been read whole.
    context = chromium.new_context(**(DESKTOP if look == "desktop" else PHONE))
    page = context.new_page()
    slow = context.new_cdp_session(page)
    slow.send("Emulation.setCPUThrottlingRate", {"rate": 12})
    page.add_init_script(WATCH_LOAD_SHIFTS)
    path = board_path(todays_easy)
    page.goto(f"{live_server.url}{path}")
    page.wait_for_selector("#sudoku[data-ready=visitor]")
    assert page.locator("#sudoku-guest").is_visible() and page.locator("#sudoku-keypad").is_visible()
    assert page.evaluate("window.takeLoadShifts()") == [], "a visitor's board moved as it loaded"
    slow.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    sign_up(page, live_server.url, path, f"loads-{look}")
    page.reload()
    wait_ready(page)
    assert page.evaluate("window.takeLoadShifts()") == [], "a player's board moved as it loaded"
    context.close()
