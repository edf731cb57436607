"""Offline, in Chromium with the service worker (static/js/sw.js): after one visit the site starts
without a connection, today's puzzle plays and its moves reach the server once the connection is
back; a log-out leaves nothing of its player in any cache, and the next player on the browser never
gets the first one's position."""

from __future__ import annotations

import time

import pytest

from puzzles.models import Attempt
from puzzles.views import offline
from tests.browser.axe import assert_accessible
from tests.browser.pages import LOOKS, cell, digit_in, sign_up, wait_ready, wait_saved

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WITH_WORKER = {"service_workers": "allow", "viewport": {"width": 1200, "height": 900}}

# Everything the browser keeps for the site: each cache's name and, for each entry, its address and
# text (every entry here is text: pages, JSON, CSS, JS, SVG; the PNG icons are read as bytes).
KEPT = """async () => {
  const kept = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    kept[name] = {};
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      kept[name][new URL(request.url).pathname] = request.url.endsWith('.png') ? '' : await response.text();
    }
  }
  return kept;
}"""


def kept(page) -> dict[str, dict[str, str]]:
    return page.evaluate(KEPT)


def wait_until(page, script: str, arg=None, timeout: float = 20) -> None:
    """Until the async `script` (about the caches, which only a promise tells) answers true.
    page.wait_for_function would take the promise itself for a true answer."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(script, arg):
        assert time.monotonic() < deadline, f"still false after {timeout} s: {script}"
        page.wait_for_timeout(200)


def wait_kept(page, path: str, state: str) -> None:
    """The worker controls the page and keeps the puzzle page at `path` and the position at `state`."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=20_000)
    script = """async ([path, state]) => {
      const names = await caches.keys();
      const has = async (prefix, p) => {
        for (const n of names.filter((n) => n.startsWith(prefix))) if (await (await caches.open(n)).match(p)) return true;
        return false;
      };
      return (await has('sudoku-pages-', path)) && (await has('sudoku-session-', state));
    }"""
    wait_until(page, script, [path, state])


def go_offline(context) -> None:
    context.set_offline(True)


def enter(page, i: int, digit: str) -> None:
    cell(page, i).click()
    page.keyboard.press(digit)


def test_after_one_visit_today_s_puzzle_starts_offline_plays_and_its_moves_reach_the_server(
    chromium, live_server, todays_easy
):
    path = f"/daily/{todays_easy.date.isoformat()}/easy/"
    state = f"/api/daily/{todays_easy.date.isoformat()}/easy/state/"
    context = chromium.new_context(**WITH_WORKER)
    page = context.new_page()
    sign_up(page, live_server.url, path, "wanderer")
    wait_kept(page, path, state)
    enter(page, 0, "4")  # r1c1, empty in the known puzzle
    wait_saved(page)
    # The kept position follows the save (the worker brings it up to date from the save's answer).
    wait_until(
        page,
        """async (state) => {
          for (const n of await caches.keys()) if (n.startsWith('sudoku-session-')) {
            const r = await (await caches.open(n)).match(state);
            if (r && (await r.json()).digits[0] === '4') return true;
          }
          return false;
        }""",
        state,
    )
    page.close()

    # From cold: no page open, no connection; the puzzle opens with the player's position.
    go_offline(context)
    page = context.new_page()
    page.goto(live_server.url + path)
    wait_ready(page)
    assert digit_in(page, 0) == "4"
    assert page.locator("#account-name").inner_text() == "wanderer"
    enter(page, 1, "8")  # r1c2
    page.wait_for_function("() => document.querySelector('#save-status').dataset.state === 'offline'", timeout=10_000)
    assert digit_in(page, 1) == "8"
    assert Attempt.objects.get(user__username="wanderer").digits[1] == "0"

    # Any other page, offline: the offline page, which links to the puzzle kept here.
    other = context.new_page()
    other.goto(live_server.url + "/stats/")
    assert other.get_by_role("heading", name="You are offline").is_visible()
    link = other.locator("#offline-puzzles a")
    link.first.wait_for()
    assert link.count() == 1 and link.first.get_attribute("href") == path
    assert_accessible(other, "offline page, with a puzzle kept")
    other.close()

    # Back online: the board's queue sends the move.
    context.set_offline(False)
    wait_saved(page)
    digits = Attempt.objects.get(user__username="wanderer").digits
    assert digits[0] == "4" and digits[1] == "8"
    context.close()


def test_a_log_out_leaves_nothing_of_its_player_in_any_cache_and_the_next_player_gets_their_own(
    chromium, live_server, todays_easy
):
    path = f"/daily/{todays_easy.date.isoformat()}/easy/"
    state = f"/api/daily/{todays_easy.date.isoformat()}/easy/state/"
    context = chromium.new_context(**WITH_WORKER)
    page = context.new_page()
    sign_up(page, live_server.url, path, "firstplayer")
    wait_kept(page, path, state)
    enter(page, 0, "4")
    wait_saved(page)
    before = kept(page)
    assert any(name.startswith("sudoku-session-") for name in before)
    assert any("firstplayer" in text for entries in before.values() for text in entries.values())
    assert [key for key in page.evaluate("Object.keys(localStorage)") if key.startswith("sudoku:undo:")]

    with page.expect_navigation():
        page.click("#account-player form button")
    page.wait_for_load_state()
    after = kept(page)
    assert not [name for name in after if name.startswith("sudoku-session-")], after.keys()
    for name, entries in after.items():
        for address, text in entries.items():
            assert "firstplayer" not in text, f"{name} {address}"
    # The static files and the puzzle page (the same for everyone) stay: the site still starts offline.
    assert any(name.startswith("sudoku-static-") for name in after)
    assert path in next(entries for name, entries in after.items() if name.startswith("sudoku-pages-"))
    player_keys = [
        k
        for k in page.evaluate("Object.keys(localStorage)")
        if k not in ("sudoku:howto", "sudoku:settings", "sudoku:theme")
    ]
    assert player_keys == [], player_keys

    # The next player on this browser, offline after their own visit, gets their own position.
    sign_up(page, live_server.url, path, "secondplayer")
    wait_kept(page, path, state)
    go_offline(context)
    page.reload()
    wait_ready(page)
    assert page.locator("#account-name").inner_text() == "secondplayer"
    assert digit_in(page, 0) == ""
    context.close()


def test_the_offline_page_is_accessible_in_every_look(chromium, live_server):
    for look, options in LOOKS.items():
        context = chromium.new_context(**options)
        page = context.new_page()
        page.goto(live_server.url + "/offline/")
        assert_accessible(page, f"offline page, {look}")
        context.close()


def test_a_release_installs_a_new_worker_that_deletes_the_old_caches_and_keeps_the_puzzles(
    chromium, live_server, todays_easy, monkeypatch
):
    path = f"/daily/{todays_easy.date.isoformat()}/easy/"
    context = chromium.new_context(**WITH_WORKER)
    page = context.new_page()
    page.goto(live_server.url + path)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=20_000)
    wait_until(page, "async (p) => !!(await caches.match(p))", path)
    old = [name for name in page.evaluate("caches.keys()") if not name.startswith("sudoku-session-")]

    # The release: other static names, so another version; the browser finds it at its next check.
    monkeypatch.setattr(offline, "_version", lambda urls: "0123456789abcdef")
    offline._worker_script_cached.cache_clear()
    page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
    wait_until(
        page,
        """async ([p, old]) => {
          const names = await caches.keys();
          if (old.some((n) => names.includes(n)) || !names.includes('sudoku-pages-0123456789abcdef')) return false;
          return !!(await caches.match(p, { cacheName: 'sudoku-pages-0123456789abcdef' }));
        }""",
        [path, old],
    )
    names = page.evaluate("caches.keys()")
    assert not set(old) & set(names), names
    assert sorted(names) == ["sudoku-pages-0123456789abcdef", "sudoku-static-0123456789abcdef"]
    offline._worker_script_cached.cache_clear()
    context.close()
