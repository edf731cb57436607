"""Ratings in the admin: a puzzle's played rating on its page, and the dashboard's tiers checked
against real play with the days that played as another tier."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from puzzles.models import TIER_ORDER, PuzzleRating, site_today
from puzzles.pipeline import broker
from puzzles.ratings.ledger import ratings_catch_up
from puzzles.staff import played

from .factories import make_daily, make_solve

pytestmark = pytest.mark.django_db

DASHBOARD = reverse("admin:puzzles_pool_dashboard")


@pytest.fixture(autouse=True)
def broker_answers(monkeypatch) -> None:
    # The dashboard asks the broker how it is; these tests should not depend on what runs here.
    monkeypatch.setattr(broker, "broker_status", lambda: (True, "The task broker (test) is reachable."))


def rate(daily, rating: float, deviation: float = 60, solves: int = 30) -> None:
    """Give a daily's puzzle a played rating as the ledger would leave it."""
    PuzzleRating.objects.create(puzzle=daily.puzzle, rating=rating, deviation=deviation, solves=solves)


def test_a_puzzles_page_shows_its_played_rating_deviation_rated_solves_and_median_time(admin_client):
    daily = make_daily(site_today(), "medium")
    for name, seconds in (("ada", 300), ("bob", 420), ("cy", 900)):
        make_solve(daily, name, seconds)
    make_solve(daily, "dee", 60, assisted=True)  # a hint: not rated, not in the median
    ratings_catch_up()
    rating = PuzzleRating.objects.get(puzzle=daily.puzzle)
    html = admin_client.get(reverse("admin:puzzles_puzzle_change", args=[daily.puzzle.pk])).content.decode()
    assert f"{rating.rating:.0f}" in html and f"± {rating.deviation:.0f}" in html
    assert '<div class="readonly">3</div>' in html
    assert '<div class="readonly">7:00</div>' in html  # the median of 5:00, 7:00 and 15:00
    listed = admin_client.get(reverse("admin:puzzles_puzzle_changelist")).content.decode()
    assert f'<td class="field-played_in_list">{rating.rating:.0f}</td>' in listed


def test_an_unplayed_puzzle_says_it_is_not_rated_yet(admin_client):
    daily = make_daily(site_today(), "hard")
    html = admin_client.get(reverse("admin:puzzles_puzzle_change", args=[daily.puzzle.pk])).content.decode()
    assert html.count("not rated yet") == 2 and '<div class="readonly">0</div>' in html
    listed = admin_client.get(reverse("admin:puzzles_puzzle_changelist")).content.decode()
    assert '<td class="field-played_in_list">not rated</td>' in listed


def test_the_dashboard_shows_each_tiers_median_time_and_ratings_and_calls_out_a_day_played_as_another_tier(
    admin_client,
):
    today = site_today()
    medium = [make_daily(today - datetime.timedelta(days=n), "medium") for n in range(4)]
    hard = [make_daily(today - datetime.timedelta(days=n), "hard") for n in range(3)]
    for daily, rating in zip(medium, (1290, 1310, 1300, 1560), strict=True):
        rate(daily, rating)
    for daily, rating in zip(hard, (1500, 1520, 1480), strict=True):
        rate(daily, rating)
    rate(make_daily(today - datetime.timedelta(days=5), "medium"), 1700, deviation=200)  # not settled
    rate(make_daily(today - datetime.timedelta(days=30), "medium"), 1800)  # before the window
    make_solve(medium[0], "ada", 200)
    make_solve(medium[0], "bob", 400)
    ratings_catch_up()  # two rated solves of the medium slot, median 5:00

    rows, off = played.tiers_against_play(today)
    assert [row.tier for row in rows] == list(TIER_ORDER)
    row = rows[TIER_ORDER.index("medium")]
    assert (row.dailies, row.solves, row.median_seconds) == (5, 2, 300)
    assert (row.lowest, row.highest) == (pytest.approx(1290, abs=60), 1700)
    assert [(o.daily, o.played_as, o.way) for o in off] == [(medium[3], "hard", "harder")]

    html = admin_client.get(DASHBOARD).content.decode()
    assert '<h2 id="played-heading">Tiers against real play</h2>' in html and "<caption>" in html
    assert "1 daily played as another tier" in html
    assert f"puzzle #{medium[3].puzzle_id}</a> played harder, as hard (rated 1560 ± 60 from 30 solves)" in html
    assert '<td class="num">5:00</td>' in html


def test_the_dashboard_is_quiet_about_tiers_when_nothing_has_been_played(admin_client):
    html = admin_client.get(DASHBOARD).content.decode()
    assert "No daily of these days played as another tier." in html
