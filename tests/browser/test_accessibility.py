"""axe-core finds nothing on any page a visitor, a player and an admin reach, in every look: light and
dark, on a desktop and on a phone. And the player's own theme (static/js/theme.js) wins over the
system's, in both directions, before the first paint and in every open tab.

The board (/daily/...) adds its states here with one `assert_accessible(page, "board, paused")` each."""

from __future__ import annotations

import datetime
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User

from puzzles.accounts.guests import guest_create
from puzzles.fairplay.ranking import CHECKING
from puzzles.models import Attempt, PuzzleRating, SeedBatch, Solve
from puzzles.pipeline import broker
from puzzles.ratings.ledger import ratings_catch_up
from tests.browser.axe import assert_accessible
from tests.browser.pages import DESKTOP, LOOKS, log_in, screenshot
from tests.factories import make_daily, make_solve

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# What data-theme says when the parser reaches <body>: nothing is painted before that.
FIRST_PAINT = """
new MutationObserver((_, observer) => {
  if (document.body) {
    window.themeWhenBodyBegan = document.documentElement.dataset.theme;
    observer.disconnect();
  }
}).observe(document, { childList: true, subtree: true });
"""
# The body's background in each palette (site.css's --bg).
LIGHT_BG, DARK_BG = "rgb(251, 251, 253)", "rgb(22, 22, 26)"
SITE_BG = {"light": "#fbfbfd", "dark": "#16161a"}  # the theme-color metas' colours, the same
# The colour the browser would give its bar: the first theme-color meta whose media applies.
BAR_COLOUR = (
    "() => [...document.querySelectorAll('meta[name=theme-color]')]"
    ".find((meta) => !meta.media || matchMedia(meta.media).matches)?.content"
)


@pytest.fixture(params=LOOKS)
def look(request) -> str:
    return request.param


@pytest.fixture
def browse(chromium, live_server, look) -> Callable:
    """`browse(path, as_user=None)`: a page in a new context of this look, at `path`, logged in as
    `as_user` if given."""
    contexts = []

    def open_page(path: str, as_user: User | None = None):
        context = chromium.new_context(**LOOKS[look])
        contexts.append(context)
        if as_user is not None:
            log_in(context, live_server.url, as_user)
        page = context.new_page()
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
        return page

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture
def ada(todays_easy) -> User:
    """A player with a history: today's easy solved (ranked 21st of 21, so the leaderboard shows her
    row after the gap), earlier solves with hints and late ones for the stats' tables and charts,
    and today's medium in progress."""
    ada = User.objects.create_user("ada", password="correct horse battery staple")
    today = todays_easy.date
    for n in range(20):
        make_solve(todays_easy, f"player{n:02}", 100 + n)
    make_solve(todays_easy, "ada", 312)
    for days, difficulty, seconds, options in (
        (1, "easy", 290, {}),
        (2, "easy", 350, {"assisted": True}),
        (3, "medium", 640, {}),
        (4, "medium", 700, {"late": True}),
        (5, "hard", 1500, {}),
    ):
        make_solve(make_daily(today - datetime.timedelta(days=days), difficulty), "ada", seconds, **options)
    Attempt.objects.create(user=ada, daily=make_daily(today, "medium"), active_seconds=95)
    return ada


VISITOR_PAGES = {
    "home": "/",
    "archive": "/archive/",
    "play-any-puzzle": "/play/",
    "sign-up": "/accounts/signup/",
    "log-in": "/accounts/login/",
    "password-reset": "/accounts/password/reset/",
    "404": "/no-such-page/",
}
PLAYER_PAGES = {
    "home": "/",
    "archive": "/archive/",
    "stats": "/stats/",
    "password-change": "/accounts/password/change/",
    "email": "/accounts/email/",
}


@pytest.mark.screenshots
@pytest.mark.parametrize("name", VISITOR_PAGES)
def test_a_visitors_page_passes_axe(browse, look, todays_easy, name):
    page = browse(VISITOR_PAGES[name])
    assert_accessible(page, f"{name}, visitor, {look}")
    # For the README: these pages on a desktop in light and a phone in dark.
    shot = {"404": "404", "sign-up": "signup", "log-in": "login"}.get(name)
    if shot and look in ("light", "dark-phone") and not (shot != "404" and look == "light"):
        screenshot(page, f"{shot}{'-dark-phone' if look == 'dark-phone' else ''}.png")


@pytest.mark.parametrize("name", PLAYER_PAGES)
def test_a_players_page_passes_axe(browse, look, ada, name):
    assert_accessible(browse(PLAYER_PAGES[name], as_user=ada), f"{name}, player, {look}")


# The fragment board.js inserts under the board, shown here on a page of the site's own with its
# stylesheet, so it is checked apart from the board page (whose own states are checked with it).
SHOW_RESULTS = """async (path) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = "/static/css/results.css";
    const loaded = new Promise((resolve) => link.addEventListener("load", resolve));
    document.head.append(link);
    const response = await fetch(path);
    document.querySelector("main").innerHTML = await response.text();
    await loaded;
}"""


def test_a_players_results_pass_axe(browse, look, ada, todays_easy):
    page = browse("/", as_user=ada)
    page.evaluate(SHOW_RESULTS, f"/daily/{todays_easy.date.isoformat()}/easy/results/")
    assert page.locator("#sudoku-results .results-gap").count() == 1  # her row, after the top 20
    assert page.locator("#sudoku-results .is-player .results-you").count() == 1
    assert_accessible(page, f"results, player, {look}", include="#sudoku-results")


def test_a_guests_results_pass_axe(browse, look, todays_easy):
    # A guest is never ranked: the sentence saying where the time would place them has its own colour.
    guest = guest_create()
    make_solve(todays_easy, "ada", 100)
    make_solve(todays_easy, guest.username, 200)
    page = browse("/", as_user=guest)
    page.evaluate(SHOW_RESULTS, f"/daily/{todays_easy.date.isoformat()}/easy/results/")
    assert page.locator("#sudoku-results .results-standing.is-unranked").count() == 1
    assert_accessible(page, f"results, guest, {look}", include="#sudoku-results")


def test_results_while_the_time_is_being_checked_pass_axe(browse, look, todays_easy):
    # Just after the submit, before the judge's verdict: a live region with a spinner.
    solve = make_solve(todays_easy, "ada", 100)
    Solve.objects.filter(pk=solve.pk).update(unranked=CHECKING)
    page = browse("/", as_user=solve.user)
    page.evaluate(SHOW_RESULTS, f"/daily/{todays_easy.date.isoformat()}/easy/results/")
    assert page.locator("#sudoku-results #sudoku-verdict[data-verdict=checking][role=status]").count() == 1
    assert_accessible(page, f"results, time being checked, {look}", include="#sudoku-results")


@pytest.fixture
def root(todays_easy, monkeypatch) -> User:
    """A superuser, and a dashboard with something to show: an unfinished batch, low pools, empty
    slots, and yesterday's medium played as hard."""
    # The dashboard asks the broker how it is; here it answers at once.
    monkeypatch.setattr(broker, "broker_status", lambda: (True, "The task broker (test) is reachable."))
    SeedBatch.objects.create(tier="easy", filler="row-by-row", requested=5)
    yesterday = make_daily(todays_easy.date - datetime.timedelta(days=1), "medium")
    PuzzleRating.objects.create(puzzle=yesterday.puzzle, rating=1560, deviation=60, solves=30)
    make_solve(todays_easy, "ada", 200)
    ratings_catch_up()
    return User.objects.create_superuser("root", password="correct horse battery staple")


def test_the_pool_dashboard_passes_axe(browse, look, root):
    page = browse("/admin/puzzles/pool/dashboard/", as_user=root)
    page.wait_for_selector(".pool-table")
    assert_accessible(page, f"pool dashboard, {look}")


@pytest.mark.parametrize(("chosen", "system"), [("dark", "light"), ("light", "dark")])
def test_the_pool_dashboard_passes_axe_in_the_theme_chosen_by_the_admins_toggle(
    chromium, live_server, root, chosen, system
):
    context = chromium.new_context(color_scheme=system, **DESKTOP)
    context.add_init_script(f"localStorage.setItem('theme', '{chosen}')")  # where the admin's toggle keeps it
    log_in(context, live_server.url, root)
    page = context.new_page()
    page.goto(live_server.url + "/admin/puzzles/pool/dashboard/")
    page.wait_for_selector(".pool-table")
    assert page.evaluate("document.documentElement.dataset.theme") == chosen
    assert_accessible(page, f"pool dashboard, {chosen} chosen on a {system} system")
    context.close()


@pytest.mark.parametrize(("chosen", "system", "background"), [("dark", "light", DARK_BG), ("light", "dark", LIGHT_BG)])
def test_the_chosen_theme_wins_over_the_systems_and_passes_axe(
    chromium, live_server, ada, todays_easy, chosen, system, background
):
    context = chromium.new_context(color_scheme=system, **DESKTOP)
    context.add_init_script(f"localStorage.setItem('sudoku:theme', '{chosen}')")  # as the settings panel leaves it
    context.add_init_script(FIRST_PAINT)
    log_in(context, live_server.url, ada)
    page = context.new_page()
    for path in ("/", "/archive/", "/stats/", "/no-such-page/"):
        page.goto(live_server.url + path)
        assert page.evaluate("window.themeWhenBodyBegan") == chosen  # so nothing was painted in the other
        assert page.evaluate("document.documentElement.dataset.theme") == chosen
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == background
        assert page.evaluate(BAR_COLOUR) == SITE_BG[chosen], f"the browser's bar on {path}"
        assert_accessible(page, f"{path}, {chosen} chosen on a {system} system")
    page.evaluate(SHOW_RESULTS, f"/daily/{todays_easy.date.isoformat()}/easy/results/")
    assert_accessible(page, f"results, {chosen} chosen on a {system} system", include="#sudoku-results")
    context.close()


def test_the_theme_follows_the_system_unless_chosen_and_changes_in_every_open_tab(chromium, live_server, todays_easy):
    context = chromium.new_context(color_scheme="dark", **DESKTOP)
    first, second = context.new_page(), context.new_page()
    for page in (first, second):
        page.goto(live_server.url + "/")
        assert page.evaluate("document.documentElement.dataset.theme") == "system"
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == DARK_BG

        assert page.evaluate(BAR_COLOUR) == SITE_BG["dark"]

    # The settings panel in one tab stores the choice; the other tab hears of it (a storage event).
    first.evaluate("localStorage.setItem('sudoku:theme', 'light')")
    second.wait_for_function("() => document.documentElement.dataset.theme === 'light'")
    assert second.evaluate("getComputedStyle(document.body).backgroundColor") == LIGHT_BG
    assert second.evaluate(BAR_COLOUR) == SITE_BG["light"]  # the browser's bar too
    first.evaluate("localStorage.setItem('sudoku:theme', 'system')")
    second.wait_for_function("() => document.documentElement.dataset.theme === 'system'")
    assert second.evaluate("getComputedStyle(document.body).backgroundColor") == DARK_BG
    assert second.evaluate(BAR_COLOUR) == SITE_BG["dark"]
    # Anything else stored there (an old value, a typo) means the system's.
    first.evaluate("localStorage.setItem('sudoku:theme', 'light')")
    second.wait_for_function("() => document.documentElement.dataset.theme === 'light'")
    first.evaluate("localStorage.setItem('sudoku:theme', 'sepia')")
    second.wait_for_function("() => document.documentElement.dataset.theme === 'system'")
    first.evaluate("localStorage.removeItem('sudoku:theme')")
    second.reload()
    assert second.evaluate("document.documentElement.dataset.theme") == "system"
    context.close()
