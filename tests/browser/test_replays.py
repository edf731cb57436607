"""A solve's replay in a real browser: played at 10x to the solved grid, stepped back with the button
and the keyboard, scrubbed; axe in light and dark; the README's screenshots (docs/screenshots/replay*.png)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from puzzles.models import Attempt, DailyPuzzle, PlayEvent, Solve
from puzzles.record_of_play.moves import moves_clean, pack
from tests.browser.axe import assert_accessible
from tests.browser.test_accessibility import LOOKS, SHOTS, log_in
from tests.conftest import EASY_GIVENS, EASY_SOLUTION
from tests.factories import make_solve

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EMPTY = [i for i, g in enumerate(EASY_GIVENS) if g == "0"]
LOST = EMPTY[20]  # the board placed it, but its move never reached the server
# The animation of the ring on the cells the last step changed.
LAST_RING = "() => getComputedStyle(document.querySelector('#sudoku-grid td.is-last'), '::before').animationName"


def record_a_solve(solve: Solve) -> None:
    """A record of play for the easy puzzle: a few notes and a colour, then one digit every 1.2 s,
    saved every eight; a minute away from the page halfway; one move lost; the submit."""
    start = timezone.now() - datetime.timedelta(hours=1)
    digits = ["0"] * 81
    events: list[tuple[str, float, list, str]] = [("open", 0, [], "")]
    pending: list[tuple[float, list]] = [(1.0, ["c", [[EMPTY[0], "48"], [EMPTY[1], "48"]]]), (2.0, ["k", [[0, "5"]]])]
    clock = 3.0  # seconds after the open, on the server's clock

    def write(kind: str, at: float) -> None:
        moves = [[int((at - when) * 1000), layer, cells] for when, (layer, cells) in pending]
        events.append((kind, at, moves, "".join(digits)))
        pending.clear()

    for n, i in enumerate(EMPTY):
        clock += 1.2
        digits[i] = EASY_SOLUTION[i]
        if i != LOST:
            pending.append((clock, ["d", [[i, int(EASY_SOLUTION[i])]]]))
        if n == 24:
            write("save", clock + 0.6)
            events.append(("close", clock + 1, [], ""))
            clock += 61  # away: no time passes on the replay's clock
            events.append(("open", clock, [], ""))
        elif n % 8 == 7:
            write("save", clock + 0.6)
    write("submit", clock + 0.6)
    for kind, at, moves, after in events:
        PlayEvent.objects.create(
            attempt=solve.attempt,
            kind=kind,
            arrived_at=start + datetime.timedelta(seconds=at),
            moves=pack(moves_clean(moves)),
            digits=after,
        )
    Attempt.objects.filter(pk=solve.attempt_id).update(digits="".join(digits), started_at=start)


@pytest.fixture
def watched(todays_easy) -> tuple[User, str]:
    """Ada solved today's easy; the replay of Grace's ranked solve, which has a record of play."""
    ada = make_solve(todays_easy, "ada", 312, hinted=True).user
    grace = make_solve(todays_easy, "grace", 63.4)  # the server's time: the record's open time
    record_a_solve(grace)
    return ada, reverse("puzzles:replay", args=(todays_easy.date, "easy", grace.pk))


def open_replay(chromium, live_server, look: str, user: User, path: str, **options):
    context = chromium.new_context(**LOOKS[look], **options)
    log_in(context, live_server.url, user)
    page = context.new_page()
    page.goto(live_server.url + path)
    page.wait_for_selector("#replay-controls:not([hidden])")
    return context, page


def board_digits(page) -> str:
    return page.evaluate(
        "() => [...document.querySelectorAll('#sudoku-grid [data-cell] .cell-digit')]"
        ".map((d) => d.textContent || '0').join('')"
    )


def test_a_player_plays_a_replay_to_the_solved_grid_steps_back_and_scrubs(chromium, live_server, watched):
    errors: list[str] = []
    context, page = open_replay(chromium, live_server, "light", *watched)
    page.on("pageerror", lambda error: errors.append(str(error)))
    assert board_digits(page) == EASY_GIVENS
    count = int(page.locator("#replay-moves").inner_text())
    assert count == 2 + 48 + 1  # the notes, the colour, the digits sent, and the lost one made good
    assert page.locator("#replay-scrub").get_attribute("aria-valuetext") == "0:00, the givens"

    page.locator("label:has(input[name=replay-speed][value='10'])").click()
    page.locator("#replay-play").click()
    assert page.locator("#replay-play").inner_text() == "Pause"
    page.wait_for_function(
        "() => document.getElementById('replay-status').textContent.startsWith('The end')", timeout=20_000
    )
    assert board_digits(page) == EASY_SOLUTION
    # 49 digits 1.2 s apart and the moments before them; the minute away is not on the clock.
    assert page.locator("#replay-clock").inner_text() == "1:03"
    assert page.locator("#replay-move").inner_text() == str(count)

    page.locator("#replay-back").click()
    last = EMPTY[-1]
    assert board_digits(page)[last] == "0"
    assert page.locator(f"#cell-{last}").get_attribute("aria-label") == f"Row 9, Column {last % 9 + 1}, empty"
    assert "move 50 of 51" in page.locator("#replay-status").inner_text()
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("ArrowLeft")  # the keyboard steps too
    assert page.locator("#replay-move").inner_text() == "49"

    page.locator("#replay-scrub").fill("3")
    assert page.locator("#replay-move").inner_text() == "3"
    assert page.locator("#replay-scrub").get_attribute("aria-valuetext") == "0:04, move 3 of 51"
    assert board_digits(page).count("0") == EASY_GIVENS.count("0") - 1
    assert "corner notes" in page.locator(f"#cell-{EMPTY[1]}").get_attribute("aria-label")
    assert page.evaluate(LAST_RING) == "replay-last"

    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("Space")
    assert page.locator("#replay-status").inner_text().startswith("Playing at 10")
    page.keyboard.press("Space")
    assert page.locator("#replay-status").inner_text().startswith("Paused at")
    assert not errors
    context.close()


def test_the_lost_move_shows_when_its_write_is_passed(chromium, live_server, watched):
    context, page = open_replay(chromium, live_server, "light", *watched)
    steps = page.evaluate(
        "async (url) => (await (await fetch(url)).json()).moves.length",
        page.locator("#replay").get_attribute("data-timeline-url"),
    )
    assert steps == 2 + 48
    # The notes, the colour, the 20 digits before the lost one and the 3 after it in the same save:
    # the lost digit is not there; the next step (the server's digits after that save) puts it there.
    for _ in range(2 + 20 + 3):
        page.locator("#replay-forward").click()
    assert board_digits(page)[LOST] == "0"
    page.locator("#replay-forward").click()
    assert board_digits(page)[LOST] == EASY_SOLUTION[LOST]
    assert "as the server recorded them" in page.locator("#replay-status").inner_text()
    context.close()


@pytest.mark.parametrize("look", ["light", "dark", "dark-phone"])
def test_the_replay_page_passes_axe_and_fits_in_every_look(chromium, live_server, watched, look):
    context, page = open_replay(chromium, live_server, look, *watched, reduced_motion="reduce")
    page.locator("#replay-scrub").fill("30")
    assert page.evaluate(LAST_RING) == "none"  # the ring comes in without its pulse
    assert_accessible(page, f"replay, {look}")
    overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"replay, {look}: {overflow} px wider than the screen"
    page.evaluate("document.activeElement.blur()")  # the shots show the page at rest, no focus ring
    if look == "light":
        page.set_viewport_size({"width": 1280, "height": 800})
        page.screenshot(path=str(SHOTS / "replay.png"), full_page=True)
    elif look == "dark-phone":
        page.screenshot(path=str(SHOTS / "replay-dark-phone.png"), full_page=True)
    context.close()


def test_only_the_daily_s_solvers_reach_a_replay(chromium, live_server, watched, todays_easy):
    eve = User.objects.create_user("eve")
    context = chromium.new_context(**LOOKS["light"])
    log_in(context, live_server.url, eve)
    page = context.new_page()
    response = page.goto(live_server.url + watched[1])
    assert response.status == 404
    assert DailyPuzzle.objects.filter(pk=todays_easy.pk).exists()
    context.close()
