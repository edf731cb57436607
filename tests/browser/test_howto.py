"""A first visit that explains (issue 24): the how-to-play opens by itself on a first board, once,
as a real dialog (focus in and back, Escape, a heading, axe clean) followed with the keyboard and
with touch; the header fits a phone on its side with every link a 44 px target, and room for one
more link; a home page waiting for its puzzles puts each in place when it is published."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from puzzles.models import Preferences, site_today
from tests.browser.axe import assert_accessible
from tests.browser.pages import GIVENS, LOOKS, PHONE, SOLUTION, cell, log_in, screenshot, sign_up, wait_saved
from tests.factories import make_daily, make_solve

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE_ON_ITS_SIDE = {**PHONE, "viewport": {"width": 667, "height": 375}}
SMALL_PHONE = {**PHONE, "viewport": {"width": 320, "height": 568}}
TALL_PHONE = {**PHONE, "viewport": {"width": 390, "height": 844}}
# Either side of where the site's links fold under Menu (37.5rem).
NARROW_TABLET = {**PHONE, "viewport": {"width": 600, "height": 800}}
TABLET = {**PHONE, "viewport": {"width": 601, "height": 800}}


def board_path(daily) -> str:
    return f"/daily/{daily.date.isoformat()}/{daily.difficulty}/"


def wait_open(page) -> None:
    page.wait_for_selector("#howto[open] #howto-body[data-filled=yes]", timeout=10_000)


def wait_closed(page) -> None:
    """Until the dialog has shut. Its close event, which resumes the clock, moves focus and
    remembers it was seen, comes a moment after: wait for those by what they do."""
    page.wait_for_function("() => !document.querySelector('#howto').open")


def wait_remembered(page) -> None:
    """Until this device remembers it was seen (the close event's last step)."""
    page.wait_for_function("() => localStorage.getItem('sudoku:howto') !== null")


def is_open(page) -> bool:
    return page.evaluate("document.querySelector('#howto').open")


def focus_in_dialog(page) -> str:
    return page.evaluate(
        "document.activeElement.closest('#howto') ? document.activeElement.id || document.activeElement.textContent : ''"
    )


def test_a_first_visitor_meets_it_once_and_follows_it_with_the_keyboard(chromium, live_server, todays_easy):
    context = chromium.first_visit_context(**DESKTOP)
    page = context.new_page()
    page.goto(live_server.url + board_path(todays_easy))
    wait_open(page)
    # Focus moved in, onto its title; its parts are headed under it.
    assert focus_in_dialog(page) == "howto-title"
    assert page.locator("#howto h2").inner_text() == "How to play"
    parts = page.locator("#howto h3").all_inner_texts()
    assert parts[:4] == ["The rules", "Four ways to write in a cell", "With a keyboard", "On a touch screen"]
    assert_accessible(page, "how to play, first visit")
    # Tab reaches its words (they scroll between the title and the button), then its button;
    # Enter closes it, and focus is on the grid.
    page.keyboard.press("Tab")
    assert focus_in_dialog(page) == "howto-body"
    page.keyboard.press("Tab")
    assert focus_in_dialog(page) == "Got it"
    page.keyboard.press("Enter")
    wait_closed(page)
    page.wait_for_function("() => document.activeElement.id === 'cell-0'")
    wait_remembered(page)

    # Once: the next board does not open it.
    page.reload()
    page.wait_for_selector("#sudoku[data-ready=visitor]")
    page.wait_for_timeout(500)
    assert not is_open(page)

    # Again from the keyboard reference, by keyboard: Escape closes it and focus comes back.
    page.focus("#sudoku-keys summary")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "sudoku-howto-link"
    page.keyboard.press("Enter")
    wait_open(page)
    assert page.url == live_server.url + board_path(todays_easy)  # a dialog here, not the page
    page.keyboard.press("Escape")
    wait_closed(page)
    assert page.evaluate("document.activeElement.id") == "sudoku-howto-link"

    # And from the header.
    page.locator(".site-header").get_by_role("link", name="How to play").click()
    wait_open(page)
    page.keyboard.press("Escape")

    # Their first move makes them a guest: the next board tells the server they have seen it.
    empty = GIVENS.index("0")
    cell(page, empty).click()
    page.keyboard.press(SOLUTION[empty])
    wait_saved(page)
    page.reload()
    page.wait_for_selector("#sudoku[data-ready=true]")
    page.wait_for_function("() => localStorage.getItem('sudoku:howto') === 'saved'", timeout=10_000)
    assert not is_open(page)
    assert Preferences.objects.get(user__guest__isnull=False).values["seen_howto"] is True
    context.close()


@pytest.mark.screenshots
@pytest.mark.parametrize("look", LOOKS)
def test_on_a_touch_screen_it_fits_and_closes_with_a_tap(chromium, live_server, todays_easy, look):
    context = chromium.first_visit_context(**LOOKS[look])
    page = context.new_page()
    page.goto(live_server.url + board_path(todays_easy))
    wait_open(page)
    box = page.locator("#howto").bounding_box()
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    assert box["x"] >= 0 and box["x"] + box["width"] <= width and box["y"] >= 0 and box["y"] + box["height"] <= height
    assert_accessible(page, f"how to play, {look}")
    screenshot(page, f"howto-{look}.png")
    done = page.get_by_role("button", name="Got it")
    if LOOKS[look].get("has_touch"):
        done.tap()
        wait_closed(page)
        # Again from the header, under Menu on a phone, all by touch.
        page.tap("#site-menu-button")
        page.locator("#site-nav").get_by_role("link", name="How to play").tap()
        wait_open(page)
        assert not page.locator("#site-nav").is_visible()  # the menu closed behind it
        done.tap()
        page.wait_for_function("() => document.activeElement.id === 'cell-0'")  # its link has gone: the grid
    else:
        done.click()
    wait_closed(page)
    wait_remembered(page)
    page.reload()
    page.wait_for_selector("#sudoku[data-ready=visitor]")
    page.wait_for_timeout(500)
    assert not is_open(page)
    context.close()


@pytest.mark.parametrize("look", LOOKS)
def test_its_page_of_its_own_reads_well_in_every_look(chromium, live_server, look):
    context = chromium.new_context(**LOOKS[look])
    page = context.new_page()
    page.goto(live_server.url + "/how-to-play/")
    assert page.locator("h1").inner_text() == "How to play"
    assert page.locator("main h2").all_inner_texts()[:2] == ["The rules", "Four ways to write in a cell"]
    assert page.evaluate("document.scrollingElement.scrollWidth - innerWidth") <= 0
    assert_accessible(page, f"how to play, its page, {look}")
    context.close()


def test_a_player_sees_it_once_on_every_device_and_the_clock_waits_while_they_read(chromium, live_server, todays_easy):
    context = chromium.first_visit_context(**PHONE)
    page = context.new_page()
    sign_up(page, live_server.url, board_path(todays_easy), "newcomer")
    wait_open(page)
    assert page.locator("#sudoku-paused").is_visible()  # reading is not solving
    page.get_by_role("button", name="Got it").tap()
    wait_closed(page)
    page.locator("#sudoku-paused").wait_for(state="hidden", timeout=5000)  # its close event resumes the clock
    page.wait_for_function("() => localStorage.getItem('sudoku:howto') === 'saved'")
    user = User.objects.get(username="newcomer")
    assert Preferences.objects.get(user=user).values["seen_howto"] is True
    context.close()

    # Another device: the server remembers.
    context = chromium.first_visit_context(**DESKTOP)
    log_in(context, live_server.url, user)
    page = context.new_page()
    page.goto(live_server.url + board_path(todays_easy))
    page.wait_for_function("() => localStorage.getItem('sudoku:howto') === 'saved'", timeout=10_000)
    assert not is_open(page)
    context.close()


# --- the header ---------------------------------------------------------------------------------

HEADER = """() => {
  const header = document.querySelector('.site-header');
  const targets = [...header.querySelectorAll('a, button')].filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden');
  return {
    page: document.scrollingElement.scrollWidth - innerWidth,
    header: header.scrollWidth - header.clientWidth,
    outside: targets.filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5).map((e) => e.textContent.trim()),
    small: targets.map((e) => [e.textContent.trim() || e.getAttribute('aria-label'), e.getBoundingClientRect()])
      .filter(([, r]) => r.width < 44 || r.height < 44).map(([n, r]) => `${n} ${r.width.toFixed(0)}x${r.height.toFixed(0)}`),
    logOut: targets.some((e) => e.textContent.trim() === 'Log out'),
  };
}"""


@pytest.mark.parametrize(
    "size",
    [PHONE_ON_ITS_SIDE, PHONE, TALL_PHONE, SMALL_PHONE, NARROW_TABLET, TABLET, DESKTOP],
    ids=["side", "phone", "tall", "small", "narrow-tablet", "tablet", "desktop"],
)
def test_the_logged_in_header_fits_with_every_link_and_every_target_is_44px(chromium, live_server, todays_easy, size):
    user = User.objects.create_user("margaret_hamilton", password="correct horse battery staple")
    context = chromium.new_context(**size)
    log_in(context, live_server.url, user)
    page = context.new_page()
    for path in ("/", "/how-to-play/", board_path(todays_easy)):
        page.goto(live_server.url + path)
        if path.startswith("/daily/"):
            page.wait_for_selector("#sudoku[data-ready=true]")
        menu = page.locator("#site-menu-button")
        # On a phone upright the site's links fold under Menu: the header is one row of 44 px.
        assert menu.is_visible() == (size["viewport"]["width"] <= 600)
        if menu.is_visible():
            assert page.locator(".site-header").bounding_box()["height"] <= 46
            assert not page.locator("#site-nav").is_visible()
            menu.click()
            assert menu.get_attribute("aria-expanded") == "true"
            # The account's pages, gone from the header's row below a wide screen, are in the menu.
            assert page.locator("#site-nav a.nav-account-page[href='/accounts/email/']").is_visible()
        # Every link the header has, Learn (the one it kept room for) among them.
        assert page.locator("#site-nav .nav-learn").count() == 1
        found = page.evaluate(HEADER)
        where = f"{path} {size['viewport']}"
        assert found["page"] <= 0 and found["header"] <= 0, f"{where}: wider than the screen: {found}"
        assert not found["outside"], f"{where}: past the screen's edge: {found['outside']}"
        assert found["logOut"], f"{where}: no Log out"
        assert not found["small"], f"{where}: smaller than 44 px: {found['small']}"
        if menu.is_visible():
            assert_accessible(page, f"the menu open, {path}")
            page.keyboard.press("Escape")
            assert not page.locator("#site-nav").is_visible() and menu.get_attribute("aria-expanded") == "false"
        if path.startswith("/daily/") and size.get("has_touch"):
            for control in ("#sudoku-pause", "#sudoku-settings-open"):
                box = page.locator(control).bounding_box()
                assert box["width"] >= 44 and box["height"] >= 44, f"{control} {box}"
    context.close()


# --- a home page waiting for its puzzles ---------------------------------------------------------


def test_a_waiting_home_page_puts_each_puzzle_in_place_as_it_is_published(chromium, live_server, todays_easy):
    context = chromium.new_context(**DESKTOP)
    context.clock.install()
    page = context.new_page()
    page.goto(live_server.url + "/")
    page.evaluate("window.notReloaded = true")
    assert page.locator(".home-card[data-tier=medium].is-empty").count() == 1
    page.clock.run_for(16_000)  # asked once: nothing new
    page.wait_for_timeout(300)
    assert page.locator(".home-card[data-tier=medium].is-empty").count() == 1

    make_daily(site_today(), "medium")
    page.clock.run_for(16_000)
    page.wait_for_selector(".home-card[data-tier=medium]:not(.is-empty) a.home-card-button", timeout=10_000)
    assert page.evaluate("window.notReloaded") is True  # in place, not a reload
    assert page.locator("#home-cards-status").inner_text() == "The medium puzzle is ready."
    assert page.locator(".home-card[data-tier=hard].is-empty").count() == 1
    context.close()


# --- the home page's cards ----------------------------------------------------------------------


@pytest.mark.screenshots
@pytest.mark.parametrize("look", LOOKS)
def test_each_card_says_what_its_difficulty_asks_and_the_days_median(chromium, live_server, todays_easy, look):
    for tier in ("medium", "hard", "expert", "extreme"):
        make_daily(site_today(), tier)
    for n, seconds in enumerate((190, 260, 305)):
        make_solve(todays_easy, f"solver{n}", seconds)
    context = chromium.new_context(**LOOKS[look])
    page = context.new_page()
    page.goto(live_server.url + "/")
    asks = page.locator(".home-card-asks")
    assert asks.count() == 5 and all(asks.nth(i).is_visible() for i in range(5))
    assert asks.first.inner_text() == "Asks for hidden single and naked single."
    assert page.locator(".home-card[data-tier=easy] .home-card-median").inner_text() == "Today's median: 4:20"
    assert page.locator(".home-card-median").count() == 1
    assert page.evaluate("document.scrollingElement.scrollWidth - innerWidth") <= 0
    assert_accessible(page, f"home cards, {look}")
    screenshot(page.locator(".home-cards"), f"home-cards-{look}.png")
    context.close()


def test_the_address_of_a_puzzle_being_prepared_opens_it_once_it_is_published(chromium, live_server, todays_easy):
    context = chromium.new_context(**DESKTOP)
    context.clock.install()
    page = context.new_page()
    response = page.goto(f"{live_server.url}/daily/{site_today().isoformat()}/medium/")
    assert response.status == 503 and "The medium puzzle is being prepared" in page.locator("main").inner_text()
    assert_accessible(page, "a puzzle being prepared")
    make_daily(site_today(), "medium")
    page.clock.run_for(16_000)
    page.wait_for_selector("#sudoku[data-ready=visitor]", timeout=10_000)
    assert page.locator("#sudoku-title").inner_text().startswith("Medium")
    context.close()


def test_a_board_already_solved_does_not_open_it_and_the_next_unsolved_one_does(chromium, live_server, todays_easy):
    # A player who solved today's easy on another device, on a new one: the solved board shows its
    # time, not how to play; the first board they can play still opens it.
    ada = User.objects.create_user("ada_solved")
    make_solve(todays_easy, "ada_solved", 200)
    medium = make_daily(site_today(), "medium")
    context = chromium.first_visit_context(**DESKTOP)
    log_in(context, live_server.url, ada)
    page = context.new_page()
    page.goto(live_server.url + board_path(todays_easy))
    page.wait_for_selector("#sudoku.is-solved[data-ready=true]")
    page.wait_for_timeout(500)  # the dialog's module would have loaded and opened by now
    assert not is_open(page)
    page.goto(live_server.url + board_path(medium))
    wait_open(page)
    context.close()
