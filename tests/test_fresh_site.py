"""What a fresh install shows a first visitor (issue 45): an empty archive says why, an archive
board says it is late and not ranked, and a league offers no day before the site's first puzzles."""

from __future__ import annotations

import datetime

import pytest

from puzzles.leagues import membership
from puzzles.models import site_today

from .factories import log_in, make_daily, make_pools_filled, url

pytestmark = pytest.mark.django_db


def archive_text(client, day: datetime.date) -> str:
    return client.get(f"/archive/{day:%Y}/{day:%m}/").content.decode()


def test_an_empty_archive_says_why(client):
    today = site_today()
    assert "still being made" in archive_text(client, today)  # no pool filled yet: a first start
    make_pools_filled()
    assert "none has been yet" in archive_text(client, today)
    first = make_daily(today)
    earlier = (today.replace(day=1) - datetime.timedelta(days=1)).replace(day=1)
    text = archive_text(client, earlier)
    assert f"The archive begins on {first.date.day} {first.date:%B %Y}" in text
    assert f"/archive/{today:%Y}/{today:%m}/" in text


def test_an_archive_board_says_it_is_not_ranked_and_todays_does_not(client):
    today = site_today()
    past, todays = make_daily(today - datetime.timedelta(days=3)), make_daily(today)
    assert "archive, not ranked" in client.get(url(past)).content.decode()
    assert "archive, not ranked" not in client.get(url(todays)).content.decode()


def test_a_league_offers_no_day_before_the_sites_first_puzzles(client):
    today = site_today()
    make_daily(today - datetime.timedelta(days=1))
    league = membership.league_create(log_in(client), "Friends")
    board = client.get(f"/leagues/{league.pk}/{today - datetime.timedelta(days=1)}/").content.decode()
    assert 'rel="prev"' not in board
    assert client.get(f"/leagues/{league.pk}/{today - datetime.timedelta(days=2)}/").status_code == 404
    assert 'rel="prev"' in client.get(f"/leagues/{league.pk}/").content.decode()
