"""The results of a solve opened in the browser (a link from the home page, a bookmark) are a full
page of the site; board.js's fetch of the same address still gets the fragment."""

from __future__ import annotations

import pytest
from django.urls import reverse

from .factories import EASY_SOLUTION, log_in, make_solve

pytestmark = pytest.mark.django_db

NAVIGATION = {"HTTP_SEC_FETCH_MODE": "navigate", "HTTP_SEC_FETCH_DEST": "document"}
BOARDS_FETCH = {"HTTP_SEC_FETCH_MODE": "cors", "HTTP_SEC_FETCH_DEST": "empty", "HTTP_ACCEPT": "text/html"}


def results_url(daily) -> str:
    return reverse("puzzles:results", args=[daily.date, daily.difficulty])


def test_results_opened_in_the_browser_are_a_full_styled_page(client, daily):
    make_solve(daily, "ada", 312)
    log_in(client, "ada")
    response = client.get(results_url(daily), **NAVIGATION)
    assert response.status_code == 200
    page = response.content.decode()
    assert page.lstrip().startswith("<!doctype html>") and "css/results.css" in page
    assert "<h1>Easy <small>" in page and 'id="sudoku-results"' in page
    assert 'Solved in <span class="results-time">5:12</span>' in page
    assert "<title>Your solved easy puzzle</title>" in page  # a drawing of the player's grid
    assert f'href="/daily/{daily.date.isoformat()}/easy/"' in page and ">See the board<" in page
    assert "Accept" in response["Vary"] and "Sec-Fetch-Mode" in response["Vary"]


def test_the_boards_fetch_still_gets_the_fragment(client, daily):
    make_solve(daily, "ada", 312)
    log_in(client, "ada")
    body = client.get(results_url(daily), **BOARDS_FETCH).content.decode()
    assert body.lstrip().startswith("<section") and "<html" not in body.lower()


def test_a_browser_without_fetch_metadata_gets_the_page_when_it_navigates(client, daily):
    make_solve(daily, "ada", 312)
    log_in(client, "ada")
    accept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
    assert "<!doctype html>" in client.get(results_url(daily), HTTP_ACCEPT=accept).content.decode()
    assert "<!doctype html>" not in client.get(results_url(daily), HTTP_ACCEPT="text/html").content.decode()


def test_unsolved_results_opened_in_the_browser_are_a_404_page_that_offers_the_puzzle(client, daily):
    response = client.get(results_url(daily), **NAVIGATION)
    assert response.status_code == 404
    page = response.content.decode()
    assert "<!doctype html>" in page and "Solve the puzzle first" in page and ">Play the puzzle<" in page
    assert "Hardest" not in page and EASY_SOLUTION not in page and "grid-drawing" not in page


def test_each_ranked_row_links_its_replay_and_the_solver_may_watch_it(client, daily):
    bob = make_solve(daily, "bob", 250)
    make_solve(daily, "ada", 312)
    log_in(client, "ada")
    page = client.get(results_url(daily), **NAVIGATION).content.decode()
    replay = reverse("puzzles:replay", args=[daily.date, daily.difficulty, bob.pk])
    assert f'href="{replay}"' in page and "of bob's solve" in page
    assert client.get(replay).status_code == 200


def test_the_framed_page_is_the_page_drawn_whole_for_each_reader_with_their_own_token(daily, monkeypatch):
    """A solved player's results page is kept as a frame per daily and kind of reader, the
    account, the drawing and the results put in (views/results.py): it reads as the page drawn
    whole, and holds nothing of whoever asked first."""
    import re

    from django.test import Client

    from puzzles.accounts.guests import guest_create
    from puzzles.views import results

    from .factories import judge_follow_up, solve_through_api

    whole: dict[str, str] = {}
    framed: dict[str, str] = {}
    token = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')
    for name in ("ada", "bob", "guest"):
        client = Client()
        if name == "guest":
            client.force_login(guest_create())
        else:
            log_in(client, name)
        solve_through_api(client, daily, 60, judged=False)
        judge_follow_up(daily)
        framed[name] = client.get(results_url(daily), **NAVIGATION).content.decode()
        with monkeypatch.context() as patched:  # drawn whole, as a page with a message is
            patched.setattr(results, "get_messages", lambda request: [None])
            whole[name] = client.get(results_url(daily), **NAVIGATION).content.decode()

    def text(page: str) -> str:  # the markup, less the form's token and the blanks between tags
        return re.sub(r">\s+<", "><", token.sub("", page)).strip()

    for name in whole:
        assert text(framed[name]) == text(whole[name])
        assert framed[name].count("\x00") == 0 and "Solved in" in framed[name]
    assert (
        'aria-label="Your account (bob)">bob</a>' in framed["bob"] and "ada" not in framed["bob"].split("</header>")[0]
    )
    assert '<span class="who">Guest</span>' in framed["guest"] and "Sign up" in framed["guest"]
    assert results._page_frame.cache_info().hits >= 1  # bob's page came from ada's frame
