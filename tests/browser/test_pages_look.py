"""The pages around the board, as a person sees them: today's puzzles (a visitor's and a player's),
the archive, the statistics and the results opened directly, in every look (light and dark, desktop
and phone). Each passes axe, keeps the site's width, scrolls nothing sideways, and is what the README's
screenshots show (docs/screenshots/home-*.png, archive*.png, stats*.png, results-page*.png)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from puzzles.models import TIER_ORDER, Attempt, DailyPuzzle, Solve, site_today
from puzzles.results import history
from tests.browser.axe import assert_accessible
from tests.browser.pages import LOOKS, assert_fits, log_in, shoot
from tests.coaching_factory import make_rating_change, make_use
from tests.factories import make_daily, make_solve

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def dailies_of(day: datetime.date) -> dict[str, DailyPuzzle]:
    """The day's five dailies, made where missing (today's easy is the known puzzle)."""
    have = {d.difficulty: d for d in DailyPuzzle.objects.filter(date=day)}
    return {tier: have.get(tier) or make_daily(day, tier) for tier in TIER_ORDER}


def partly_played(daily: DailyPuzzle, cells: int) -> str:
    """A position with the first `cells` empty cells of the puzzle filled in correctly."""
    puzzle, digits, filled = daily.puzzle, [], 0
    for given, answer in zip(puzzle.givens, puzzle.solution):
        take = given == "0" and filled < cells
        filled += take
        digits.append(answer if take else "0")
    return "".join(digits)


@pytest.fixture
def grace(todays_easy) -> User:
    """A player three weeks in: today's easy solved (among others), today's medium under way,
    yesterday's mixed, and a month of solves, some with hints and some late, for the archive."""
    grace = User.objects.create_user("grace", password="correct horse battery staple")
    today = site_today()
    first = max(today.replace(day=1), today - datetime.timedelta(days=20))
    day = first
    while day <= today:
        dailies = dailies_of(day)
        age = (today - day).days
        noon = timezone.make_aware(datetime.datetime.combine(day, datetime.time(12)))
        if 1 <= age <= 12 and age % 5 != 4:
            make_solve(dailies["easy"], "grace", 240 + 7 * age, assisted=age == 3, solved_at=noon)
        if 2 <= age <= 9 and age % 3 == 0:
            late = age == 6
            later = noon + datetime.timedelta(days=late)
            make_solve(dailies["medium"], "grace", 520 + 11 * age, late=late, solved_at=later)
        if age == 1:
            make_solve(dailies["medium"], "grace", 655, solved_at=noon)
            Attempt.objects.create(
                user=grace, daily=dailies["hard"], digits=partly_played(dailies["hard"], 20), active_seconds=410
            )
        day += datetime.timedelta(days=1)
    todays = dailies_of(today)
    for n, seconds in enumerate((190, 215, 262, 305)):
        make_solve(todays["easy"], f"player{n}", seconds)
    solve = make_solve(todays["easy"], "grace", 248)
    Attempt.objects.filter(pk=solve.attempt_id).update(digits=partly_played(todays["easy"], 81))
    Attempt.objects.create(
        user=grace, daily=todays["medium"], digits=partly_played(todays["medium"], 24), active_seconds=95
    )
    return grace


@pytest.fixture
def look_page(chromium, live_server):
    """`look_page(look, path, as_user=None)`: a page in a new context of that look."""
    contexts = []

    def open_page(look: str, path: str, as_user: User | None = None):
        context = chromium.new_context(**LOOKS[look])
        contexts.append(context)
        if as_user is not None:
            log_in(context, live_server.url, as_user)
        page = context.new_page()
        response = page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
        page.response = response
        return page

    yield open_page
    for context in contexts:
        context.close()


def assert_looks_right(page, look: str, what: str, shot: str) -> None:
    """The page fits the screen, passes axe and, in the README's looks, is its screenshot `shot`."""
    assert_fits(page, f"{what}, {look}")
    assert_accessible(page, f"{what}, {look}")
    shoot(page, shot, look)


def main_width(page) -> float:
    return page.evaluate("document.querySelector('main').getBoundingClientRect().width")


def at_the_sites_width(look_page, look: str, path: str, player: User):
    """The page at `path` for `player`, checked to be exactly as wide as their home page."""
    home = main_width(look_page(look, "/", as_user=player))
    page = look_page(look, path, as_user=player)
    assert main_width(page) == home
    return page


@pytest.mark.screenshots
@pytest.mark.parametrize("look", LOOKS)
def test_a_visitors_home_page_has_a_drawing_and_one_button_per_puzzle(look_page, look, grace):
    page = look_page(look, "/")
    cards = page.locator(".home-card")
    assert cards.count() == len(TIER_ORDER)
    assert page.locator(".home-card svg[role=img] title").count() == len(TIER_ORDER)
    buttons = page.locator(".home-card a")
    assert buttons.count() == len(TIER_ORDER)  # one link per card, the button
    assert all(text.startswith("Play") for text in buttons.all_inner_texts())
    assert page.locator(".home-invite").count() == 1
    assert_looks_right(page, look, "home, visitor", "home-visitor")


@pytest.mark.screenshots
@pytest.mark.parametrize("look", LOOKS)
def test_a_players_home_page_shows_progress_streak_and_yesterday(look_page, look, grace):
    page = look_page(look, "/", as_user=grace)
    assert page.locator(".home-card.is-solved").count() == 1
    assert page.locator(".home-card.is-started .grid-drawing-entry text").count() == 24
    assert page.locator(".home-card.is-solved .status").inner_text().startswith("✓ Solved in 4:08")
    current = history.player_streaks(grace, site_today()).current
    assert (
        current >= 1 and page.locator(".home-streaks dd").first.inner_text() == f"{current} day{'s' * (current != 1)}"
    )
    assert page.locator(".home-yesterday li").count() == len(TIER_ORDER)
    assert "10:55" in page.locator(".home-yesterday").inner_text()
    assert_looks_right(page, look, "home, player", "home-player")


@pytest.mark.screenshots
@pytest.mark.parametrize("look", LOOKS)
def test_the_archive_keeps_the_sites_width_and_draws_no_future_day(look_page, look, grace):
    page = at_the_sites_width(look_page, look, "/archive/", grace)
    today = site_today()
    # Days after today are empty cells, with no number.
    if today.day < 28:
        tomorrow = (today + datetime.timedelta(days=1)).isoformat()
        assert page.locator(f"time[datetime='{tomorrow}']").count() == 0
    # A puzzle not yet played looks like a link; a solved one is told apart by its tick, not colour alone.
    assert page.locator(".status-solved .status-icon").first.inner_text() == "✓"
    assert page.locator(".status-not-started .status-icon").first.inner_text() == "○"
    assert_looks_right(page, look, "archive", "archive")


@pytest.fixture
def reviewed(grace) -> User:
    """Grace with her solves reviewed and rated: techniques found quicker week by week, a rating."""
    techniques = ("hidden-single", "naked-single", "pointing", "naked-pair")
    for n, solve in enumerate(Solve.objects.filter(user=grace).order_by("solved_at", "pk").select_related("daily")):
        for k, name in enumerate(techniques[: 2 + n % 3]):
            make_use(solve, name, 8 + 30 * k + 60 / (n + 1))
        make_rating_change(solve, 1500 + 12 * n - 20 * (n % 4 == 3), 1500, deviation=max(60, 300 - 20 * n))
    return grace


@pytest.mark.screenshots
@pytest.mark.parametrize("look", LOOKS)
def test_the_stats_use_the_sites_cards_and_width(look_page, look, reviewed):
    page = at_the_sites_width(look_page, look, "/stats/", reviewed)
    assert page.locator(".stats .card").count() >= 3
    assert page.locator(".rating-figure").inner_text().endswith("rated solves")
    assert page.locator(".skills-table tbody tr").count() == 4 and page.locator(".sparkline").count() >= 1
    assert page.locator(".unmet-item").count() == 6
    assert_looks_right(page, look, "stats", "stats")


def tab_stops(page) -> list[str]:
    """The scroll boxes (data-scroll-region) of the page, each as 'fits' or 'scrolls' and whether
    it is a Tab stop: 'scrolls:stop', 'fits:none'."""
    return page.evaluate(
        """() => [...document.querySelectorAll('[data-scroll-region]')].map((box) =>
          `${box.scrollWidth > box.clientWidth + 1 ? 'scrolls' : 'fits'}:${box.tabIndex === 0 && box.hasAttribute('tabindex') ? 'stop' : 'none'}`)"""
    )


def test_a_scroll_box_is_a_tab_stop_only_while_it_scrolls(look_page, grace):
    page = look_page("light", "/stats/", as_user=grace)
    assert tab_stops(page) == ["fits:none"]
    page.set_viewport_size({"width": 300, "height": 700})
    page.wait_for_function("() => document.querySelector('[data-scroll-region]').hasAttribute('tabindex')")
    assert tab_stops(page) == ["scrolls:stop"]
    page.locator("[data-scroll-region]").focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('[data-scroll-region]').scrollLeft > 0")
    # Widened again while it has focus, it keeps its stop until focus moves on.
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_function(
        "() => { const b = document.querySelector('[data-scroll-region]'); return b.scrollWidth <= b.clientWidth + 1; }"
    )
    assert tab_stops(page) == ["fits:stop"]
    page.keyboard.press("Tab")
    page.wait_for_function("() => !document.querySelector('[data-scroll-region]').hasAttribute('tabindex')")
    assert_accessible(page, "stats, widened again")


@pytest.mark.screenshots
@pytest.mark.parametrize("look", LOOKS)
def test_results_opened_directly_are_a_styled_page(look_page, look, grace, todays_easy):
    page = look_page(look, f"/daily/{todays_easy.date.isoformat()}/easy/results/", as_user=grace)
    assert page.response.status == 200
    assert page.locator("header.site-header").count() == 1
    assert page.locator("#sudoku-results h2").inner_text() == "Solved in 4:08"
    assert page.evaluate("getComputedStyle(document.querySelector('.results')).borderTopStyle") == "solid"
    assert_looks_right(page, look, "results page", "results-page")


def test_the_results_under_a_solved_board_line_up_with_it(look_page, grace, todays_easy):
    page = look_page("light", f"/daily/{todays_easy.date.isoformat()}/easy/", as_user=grace)
    page.wait_for_selector("#sudoku-results[data-solved=true]", timeout=10_000)
    box = page.locator("#sudoku-results").bounding_box()
    grid = page.locator("#sudoku-grid").bounding_box()
    side = page.locator(".sudoku-side").bounding_box()
    assert abs(box["x"] - grid["x"]) <= 1
    assert abs((box["x"] + box["width"]) - (side["x"] + side["width"])) <= 1


def test_the_admins_solve_list_fits_a_1280_px_screen_with_times_as_the_clock_shows_them(look_page, grace):
    root = User.objects.create_superuser("root", password="correct horse battery staple")
    page = look_page("light", "/admin/puzzles/solve/", as_user=root)
    assert_fits(page, "the admin's solves")
    overflow = page.evaluate(
        "(() => { const t = document.querySelector('#result_list'); return t.scrollWidth - t.parentElement.clientWidth; })()"
    )
    assert overflow <= 0, f"the solve list is {overflow} px wider than its room"
    times = page.locator("#result_list td.field-time").all_inner_texts()
    assert "4:08" in times and not any("." in t for t in times)
