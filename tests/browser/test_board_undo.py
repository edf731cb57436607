"""Undo in a real browser: the history survives a reload, and a merge from the player's other
device keeps it, still undoing this device's own moves, cut only where it can no longer apply.
Erasing a digit gives its peers back the notes it took (the history says which)."""

from __future__ import annotations

import json

import pytest

from puzzles.models import Attempt
from tests.browser.pages import cell, digit_in, notes_in, sign_up, wait_ready, wait_saved
from tests.browser.test_board_sync import enter, is_save, two_devices

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

UPDATED = "Updated from your other device"
CUT = "Undo now stops where your other device changed the same digits."


def saves(digits: str, centre: dict[int, str] | None = None):
    """A predicate for page.expect_response: the board's save of `digits` (81 characters), and of
    these centre notes {cell: notes}, answered."""

    def saved(response) -> bool:
        if not (response.url.endswith("/save/") and response.ok):
            return False
        sent = json.loads(response.request.post_data)
        return sent["digits"] == digits and all(sent["centre"][i] == n for i, n in (centre or {}).items())

    return saved


def undo_disabled(page) -> bool:
    return page.locator("#key-undo").get_attribute("aria-disabled") == "true"


def test_the_undo_history_survives_a_reload(chromium, live_server, todays_easy):
    context = chromium.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    path = f"/daily/{todays_easy.date.isoformat()}/easy/"
    sign_up(page, live_server.url, path, "undoer")
    with page.expect_response(saves("48" + "0" * 79, {3: "9"})):
        enter(page, 0, "4")
        enter(page, 1, "8")
        cell(page, 3).click()
        page.keyboard.press("Control+9")  # a centre note in r1c4
        enter(page, 1, "8")  # the same digit again takes it out: a step too
        page.keyboard.press("Control+z")  # ...undone, so there is a step to redo

    page.reload()
    wait_ready(page)
    assert not undo_disabled(page)
    assert page.locator("#key-redo").get_attribute("aria-disabled") == "false"
    assert [digit_in(page, 0), digit_in(page, 1), notes_in(page, 3, "centre")] == ["4", "8", "9"]
    with page.expect_response(saves("0" * 81)):
        page.keyboard.press("Control+y")
        assert digit_in(page, 1) == ""
        for _ in range(2):
            page.keyboard.press("Control+z")
        assert [digit_in(page, 1), notes_in(page, 3, "centre")] == ["8", ""]
        page.keyboard.press("Control+z")
        page.keyboard.press("Control+z")
        assert [digit_in(page, 0), digit_in(page, 1)] == ["", ""]
        assert undo_disabled(page)
    assert Attempt.objects.get(user__username="undoer").digits == "0" * 81
    # Undone all the way, then reloaded: the steps are still there to redo.
    page.reload()
    wait_ready(page)
    page.click("#key-redo")
    assert digit_in(page, 0) == "4"
    context.close()


def test_a_merge_keeps_the_history_and_undo_takes_back_only_this_devices_moves(chromium, live_server, todays_easy):
    a, b = two_devices(chromium, live_server, todays_easy, "merger")
    with a.expect_response(saves("4009" + "0" * 77)):
        enter(a, 0, "4")
        enter(a, 3, "9")
    b.reload()
    wait_ready(b)
    enter(b, 1, "8")  # the other device's move, which A has not seen
    wait_saved(b)
    with a.expect_response(lambda r: is_save(r, 409)), a.expect_response(is_save):
        enter(a, 5, "7")
    assert a.locator("#sudoku-notice").inner_text() == UPDATED, "nothing was cut"
    assert [digit_in(a, i) for i in (0, 1, 3, 5)] == ["4", "8", "9", "7"]

    # Undo goes back through A's own three moves, and leaves B's 8 alone.
    with a.expect_response(saves("08" + "0" * 79)):
        for gone in (5, 3, 0):
            a.click("#key-undo")
            assert digit_in(a, gone) == ""
            assert digit_in(a, 1) == "8"
        assert undo_disabled(a)
    with a.expect_response(saves("4809070" + "0" * 74)):
        for _ in range(3):
            a.click("#key-redo")
    assert [digit_in(a, i) for i in (0, 1, 3, 5)] == ["4", "8", "9", "7"]

    # B changes A's first digit, and its entry is the newer: A's history is cut at that step only.
    b.reload()
    wait_ready(b)
    enter(b, 0, "5")
    wait_saved(b)
    with a.expect_response(lambda r: is_save(r, 409)), a.expect_response(is_save):
        enter(a, 7, "5")
    assert digit_in(a, 0) == "5"
    assert a.locator("#sudoku-notice").inner_text() == f"{UPDATED}. {CUT}"
    for gone in (7, 5, 3):
        a.click("#key-undo")
        assert digit_in(a, gone) == ""
    assert undo_disabled(a), "the step that put 4 where B's 5 is now cannot be undone"
    assert [digit_in(a, 0), digit_in(a, 1)] == ["5", "8"]
    # And the cut history is what a reload finds.
    a.wait_for_function("() => document.querySelector('#save-status').dataset.state === 'saved'")
    a.reload()
    wait_ready(a)
    assert undo_disabled(a)
    a.click("#key-redo")
    assert digit_in(a, 3) == "9"
    for page in (a, b):
        page.context.close()


def test_a_visitors_history_is_the_guests_their_first_move_made(chromium, live_server, todays_easy):
    context = chromium.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.goto(f"{live_server.url}/daily/{todays_easy.date.isoformat()}/easy/")
    page.wait_for_selector("#sudoku[data-ready=visitor]")
    with page.expect_response(saves("48" + "0" * 79)):
        enter(page, 0, "4")
        enter(page, 1, "8")
    page.reload()
    wait_ready(page)  # a guest now, with an id of their own
    assert page.locator("#sudoku").get_attribute("data-guest") == "true"
    page.click("#key-undo")
    assert [digit_in(page, 0), digit_in(page, 1)] == ["4", ""]
    keys = page.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('sudoku:undo:'))")
    assert len(keys) == 1 and ":visitor:" not in keys[0]
    context.close()


def test_erasing_a_digit_brings_back_exactly_the_notes_it_took_from_its_peers(chromium, live_server, todays_easy):
    context = chromium.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    sign_up(page, live_server.url, f"/daily/{todays_easy.date.isoformat()}/easy/", "eraser")
    # A 4 in the notes of r1c2 (centre, with a 7), r4c1 (corner) and r5c5 (centre, no peer of r1c1);
    # r2c2 (a peer) has a 5 and no 4.
    for i, keys in ((1, ["Control+4", "Control+7"]), (27, ["Shift+4"]), (40, ["Control+4"]), (10, ["Control+5"])):
        cell(page, i).click()
        for key in keys:
            page.keyboard.press(key)

    def notes() -> list[str]:
        return [
            notes_in(page, 1, "centre"),
            notes_in(page, 27, "corner"),
            notes_in(page, 40, "centre"),
            notes_in(page, 10, "centre"),
        ]

    before = ["47", "4", "4", "5"]
    assert notes() == before
    enter(page, 0, "4")  # r1c1's 4 takes the 4 from its peers' notes (the setting's default)
    taken = ["7", "", "4", "5"]
    assert notes() == taken

    # Erased by the key, the notes it took come back, and only those; undo takes them again, redo
    # brings them back.
    page.keyboard.press("Backspace")
    assert digit_in(page, 0) == "" and notes() == before
    page.keyboard.press("Control+z")
    assert digit_in(page, 0) == "4" and notes() == taken
    page.keyboard.press("Control+y")
    assert digit_in(page, 0) == "" and notes() == before

    # Placed again and erased by the keypad's Erase: the same; undo of the placement itself too.
    with page.expect_response(saves("0" * 81, {1: "47", 40: "4"})):
        page.keyboard.press("Control+z")
        assert notes() == taken
        page.click("#key-erase")
        assert digit_in(page, 0) == "" and notes() == before
        page.keyboard.press("Control+z")
        page.keyboard.press("Control+z")
        assert digit_in(page, 0) == "" and notes() == before
    context.close()


@pytest.mark.parametrize(
    ("door", "as_guest_first"),
    [("sign up", False), ("log in", False), ("log in", True)],
    ids=["sign-up", "log-in", "log-in-after-a-reload-as-guest"],
)
def test_undo_and_redo_are_kept_when_a_guests_board_becomes_their_accounts(
    chromium, live_server, todays_easy, door, as_guest_first
):
    """A visitor's moves make a guest; signing up turns the guest into the account, logging in
    moves its board to the account (accounts/guests.py). Either way the board is the same, and so
    is its undo history on this device, as over a reload: undo takes back the last move, redo puts
    it back. (As a visitor the page keeps the history under "visitor"; reloaded as the guest, under
    the guest's id, which a log-in leaves behind.)"""
    from django.contrib.auth import get_user_model

    from tests.browser.pages import PASSWORD
    from tests.browser.test_board_sync import log_in

    path = f"/daily/{todays_easy.date.isoformat()}/easy/"
    if door == "log in":
        get_user_model().objects.create_user("returner", password=PASSWORD)
    context = chromium.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.goto(f"{live_server.url}{path}")
    page.wait_for_selector("#sudoku[data-ready=visitor]")
    with page.expect_response(saves("48" + "0" * 79)):
        enter(page, 0, "4")
        enter(page, 1, "8")
    if as_guest_first:
        page.reload()
        page.wait_for_selector("#sudoku[data-ready=true][data-guest=true]")
    if door == "sign up":
        sign_up(page, live_server.url, path, "newcomer")
    else:
        log_in(page, live_server.url, path, "returner")
    name = "newcomer" if door == "sign up" else "returner"
    assert page.locator("#account-name").inner_text() == name
    assert Attempt.objects.get(user__username=name).digits == "48" + "0" * 79
    assert [digit_in(page, 0), digit_in(page, 1)] == ["4", "8"]

    assert not undo_disabled(page), f"the history is gone after {door}"
    with page.expect_response(saves("4" + "0" * 80)):
        page.click("#key-undo")
        assert [digit_in(page, 0), digit_in(page, 1)] == ["4", ""]
    with page.expect_response(saves("48" + "0" * 79)):
        page.click("#key-redo")
        assert [digit_in(page, 0), digit_in(page, 1)] == ["4", "8"]
    assert page.locator("#key-redo").get_attribute("aria-disabled") == "true"
    # The account's history is its own now: a reload finds it under the account.
    page.reload()
    wait_ready(page)
    page.click("#key-undo")
    assert digit_in(page, 1) == ""
    keys = page.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('sudoku:undo:'))")
    user_id = Attempt.objects.get(user__username=name).user_id
    assert keys == [f"sudoku:undo:{user_id}:{page.locator('#sudoku').get_attribute('data-puzzle')}"]
    context.close()
