"""Guest play in a real browser: a visitor plays at once, signs up, and keeps the moves and the clock."""

from __future__ import annotations

import pytest
import time_machine
from django.utils import timezone

from puzzles.models import Attempt
from tests.browser.pages import (
    COUNT_FETCHES,
    GIVENS,
    SOLUTION,
    Clocks,
    cell,
    digit_in,
    screenshot,
    shown_seconds,
    sign_up,
    wait_saved,
)

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.screenshots
def test_a_visitor_plays_as_a_guest_signs_up_and_keeps_the_moves_and_the_clock(chromium, live_server, todays_easy):
    # The page's clock and the server's are held still and moved on together (pages.Clocks).
    start = timezone.now()
    with time_machine.travel(start, tick=False) as traveller:
        path = f"/daily/{todays_easy.date.isoformat()}/easy/"
        context = chromium.new_context(viewport={"width": 1200, "height": 900})
        context.add_init_script(COUNT_FETCHES)
        context.clock.install(time=start)
        context.clock.pause_at(start)
        clocks = Clocks(context, traveller)
        page = context.new_page()
        page.goto(f"{live_server.url}{path}")
        page.wait_for_selector("#sudoku[data-ready=visitor]", timeout=10_000)
        notice = page.locator("#sudoku-guest[role=status]")
        assert "Playing as a guest" in notice.inner_text()
        assert not Attempt.objects.exists()  # looking makes nobody

        # The notice's links are reached by keyboard.
        page.locator("body").focus()
        reached = set()
        for _ in range(40):
            page.keyboard.press("Tab")
            reached.add(
                page.evaluate("document.activeElement.closest('#sudoku-guest') && document.activeElement.textContent")
            )
            if {"sign up", "log in"} <= reached:
                break
        assert {"sign up", "log in"} <= reached

        # Three moves by keyboard; the first one makes the guest.
        moves = [i for i, g in enumerate(GIVENS) if g == "0"][:3]
        for i in moves:
            cell(page, i).click()
            page.keyboard.press(SOLUTION[i])
        clocks.play(page, 1)  # the save goes after a quiet moment
        wait_saved(page)
        attempt = Attempt.objects.select_related("user__guest").get()
        assert attempt.user.guest
        assert not page.get_by_role("link", name="Stats").is_visible()  # a visitor had none
        # Play on until the server's clock has counted a few seconds (a heartbeat every 10 s).
        clocks.play(page, 11, step_ms=1000)
        played = Attempt.objects.get().active_seconds
        assert played >= 3 and shown_seconds(page) >= int(played)
        page.reload()  # now a guest: still the notice, and their stats like any player's
        page.wait_for_selector("#sudoku[data-ready=true][data-guest=true]", timeout=10_000)
        assert page.locator("#sudoku-guest").is_visible() and page.get_by_role("link", name="Stats").is_visible()
        played = Attempt.objects.get().active_seconds
        screenshot(page, "guest.png")

        sign_up(page, live_server.url, path, "guest_no_more")  # back on the puzzle as the new account
        assert page.locator("#account-name").inner_text() == "guest_no_more"
        assert not page.locator("#sudoku-guest").is_visible()
        assert [digit_in(page, i) for i in moves] == [SOLUTION[i] for i in moves]
        assert shown_seconds(page) >= int(played)
        assert Attempt.objects.get().pk == attempt.pk and Attempt.objects.get().user.username == "guest_no_more"
        context.close()
