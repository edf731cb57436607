"""Real Chromium (Debian's) driven by Playwright against Django's live server."""

from __future__ import annotations

import os
import shutil

import pytest

from tests.browser import pages
from tests.conftest import _missing

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


# The how-to-play opens by itself on a first board (static/js/howto.js), in front of it: every
# context these tests make has seen it already, but those test_howto.py makes as a first visit.
HOWTO_SEEN = "localStorage.setItem('sudoku:howto', 'saved')"


class Browser:
    """Chromium, whose new contexts have seen the how-to-play; first_visit_context() has not.

    Their pages run without the service worker (static/js/sw.js) unless a test asks for it
    (service_workers="allow", tests/browser/test_offline.py): a test's page.route() never sees a
    request the worker answers, and installing it in every context would fetch every static file.
    """

    def __init__(self, browser) -> None:
        self.browser = browser

    def new_context(self, **options):
        context = self.browser.new_context(**{"service_workers": "block", **options})
        context.add_init_script(HOWTO_SEEN)
        return context

    def first_visit_context(self, **options):
        return self.browser.new_context(**{"service_workers": "block", **options})

    def __getattr__(self, name: str):
        return getattr(self.browser, name)


@pytest.fixture(scope="session")
def chromium():
    """One headless Chromium for the whole session (Playwright never downloads its own)."""
    executable = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not executable:
        _missing("Chromium is not installed (apt-get install -y chromium)")
    # The live server runs in a thread of this process; Playwright's sync API runs an event
    # loop here, which Django would otherwise refuse to mix with database calls.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield Browser(browser)
        browser.close()


@pytest.fixture(autouse=True)
def quick_saves(settings):
    """The board saves at most once a second here, not every 10 s: a test that waits for the
    server's copy of a second entry would otherwise wait up to 10 s. A test about the pace itself
    sets it back (test_board_sync.py's log-out test); the Node tests cover the pace's rule."""
    settings.BOARD_SAVE_EVERY_SECONDS = 1


@pytest.fixture(autouse=True)
def screenshots_marked(request, monkeypatch):
    """pages.screenshot() refuses a test not marked `screenshots`: `make screenshots` runs the
    marked tests only, and would leave that test's picture stale."""
    monkeypatch.setattr(pages, "SHOT_MARKED", request.node.get_closest_marker("screenshots") is not None)
