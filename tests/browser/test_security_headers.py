"""Every page a visitor, a player and an admin reach, in Chromium under the site's Content Security
Policy: the browser reports no violation (no inline script or style blocked, nothing fetched from
elsewhere), while the pages are used, not only opened: a digit typed, a hint, a pause, the
results of a solve, the pool dashboard's live refresh, the admin's calendar."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User

from puzzles.models import SeedBatch
from puzzles.pipeline import broker
from tests.browser.pages import cell, confirm_hint, digit_in, wait_ready, wait_saved, wait_stage
from tests.factories import make_daily, make_solve

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery staple"

# Before any of the page's own scripts: every violation the document reports, kept on the page.
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(e.violatedDirective + " " + e.blockedURI);
});
"""


class Watched:
    """One browser context's page, with what the policy refused on each document it showed."""

    def __init__(self, chromium, base: str) -> None:
        self.context = chromium.new_context(viewport={"width": 1200, "height": 900})
        self.context.add_init_script(WATCH)
        self.page = self.context.new_page()
        self.base = base
        self.violations: list[str] = []
        self.page.on("console", self.on_console)

    def on_console(self, message) -> None:
        # Chromium's own words for a refusal, and for a Permissions-Policy feature it does not know.
        if "Content Security Policy" in message.text or "Permissions-Policy" in message.text:
            self.violations.append(f"{self.page.url}: console: {message.text}")

    def collect(self) -> None:
        """Keep what the current document reported; call it before the page moves on."""
        self.page.wait_for_load_state("networkidle")
        for violation in self.page.evaluate("window.__violations.splice(0)"):
            self.violations.append(f"{self.page.url}: {violation}")

    def visit(self, path: str, ready: str | None = None) -> None:
        response = self.page.goto(self.base + path)
        assert "script-src 'self'" in response.headers.get("content-security-policy", ""), path
        if ready:
            self.page.wait_for_selector(ready, timeout=10_000)
        self.collect()

    def log_in(self, path: str, username: str) -> None:
        """Through the form at `path`, collecting on the form's page and on the one it leads to."""
        self.visit(path)
        self.page.fill("#id_login, #id_username", username)  # the site's log-in (allauth) or the admin's
        self.page.fill("#id_password", PASSWORD)
        with self.page.expect_navigation():
            self.page.click("[type=submit]")
        self.collect()


@pytest.fixture
def dashboard_quiet(monkeypatch):
    # The dashboard asks the broker how it is; whatever runs here, it answers at once.
    monkeypatch.setattr(broker, "broker_status", lambda: (True, "The task broker (test) is reachable."))


def test_a_visitor_meets_no_policy_violation(chromium, live_server, todays_easy):
    watched = Watched(chromium, live_server.url)
    watched.visit("/")
    watched.visit("/archive/")
    watched.visit(f"/daily/{todays_easy.date.isoformat()}/easy/", ready="#sudoku[data-ready=visitor]")
    watched.visit("/accounts/signup/")
    watched.visit("/accounts/login/")
    watched.visit("/no-such-page/")
    watched.context.close()
    assert watched.violations == []


def test_a_player_meets_no_policy_violation_while_playing(chromium, live_server, todays_easy):
    User.objects.create_user("ada", password=PASSWORD)
    yesterday = make_daily(todays_easy.date - datetime.timedelta(days=1))
    make_solve(yesterday, "ada", 312)  # so her results and her stats chart show
    watched = Watched(chromium, live_server.url)
    page = watched.page
    watched.log_in("/accounts/login/?next=/", "ada")  # lands on the home page, logged in

    # Playing: a digit, a hint, a pause.
    watched.visit(f"/daily/{todays_easy.date.isoformat()}/easy/")
    wait_ready(page)
    cell(page, 0).click()
    page.keyboard.press("4")
    assert digit_in(page, 0) == "4"
    wait_saved(page)
    page.click("#key-hint")
    confirm_hint(page)
    wait_stage(page, 1)
    page.click("#sudoku-pause")
    assert page.locator("#sudoku-paused").is_visible()
    page.click("#sudoku-resume")
    watched.collect()

    # A solved puzzle: its results fragment arrives and is inserted under the board.
    watched.visit(f"/daily/{yesterday.date.isoformat()}/easy/", ready="#sudoku-results[data-solved=true]")
    watched.visit("/stats/", ready="svg.chart")
    watched.visit("/archive/")
    watched.visit("/accounts/password/change/")
    watched.visit("/accounts/email/")
    watched.context.close()
    assert watched.violations == []


def test_an_admin_meets_no_policy_violation(chromium, live_server, todays_easy, dashboard_quiet):
    User.objects.create_superuser("root", password=PASSWORD)
    SeedBatch.objects.create(tier="easy", filler="row-by-row", requested=5)  # unfinished: the page refreshes
    make_solve(todays_easy, "ada", 1, flagged=True)  # the solves' list warns about it
    watched = Watched(chromium, live_server.url)
    page = watched.page
    watched.log_in("/admin/login/?next=/admin/", "root")  # lands on the admin's index
    watched.visit("/admin/puzzles/")

    # The dashboard's script (a file of its own now) fetches the live part and swaps it in, five
    # seconds on: on the page's clock, moved on here.
    page.clock.install()
    with page.expect_response(lambda r: "/admin/puzzles/pool/dashboard/live/" in r.url):
        watched.visit("/admin/puzzles/pool/dashboard/")
        page.clock.run_for(5_000)
    watched.collect()

    for model in ("puzzle", "dailypuzzle", "solve", "pool"):
        watched.visit(f"/admin/puzzles/{model}/")
    watched.visit("/admin/auth/user/")
    watched.visit("/admin/auth/group/add/", ready=".selector-available")  # drawn by the admin's script
    watched.visit(f"/admin/puzzles/puzzle/{todays_easy.puzzle_id}/change/")
    watched.visit("/admin/puzzles/puzzle/import/")
    # Scheduling a daily: the admin's date widget draws its calendar with script.
    watched.visit("/admin/puzzles/dailypuzzle/add/")
    page.click("a[id^=calendarlink]")
    page.wait_for_selector(".calendarbox", state="visible")
    watched.collect()
    watched.context.close()
    assert watched.violations == []


def test_the_watch_reports_what_the_policy_blocks(chromium, live_server):
    # Without this, a listener that never fired would pass every test above.
    watched = Watched(chromium, live_server.url)
    watched.visit("/accounts/login/")
    watched.page.evaluate("""document.body.insertAdjacentHTML("beforeend", '<p style="color: red">inline</p>')""")
    watched.collect()
    watched.context.close()
    assert any("style-src" in violation for violation in watched.violations), watched.violations
