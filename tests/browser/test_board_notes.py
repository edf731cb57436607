"""Notes a player can read, in a real browser: on a 390 px phone every corner and centre note is at
least 11 CSS px, the fullest cells (nine corner notes, five to nine centre notes) included, and
none reaches past its cell or over another note; on a desktop they keep to the cell's size. The
positional pencil marks setting (as NYT and sudoku.com draw candidates: each digit in its own
place of a 3 by 3) is kept for a guest and an account, across a reload, and in a replay; the
cells' names say the notes the same either way. The candidates a hint draws are as big as notes.
Axe clean, light and dark, phone and desktop."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from puzzles.models import Preferences
from tests.browser.axe import assert_accessible
from tests.browser.pages import DESKTOP, cell, confirm_hint, log_in, notes_in, sign_up, wait_ready, wait_stage
from tests.browser.test_hints_phone import hidden_pair_daily  # noqa: F401 (a fixture)
from tests.browser.test_replays import open_replay, watched  # noqa: F401 (a fixture)
from tests.conftest import EASY_GIVENS

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# An iPhone 12 to 15: the width the issue measured notes at.
PHONE_390 = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3, "is_mobile": True, "has_touch": True}
SMALLEST_NOTE_PX = 11

# Empty cells of the easy puzzle (rows 5 and 1), each given the notes a full board has.
CORNER_NOTES = {37: "123456789", 38: "159"}
CENTRE_NOTES = {39: "1234", 40: "12345", 41: "123456", 42: "1234567", 43: "12345678", 0: "123456789"}

# Each note as drawn: its font size, its box, and its cell's inner box (inside the cell's borders).
DRAWN = """(selector) => [...document.querySelectorAll(selector)].map((span) => {
  const td = span.closest('td');
  const cell = td.getBoundingClientRect();
  const style = getComputedStyle(td);
  const box = span.getBoundingClientRect();
  return {
    cell: +td.dataset.cell,
    n: span.dataset.n,
    size: parseFloat(getComputedStyle(span).fontSize),
    cellSize: cell.width,
    box: {left: box.left, top: box.top, right: box.right, bottom: box.bottom},
    inner: {
      left: cell.left + parseFloat(style.borderLeftWidth), top: cell.top + parseFloat(style.borderTopWidth),
      right: cell.right - parseFloat(style.borderRightWidth), bottom: cell.bottom - parseFloat(style.borderBottomWidth),
    },
  };
})"""


def board_path(daily) -> str:
    return f"/daily/{daily.date.isoformat()}/easy/"


def open_board(chromium, live_server, daily, options: dict, color_scheme: str = "light", settings: str = ""):
    """A visitor's board (the first note makes them a guest); `settings` the device's stored copy."""
    context = chromium.new_context(**options, color_scheme=color_scheme)
    if settings:
        context.add_init_script(f"localStorage.setItem('sudoku:settings', {settings!r})")
    page = context.new_page()
    page.goto(live_server.url + board_path(daily))
    page.wait_for_selector("#sudoku[data-ready]")
    return context, page


def write_notes(page) -> None:
    """The corner and centre notes above, typed as a player types them (Shift and Control with a digit)."""
    for notes, modifier in ((CORNER_NOTES, "Shift"), (CENTRE_NOTES, "Control")):
        for i, digits in notes.items():
            assert EASY_GIVENS[i] == "0"
            cell(page, i).click()
            for d in digits:
                page.keyboard.press(f"{modifier}+{d}")
    for i, digits in CORNER_NOTES.items():
        assert notes_in(page, i, "corner") == digits
    for i, digits in CENTRE_NOTES.items():
        assert notes_in(page, i, "centre") == digits
    page.locator("#cell-80").click()  # away from the notes: no selection over them


def drawn(page, layer: str) -> list[dict]:
    return page.evaluate(DRAWN, f"#sudoku-grid .cell-{layer} span")


def overlap(a: dict, b: dict) -> float:
    """How far two boxes overlap, in px on the shorter side (0 if they do not)."""
    across = min(a["right"], b["right"]) - max(a["left"], b["left"])
    down = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return max(0.0, min(across, down))


def assert_readable(notes: list[dict], label: str, smallest: float = SMALLEST_NOTE_PX) -> None:
    """Every note at least `smallest` px, inside its cell, and clear of the other notes in it."""
    assert notes, f"{label}: no notes drawn"
    for note in notes:
        where = f"{label}: note {note['n']} of cell {note['cell']}"
        assert note["size"] >= smallest, f"{where} is {note['size']} px"
        box, inner = note["box"], note["inner"]
        assert box["left"] >= inner["left"] - 0.5 and box["right"] <= inner["right"] + 0.5, (
            f"{where} leaves its cell: {box}"
        )
        assert box["top"] >= inner["top"] - 0.5 and box["bottom"] <= inner["bottom"] + 0.5, (
            f"{where} leaves its cell: {box}"
        )
    for a in notes:
        for b in notes:
            if a is not b and a["cell"] == b["cell"]:
                assert overlap(a["box"], b["box"]) < 1, (
                    f"{label}: notes {a['n']} and {b['n']} of cell {a['cell']} overlap"
                )


def lines_of(notes: list[dict], i: int) -> int:
    return len({round(note["box"]["top"]) for note in notes if note["cell"] == i})


def assert_in_places(notes: list[dict], label: str) -> None:
    """Each corner note in its own place of the cell's 3 by 3: 1 top left, 5 the middle, 9 bottom right."""
    for note in notes:
        inner, box = note["inner"], note["box"]
        third = (inner["right"] - inner["left"]) / 3
        x = (box["left"] + box["right"]) / 2 - inner["left"]
        y = (box["top"] + box["bottom"]) / 2 - inner["top"]
        row, col = divmod(int(note["n"]) - 1, 3)
        assert (int(y // third), int(x // third)) == (row, col), (
            f"{label}: {note['n']} of cell {note['cell']} is not in its place"
        )


def choose_positional(page, on: bool = True) -> None:
    """The setting, by keyboard, in the settings dialog; saved."""
    page.locator("#sudoku-settings-open").focus()
    page.keyboard.press("Enter")
    box = page.locator("#sudoku-settings input[name=positional_notes]")
    page.wait_for_selector("#sudoku-settings[open]")
    box.check() if on else box.uncheck()
    page.wait_for_function("() => document.querySelector('#sudoku-settings-status').textContent === 'Saved'")
    page.keyboard.press("Escape")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_on_a_390px_phone_every_note_is_11px_or_more_and_stays_in_its_place(chromium, live_server, todays_easy, scheme):
    context, page = open_board(chromium, live_server, todays_easy, PHONE_390, scheme)
    write_notes(page)
    corner, centre = drawn(page, "corner"), drawn(page, "centre")
    assert 38 < corner[0]["cellSize"] < 40, "the grid as wide as a 390 px screen allows"
    assert_readable(corner, f"corner notes, {scheme} phone")
    assert_readable(centre, f"centre notes, {scheme} phone")
    # A full cell of centre notes reads as two even lines at most, never one squeezed line.
    assert [lines_of(centre, i) for i in CENTRE_NOTES] == [1, 2, 2, 2, 2, 2]
    assert_accessible(page, f"a board full of notes, {scheme} phone")
    # A given 3 selected: the 3s among the notes turn bold, and wider, and still fit.
    cell(page, 2).click()
    assert page.locator("#sudoku-grid .cell-centre .is-same").count() == len(CENTRE_NOTES)
    bold = drawn(page, "centre")
    assert_readable(bold, f"centre notes with a bold 3, {scheme} phone")
    assert [lines_of(bold, i) for i in CENTRE_NOTES] == [1, 2, 2, 2, 2, 2]

    choose_positional(page)
    positional = drawn(page, "corner")
    assert_readable(positional, f"positional notes, {scheme} phone")
    assert_in_places(positional, f"positional notes, {scheme} phone")
    assert_accessible(page, f"a board of positional notes, {scheme} phone")
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_on_a_desktop_notes_keep_to_the_size_of_the_cell(chromium, live_server, todays_easy, scheme):
    context, page = open_board(chromium, live_server, todays_easy, DESKTOP, scheme, '{"positional_notes": true}')
    write_notes(page)
    positional, centre = drawn(page, "corner"), drawn(page, "centre")
    assert_in_places(positional, f"positional notes, {scheme} desktop")
    for notes, label in ((positional, "positional"), (centre, "centre")):
        assert_readable(notes, f"{label} notes, {scheme} desktop", smallest=12)
        for note in notes:  # proportionate: a quarter of the cell or so, not a phone's floor
            assert 0.2 <= note["size"] / note["cellSize"] <= 0.3, f"{label} note {note['n']}: {note['size']} px"
    assert [lines_of(centre, i) for i in CENTRE_NOTES] == [1, 2, 2, 2, 2, 2]
    assert_accessible(page, f"a board of positional notes, {scheme} desktop")

    choose_positional(page, on=False)
    corner = drawn(page, "corner")
    # SudokuPad's order: the corners first. Nine notes fill every place; three take three corners.
    first_three = sorted((round(n["box"]["top"]), round(n["box"]["left"])) for n in corner if n["cell"] == 38)
    assert first_three[0][0] == first_three[1][0] < first_three[2][0], "1 and 5 along the top, 9 below"
    assert_readable(corner, f"corner notes, {scheme} desktop", smallest=12)
    context.close()


def test_positional_notes_are_a_setting_a_guest_keeps_across_a_reload(chromium, live_server, todays_easy):
    context, page = open_board(chromium, live_server, todays_easy, DESKTOP)
    page.locator("#cell-38").click()
    for d in "159":
        page.keyboard.press(f"Shift+{d}")
    label = cell(page, 38).get_attribute("aria-label")
    assert label == "Row 5, Column 3, empty, corner notes 1 5 9"
    choose_positional(page)
    guest = Preferences.objects.get()
    assert guest.user.username.startswith("guest-") and guest.values == {"positional_notes": True}
    assert_in_places(drawn(page, "corner"), "positional notes, guest")
    assert cell(page, 38).get_attribute("aria-label") == label, "the same notes, the same name"
    page.reload()
    wait_ready(page)
    assert notes_in(page, 38, "corner") == "159"
    assert_in_places(drawn(page, "corner"), "positional notes, guest, reloaded")
    # On paper notes are play aids, left off in either layout (print.css).
    page.emulate_media(media="print")
    assert page.locator("#cell-38 .cell-corner").evaluate("(el) => getComputedStyle(el).display") == "none"
    context.close()


def test_an_account_s_positional_notes_follow_it_to_another_device(chromium, live_server, todays_easy):
    player = User.objects.create_user("pencil")
    Preferences.objects.create(user=player, values={"positional_notes": True})
    context = chromium.new_context(**PHONE_390)  # a device that has never seen the setting
    log_in(context, live_server.url, player)
    page = context.new_page()
    page.goto(live_server.url + board_path(todays_easy))
    wait_ready(page)
    page.locator("#cell-37").click()
    for d in "123456789":
        page.keyboard.press(f"Shift+{d}")
    notes = drawn(page, "corner")
    assert_in_places(notes, "positional notes, account")
    assert_readable(notes, "positional notes, account")
    page.locator("#sudoku-settings-open").click()
    page.wait_for_selector("#sudoku-settings[open]")
    assert page.locator("#sudoku-settings input[name=positional_notes]").is_checked()
    context.close()


def test_a_replay_draws_corner_notes_in_their_places_for_a_player_who_chose_them(chromium, live_server, watched):  # noqa: F811
    context, page = open_replay(chromium, live_server, "light", *watched)
    page.locator("#replay-forward").click()  # the first step: notes 4 and 8 in two cells
    assert [n["n"] for n in drawn(page, "corner")] == ["4", "8", "4", "8"]
    with pytest.raises(AssertionError):
        assert_in_places(drawn(page, "corner"), "SudokuPad's order")  # 8 in the top right corner
    page.evaluate("localStorage.setItem('sudoku:settings', JSON.stringify({positional_notes: true}))")
    page.reload()
    page.wait_for_selector("#replay-controls:not([hidden])")
    page.locator("#replay-forward").click()
    assert_in_places(drawn(page, "corner"), "positional notes, replay")
    assert_accessible(page, "a replay of positional notes")
    context.close()


def test_the_candidates_a_hint_draws_on_a_390px_phone_are_11px_or_more(chromium, live_server, hidden_pair_daily):  # noqa: F811
    context = chromium.new_context(**PHONE_390)
    page = context.new_page()
    sign_up(page, live_server.url, f"/daily/{hidden_pair_daily.date.isoformat()}/hard/", "hinted")
    for stage in (1, 2, 3):  # the third stage draws the box's candidates in its cells
        page.tap("#key-hint")
        if stage == 1:
            confirm_hint(page)
        wait_stage(page, stage)
    candidates = drawn(page, "hint")
    assert len(candidates) > 9
    assert_readable(candidates, "a hint's candidates, phone")
    assert_in_places(candidates, "a hint's candidates, phone")
    context.close()
