"""What the browser tests share: the looks a page is shown in, a player signed up or logged in, the
board's cells and states, the hint panel, the clipboard, the page's and the server's clocks held
still, and the README's screenshots, which a test writes only when the run asks for them."""

from __future__ import annotations

import datetime
import os
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from tests.factories import EASY_GIVENS, EASY_SOLUTION

GIVENS, SOLUTION = EASY_GIVENS, EASY_SOLUTION
PASSWORD = "correct horse battery staple"

# ---- The looks: light and dark, on a desktop and on a phone.

DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PHONE = {"viewport": {"width": 375, "height": 667}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
LOOKS = {
    "light": {"color_scheme": "light", **DESKTOP},
    "dark": {"color_scheme": "dark", **DESKTOP},
    "light-phone": {"color_scheme": "light", **PHONE},
    "dark-phone": {"color_scheme": "dark", **PHONE},
}

# ---- The README's screenshots. A test run writes nothing into the repository: `make screenshots`
# sets SCREENSHOTS=1 and runs the tests marked `screenshots`, and only then are the files in
# docs/screenshots/ written. A test that takes one carries the mark (conftest.py holds it to that),
# so that run takes them all.

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
TAKE_SHOTS = os.environ.get("SCREENSHOTS", "") == "1"
# Whether the running test is marked `screenshots`; set for each test by conftest.py.
SHOT_MARKED = False
# The looks the README shows: a desktop in light, a phone in dark.
SHOT_SUFFIX = {"light": "", "dark-phone": "-dark-phone"}


def screenshot(target, name: str, **options) -> None:
    """docs/screenshots/`name`, of `target` (a page or an element) as it is now, when the run takes
    screenshots; `options` are Playwright's (full_page, clip)."""
    assert SHOT_MARKED, f"{name}: a test that takes a screenshot is marked screenshots, so `make screenshots` runs it"
    if TAKE_SHOTS:
        target.screenshot(path=str(SHOTS / name), **options)


def shoot(page, name: str, look: str, down_to: str | None = None) -> None:
    """docs/screenshots/<name>[-dark-phone].png in the looks the README shows: the whole page, or
    from its top down to the element `down_to` selects."""
    if look not in SHOT_SUFFIX:
        return
    clip = None
    if down_to is not None:
        bottom = page.evaluate("(s) => document.querySelector(s).getBoundingClientRect().bottom + scrollY", down_to)
        clip = {"x": 0, "y": 0, "width": page.viewport_size["width"], "height": bottom + 16}
    screenshot(page, f"{name}{SHOT_SUFFIX[look]}.png", full_page=True, clip=clip)


# ---- Who is playing.


def assert_fits(page, label: str) -> None:
    """Nothing on the page reaches past the screen's width (no sideways scrolling), the header's
    links included."""
    overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{label}: {overflow} px wider than the screen"
    header = page.evaluate(
        "(() => { const h = document.querySelector('.site-header'); return h ? h.scrollWidth - h.clientWidth : 0; })()"
    )
    assert header <= 0, f"{label}: the header's links reach {header} px past the screen"


def log_in(context, base: str, user: User) -> None:
    """The browser context gets a session of `user` (the log-in form is tested elsewhere)."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])


def sign_up(page, base: str, path: str, username: str) -> None:
    """A new player, through the sign-up form, lands back on the board at `path`."""
    page.goto(f"{base}/accounts/signup/?next={path}")
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}{path}")
    wait_ready(page)


# ---- The board.


def cell(page, i: int):
    return page.locator(f"#cell-{i}")


def digit_in(page, i: int) -> str:
    return cell(page, i).locator(".cell-digit").inner_text().strip()


def notes_in(page, i: int, kind: str) -> str:
    """A cell's corner or centre notes as drawn (the stylesheet draws each digit from data-n)."""
    return cell(page, i).locator(f".cell-{kind}").get_attribute("data-notes") or ""


def wait_saved(page) -> None:
    page.wait_for_function("() => document.querySelector('#save-status').dataset.state === 'saved'", timeout=10_000)


def wait_ready(page) -> None:
    """The page is the same for everyone; wait until board.js has put the player's position on it."""
    page.wait_for_selector("#sudoku[data-ready=true]", timeout=10_000)


def shown_seconds(page) -> int:
    """The board's timer, in seconds."""
    minutes, seconds = page.locator("#sudoku-timer").inner_text().split(":")[-2:]
    return int(minutes) * 60 + int(seconds)


def drag(page, cells: list[int]) -> None:
    """Press on the first cell and move the mouse across the others, as a player drags."""
    first = cell(page, cells[0]).bounding_box()
    page.mouse.move(first["x"] + first["width"] / 2, first["y"] + first["height"] / 2)
    page.mouse.down()
    for i in cells[1:]:
        box = cell(page, i).bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=4)
    page.mouse.up()


def open_tool(page, action: str) -> None:
    """A tool of the Tools panel ("fill", "check", "restart" ...), opened and pressed."""
    page.click("#key-more")
    # What the tools do loads as the panel opens (tools.js): pressed once it is here, a tool acts at once.
    page.wait_for_selector("#sudoku-more[data-loaded]", state="attached")
    page.click(f"#sudoku-more [data-action={action}]")


# ---- The hint panel.


def hint_text(page) -> str:
    return page.locator("#sudoku-hint[role=status]").inner_text().strip()


def confirm_hint(page) -> None:
    """The first hint of a solve that has had no help yet asks first (static/js/hints.js): take it."""
    page.locator("#sudoku-confirm[open]").get_by_role("button", name="Take a hint").click()


def wait_stage(page, stage: int) -> None:
    """Wait for the hint panel to show the answer at `stage`."""
    page.wait_for_function(
        f"() => document.querySelector('#sudoku-hint-panel').dataset.state === 'stage-{stage}'", timeout=10_000
    )


def marked(page, kind: str = "") -> list[int]:
    """The cells the hint marks (of `kind`: "area", "place", "cell", "remove"; any if none)."""
    selector = f"#sudoku-grid td[data-hint='{kind}']" if kind else "#sudoku-grid td[data-hint]"
    return sorted(int(i) for i in page.locator(selector).evaluate_all("cells => cells.map(c => c.dataset.cell)"))


# ---- The clipboard, read and written on a page of its own.


def blank_page(context, base: str):
    """A blank page of the site's origin, served by the test: the site's own pages turn
    clipboard-read off (Permissions-Policy), as they should, so the clipboard is read here."""
    page = context.new_page()
    page.route(f"{base}/blank", lambda route: route.fulfill(content_type="text/html", body="<p>blank</p>"))
    page.goto(f"{base}/blank")
    return page


def clipboard_text(context, base: str) -> str:
    page = blank_page(context, base)
    text = page.evaluate("() => navigator.clipboard.readText()")
    page.close()
    return text


def clipboard_put(context, base: str, text: str) -> None:
    page = blank_page(context, base)
    page.evaluate("(text) => navigator.clipboard.writeText(text)", text)
    page.close()


# ---- The clocks. The page's and the server's are held still and moved on together, a quarter
# second at a time: the page's by Playwright, the server's by time-machine (the live server is a
# thread of this process). Install COUNT_FETCHES with the page's clock, before the page opens.

STEP_MS = 250

# Requests the page has in flight, so each step's beats reach the server before its clock moves on.
COUNT_FETCHES = """(() => {
  const fetch = window.fetch;
  window.pendingFetches = 0;
  window.fetch = (...args) => {
    window.pendingFetches += 1;
    return fetch(...args).finally(() => (window.pendingFetches -= 1));
  };
})()"""


class Clocks:
    """The page's clock and the server's, held still, and moved on together."""

    def __init__(self, context, traveller) -> None:
        self.context, self.traveller = context, traveller

    def play(self, page, seconds: float, step_ms: int = STEP_MS) -> list[int]:
        """Let `seconds` pass with the page open, `step_ms` at a time; the timer as shown after every step."""
        shown = []
        for _ in range(int(seconds * 1000 / step_ms)):
            self.traveller.shift(datetime.timedelta(milliseconds=step_ms))
            self.context.clock.run_for(step_ms)
            page.wait_for_function("() => window.pendingFetches === 0", polling=20)
            shown.append(shown_seconds(page))
        return shown

    def wait(self, seconds: float) -> None:
        """Let `seconds` pass with no page of the puzzle open."""
        self.traveller.shift(datetime.timedelta(seconds=seconds))
        self.context.clock.fast_forward(int(seconds * 1000))
