"""The admin in the site's colours (static/css/admin-theme.css): its header is the site's blue in the
light theme and the site's dark accent surface in the dark one, whether the system or the admin's
own toggle picks the theme. The README's screenshots of the admin are taken here
(docs/screenshots/admin.png, admin-dark.png). axe on the admin is in test_accessibility.py."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from puzzles import broker
from puzzles.models import SeedBatch
from tests.browser.axe import report, violations
from tests.browser.test_accessibility import log_in
from tests.browser.test_board import SHOTS
from tests.factories import make_puzzle

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}
# The header's background, as the browser computes it: #2456c9 and #222b42 (admin-theme.css).
HEADER_BG = {"light": "rgb(36, 86, 201)", "dark": "rgb(34, 43, 66)"}
HEADER = "getComputedStyle(document.getElementById('header')).backgroundColor"
SCREENSHOT_PAGE = "/admin/puzzles/pool/dashboard/"


@pytest.fixture
def root(todays_easy, monkeypatch) -> User:
    """A superuser, and a dashboard with something to show: an unfinished batch, low pools, empty slots."""
    monkeypatch.setattr(broker, "broker_status", lambda: (True, "The task broker (test) is reachable."))
    SeedBatch.objects.create(tier="easy", filler="row-by-row", requested=5)
    return User.objects.create_superuser("root", password="correct horse battery staple")


def admin_page(chromium, live_server, user: User | None, path: str, system: str, chosen: str | None = None):
    """The admin page at `path` for `user` (None: a visitor), on a desktop whose system asks for
    `system`, with the admin's own toggle left at `chosen` if given."""
    context = chromium.new_context(color_scheme=system, viewport=DESKTOP)
    if chosen:
        context.add_init_script(f"localStorage.setItem('theme', '{chosen}')")
    if user is not None:
        log_in(context, live_server.url, user)
    page = context.new_page()
    page.goto(live_server.url + path)
    page.wait_for_load_state("networkidle")
    return page


@pytest.mark.parametrize("system", ["light", "dark"])
@pytest.mark.parametrize("path", ["/admin/", SCREENSHOT_PAGE])
def test_the_admin_header_has_the_sites_colour_in_the_systems_theme(chromium, live_server, root, system, path):
    page = admin_page(chromium, live_server, root, path, system)
    assert page.evaluate(HEADER) == HEADER_BG[system]
    # The site's mark before the name, drawn (its file loaded under the Content Security Policy).
    assert page.evaluate("document.querySelector('#site-name img').naturalWidth") > 0
    if path == SCREENSHOT_PAGE:
        page.screenshot(path=str(SHOTS / f"admin{'-dark' if system == 'dark' else ''}.png"))
    page.context.close()


@pytest.mark.parametrize(("chosen", "system"), [("dark", "light"), ("light", "dark")])
def test_the_admin_header_follows_the_theme_chosen_by_the_admins_toggle(chromium, live_server, root, chosen, system):
    page = admin_page(chromium, live_server, root, "/admin/", system, chosen)
    assert page.evaluate("document.documentElement.dataset.theme") == chosen
    assert page.evaluate(HEADER) == HEADER_BG[chosen]
    # And the toggle changes it at once: Django's toggle goes auto -> light -> dark -> auto.
    page.locator("#header .theme-toggle").click()
    after = page.evaluate("document.documentElement.dataset.theme")
    assert after != chosen
    want = {"auto": system, "light": "light", "dark": "dark"}[after]
    assert page.evaluate(HEADER) == HEADER_BG[want]
    page.context.close()


@pytest.mark.parametrize("system", ["light", "dark"])
def test_every_admin_pages_text_keeps_its_contrast(chromium, live_server, root, system):
    # The dashboard passes every axe rule (test_accessibility.py); these pages show the rest of the
    # admin's colour pairs (lists, filters, forms, buttons, the log-in box), checked here for their
    # contrast. Their other findings are Django's own markup, not its colours.
    puzzle = make_puzzle()
    found = {}
    for path in (
        "/admin/",
        "/admin/puzzles/puzzle/",
        f"/admin/puzzles/puzzle/{puzzle.pk}/change/",
        "/admin/puzzles/puzzle/import/",
        f"/admin/auth/user/{root.pk}/change/",
        "/admin/login/",
    ):
        page = admin_page(chromium, live_server, None if path == "/admin/login/" else root, path, system)
        found[path] = [v for v in violations(page) if v["id"] == "color-contrast"]
        page.context.close()
    assert not any(found.values()), "\n".join(f"{path}\n{report(v)}" for path, v in found.items() if v)
