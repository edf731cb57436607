"""Practice in a browser: a hard technique and expert ones, answered right (by pointer and by
keyboard), answered wrong and explained, then the next position; axe-clean in light and dark, on a
desktop and a phone (upright and on its side). docs/screenshots/practice-*.png are taken here."""

from __future__ import annotations

import pytest

from puzzles.engine import spoken
from tests.browser.axe import assert_accessible
from tests.browser.pages import assert_fits, screenshot
from tests.engine.practice_positions import WHERE, practice_position
from tests.practice_factory import make_practice_position, wrong_answer

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"device_scale_factor": 2, "is_mobile": True, "has_touch": True}
LOOKS = {
    "light": {"color_scheme": "light", "viewport": {"width": 1280, "height": 800}},
    "dark": {"color_scheme": "dark", "viewport": {"width": 1280, "height": 800}},
    "light-phone": {"color_scheme": "light", "viewport": {"width": 390, "height": 844}, **PHONE},
    "dark-phone": {"color_scheme": "dark", "viewport": {"width": 390, "height": 844}, **PHONE},
    "dark-landscape": {"color_scheme": "dark", "viewport": {"width": 667, "height": 375}, **PHONE},
}


@pytest.fixture
def open_practice(chromium, live_server):
    contexts = []

    def open_page(look: str, technique: str):
        context = chromium.new_context(**LOOKS[look])
        contexts.append(context)
        page = context.new_page()
        page.goto(f"{live_server.url}/learn/{technique}/practice/")
        page.wait_for_selector(".practice-cell")
        return page

    yield open_page
    for context in contexts:
        context.close()


def candidate(page, places: bool, cell: int, digit: int):
    verb = f"Place {digit} in" if places else f"Remove {digit} from"
    return page.get_by_role("button", name=f"{verb} {spoken(cell)}", exact=True)


def mark(page, places: bool, cell: int, digit: int) -> None:
    """Mark a candidate as the player would: on a touch screen a tap chooses the cell and the
    pad's digit marks it; with a mouse the candidate is clicked."""
    if page.evaluate("matchMedia('(pointer: coarse)').matches"):
        page.locator(f'.practice-cell[data-cell="{cell}"]').tap()
        page.locator("#practice-pad button").nth(digit - 1).tap()
    else:
        candidate(page, places, cell, digit).click()


def result_of(page, outcome: str) -> str:
    page.wait_for_selector(f"#practice-result.{outcome}")
    return page.locator("#practice-result").inner_text()


# The X-wing in every look (its screenshots); four expert techniques, a look each. Every technique
# is practised on a desktop below.
SHOWN = [("x-wing", look) for look in LOOKS] + list(
    zip(
        ["xy-chain", "w-wing", "naked-quad", "simple-colouring"],
        ["dark", "light-phone", "dark-phone", "dark-landscape"],
    )
)


@pytest.mark.screenshots
@pytest.mark.parametrize(("technique", "look"), SHOWN)
def test_a_wrong_answer_is_explained_a_right_one_shown_and_the_next_position_served(open_practice, look, technique):
    first = make_practice_position(technique)
    moment, solution, _ = practice_position(technique)
    page = open_practice(look, technique)
    make_practice_position(technique, second=True)  # for "Next position"
    assert_fits(page, f"{technique}, {look}")
    assert_accessible(page, f"practice {technique}, {look}")

    # Wrong: a cell's own answer marked for removal.
    cell = next(c for c in range(81) if moment.cands[c] and (c, solution[c]) not in moment.step.eliminations)
    mark(page, False, cell, solution[cell])
    page.get_by_role("button", name="Check").click()
    assert "not removed by" in result_of(page, "wrong")
    assert f"is the answer in {spoken(cell)}" in page.locator("#practice-wrong").inner_text()
    assert page.locator(".practice-cand.wrong").count() == 1
    assert_accessible(page, f"practice {technique} wrong, {look}")
    if technique == "x-wing":
        screenshot(page, f"practice-wrong-{look}.png", full_page=True)

    # Right: the mark undone (which takes the old verdict away), the walk's own removals marked.
    mark(page, False, cell, solution[cell])
    assert page.locator("#practice-result").inner_text() == ""
    assert page.locator(".practice-cand.wrong").count() == 0
    for c, d in moment.step.eliminations:
        mark(page, False, c, d)
    page.get_by_role("button", name="Check").click()
    assert result_of(page, "right").startswith("Right")
    assert page.locator(".practice-cell.pattern").count() == len(moment.step.cells)
    assert page.locator(".practice-cand.removal").count() == len(moment.step.eliminations)
    assert page.evaluate("document.activeElement.id") == "practice-next"
    assert_accessible(page, f"practice {technique} right, {look}")
    if technique == "x-wing":
        screenshot(page, f"practice-right-{look}.png", full_page=True)

    page.get_by_role("link", name="Next position").click()
    page.wait_for_selector(".practice-cell")
    shown = page.evaluate("JSON.parse(document.getElementById('practice-data').textContent).id")
    assert shown != first.pk


def test_the_keyboard_moves_between_cells_and_marks_with_digit_keys(open_practice):
    make_practice_position("x-wing")
    moment, _, _ = practice_position("x-wing")
    page = open_practice("light", "x-wing")
    first = next(c for c in range(81) if moment.cands[c])
    page.keyboard.press("Tab")  # the skip link
    while page.evaluate("document.activeElement.classList.contains('practice-cell')") is False:
        page.keyboard.press("Tab")
    assert page.evaluate("Number(document.activeElement.dataset.cell)") == first
    for cell, digit in moment.step.eliminations:
        here = page.evaluate("Number(document.activeElement.dataset.cell)")
        row, col = divmod(cell, 9)
        hr, hc = divmod(here, 9)
        for _ in range((row - hr) % 9):
            page.keyboard.press("ArrowDown")
        for _ in range((col - hc) % 9):
            page.keyboard.press("ArrowRight")
        assert page.evaluate("Number(document.activeElement.dataset.cell)") == cell
        page.keyboard.press(str(digit))
        assert candidate(page, False, cell, digit).get_attribute("aria-pressed") == "true"
    # Tab leaves the board, past the pad, for Check, and Enter checks.
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "practice-check":
            break
    assert page.evaluate("document.activeElement.id") == "practice-check"
    page.keyboard.press("Enter")
    assert result_of(page, "right").startswith("Right")


def test_a_placement_is_chosen_on_a_phone_by_tapping_its_cell_then_its_digit(open_practice):
    make_practice_position("hidden-single")
    moment, _, _ = practice_position("hidden-single")
    page = open_practice("light-phone", "hidden-single")
    (cell, digit), *_ = moment.step.placements
    page.locator(f'.practice-cell[data-cell="{cell}"]').tap()
    assert page.locator("#practice-pad button[aria-pressed]").nth(digit - 1).is_enabled()
    page.locator("#practice-pad button").nth(digit - 1).tap()
    assert page.locator("#practice-pad button").nth(digit - 1).get_attribute("aria-pressed") == "true"
    page.get_by_role("button", name="Check").tap()
    assert result_of(page, "right").startswith("Right")
    assert page.locator(".practice-cand.placed").count() == 1


def test_an_empty_pool_waits_and_loads_a_position_once_there_is_one(open_practice, chromium, live_server):
    context = chromium.new_context(**LOOKS["dark-phone"])
    page = context.new_page()
    page.clock.install()
    page.goto(f"{live_server.url}/learn/swordfish/practice/")
    assert "being prepared" in page.locator("#practice-waiting").inner_text()
    assert_accessible(page, "practice, being prepared")
    make_practice_position("swordfish")
    page.clock.run_for(16_000)
    page.wait_for_selector(".practice-cell")
    context.close()


@pytest.mark.parametrize("technique", sorted(WHERE))
def test_every_technique_of_the_fixtures_is_practised_in_the_browser(open_practice, technique):
    """Wrong explained, right shown, next position: for every technique from hard down and the
    expert and extreme ones the fixtures hold, on a desktop (the looks are checked above)."""
    first = make_practice_position(technique)
    moment, _, _ = practice_position(technique)
    places = bool(moment.step.placements)
    page = open_practice("light", technique)
    make_practice_position(technique, second=True)

    _, (cell, digit) = wrong_answer(technique)
    mark(page, places, cell, digit)
    page.get_by_role("button", name="Check").click()
    result_of(page, "wrong")
    assert page.locator("#practice-wrong li").count() == 1
    assert page.locator(".practice-cand.wrong").count() == 1

    mark(page, places, cell, digit)  # unmarked again
    for c, d in moment.step.placements or moment.step.eliminations:
        mark(page, places, c, d)
    page.get_by_role("button", name="Check").click()
    assert result_of(page, "right").startswith("Right")
    assert page.locator(".practice-explanation").inner_text()

    page.get_by_role("link", name="Next position").click()
    page.wait_for_selector(".practice-cell")
    assert page.evaluate("JSON.parse(document.getElementById('practice-data').textContent).id") != first.pk


@pytest.mark.parametrize("look", ["light", "dark-phone"])
def test_the_stats_page_shows_practice_right_of_tried_per_technique(chromium, live_server, look):
    from django.contrib.auth.models import User

    from puzzles.models import PracticeAnswer
    from tests.browser.pages import log_in

    player = User.objects.create_user("ines", password="correct horse battery staple")
    x_wing, naked_pair = make_practice_position("x-wing"), make_practice_position("naked-pair")
    for position, right in ((x_wing, False), (x_wing, True), (naked_pair, False)):
        PracticeAnswer.objects.create(user=player, position=position, technique=position.technique, right=right)
    context = chromium.new_context(**LOOKS[look])
    log_in(context, live_server.url, player)
    page = context.new_page()
    page.goto(f"{live_server.url}/stats/")
    assert page.locator("#practice-x-wing td").inner_text() == "1 of 1"
    assert page.locator("#practice-naked-pair td").inner_text() == "0 of 1"
    page.locator("#practice-x-wing a").click()
    page.wait_for_selector(".practice-cell")
    page.go_back()
    assert_accessible(page, f"stats with practice, {look}")
    context.close()
