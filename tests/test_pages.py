"""The site's pages (views/pages.py): today's puzzles on the home page, and the board's page,
the same for everyone, whose player and position come from the JSON API."""

import datetime

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from puzzles.models import Attempt, DailyPuzzle, Solve
from puzzles.pipeline import publishing
from puzzles.play import attempts

from .factories import EASY_GIVENS, EASY_SOLUTION, make_pools_filled, make_puzzle, post, url

pytestmark = pytest.mark.django_db

SOLUTION = EASY_SOLUTION


# --- the home page --------------------------------------------------------------------------


def test_the_home_page_shows_each_difficulty_with_the_players_status(player, daily):
    make_pools_filled()
    page = player.get("/").content.decode()
    assert "Not started" in page and "Not published yet" in page
    player.get(url(daily, "state"))  # reading the state starts nothing
    assert "Not started" in player.get("/").content.decode()
    post(player, url(daily, "beat"), {})  # the board's first beat does
    assert "In progress" in player.get("/").content.decode()


def test_the_home_page_shows_times_as_the_clock_does(player, daily):
    attempt = attempts.attempt_open(User.objects.get(username="ada"), daily)
    attempt.active_seconds = 65.7
    attempt.save()
    assert "In progress, 1:05 so far" in player.get("/").content.decode()
    Solve.objects.create(attempt=attempt, user=attempt.user, daily=daily, seconds=3725)
    assert "Solved in 1:02:05" in player.get("/").content.decode()


def test_a_waiting_message_waits_for_a_page_about_its_reader(player, daily):
    from django.contrib.messages import constants
    from django.contrib.messages.storage.base import Message
    from django.contrib.messages.storage.cookie import CookieStorage
    from django.test import RequestFactory

    encoded = CookieStorage(RequestFactory().get("/"))._encode([Message(constants.INFO, "Welcome back")])
    player.cookies["messages"] = encoded
    assert "Welcome back" not in player.get(url(daily)).content.decode()  # the page is everyone's
    assert "Welcome back" in player.get("/").content.decode()
    assert "Welcome back" not in player.get("/").content.decode()  # shown once


def test_a_day_nobody_published_is_shown_as_it_is_and_left_to_the_publisher(client):
    from puzzles.models import Puzzle

    make_pools_filled()  # a running site, whose beat was down at midnight
    for seed, tier in enumerate(("easy", "medium")):
        make_puzzle(tier, seed)
    today = timezone.localdate().isoformat()
    assert client.get("/").content.decode().count("Not published yet") == 5
    assert client.get(f"/daily/{today}/easy/").status_code == 404
    assert not DailyPuzzle.objects.exists() and not Puzzle.objects.filter(used=True).exists()  # a GET wrote nothing
    publishing.dailies_publish_ahead(days=0)
    assert client.get("/").content.decode().count("Not published yet") == 3
    assert client.get(f"/daily/{today}/easy/").status_code == 200


# --- the board's page -----------------------------------------------------------------------


def test_anyone_may_look_at_a_daily_and_reading_it_starts_nothing(client, daily):
    response = client.get(url(daily))
    assert response.status_code == 200
    assert SOLUTION.encode() not in response.content
    assert f'href="/accounts/login/?next={url(daily)}"'.encode() in response.content
    # The board asks who is here at once; a visitor gets the empty position, and nothing starts.
    state = client.get(url(daily, "state"))
    assert state.status_code == 200 and state.json()["player"] is None and not state.json()["started"]
    assert not Attempt.objects.exists() and not User.objects.exists()


def test_opening_a_daily_starts_nothing_until_the_board_writes_then_starts_it_once(player, daily):
    # What the board does on opening: the page (the same for everyone), then the player's state,
    # both GETs, which start nothing; then, as the game has not started, a heartbeat (a POST).
    for _ in range(2):
        assert SOLUTION.encode() not in player.get(url(daily)).content
        state = player.get(url(daily, "state"))
        assert state.status_code == 200 and SOLUTION not in state.content.decode()
    assert not Attempt.objects.exists()
    for _ in range(2):
        assert post(player, url(daily, "beat"), {}).status_code == 200
    assert Attempt.objects.count() == 1


def test_a_visit_that_only_reads_is_not_counted_as_started_anywhere(player, daily):
    player.get(url(daily))
    player.get(url(daily, "state"))
    assert "Not started" in player.get("/").content.decode()
    archive = player.get(f"/archive/{daily.date:%Y}/{daily.date:%m}/")
    entries = [entry for week in archive.context["weeks"] for cell in week if cell for entry in cell.entries]
    assert [entry.status.description for entry in entries] == ["not started"]
    stats = player.get("/stats/")
    assert not stats.context["any_started"]
    assert all(d["stats"].started == 0 for d in stats.context["difficulties"])


def test_the_page_is_the_same_for_everyone_and_the_state_is_each_players_own(client, daily):
    ada = User.objects.create_user("ada_lovelace", password="x")
    bob = User.objects.create_user("bob_kahn", password="x")
    attempts.attempt_save(ada, daily, version=0, digits="4" + "0" * 80, corner=None, centre=None)
    visitor = client.get(url(daily))
    pages = {visitor.content}
    for user in (bob, ada):
        client.force_login(user)
        response = client.get(url(daily))
        pages.add(response.content)
        # The page is not about its reader: no session read, no cookie set, nothing to vary on.
        assert "Cookie" not in response.get("Vary", "") and not response.cookies
    assert len(pages) == 1
    page = pages.pop().decode()
    assert "ada_lovelace" not in page and "bob_kahn" not in page
    assert 'name="csrfmiddlewaretoken" id="account-csrf" value=""' in page  # board.js fills it in
    state = client.get(url(daily, "state")).json()
    assert (
        state["player"] == {"id": ada.pk, "name": "ada_lovelace", "guest": False} and state["digits"] == "4" + "0" * 80
    )
    client.force_login(bob)
    state = client.get(url(daily, "state")).json()
    assert state["player"] == {"id": bob.pk, "name": "bob_kahn", "guest": False} and state["digits"] == "0" * 81


@pytest.mark.parametrize(
    "address",
    ["/daily/2026-13-01/easy/", "/daily/2026-02-30/easy/", "/daily/1999-01-01/easy/", "/daily/{today}/impossible/"],
)
def test_bad_dates_and_difficulties_are_a_friendly_404(client, daily, address):
    response = client.get(address.format(today=daily.date.isoformat()))
    assert response.status_code == 404
    assert b"No puzzle here" in response.content


def test_an_address_that_is_not_a_puzzle_is_not_called_a_missing_puzzle(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert b"Page not found" in response.content and b"No puzzle here" not in response.content


def test_a_future_daily_is_never_served(client, daily):
    tomorrow = daily.date + datetime.timedelta(days=1)
    DailyPuzzle.objects.filter(pk=daily.pk).update(date=tomorrow)
    assert client.get(f"/daily/{tomorrow.isoformat()}/easy/").status_code == 404
    assert post(client, f"/api/daily/{tomorrow.isoformat()}/easy/save/", {}).status_code == 404


def test_the_page_kept_in_memory_follows_a_change_of_the_dailys_puzzle(client, daily):
    from .factories import make_known_puzzle

    fewer = "0" + EASY_GIVENS[1:2] + "0" + EASY_GIVENS[3:]  # the same puzzle less one given
    assert EASY_GIVENS.encode() in client.get(url(daily)).content
    daily.puzzle = make_known_puzzle(fewer, EASY_SOLUTION, clues=31)
    daily.save()  # as the admin does
    page = client.get(url(daily)).content
    assert fewer.encode() in page and EASY_GIVENS.encode() not in page


def test_todays_missing_puzzle_page_is_not_found_until_it_is_published(client):
    make_pools_filled()
    make_puzzle("hard", 3)
    today = timezone.localdate().isoformat()
    assert client.get(f"/daily/{today}/hard/").status_code == 404  # a GET publishes nothing
    assert not DailyPuzzle.objects.exists()
    publishing.dailies_publish_ahead(days=0)
    assert client.get(f"/daily/{today}/hard/").status_code == 200
    assert client.get(f"/daily/{today}/expert/").status_code == 404  # its pool is empty: nothing to publish


def test_while_the_pools_first_fill_the_pages_say_the_puzzles_are_being_prepared(client):
    # A site's first minutes: the easy pool has filled, the others have not made a puzzle yet.
    for seed in range(2):
        make_puzzle("easy", seed)
    make_pools_filled("easy")
    publishing.dailies_publish_ahead(0, substitutes=False)  # as the easy pool's fill task does (today)
    today = timezone.localdate().isoformat()
    page = client.get("/").content.decode()
    assert page.count("Being prepared") == 4 and "Not published yet" not in page
    assert DailyPuzzle.objects.get().difficulty == "easy"  # no easy puzzle stands in for the others
    response = client.get(f"/daily/{today}/medium/")
    assert response.status_code == 503 and response["Retry-After"] == "60"
    assert "The medium puzzle is being prepared" in response.content.decode()
    assert "no-store" in response["Cache-Control"]
    assert client.get(f"/daily/{today}/easy/").status_code == 200
    yesterday = (timezone.localdate() - datetime.timedelta(days=1)).isoformat()
    assert client.get(f"/daily/{yesterday}/medium/").status_code == 404  # only today's is on its way
    make_puzzle("medium", 5)  # the medium pool's first puzzle, which the fill task publishes at once
    publishing.dailies_publish_ahead(substitutes=False)
    assert client.get(f"/daily/{today}/medium/").status_code == 200


def test_no_template_comment_reaches_a_page(client, player, daily):
    # Django's {# #} comment is one line only: one that spans lines is printed as text.
    pages = [url(daily), "/", "/archive/", "/stats/", "/accounts/login/", "/accounts/signup/"]
    for address in pages:
        body = client.get(address, follow=True).content.decode()
        assert "{#" not in body and "#}" not in body and "{%" not in body, address
