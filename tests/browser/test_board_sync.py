"""One player, two devices and one clock, in a real browser: a refused save keeps both devices'
moves, and the clock on screen never goes back nor jumps across a reload or a reopening."""

from __future__ import annotations

import itertools
import threading

import pytest
import time_machine
from django.conf import settings
from django.utils import timezone

from puzzles.models import Attempt, PlayEvent
from tests.browser.pages import (
    COUNT_FETCHES,
    PASSWORD,
    Clocks,
    cell,
    digit_in,
    shown_seconds,
    sign_up,
    wait_ready,
    wait_saved,
)
from tests.conftest import IN_FLIGHT

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]


CLASH = "Updated from your other device. {} was changed on both devices; the newer entry was kept."


def log_in(page, base: str, path: str, username: str) -> None:
    """The player's second device: the log-in form, then back to the puzzle."""
    page.goto(f"{base}/accounts/login/?next={path}")
    page.fill("#id_login", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}{path}")
    wait_ready(page)


def two_devices(chromium, live_server, daily, username: str):
    """Two browsers of one player on `daily`: (first page, second page), the first one signed up."""
    path = f"/daily/{daily.date.isoformat()}/easy/"
    first = chromium.new_context(viewport={"width": 1200, "height": 900}).new_page()
    sign_up(first, live_server.url, path, username)
    second = chromium.new_context(viewport={"width": 1200, "height": 900}).new_page()
    log_in(second, live_server.url, path, username)
    return first, second


def enter(page, i: int, digit: str) -> None:
    cell(page, i).click()
    page.keyboard.press(digit)


def saved_digits(username: str) -> str:
    return Attempt.objects.get(user__username=username).digits


def is_save(response, status: int = 200) -> bool:
    return response.url.endswith("/save/") and response.status == status


def test_entries_made_on_two_devices_in_different_cells_are_both_kept(chromium, live_server, todays_easy):
    a, b = two_devices(chromium, live_server, todays_easy, "twin")
    # B saves r1c1 = 4; A, which has not heard of it, then enters r1c4 = 9 on the older version.
    enter(b, 0, "4")
    wait_saved(b)
    with a.expect_response(lambda r: is_save(r, 409)), a.expect_response(is_save):
        enter(a, 3, "9")
    # A's save was refused as stale: A took B's board and put its own 9 back on top, then saved that.
    assert digit_in(a, 0) == "4" and digit_in(a, 3) == "9"
    assert a.locator("#sudoku-notice").inner_text() == "Updated from your other device"  # no cell clashed
    digits = saved_digits("twin")
    assert digits[0] == "4" and digits[3] == "9"
    for page in (a, b):
        page.reload()
        wait_ready(page)
        assert digit_in(page, 0) == "4" and digit_in(page, 3) == "9"
    for page in (a, b):
        page.context.close()


def test_where_both_devices_changed_one_cell_the_newer_entry_wins_and_the_cell_is_named(
    chromium, live_server, todays_easy
):
    a, b = two_devices(chromium, live_server, todays_easy, "twins")

    # B saves r1c2 = 5; A then enters r1c2 = 8: A's entry is the newer one, and stays.
    enter(b, 1, "5")
    wait_saved(b)
    with a.expect_response(lambda r: is_save(r, 409)), a.expect_response(is_save):
        enter(a, 1, "8")
    assert digit_in(a, 1) == "8"
    assert a.locator("#sudoku-notice").inner_text() == CLASH.format("r1c2")
    assert saved_digits("twins")[1] == "8"
    b.reload()
    wait_ready(b)
    assert digit_in(b, 1) == "8"

    # A, offline, enters r1c6 = 7; B then saves r1c6 = 1: B's is the newer entry, and A takes it.
    a.context.set_offline(True)
    enter(a, 5, "7")
    a.wait_for_function("() => document.querySelector('#save-status').dataset.state === 'offline'", timeout=10_000)
    enter(b, 5, "1")
    wait_saved(b)
    with a.expect_response(lambda r: is_save(r, 409)):
        a.context.set_offline(False)
    # Nothing of A's is left to save: the merged board is B's (merged once merge.js has loaded,
    # which the first merge imports: a moment after the 409's answer).
    a.wait_for_function("() => document.querySelector('#cell-5 .cell-digit').textContent.trim() === '1'")
    assert digit_in(a, 5) == "1"
    # A's undo history cannot take back a 7 that is no longer there: it stops at that step, and says so.
    cut = "Undo now stops where your other device changed the same digits."
    assert a.locator("#sudoku-notice").inner_text() == f"{CLASH.format('r1c6')} {cut}"
    assert a.locator("#key-undo").get_attribute("aria-disabled") == "true"
    assert digit_in(a, 1) == "8"  # the earlier merge stands
    digits = saved_digits("twins")
    assert digits[1] == "8" and digits[5] == "1"
    for page in (a, b):
        page.reload()
        wait_ready(page)
        assert digit_in(page, 1) == "8" and digit_in(page, 5) == "1"
    for page in (a, b):
        page.context.close()


# ---- The clock. Both clocks are held still and moved together, a quarter second at a time
# (pages.Clocks): the page's by Playwright, the server's by time-machine.

PLAYED = 25  # seconds on the puzzle before and after the reload or the reopening


def closes_of(username: str) -> int:
    """How many "close" beats the player's record holds."""
    return PlayEvent.objects.filter(attempt__user__username=username, kind=PlayEvent.Kind.CLOSE).count()


def counted_once_closed(username: str, closes: int) -> float:
    """The server's count once the last page's "close" beat (sent as it closes) has arrived, the
    record holding `closes` of them before it."""
    arrived = IN_FLIGHT.wait_until(lambda: closes_of(username) > closes)
    assert arrived, "the closing page's beat never reached the server"
    return Attempt.objects.get(user__username=username).active_seconds


def assert_smooth(shown: list[int], where: str) -> None:
    steps = [later - earlier for earlier, later in itertools.pairwise(shown)]
    assert min(steps) >= 0, f"the clock went back {where}: {shown}"
    assert max(steps) <= 1, f"the clock jumped {where}: {shown}"


@pytest.mark.parametrize("closed", [None, 10, 60, 200], ids=["reload", *(f"reopen-after-{n}s" for n in (10, 60, 200))])
def test_the_clock_counts_a_closed_page_up_to_the_limit_and_never_goes_back(chromium, live_server, todays_easy, closed):
    """A reload counts as no time away; a page closed and opened again counts the time it was closed
    up to HEARTBEAT_GAP_SECONDS (issue 43: an open that counted nothing hid play from the clock), so
    the clock moves on by that once, as the paused board says (the state shows it as the board
    appears, issue 45), and is smooth otherwise."""
    path = f"/daily/{todays_easy.date.isoformat()}/easy/"
    away = 0 if closed is None else min(closed, settings.HEARTBEAT_GAP_SECONDS)
    start = timezone.now()
    with time_machine.travel(start, tick=False) as traveller:
        context = chromium.new_context(viewport={"width": 1200, "height": 900})
        context.add_init_script(COUNT_FETCHES)
        context.clock.install(time=start)
        context.clock.pause_at(start)
        clocks = Clocks(context, traveller)
        page = context.new_page()
        sign_up(page, live_server.url, path, "clockwatcher")
        enter(page, 0, "4")
        before = clocks.play(page, PLAYED)
        assert_smooth(before, "while playing")
        assert before[-1] >= PLAYED - 1

        if closed is None:
            page.reload()
        else:
            closes = closes_of("clockwatcher")
            page.close()
            counted_once_closed("clockwatcher", closes)  # then the clocks move on: the page closed back then
            clocks.wait(closed)
            page = context.new_page()
            page.goto(f"{live_server.url}{path}")
        wait_ready(page)
        after = [shown_seconds(page), *clocks.play(page, PLAYED)]
        # Back where it was when the page went, on once by the time away the server counts (as
        # the board appears: the state reads it), smooth otherwise.
        where = "across the reload" if closed is None else f"across {closed} s closed"
        steps = [later - earlier for earlier, later in itertools.pairwise([before[-1], *after])]
        jumps = [step for step in steps if step > 1]
        assert min(steps) >= 0, f"the clock went back {where}: {before[-1]}, {after}"
        assert jumps == ([] if not away else [pytest.approx(away, abs=1)]), f"{where}: {before[-1]}, {after}"
        assert digit_in(page, 0) == "4"

        closes = closes_of("clockwatcher")
        page.close()
        counted = counted_once_closed("clockwatcher", closes)
        played = 2 * PLAYED + away
        assert abs(counted - played) <= 1.5, f"the server counted {counted} s of {played} s"
        assert abs(counted - after[-1]) <= 1.5, f"the server counted {counted} s, the screen showed {after[-1]} s"
        context.close()


# The timer's text at the moment the board appears (#sudoku gets data-ready), before any answer to
# what the new page sends: what a player sees first.
TIMER_AT_READY = """new MutationObserver((changes, observer) => {
  const root = document.getElementById("sudoku");
  if (!root || !root.dataset.ready) return;
  window.timerAtReady = document.getElementById("sudoku-timer").textContent;
  observer.disconnect();
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-ready"] });"""


def test_a_reload_whose_last_beat_is_slow_shows_the_counted_time_at_once_and_loses_none(
    chromium, live_server, todays_easy, monkeypatch
):
    """A phone's network: the leaving page's last beat (its "close") reaches the server only after
    the reloaded page has read the state and sent its "open". The board still appears at the time
    the server counts (the time counted and the silence since the last sign of life, up to the
    limit: what any next sign of life adds, attempts.py), not at the last beat that arrived, and
    the server loses no second of it.

    The close is held on the server: the browser sends it with keepalive as the page unloads, and
    Playwright neither sees nor routes a request of a page that is going away."""
    from puzzles.views import api

    arrived, release = threading.Event(), threading.Event()
    beat = api.attempt_beat

    def close_held(user, daily, phase="tick"):
        if phase == "close" and not arrived.is_set():
            arrived.set()
            release.wait(10)
        return beat(user, daily, phase)

    path = f"/daily/{todays_easy.date.isoformat()}/easy/"
    start = timezone.now()
    with time_machine.travel(start, tick=False) as traveller:
        context = chromium.new_context(viewport={"width": 1200, "height": 900})
        context.add_init_script(COUNT_FETCHES)
        context.add_init_script(TIMER_AT_READY)
        context.clock.install(time=start)
        context.clock.pause_at(start)
        clocks = Clocks(context, traveller)
        page = context.new_page()
        sign_up(page, live_server.url, path, "slowphone")
        enter(page, 0, "4")
        before = clocks.play(page, PLAYED)
        counted = Attempt.objects.get(user__username="slowphone").active_seconds
        assert before[-1] - counted >= 3, f"the last beat that arrived counted {counted} s of {before[-1]}"

        monkeypatch.setattr(api, "attempt_beat", close_held)
        closes = closes_of("slowphone")
        page.reload()
        wait_ready(page)
        first = page.evaluate("window.timerAtReady")
        assert arrived.wait(10), "the leaving page sent no closing beat"
        minutes, seconds = first.split(":")
        assert int(minutes) * 60 + int(seconds) == before[-1], (
            f"{before[-1]} s on the leaving page, {first} as it came back"
        )
        release.set()
        counted_once_closed("slowphone", closes)

        after = [shown_seconds(page), *clocks.play(page, PLAYED)]
        assert_smooth([before[-1], *after], "across a reload whose last beat was slow")
        closes = closes_of("slowphone")
        page.close()
        counted = counted_once_closed("slowphone", closes)
        assert abs(counted - 2 * PLAYED) <= 1.5, f"the server counted {counted} s of {2 * PLAYED} s"
        assert abs(counted - after[-1]) <= 1.5, f"the server counted {counted} s, the screen showed {after[-1]} s"
        context.close()


def test_entries_waiting_for_their_save_reach_the_server_before_a_log_out_ends_the_session(
    chromium, live_server, todays_easy, settings
):
    settings.BOARD_SAVE_EVERY_SECONDS = 10  # the site's pace: the second entry waits on the device
    page = chromium.new_context(viewport={"width": 1200, "height": 900}).new_page()
    sign_up(page, live_server.url, f"/daily/{todays_easy.date.isoformat()}/easy/", "leaver")
    enter(page, 0, "4")
    wait_saved(page)
    # Within 10 s of that save, the next entry waits on the device for the next one...
    enter(page, 3, "9")
    assert saved_digits("leaver")[3] == "0"
    # ...and a log-out sends it first, since the session it needs is about to end.
    with page.expect_navigation():
        page.click("#account-player form button")
    digits = saved_digits("leaver")
    assert digits[0] == "4" and digits[3] == "9"
    # Nothing was left unsaved on the device: its copy of unsaved moves went with the save.
    assert not page.evaluate(r"Object.keys(localStorage).filter((k) => /^sudoku:\d+:/.test(k))")
    page.context.close()
