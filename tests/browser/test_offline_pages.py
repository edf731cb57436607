"""Offline, in Chromium with the service worker (static/js/sw.js): the home, stats and learn pages a
player opened online show offline as they last were, under a notice of their time that has the
page's width; they are shown to that player only (a log-out forgets them, and after another account
logs in they are never shown); and the board's notices keep their room beside its offline status."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User

from tests.browser.axe import assert_accessible
from tests.browser.pages import log_in, open_tool, sign_up
from tests.browser.test_offline import enter, go_offline, kept, wait_until

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    },
}
# The pages kept for their reader, and a heading each shows.
READER_PAGES = {
    "/": "Today's puzzles",
    "/stats/": "Your statistics",
    "/learn/": "Learn the techniques",
    "/learn/x-wing/": "X-wing",
}
NOTICE = re.compile(r"^Offline copy of this page as it was at \d\d:\d\d today\. Reload it once you are back online")


def controlled(page) -> None:
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=20_000)


def wait_reader_kept(page, path: str) -> None:
    """The worker keeps the page at `path` for its reader."""
    script = """async (path) => {
      for (const n of await caches.keys()) if (n.startsWith('sudoku-reader-') && await (await caches.open(n)).match(path)) return true;
      return false;
    }"""
    wait_until(page, script, path)


def readers(page) -> list[str]:
    return [name for name in page.evaluate("caches.keys()") if name.startswith("sudoku-reader-")]


def board_path(daily) -> str:
    return f"/daily/{daily.date.isoformat()}/easy/"


@pytest.mark.parametrize("size", SIZES)
def test_the_home_stats_and_learn_pages_a_player_opened_show_offline_under_a_notice_of_their_time(
    chromium, live_server, todays_easy, size
):
    context = chromium.new_context(service_workers="allow", **SIZES[size])
    page = context.new_page()
    sign_up(page, live_server.url, board_path(todays_easy), f"reader_{size}")
    controlled(page)
    for path in READER_PAGES:
        page.goto(live_server.url + path)
        wait_reader_kept(page, path)

    go_offline(context)
    for path, heading in READER_PAGES.items():
        page.goto(live_server.url + path)
        assert page.get_by_role("heading", name=heading).first.is_visible(), path
        notice = page.locator("main > .offline-copy[role=status]")
        assert NOTICE.match(notice.inner_text()), notice.inner_text()
        # The notice has the width of the page's column, and its words a few lines at most.
        room = page.evaluate(
            """() => {
              const main = document.querySelector('main'), style = getComputedStyle(main);
              const notice = main.querySelector('.offline-copy'), own = getComputedStyle(notice);
              const text = notice.clientHeight - parseFloat(own.paddingTop) - parseFloat(own.paddingBottom);
              return {column: main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
                      width: notice.getBoundingClientRect().width, lines: Math.round(text / parseFloat(own.lineHeight))};
            }"""
        )
        assert abs(room["width"] - room["column"]) < 1 and room["lines"] <= 3, f"{size} {path}: {room}"
        assert_accessible(page, f"{path} offline, {size}")
    if size == "desktop":
        assert page.locator(".site-header .who").inner_text() == f"reader_{size}"  # their own page
    # A page that is not kept: the offline page, as before.
    page.goto(live_server.url + "/archive/")
    assert page.get_by_role("heading", name="You are offline").is_visible()
    context.close()


def test_a_page_opened_before_the_worker_was_in_control_is_kept_too(chromium, live_server, todays_easy):
    context = chromium.new_context(service_workers="allow", **SIZES["desktop"])
    log_in(context, live_server.url, User.objects.create_user("newcomer"))
    page = context.new_page()
    page.goto(live_server.url + "/stats/")  # the very first page: the worker installs as it shows
    controlled(page)
    wait_reader_kept(page, "/stats/")  # told by the page (service-worker.js), it fetched and kept it
    go_offline(context)
    page.reload()
    assert page.locator(".offline-copy").is_visible() and "newcomer" in page.locator(".site-header").inner_text()
    context.close()


def test_a_log_out_forgets_the_reader_s_pages_and_another_account_never_sees_them(chromium, live_server, todays_easy):
    base = live_server.url
    context = chromium.new_context(service_workers="allow", **SIZES["desktop"])
    page = context.new_page()
    sign_up(page, base, board_path(todays_easy), "firstreader")
    controlled(page)
    page.goto(base + "/stats/")
    wait_reader_kept(page, "/stats/")

    # The log-out: nothing of the first reader is kept, and their stats are not shown offline.
    with page.expect_navigation():
        page.locator(".site-header form button", has_text="Log out").click()
    assert readers(page) == []
    assert not [n for n, entries in kept(page).items() for text in entries.values() if "firstreader" in text]
    go_offline(context)
    page.goto(base + "/stats/")
    assert page.get_by_role("heading", name="You are offline").is_visible()
    assert "firstreader" not in page.content()
    context.set_offline(False)

    # A second account, whose own pages are kept.
    sign_up(page, base, board_path(todays_easy), "secondreader")
    page.goto(base + "/")
    wait_reader_kept(page, "/")
    assert len(readers(page)) == 1

    # A third logs in where the worker never saw the form go (the session cookie alone, as a
    # hard reload's log-in would): their first page online deletes the second's pages.
    context.clear_cookies()
    log_in(context, base, User.objects.create_user("thirdreader"))
    page.goto(base + "/learn/")
    wait_reader_kept(page, "/learn/")
    go_offline(context)
    page.goto(base + "/")  # the second reader's home page was kept: never shown to the third
    assert page.get_by_role("heading", name="You are offline").is_visible()
    assert "secondreader" not in page.content()
    page.goto(base + "/learn/")
    assert "thirdreader" in page.locator(".site-header").inner_text() and page.locator(".offline-copy").is_visible()
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_notice_on_the_board_offline_is_not_squeezed_by_the_offline_status(chromium, live_server, todays_easy, size):
    context = chromium.new_context(**SIZES[size])
    page = context.new_page()
    sign_up(page, live_server.url, board_path(todays_easy), f"squeezed_{size}")
    page.click("#key-more")  # the tools' code is here before the connection goes
    page.wait_for_selector("#sudoku-more[data-loaded]", state="attached")
    page.click("#key-more")
    go_offline(context)
    enter(page, 0, "4")
    page.wait_for_function("() => document.querySelector('#save-status').dataset.state === 'offline'", timeout=10_000)
    open_tool(page, "check")
    page.locator("#sudoku-confirm").get_by_role("button", name="Check").click()
    notice = page.locator("#sudoku-notice", has_text="Could not reach the server")
    notice.wait_for()
    room = page.evaluate(
        """() => {
          const box = document.querySelector('.sudoku-messages').getBoundingClientRect();
          const notice = document.querySelector('#sudoku-notice');
          return {box: box.width, notice: notice.getBoundingClientRect().width, shown: notice.clientWidth / notice.scrollWidth};
        }"""
    )
    # The notice has the line (a phone's one line: all but the status's dot), and shows most of its words.
    assert room["notice"] >= room["box"] - 24, f"{size}: {room}"
    if size == "desktop":
        assert room["shown"] == 1, f"{size}: {room}"
    assert page.locator("#save-status").inner_text() == "Offline — will retry"  # still read out, dot and all
    context.close()
