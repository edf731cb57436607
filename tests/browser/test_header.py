"""One header everywhere, in Chromium: the same visitor finds the same links in the site's header
on every page (home, a board, the archive, stats, learn, a technique, the print page, the account,
privacy), on a desktop and in a phone's menu."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from puzzles.accounts.guests import guest_create
from tests.browser.pages import log_in, wait_ready

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}

# Where each visible link of the header goes (without its query: a log-in link's ?next= is the
# page's own), and each button's name (Log out), in the header's order.
HEADER_LINKS = """() => {
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  return [...document.querySelectorAll('.site-header a, .site-header button')]
    .filter((e) => shown(e) && e.id !== 'site-menu-button' && !e.classList.contains('brand'))
    .map((e) => (e.href ? new URL(e.href).pathname : `button: ${e.textContent.trim()}`));
}"""


def pages_to_walk(board: str) -> list[str]:
    return ["/", board, "/archive/", "/stats/", "/learn/", "/learn/x-wing/", "/print/", "/account/", "/privacy/"]


def header_links(page, path: str, phone: bool) -> list[str]:
    if path.startswith("/daily/"):
        wait_ready(page)  # the board's header says who is here once the state API has
    if phone:
        page.click("#site-menu-button")  # the site's links fold under Menu
        page.wait_for_selector("#site-nav.is-open")
    return page.evaluate(HEADER_LINKS)


def walk(chromium, base: str, user: User, board: str) -> dict[str, dict[str, list[str]]]:
    """The header's links on each page, by look ("desktop", "phone") and page."""
    seen: dict[str, dict[str, list[str]]] = {}
    for look, options in (("desktop", DESKTOP), ("phone", PHONE)):
        context = chromium.new_context(**options)
        log_in(context, base, user)
        page = context.new_page()
        seen[look] = {}
        for path in pages_to_walk(board):
            response = page.goto(base + path)
            assert response.status == 200 and "/accounts/" not in page.url, path  # the page, not a log-in
            seen[look][path] = header_links(page, path, look == "phone")
        context.close()
    return seen


@pytest.mark.parametrize("who", ["guest", "account", "staff"])
def test_every_page_s_header_offers_the_same_links_on_a_desktop_and_in_a_phone_s_menu(
    chromium, live_server, todays_easy, who
):
    if who == "guest":
        user = guest_create()
    else:
        user = User.objects.create_user(who, f"{who}@example.com", "a long password", is_staff=who == "staff")
    board = f"/daily/{todays_easy.date.isoformat()}/easy/"
    seen = walk(chromium, live_server.url, user, board)

    expected = ["/archive/", "/learn/", "/how-to-play/", "/stats/"]
    if who == "guest":
        expected += ["/accounts/login/", "/accounts/signup/"]
    else:
        expected += ["/leagues/", "/account/", "/accounts/password/change/", "/accounts/email/"]
        expected += ["/account/reminders/", "button: Log out"]
    for look, pages in seen.items():
        for path, links in pages.items():
            assert sorted(links) == sorted(expected), f"{who}, {look}, {path}: {links}"
