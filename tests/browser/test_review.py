"""The review of a solve played in a real browser: a wrong digit made on purpose and put right after a
long pause; the results say the stall, the mistake and the timeline (the review arriving while the
page waits for it); a step of the timeline opens the replay at that move; axe on the results and
the replay, desktop and phone, light and dark; the README's screenshots (docs/screenshots/review*.png)."""

from __future__ import annotations

import re

import pytest
import time_machine
from django.contrib.auth.models import User
from django.utils import timezone

from puzzles.engine import technique_title
from tests.browser.axe import assert_accessible
from tests.browser.pages import (
    COUNT_FETCHES,
    GIVENS,
    LOOKS,
    SOLUTION,
    Clocks,
    assert_fits,
    cell,
    log_in,
    shoot,
    sign_up,
)
from tests.coaching_factory import make_review
from tests.factories import judge_follow_up

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EMPTY = [i for i, g in enumerate(GIVENS) if g == "0"]
WRONG_AT = EMPTY[10]
WRONG = str(int(SOLUTION[WRONG_AT]) % 9 + 1)  # a digit that is not the cell's
PAUSE = 40  # seconds on both clocks, the wrong digit on the board


def enter(page, i: int, digit: str) -> None:
    cell(page, i).click()
    page.keyboard.press(digit)


def play_a_solve_with_a_mistake_and_a_pause(page, clocks: Clocks) -> None:
    """A digit a second; the wrong one, then the pause, then the right one; on to the solve."""
    for i in EMPTY:
        if i == WRONG_AT:
            enter(page, i, WRONG)
            # Its save goes within the second, as every digit's does: the server stamps a request
            # at the end of the step it arrives in, so a first step of 2 s would place the wrong
            # digit up to a second late (a tick no longer goes out beside it to take that step).
            clocks.play(page, 1, step_ms=1000)
            clocks.play(page, PAUSE - 1, step_ms=2000)
        enter(page, i, SOLUTION[i])
        clocks.play(page, 1, step_ms=1000)
    page.wait_for_selector("#sudoku-results-slot #sudoku-results[data-solved=true]", timeout=10_000)


def check_the_looks(chromium, live_server, user: User, results: str, replay: str) -> None:
    """The results page (a step's words opened, then a run of singles) and the replay beside its
    review pass axe and fit, in every look; the screenshots in those the README shows."""
    for look in LOOKS:
        context = chromium.new_context(**LOOKS[look], reduced_motion="reduce")
        log_in(context, live_server.url, user)
        page = context.new_page()
        page.goto(live_server.url + results)
        page.wait_for_selector("#sudoku-review[data-review-state=ready]")
        page.locator(".review-step.is-wrong ~ .review-step .review-why summary").first.click()
        page.evaluate("document.activeElement.blur()")
        shoot(page, "review", look)  # the singles folded, as a player first sees them
        page.locator(".review-run summary").first.click()
        assert_accessible(page, f"results with the review, {look}")
        assert_fits(page, f"results with the review, {look}")
        page.goto(live_server.url + replay)
        page.wait_for_selector("#replay-controls:not([hidden])")
        page.wait_for_selector("#review-timeline li[aria-current=step]")
        assert_accessible(page, f"replay with the review, {look}")
        assert_fits(page, f"replay with the review, {look}")
        page.evaluate("document.activeElement.blur()")
        shoot(page, "replay-review", look)
        context.close()


@pytest.mark.screenshots
def test_a_real_solve_is_reviewed_and_its_timeline_opens_the_replay_at_that_move(chromium, live_server, todays_easy):
    path = f"/daily/{todays_easy.date.isoformat()}/easy/"
    start = timezone.now()
    errors: list[str] = []
    with time_machine.travel(start, tick=False) as traveller:
        context = chromium.new_context(**LOOKS["light"], reduced_motion="reduce")
        context.add_init_script(COUNT_FETCHES)
        context.clock.install(time=start)
        context.clock.pause_at(start)
        clocks = Clocks(context, traveller)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        sign_up(page, live_server.url, path, "reviewed")
        play_a_solve_with_a_mistake_and_a_pause(page, clocks)

        # Solved, not judged nor reviewed yet: the results say both, and ask again by themselves.
        verdict = page.locator("#sudoku-verdict")
        assert verdict.get_attribute("data-verdict") == "checking" and verdict.get_attribute("role") == "status"
        assert "Checking your time for the leaderboard" in verdict.inner_text()
        review = page.locator("#sudoku-review")
        assert review.get_attribute("data-review-state") == "preparing"
        assert "Your review is being prepared" in review.inner_text()
        # The solve's follow-up, as the beat's sweep runs it after the answer: the verdict, the review.
        [solve] = judge_follow_up(todays_easy)
        stored = make_review(solve)
        clocks.play(page, 2, step_ms=500)  # the first waits of static/js/verdict.js and review.js, their fetches
        page.wait_for_selector("#sudoku-review[data-review-state=ready]", timeout=10_000)
        page.wait_for_selector("#sudoku-verdict[data-verdict=final]", timeout=10_000)
        # The same live region, now with the verdict: a new account's, with the step that ranks it.
        assert "Not on the leaderboard: your account was under" in verdict.inner_text()
        assert verdict.locator(".results-verify a").inner_text() == "Add your email address"

        # The stall: the pause before the right digit went in, and what was there.
        stall = page.locator(".review-stall").first.inner_text()
        assert stall.startswith("0:4") and "A hidden single was there: in " in stall
        assert re.search(r" here\nFrom 0:09 to 0:(49|50)\b", stall), stall  # the 40 s pause after 0:09
        # The mistake: the digit, the cell in people's words, how long it stayed.
        row, column = WRONG_AT // 9 + 1, WRONG_AT % 9 + 1
        mistake = page.locator(".review-mistake").inner_text()
        assert f"A {WRONG} in row {row}, column {column} at 0:1" in mistake
        assert re.search(r"it was an? \d, and stayed 0:(39|40|41) on the board", mistake), mistake
        # The timeline: the wrong digit and the one that ended the stall on their own lines, the singles folded.
        wrong = page.locator(".review-step.is-wrong")
        assert "A wrong digit" in wrong.inner_text() and f"{WRONG} in row {row}, column {column}" in wrong.inner_text()
        assert page.locator(".review-run summary").first.inner_text().endswith(tuple("0123456789"))
        assert page.locator(".review-run").count() >= 2
        right = [p for p in stored.placements if p["verdict"] != "wrong"]
        assert len(right) == len(EMPTY)
        # Every placement named by the technique that made it, or placed ahead: the cells go in row
        # by row, not in the logic's order, so on this easy one a few are no single when placed.
        logic = [p for p in right if p["verdict"] == "logic"]
        assert {p["technique"] for p in logic} <= {"hidden-single", "naked-single"}
        assert sum(p["technique"] in ("hidden-single", "naked-single") for p in logic) > len(right) / 2
        for placed in right:
            if placed["technique"] not in ("", "hidden-single", "naked-single"):
                said = page.locator(f".review-step[data-move='{placed['move']}']").inner_text()
                assert technique_title(placed["technique"]) in said, said
            elif placed["verdict"] == "ahead":
                assert "Placed ahead" in page.locator(f".review-step[data-move='{placed['move']}']").inner_text()

        # The step that put the right digit in: its link opens the replay at that move.
        fixed = next(p for p in stored.placements if p["cell"] == WRONG_AT and p["verdict"] == "logic")
        line = page.locator(f".review-step[data-move='{fixed['move']}']")
        assert technique_title(fixed["technique"]) in line.inner_text()  # the step that ended the stall
        link = line.locator("a.review-at")
        shown_time = link.inner_text().split()[-1]
        link.click()
        page.wait_for_url(f"**/replay/{solve.pk}/?move={fixed['move']}")
        page.wait_for_selector("#replay-controls:not([hidden])")
        assert page.locator("#replay-clock").inner_text() == shown_time
        assert page.locator(f"#cell-{WRONG_AT} .cell-digit").inner_text() == SOLUTION[WRONG_AT]
        moved = int(page.locator("#replay-move").inner_text())
        assert page.locator("#replay-scrub").input_value() == str(moved)
        current = page.locator("#review-timeline li[aria-current=step]")
        assert current.get_attribute("data-move") == str(fixed["move"])
        # Back one step: the wrong digit is there again; a step of the timeline beside it seeks there.
        page.locator("#replay-back").click()
        assert page.locator(f"#cell-{WRONG_AT} .cell-digit").inner_text() == WRONG
        page.locator(f"#review-timeline .review-step[data-move='{fixed['move']}'] a.review-at").click()
        assert page.locator("#replay-move").inner_text() == str(moved)
        assert page.url.endswith(f"?move={fixed['move']}")
        assert not errors
        context.close()

    user = User.objects.get(username="reviewed")
    results = f"{path}results/"
    check_the_looks(chromium, live_server, user, results, f"{path}replay/{solve.pk}/?move={fixed['move']}")
