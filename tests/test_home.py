"""Today's puzzles (views/pages.py home): a card per difficulty with a drawing of its grid
(drawing.py), the player's streak and yesterday's results, and a visitor's invitation."""

from __future__ import annotations

import datetime
import re

import pytest
import time_machine
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from puzzles.accounts.guests import guest_create
from puzzles.models import Attempt
from puzzles.results import history
from puzzles.results.drawing import entries_of, grid_svg

from .factories import EASY_GIVENS, EASY_SOLUTION, make_daily, make_solve

pytestmark = pytest.mark.django_db

UTC = datetime.UTC
NOON = datetime.datetime(2026, 3, 18, 12, tzinfo=UTC)
TODAY = NOON.date()


def digits_drawn(svg: str, kind: str) -> str:
    """The digits of one group of a drawing ("given" or "entry"), in the order drawn."""
    group = re.search(rf'<g class="grid-drawing-{kind}"[^>]*>(.*?)</g>', svg)
    return "".join(re.findall(r">(\d)</text>", group.group(1))) if group else ""


# --- the drawing (pure) -------------------------------------------------------------------------


def test_a_drawing_shows_the_givens_and_names_itself():
    svg = grid_svg(EASY_GIVENS, "The easy puzzle: 32 givens")
    assert svg.startswith('<svg class="grid-drawing"') and 'role="img"' in svg
    assert "<title>The easy puzzle: 32 givens</title>" in svg
    assert digits_drawn(svg, "given") == EASY_GIVENS.replace("0", "")
    assert "grid-drawing-entry" not in svg


def test_a_drawing_adds_the_players_own_digits_and_never_covers_a_given():
    position = "9" * 81  # a 9 in every cell, givens included, as a broken client might send
    entries = entries_of(EASY_GIVENS, position)
    assert all(e == "0" for g, e in zip(EASY_GIVENS, entries) if g != "0")
    svg = grid_svg(EASY_GIVENS, "Yours", position)
    assert digits_drawn(svg, "entry") == "9" * EASY_GIVENS.count("0")


def test_a_drawing_escapes_its_title_and_draws_only_digits():
    svg = grid_svg("<" + EASY_GIVENS[1:], 'A "title" <b>', "x" * 81)
    assert "<b>" not in svg and "&lt;b&gt;" in svg and "&quot;title&quot;" in svg
    assert ">&lt;</text>" not in svg and ">x</text>" not in svg


# --- the page -----------------------------------------------------------------------------------


def test_a_visitor_sees_a_drawing_and_one_button_per_puzzle_and_an_invitation(client, daily):
    page = client.get("/").content.decode()
    assert "<title>The easy puzzle: 32 givens</title>" in page
    assert page.count('class="button button-primary home-card-button"') == 1  # one published puzzle
    assert "Play as a guest, no account needed" in page and 'href="/accounts/signup/?next=/"' in page
    assert "Streak" not in page and "Yesterday" not in page
    # Never the solution: the drawing holds the givens alone.
    drawn = digits_drawn(page, "given")
    assert drawn == EASY_GIVENS.replace("0", "")
    assert EASY_SOLUTION not in page


def test_a_players_card_draws_their_progress_and_says_how_far_they_are(player, user, daily):
    digits = "".join(s if g == "0" and n < 30 else "0" for n, (g, s) in enumerate(zip(EASY_GIVENS, EASY_SOLUTION)))
    Attempt.objects.create(user=user, daily=daily, digits=digits, active_seconds=65)
    page = player.get("/").content.decode()
    mine = sum(d != "0" for d in digits)
    assert f"<title>Your easy puzzle: 32 givens and {mine} of your digits</title>" in page
    assert digits_drawn(page, "entry") == digits.replace("0", "")
    assert "In progress, 1:05 so far" in page and ">Continue<" in page
    assert "as a guest" not in page


def test_a_solved_card_says_so_in_words_and_offers_to_view_it(player, user, daily):
    make_solve(daily, user.username, 245)
    page = player.get("/").content.decode()
    assert "Solved in 4:05" in page
    assert 'class="button home-card-button"' in page and ">View<" in page


def test_a_player_sees_their_streak_and_yesterdays_results():
    with time_machine.travel(NOON, tick=False):
        yesterday = TODAY - datetime.timedelta(days=1)
        easy, medium, _hard = (make_daily(yesterday, tier) for tier in ("easy", "medium", "hard"))
        solved_then = datetime.datetime(2026, 3, 17, 20, tzinfo=UTC)
        make_solve(easy, "ada", 290, solved_at=solved_then)
        before = make_daily(yesterday - datetime.timedelta(days=1))
        make_solve(before, "ada", 300, solved_at=solved_then - datetime.timedelta(days=1))
        make_solve(medium, "ada", 640, hinted=True, solved_at=solved_then)
        client = Client()
        client.force_login(User.objects.get(username="ada"))
        page = client.get("/").content.decode()
    assert re.search(r"<dt>Streak</dt><dd>2 days</dd>", page)
    assert re.search(r"<dt>Best streak</dt><dd>2 days</dd>", page)
    # Easiest first; a solve links to its results, the rest to their puzzle.
    assert page.index(">4:50<") < page.index(">10:40<") < page.index("not played")
    assert f'href="/daily/{yesterday.isoformat()}/easy/results/"' in page
    assert f'href="/daily/{yesterday.isoformat()}/hard/"' in page
    assert "10:40</span> with help" in page


def test_a_streak_counts_only_solves_made_on_the_puzzles_day(db):
    ada = User.objects.create_user("ada")
    today = timezone.localdate()

    def on(day: datetime.date) -> datetime.datetime:
        return timezone.make_aware(datetime.datetime.combine(day, datetime.time(12)))

    for days in (0, 1, 3):
        day = today - datetime.timedelta(days=days)
        make_solve(make_daily(day), "ada", 100, solved_at=min(on(day), timezone.now()))
    # Solved the day after: late, so it bridges nothing.
    two_days_ago = today - datetime.timedelta(days=2)
    make_solve(make_daily(two_days_ago), "ada", 100, late=True, solved_at=on(today - datetime.timedelta(days=1)))
    streaks = history.player_streaks(ada, today)
    assert (streaks.current, streaks.best) == (2, 2)


def test_a_guest_is_told_how_to_keep_their_streak(client, daily):
    client.force_login(guest_create())
    page = client.get("/").content.decode()
    assert "Playing as a guest:" in page and "<dt>Streak</dt>" in page
