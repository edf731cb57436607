"""The share text after a solve (puzzles/share.py) and the share box in the results fragment."""

from __future__ import annotations

import datetime
import html
import re

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from puzzles.models import Attempt, Solve, site_today
from puzzles.results import share

from .factories import EASY_GIVENS, EASY_SOLUTION, log_in, make_daily, make_solve, solve_through_api

DAY = datetime.date(2026, 11, 22)
NOON = datetime.datetime(2026, 11, 22, 12, 0, tzinfo=datetime.UTC)
LINK = "https://sudoku.example/daily/2026-11-22/medium/"


def results_url(daily) -> str:
    return reverse("puzzles:results", args=[daily.date, daily.difficulty])


def shared_text(body: str) -> str:
    """The text the share box's buttons send, as the browser reads its data attribute."""
    found = re.search(r'data-share-text="([^"]*)"', body)
    assert found, "no share box in the results"
    return html.unescape(found.group(1))


# --- the text ---------------------------------------------------------------------------------


def test_the_emoji_line_has_one_square_per_technique_easiest_first_coloured_by_tier():
    assert share.technique_emoji(["x-wing", "naked-single", "pointing", "hidden-single"]) == "🟩🟩🟨🟧"
    assert share.technique_emoji(["trial-and-error", "jellyfish"]) == "🟥🟪"
    assert share.technique_emoji([]) == ""


def test_a_technique_the_engine_does_not_know_is_a_white_square_at_the_end():
    assert share.technique_emoji(["someone-elses-trick", "naked-single"]) == "🟩⬜"


def test_the_techniques_line_says_its_squares_in_words_for_a_font_without_them():
    line = share.technique_line(["x-wing", "naked-single", "pointing", "hidden-single", "someone-elses-trick"])
    assert line == "🟩🟩🟨🟧⬜ 2 easy, 1 medium, 1 hard, 1 other techniques"
    assert share.technique_line([]) == ""


def test_the_text_names_site_date_tier_time_cleanliness_streak_techniques_and_link():
    text = share.share_text(
        day=DAY,
        difficulty="medium",
        seconds=245.9,
        clean=True,
        streak=3,
        techniques={"naked-single": 30, "hidden-single": 12, "pointing": 2},
        url=LINK,
    )
    assert text == (
        "Daily Sudoku · Medium · 22 November 2026\n"
        "⏱️ 4:05, clean: no hints, no checks\n"
        "🔥 3-day streak\n"
        "🟩🟩🟨 2 easy, 1 medium techniques\n"
        "https://sudoku.example/daily/2026-11-22/medium/"
    )


def test_a_solve_with_hints_says_so_and_no_streak_leaves_its_line_out():
    text = share.share_text(
        day=DAY, difficulty="extreme", seconds=3723, clean=False, streak=0, techniques=["naked-single"], url=LINK
    )
    assert text.splitlines() == [
        "Daily Sudoku · Extreme · 22 November 2026",
        "⏱️ 1:02:03, with hints or checks",
        "🟩 1 easy technique",
        LINK,
    ]


def test_the_text_gives_nothing_of_the_puzzle_away():
    text = share.share_text(
        day=DAY, difficulty="easy", seconds=61, clean=True, streak=12, techniques=["naked-single"], url=LINK
    )
    techniques_line = text.splitlines()[-2]
    assert techniques_line == "🟩 1 easy technique"  # how many of each tier, never where
    assert not re.search(r"r[1-9]c[1-9]|row|column|box", text, re.IGNORECASE)
    for board in (EASY_GIVENS, EASY_SOLUTION):
        assert board[:9] not in text


# --- one player's solve -------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_solve_shares_the_players_current_streak_and_the_puzzles_techniques():
    with time_machine.travel(NOON, tick=False):
        yesterday = make_daily(DAY - datetime.timedelta(days=1))
        today = make_daily(DAY, "medium")
        today.puzzle.techniques = {"pointing": 1, "naked-single": 40}
        today.puzzle.save()
        make_solve(yesterday, "ada", 300, solved_at=NOON - datetime.timedelta(days=1))
        solve = make_solve(today, "ada", 245)
        made = share.share_for(solve, LINK)
    assert made.title == "Daily Sudoku · Medium · 22 November 2026"
    assert made.url == LINK
    assert made.text == (
        "Daily Sudoku · Medium · 22 November 2026\n⏱️ 4:05, clean: no hints, no checks\n🔥 2-day streak\n"
        "🟩🟨 1 easy, 1 medium techniques\n" + LINK
    )


@pytest.mark.django_db
def test_a_late_solve_keeps_the_streak_it_did_not_extend():
    with time_machine.travel(NOON, tick=False):
        today = make_daily(DAY)
        old = make_daily(DAY - datetime.timedelta(days=5))
        make_solve(today, "ada", 100)
        late = make_solve(old, "ada", 90, late=True, assisted=True)
        text = share.share_for(late, LINK).text
    assert text.splitlines()[:3] == [
        "Daily Sudoku · Easy · 17 November 2026",
        "⏱️ 1:30, with hints or checks",
        "🔥 1-day streak",
    ]


@pytest.mark.django_db
def test_the_shared_streak_is_read_from_all_solves_once_and_moves_with_a_new_solve(django_assert_num_queries):
    # A year of play is hundreds of solves: the results page must not read them all on every
    # request. The copy is kept under a key naming the player's solves of today's and yesterday's
    # dailies, so one small query finds it, and a new solve of either day moves it.
    with time_machine.travel(NOON, tick=False):
        for back in range(3, 0, -1):
            make_solve(
                make_daily(DAY - datetime.timedelta(days=back)),
                "ada",
                300,
                solved_at=NOON - datetime.timedelta(days=back),
            )
        easy, medium = make_daily(DAY), make_daily(DAY, "medium")
        first = make_solve(easy, "ada", 200)
        assert share.current_streak(first) == 4
        with django_assert_num_queries(1):  # the solves of the two days, and the kept copy
            assert share.current_streak(first) == 4
        Solve.objects.filter(user=first.user, daily__date=DAY - datetime.timedelta(days=3)).delete()
        second = make_solve(medium, "ada", 250)  # a new solve today: the key changes
        assert share.current_streak(second) == 3


# --- the results fragment -----------------------------------------------------------------------


@pytest.mark.django_db
def test_the_results_carry_the_share_box_with_the_text_and_an_absolute_link(client, daily, settings):
    settings.SITE_URL = "https://sudoku.example"
    log_in(client, "ada")
    assert solve_through_api(client, daily, 125)["solved"] is True
    response = client.get(results_url(daily))
    assert response.status_code == 200
    body = response.content.decode()
    link = f"https://sudoku.example/daily/{daily.date.isoformat()}/easy/"  # settings.SITE_URL, not the Host
    expected = (
        f"Daily Sudoku · Easy · {daily.date.day} {daily.date:%B %Y}\n"
        "⏱️ 2:05, clean: no hints, no checks\n"
        "🔥 1-day streak\n"
        "🟩 1 easy technique\n" + link
    )
    assert shared_text(body) == expected
    # The text is shown as it will go out, with a Share and a Copy button and a live status line.
    assert '<pre class="share-text" id="share-text">' in body
    assert 'data-share="sheet"' in body and 'data-share="copy"' in body
    assert 'id="share-status" role="status"' in body
    assert '<script type="module" src="/static/js/share.js"></script>' in body
    # Still one section: the board replaces it wholesale.
    assert body.lstrip().startswith("<section") and body.count('id="sudoku-results"') == 1


@pytest.mark.django_db
def test_a_solve_with_a_check_shares_that_it_was_not_clean(client, daily):
    me = log_in(client, "ada")
    attempt = Attempt.objects.create(user=me, daily=daily, checks_used=1)
    Solve.objects.create(attempt=attempt, user=me, daily=daily, seconds=500, assisted=True, solved_at=timezone.now())
    text = shared_text(client.get(results_url(daily)).content.decode())
    assert "⏱️ 8:20, with hints or checks" in text


@pytest.mark.django_db
def test_no_share_box_before_the_solve(client, daily):
    log_in(client, "ada")
    body = client.get(results_url(daily)).content.decode()
    assert "data-share-text" not in body and "share.js" not in body
    assert site_today() == daily.date


def test_the_share_key_links_the_squares_to_the_technique_guide(client, daily):
    log_in(client, "ada")
    assert solve_through_api(client, daily, 125)["solved"] is True
    body = client.get(results_url(daily)).content.decode()
    key = re.search(r'<p class="share-key">(.*?)</p>', body, re.DOTALL)
    assert key is not None
    links = re.findall(r'href="([^"]+)"', key.group(1))
    guide = reverse("puzzles:learn")
    assert links == [f"{guide}#tier-easy", reverse("puzzles:learn-technique", args=["trial-and-error"]), guide]
