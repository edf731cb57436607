"""The print page (views/printing.py): a day's puzzles, the givens only, the same for everyone but
the header's account part, and the links to it. How it looks on paper is held in a browser (tests/browser/test_print.py)."""

from __future__ import annotations

import datetime
import re

import pytest

from puzzles.models import TIER_ORDER, DailyPuzzle, site_today

from .factories import log_in, make_daily, url

pytestmark = pytest.mark.django_db

FIGURE = re.compile(r'<figure class="print-puzzle" data-tier="([a-z]+)">(.*?)</figure>', re.S)
TEXT = re.compile(r'<text x="(\d+)" y="(\d+)">([1-9])</text>')


@pytest.fixture
def todays_five(db) -> dict[str, DailyPuzzle]:
    """Today's five dailies, each a distinct puzzle whose solution the test knows."""
    return {tier: make_daily(site_today(), tier) for tier in TIER_ORDER}


def drawn_grids(page: str) -> dict[str, str]:
    """Each printed puzzle's grid as the page draws it, by tier: 81 characters, '0' where no digit is."""
    grids = {}
    for tier, figure in FIGURE.findall(page):
        cells = ["0"] * 81
        for x, y, digit in TEXT.findall(figure):
            cells[int(y) // 10 * 9 + int(x) // 10] = digit
        grids[tier] = "".join(cells)
    return grids


def test_the_print_page_draws_todays_five_puzzles_with_exactly_their_givens(client, todays_five):
    response = client.get("/print/")
    assert response.status_code == 200
    page = response.content.decode()
    assert drawn_grids(page) == {tier: daily.puzzle.givens for tier, daily in todays_five.items()}
    assert list(drawn_grids(page)) == list(TIER_ORDER)  # easiest first
    today = site_today()
    assert page.count(f'<span class="print-date">{today:%a} {today.day} {today:%b %Y}</span>') == 5
    for daily in todays_five.values():
        assert f'<span class="print-tier">{daily.get_difficulty_display()}</span>' in page
        assert f'href="{url(daily)}"' in page  # each grid's board, to play it on screen


def test_no_digit_of_a_solution_is_on_the_page_beyond_the_givens(client, todays_five):
    page = client.get("/print/").content.decode()
    givens = sum(81 - daily.puzzle.givens.count("0") for daily in todays_five.values())
    assert len(TEXT.findall(page)) == givens  # every digit drawn is a given
    for daily in todays_five.values():
        assert daily.puzzle.solution not in page
        # Nor any run of the solution longer than a row of givens could hold by chance.
        for row in range(9):
            assert daily.puzzle.solution[row * 9 : row * 9 + 9] not in page
    assert "puzzle-state" not in page  # the board's state JSON is not here at all


def test_five_puzzles_go_on_two_sheets_three_and_two(client, todays_five):
    page = client.get("/print/").content.decode()
    sheets = page.split('<div class="print-sheet">')[1:]
    assert [len(FIGURE.findall(sheet)) for sheet in sheets] == [3, 2]
    assert "2 sheets of A4 or US Letter" in page


def test_a_day_with_two_puzzles_out_prints_those_on_one_sheet(client):
    for tier in ("easy", "medium"):
        make_daily(site_today(), tier)
    page = client.get("/print/").content.decode()
    assert list(drawn_grids(page)) == ["easy", "medium"]
    assert page.count('<div class="print-sheet">') == 1
    assert "1 sheet of A4 or US Letter" in page


def test_a_past_day_prints_at_its_own_address(client, todays_five):
    day = site_today() - datetime.timedelta(days=3)
    old = make_daily(day, "hard")
    response = client.get(f"/print/{day.isoformat()}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert drawn_grids(page) == {"hard": old.puzzle.givens}
    assert f"{day:%A} {day.day} {day:%B %Y}" in page
    # Today's own address and /print/ are the same page.
    assert client.get(f"/print/{site_today().isoformat()}/").content.decode().count("print-puzzle") == 5


@pytest.mark.parametrize(
    "address",
    [
        "/print/2026-02-30/",  # no such date
        "/print/1999-01-01/",  # nothing published that day
        "/print/26-11-2026/",
        "/print/today/",
        "/print/2026-11-26/easy/",
    ],
)
def test_an_unknown_day_is_a_404(client, todays_five, address):
    response = client.get(address)
    assert response.status_code == 404
    assert "No puzzle here" in response.content.decode()


def test_a_future_day_is_a_404_even_with_its_puzzles_published_ahead(client, todays_five):
    tomorrow = site_today() + datetime.timedelta(days=1)
    make_daily(tomorrow, "easy")  # beat publishes days ahead: they stay unseen until their day
    assert client.get(f"/print/{tomorrow.isoformat()}/").status_code == 404


def test_today_with_nothing_published_yet_is_a_404(client):
    assert client.get("/print/").status_code == 404


@pytest.mark.parametrize("method", ["post", "put", "delete", "patch"])
def test_it_answers_get_and_head_only(client, todays_five, method):
    response = getattr(client, method)("/print/", "x=1", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 405
    assert client.head("/print/").status_code == 200


def without_token(page: str) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", page)


def header_of(page: str) -> str:
    return without_token(re.search(r'<header class="site-header">.*?</header>', page, re.S).group(0))


def test_its_header_offers_the_reader_what_every_page_s_header_does(client, todays_five):
    visitor = client.get("/print/").content.decode()
    assert "Log in" in visitor and "Log out" not in visitor and 'href="/stats/"' not in visitor
    log_in(client, "grace")
    player = client.get("/print/").content.decode()
    home = client.get("/").content.decode()
    # The same header as the home page's, but the log-out form's token (masked anew each time).
    assert header_of(player) == header_of(home)
    assert "grace" in player and "Log out" in player and 'href="/stats/"' in player
    # The puzzles are the same for every reader.
    assert drawn_grids(player) == drawn_grids(visitor)
    assert FIGURE.findall(player) == FIGURE.findall(visitor)


def test_a_player_s_page_holds_nothing_of_the_player_who_asked_before(client, todays_five):
    log_in(client, "grace")
    client.get("/print/")
    client.logout()
    log_in(client, "ada")
    page = client.get("/print/").content.decode()
    assert "ada" in page and "grace" not in page


def test_once_drawn_the_page_costs_no_query_but_the_reader_s_session(
    client, todays_five, django_assert_max_num_queries
):
    log_in(client, "grace")
    first = client.get("/print/").content
    with django_assert_max_num_queries(2):  # the session and the user; the dailies and the page from memory
        assert without_token(client.get("/print/").content.decode()) == without_token(first.decode())
    client.logout()
    client.get("/print/")
    with django_assert_max_num_queries(0):  # a visitor's: nothing to read at all
        client.get("/print/")


def test_a_daily_changed_by_an_admin_is_printed_anew(client, todays_five):
    client.get("/print/")
    easy = todays_five["easy"]
    spare = make_daily(site_today() - datetime.timedelta(days=9), "easy")  # a puzzle of its own
    other = spare.puzzle
    spare.delete()
    easy.puzzle = other
    easy.save()  # drops the daily from the shared cache; this process's copy lasts seconds
    from django.core.cache import caches

    caches["local"].delete(DailyPuzzle.cache_key(easy.date, "easy"))  # as if those seconds had passed
    assert drawn_grids(client.get("/print/").content.decode())["easy"] == other.givens


def test_the_home_page_and_the_board_link_to_the_print_page(client, todays_five):
    assert 'href="/print/"' in client.get("/").content.decode()
    board = client.get(url(todays_five["easy"])).content.decode()
    assert f'href="/print/{site_today().isoformat()}/"' in board
    # The board's print layout is a stylesheet screens never apply.
    assert re.search(r'<link rel="stylesheet" href="[^"]*print[^"]*\.css" media="print">', board)
