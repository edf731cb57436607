"""The record of play, in a real browser: every change the board makes reaches the server as moves,
and the moves, replayed in order from the givens, give the position the player ended with."""

from __future__ import annotations

import pytest

from puzzles.models import Attempt, PlayEvent
from puzzles.record_of_play.moves import unpack
from tests.browser.test_board import GIVENS, SOLUTION, cell, digit_in, notes_in, sign_up, wait_ready, wait_saved
from tests.browser.test_board_tools import drag, open_tool

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAYERS = {"d": "digits", "c": "corner", "n": "centre", "k": "colours"}


def replayed(attempt: Attempt) -> dict[str, list]:
    """The position the attempt's moves make, one write after another, from a board of givens alone."""
    board: dict[str, list] = {"digits": [0] * 81, "corner": [""] * 81, "centre": [""] * 81, "colours": [""] * 81}
    for event in PlayEvent.objects.filter(attempt=attempt).order_by("id"):
        for move in unpack(event.moves):
            for i, value in move.cells:
                board[LAYERS[move.layer]][i] = value
    return board


def test_the_moves_on_the_record_replay_to_the_solved_position(chromium, live_server, todays_easy):
    context = chromium.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    path = f"/daily/{todays_easy.date.isoformat()}/easy/"
    sign_up(page, live_server.url, path, "replayed")

    # A digit, corner notes in r1c2 and centre notes in r1c4 (their answers are 4, 8 and 9).
    cell(page, 0).click()
    page.keyboard.press("4")
    cell(page, 1).click()
    page.keyboard.press("Shift+7")
    page.keyboard.press("Shift+8")
    cell(page, 3).click()
    page.keyboard.press("Control+5")
    page.keyboard.press("Control+9")
    # A colour on a given, another on r1c1, and an undo that takes the second back.
    cell(page, 2).click()
    page.keyboard.press("Alt+3")
    cell(page, 0).click()
    page.keyboard.press("Alt+6")
    page.keyboard.press("Control+z")
    assert "colour" not in cell(page, 0).get_attribute("aria-label")
    # A digit in three selected cells of row 5 at once, erased again.
    drag(page, [37, 38, 39])
    page.keyboard.press("6")
    page.keyboard.press("Backspace")
    assert [digit_in(page, i) for i in (37, 38, 39)] == ["", "", ""]
    # A reload before the save: the unsaved moves go with the page or come back with the next.
    page.reload()
    wait_ready(page)
    assert digit_in(page, 0) == "4" and notes_in(page, 3, "centre") == "59"

    open_tool(page, "fill")
    assert notes_in(page, 3, "centre") != "59"
    wait_saved(page)

    # The rest to the solve; each digit takes itself out of its peers' candidates.
    for i, given in enumerate(GIVENS):
        if given == "0" and i != 0:
            cell(page, i).click()
            page.keyboard.press(SOLUTION[i])
    page.wait_for_selector("#sudoku-solved:not(:empty)", timeout=10_000)

    attempt = Attempt.objects.get(user__username="replayed")
    assert attempt.is_solved
    events = list(PlayEvent.objects.filter(attempt=attempt).exclude(moves=b""))
    assert len(events) > 1, "the moves went over several writes"
    for event in events:
        ages = [move.age_ms for move in unpack(event.moves)]
        assert ages == sorted(ages, reverse=True), "oldest first"
    board = replayed(attempt)
    assert "".join(map(str, board["digits"])) == attempt.digits
    assert board["corner"] == attempt.corner
    # r5c5's candidates lost every digit its peers took: its own answer is left.
    assert board["centre"] == attempt.centre and board["centre"][40] == SOLUTION[40]
    assert board["colours"] == attempt.colours and board["colours"][2] == "3" and board["colours"][0] == ""
    context.close()
