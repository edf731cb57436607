"""Leagues (membership.py, views/leagues.py): making one, joining by its invite link, leaving and
removing, the limits, guests sent to sign up, the day's board with every kind of solve said in
words, the week's standing, the home page's cards, and that nobody outside a league sees it."""

from __future__ import annotations

import datetime
import re

import pytest
import time_machine
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from puzzles.accounts.guests import guest_create
from puzzles.fairplay import ranking
from puzzles.leagues import boards, membership
from puzzles.models import Attempt, League, Membership, Solve

from . import concurrency
from .factories import log_in, make_daily, make_solve

pytestmark = pytest.mark.django_db

UTC = datetime.UTC
NOON = datetime.datetime(2026, 3, 18, 12, tzinfo=UTC)  # a Wednesday
TODAY = NOON.date()
MONDAY, SUNDAY = datetime.date(2026, 3, 16), datetime.date(2026, 3, 22)


@pytest.fixture
def frozen():
    with time_machine.travel(NOON, tick=False) as traveller:
        yield traveller


def make_player(name: str) -> User:
    return User.objects.get_or_create(username=name)[0]


def make_league(owner: str = "ada", name: str = "Friends", *members: str) -> League:
    league = membership.league_create(make_player(owner), name)
    for member in members:
        membership.league_join(league, make_player(member))
    return league


def member_names(league: League) -> set[str]:
    return set(league.memberships.values_list("user__username", flat=True))


def text(response) -> str:
    """The page's words, tags dropped and white space made single: what a person reads."""
    body = re.sub(r"<[^>]+>", " ", response.content.decode())
    return " ".join(body.split())


# --- making a league ------------------------------------------------------------------------------


def test_a_new_league_has_its_maker_as_owner_and_first_member():
    league = make_league("ada", "Lunch club")
    assert league.owner.username == "ada" and member_names(league) == {"ada"}
    assert len(league.invite_code) >= 20  # 16 random bytes, URL-safe


def test_a_player_makes_a_league_from_the_form_and_lands_on_its_board_with_the_invite_link(client):
    log_in(client, "ada")
    response = client.post("/leagues/", {"name": "  Office   lunch "})
    league = League.objects.get()
    assert league.name == "Office lunch"  # trimmed, one space between words
    assert response.status_code == 302 and response["Location"] == f"/leagues/{league.pk}/"
    page = client.get(response["Location"])
    assert f"/leagues/join/{league.invite_code}/" in page.content.decode()
    assert "Office lunch is ready" in text(page)


def test_the_invite_link_is_built_on_the_site_address_never_the_request_host(client, settings):
    settings.SITE_URL = "https://sudoku.example"
    settings.ALLOWED_HOSTS = ["evil.example", "testserver"]
    log_in(client, "ada")
    client.post("/leagues/", {"name": "Lunch"})
    league = League.objects.get()
    page = client.get(f"/leagues/{league.pk}/", HTTP_HOST="evil.example").content.decode()
    assert f"https://sudoku.example/leagues/join/{league.invite_code}/" in page
    assert "evil.example" not in page


@pytest.mark.parametrize(
    ("name", "error"),
    [("", "Give the league a name."), ("   ", "Give the league a name."), ("x" * 61, "60 characters")],
)
def test_a_league_needs_a_name_of_1_to_60_characters(client, name, error):
    log_in(client, "ada")
    response = client.post("/leagues/", {"name": name})
    assert response.status_code == 400 and error in text(response)
    assert not League.objects.exists()


def test_a_get_of_the_leagues_page_changes_nothing(client):
    log_in(client, "ada")
    assert client.get("/leagues/?name=Sneaky").status_code == 200
    assert not League.objects.exists()


def test_making_leagues_is_limited_per_address(client, monkeypatch):
    monkeypatch.setattr(membership, "CREATIONS_PER_HOUR", 2)
    log_in(client, "ada")
    for n in range(2):
        assert client.post("/leagues/", {"name": f"League {n}"}).status_code == 302
    log_in(client, "bob")  # another player from the same address counts too
    response = client.post("/leagues/", {"name": "One too many"})
    assert response.status_code == 429 and "Too many new leagues from your address" in text(response)
    assert int(response["Retry-After"]) > 0
    assert League.objects.count() == 2


def test_a_player_is_in_at_most_the_limit_of_leagues(client, monkeypatch):
    monkeypatch.setattr(membership, "MAX_LEAGUES_PER_PLAYER", 2)
    make_league("ada", "One")
    other = make_league("bob", "Bob's")
    make_league("ada", "Two")
    log_in(client, "ada")
    response = client.post("/leagues/", {"name": "Three"})
    assert response.status_code == 409 and "You are in 2 leagues, the most a player can be in" in text(response)
    response = client.post(f"/leagues/join/{other.invite_code}/")
    assert response.status_code == 409 and "Leave one to make room" in text(response)
    assert Membership.objects.filter(user__username="ada").count() == 2


# --- joining by the invite link -------------------------------------------------------------------


def test_the_invite_page_names_the_league_and_joining_is_a_post(client):
    league = make_league("ada", "Puzzlers")
    log_in(client, "bob")
    page = client.get(f"/leagues/join/{league.invite_code}/")
    assert page.status_code == 200 and "Join Puzzlers" in text(page)
    assert member_names(league) == {"ada"}  # opening the link joins nobody
    response = client.post(f"/leagues/join/{league.invite_code}/")
    assert response.status_code == 302 and response["Location"] == f"/leagues/{league.pk}/"
    assert member_names(league) == {"ada", "bob"}


def test_joining_twice_is_one_membership(client):
    league = make_league("ada")
    log_in(client, "bob")
    for _ in range(2):
        assert client.post(f"/leagues/join/{league.invite_code}/").status_code == 302
    assert league.memberships.filter(user__username="bob").count() == 1
    assert membership.league_join(league, make_player("bob")) is False
    assert "already in this league" in text(client.get(f"/leagues/join/{league.invite_code}/"))


def test_a_visitor_is_sent_to_log_in_or_sign_up_and_back(client):
    league = make_league("ada", "Puzzlers")
    path = f"/leagues/join/{league.invite_code}/"
    page = client.get(path)
    assert "Join Puzzlers" in text(page)
    html = page.content.decode()
    assert f"/accounts/login/?next={path.replace('/', '%2F')}" in html or f"?next={path}" in html
    assert "/accounts/signup/?next=" in html
    response = client.post(path)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/?next=")
    assert member_names(league) == {"ada"}


def test_a_guest_is_asked_to_sign_up_and_can_neither_join_nor_make_a_league(client):
    league = make_league("ada")
    client.force_login(guest_create())
    page = client.get(f"/leagues/join/{league.invite_code}/")
    assert "Leagues are for players with an account" in text(page) and "Sign up" in text(page)
    assert client.post(f"/leagues/join/{league.invite_code}/").status_code == 403
    assert "Leagues are for players with an account" in text(client.get("/leagues/"))
    assert client.post("/leagues/", {"name": "Guests"}).status_code == 403
    assert League.objects.count() == 1 and member_names(league) == {"ada"}
    with pytest.raises(membership.LeagueRefused):
        membership.league_create(guest_create(), "Sneaky")


def test_a_bad_or_replaced_code_is_a_friendly_404(client):
    league = make_league("ada")
    old = league.invite_code
    log_in(client, "bob")
    response = client.get("/leagues/join/not-a-real-code/")
    assert response.status_code == 404 and "This invite link does not work" in text(response)
    membership.league_new_code(league, league.owner)
    assert client.get(f"/leagues/join/{old}/").status_code == 404
    assert client.post(f"/leagues/join/{old}/").status_code == 404
    assert member_names(league) == {"ada"}


def test_a_full_league_says_so(client, monkeypatch):
    monkeypatch.setattr(membership, "MAX_MEMBERS", 2)
    league = make_league("ada", "Small", "bob")
    log_in(client, "cy")
    response = client.post(f"/leagues/join/{league.invite_code}/")
    assert response.status_code == 409 and "Small is full: a league has at most 2 members" in text(response)
    assert member_names(league) == {"ada", "bob"}


# --- leaving, removing, deleting --------------------------------------------------------------------


def test_a_member_leaves_after_a_confirmation(client):
    league = make_league("ada", "Friends", "bob")
    log_in(client, "bob")
    page = client.get(f"/leagues/{league.pk}/leave/")
    assert "Leave Friends?" in text(page) and member_names(league) == {"ada", "bob"}
    response = client.post(f"/leagues/{league.pk}/leave/")
    assert response.status_code == 302 and member_names(league) == {"ada"}
    assert client.get(f"/leagues/{league.pk}/").status_code == 404  # no longer theirs to see


def test_the_owner_cannot_leave_and_is_told_to_delete_the_league(client):
    league = make_league("ada", "Friends", "bob")
    log_in(client, "ada")
    assert "An owner cannot leave their league" in text(client.get(f"/leagues/{league.pk}/leave/"))
    client.post(f"/leagues/{league.pk}/leave/")
    assert member_names(league) == {"ada", "bob"}
    assert "cannot leave the league; deleting it ends it for every member" in text(client.get(f"/leagues/{league.pk}/"))


def test_the_owner_removes_a_member(client):
    league = make_league("ada", "Friends", "bob", "cy")
    bob = User.objects.get(username="bob")
    log_in(client, "ada")
    assert "Remove bob?" in text(client.get(f"/leagues/{league.pk}/members/{bob.pk}/remove/"))
    assert member_names(league) == {"ada", "bob", "cy"}
    assert client.post(f"/leagues/{league.pk}/members/{bob.pk}/remove/").status_code == 302
    assert member_names(league) == {"ada", "cy"}


def test_only_the_owner_removes_members_deletes_or_replaces_the_link(client):
    league = make_league("ada", "Friends", "bob", "cy")
    code = league.invite_code
    cy = User.objects.get(username="cy")
    log_in(client, "bob")
    assert client.post(f"/leagues/{league.pk}/members/{cy.pk}/remove/").status_code == 404
    assert client.post(f"/leagues/{league.pk}/delete/").status_code == 404
    assert client.post(f"/leagues/{league.pk}/invite/").status_code == 404
    league.refresh_from_db()
    assert member_names(league) == {"ada", "bob", "cy"} and league.invite_code == code
    with pytest.raises(PermissionError):
        membership.league_remove(league, make_player("bob"), cy.pk)


def test_the_owner_deletes_the_league_for_everyone(client):
    league = make_league("ada", "Friends", "bob")
    log_in(client, "ada")
    assert "The league and its board go for all 2 members" in text(client.get(f"/leagues/{league.pk}/delete/"))
    assert League.objects.exists()
    assert client.post(f"/leagues/{league.pk}/delete/").status_code == 302
    assert not League.objects.exists() and not Membership.objects.exists()


def test_every_change_needs_the_csrf_token():
    league = make_league("ada", "Friends", "bob")
    client = Client(enforce_csrf_checks=True)
    log_in(client, "cy")
    assert client.post(f"/leagues/join/{league.invite_code}/").status_code == 403
    log_in(client, "bob")
    assert client.post(f"/leagues/{league.pk}/leave/").status_code == 403
    assert client.post("/leagues/", {"name": "No token"}).status_code == 403
    assert member_names(league) == {"ada", "bob"} and League.objects.count() == 1


# --- who sees a league --------------------------------------------------------------------------------


def test_a_league_is_a_404_to_everyone_outside_it(client, frozen):
    league = make_league("ada", "Secret society", "bob")
    bob = User.objects.get(username="bob")
    log_in(client, "eve")
    for path in (
        f"/leagues/{league.pk}/",
        f"/leagues/{league.pk}/{TODAY.isoformat()}/",
        f"/leagues/{league.pk}/leave/",
        f"/leagues/{league.pk}/delete/",
        f"/leagues/{league.pk}/members/{bob.pk}/remove/",
        f"/leagues/{league.pk + 1}/",
    ):
        response = client.get(path)
        assert response.status_code == 404, path
        assert "Secret society" not in response.content.decode() and "bob" not in text(response)
    assert "Secret society" not in text(client.get("/leagues/"))
    visitor = Client().get(f"/leagues/{league.pk}/")
    assert visitor.status_code == 302 and visitor["Location"].startswith("/accounts/login/")


def test_a_board_is_for_today_and_past_days_never_a_future_one(client, frozen):
    make_daily(datetime.date(2026, 3, 16))  # the site's first daily: the days from it have boards
    league = make_league("ada")
    log_in(client, "ada")
    assert client.get(f"/leagues/{league.pk}/").status_code == 200
    assert client.get(f"/leagues/{league.pk}/2026-03-17/").status_code == 200
    assert client.get(f"/leagues/{league.pk}/2026-03-19/").status_code == 404


def test_a_player_in_several_leagues_sees_each_in_their_list(client):
    make_league("ada", "Work")
    make_league("bob", "Family", "ada")
    make_league("cy", "Strangers")
    log_in(client, "ada")
    page = text(client.get("/leagues/"))
    assert "Work" in page and "Family" in page and "Strangers" not in page
    assert "made by bob" in page and "you own it" in page


# --- the day's board ----------------------------------------------------------------------------------


def test_the_board_marks_hinted_late_held_and_unranked_solves_in_words(client, frozen):
    yesterday = TODAY - datetime.timedelta(days=1)
    easy, medium = make_daily(yesterday, "easy"), make_daily(yesterday, "medium")
    league = make_league("ada", "Friends", "bob", "cy", "dee", "eve", "fay")
    make_solve(easy, "ada", 300)
    make_solve(easy, "bob", 250, assisted=True)
    make_solve(easy, "cy", 200, late=True)
    make_solve(easy, "dee", 10, flagged=True)
    Solve.objects.filter(pk=make_solve(easy, "eve", 280).pk).update(unranked=ranking.LARGE_WRITES)
    Attempt.objects.create(user=make_player("fay"), daily=easy, active_seconds=60)
    make_solve(medium, "bob", 600)
    log_in(client, "ada")
    day_boards = {b.difficulty: b for b in boards.league_day(league, yesterday)}
    rows = {row.username: row for row in day_boards["easy"].rows}
    assert rows["ada"].rank == 1 and rows["ada"].marks == []
    assert rows["bob"].rank is None and rows["bob"].marks == ["with hints or checks"]
    assert rows["cy"].marks == ["late"]
    assert rows["dee"].marks == ["held for review"]
    assert rows["eve"].marks == ["not ranked: digits sent in bulk"]
    assert rows["fay"].started and rows["fay"].marks == ["started, not finished"]
    assert day_boards["easy"].rows[0].username == "ada"  # the ranked first
    assert day_boards["easy"].not_played == []
    assert day_boards["medium"].not_played == ["ada", "cy", "dee", "eve", "fay"]
    assert day_boards["hard"].daily is None

    page = text(client.get(f"/leagues/{league.pk}/{yesterday.isoformat()}/"))
    for words in (
        "with hints or checks",
        "late",
        "held for review",
        "not ranked: digits sent in bulk",
        "started, not finished",
    ):
        assert words in page
    assert "Not played: ada, cy, dee, eve, fay" in page
    assert "No hard puzzle that day" in page
    assert "5:00" in page and "4:10" in page  # ada's and bob's times, the m:ss of the clock


def test_equal_times_to_the_second_share_a_rank(frozen):
    daily = make_daily(TODAY, "easy")
    league = make_league("ada", "Friends", "bob", "cy")
    make_solve(daily, "ada", 200.2)
    make_solve(daily, "bob", 200.7)
    make_solve(daily, "cy", 201)
    rows = boards.league_day(league, TODAY)[0].rows
    assert [(r.username, r.rank) for r in rows] == [("ada", 1), ("bob", 1), ("cy", 3)]


def test_a_ranked_solve_shows_and_counts_the_time_the_leaderboard_ranks_it_by(frozen):
    daily = make_daily(TODAY, "easy")
    league = make_league("ada", "Friends", "bob")
    Solve.objects.filter(pk=make_solve(daily, "ada", 200).pk).update(ranked_seconds=260)  # the page open longer
    make_solve(daily, "bob", 230)  # judged before the record of play: its clock
    rows = boards.league_day(league, TODAY)[0].rows
    assert [(r.username, r.rank, r.time) for r in rows] == [("bob", 1, "3:50"), ("ada", 2, "4:20")]
    week = boards.league_standing(league, MONDAY, TODAY)
    assert [(r.username, r.time) for r in week] == [("bob", "3:50"), ("ada", "4:20")]


# --- the week's standing ------------------------------------------------------------------------------


def test_the_week_counts_clean_solves_first_then_their_total_time(client, frozen):
    league = make_league("ada", "Friends", "bob", "cy", "dee")
    last_sunday = MONDAY - datetime.timedelta(days=1)
    monday = {t: make_daily(MONDAY, t) for t in ("easy", "medium")}
    tuesday = make_daily(MONDAY + datetime.timedelta(days=1), "easy")
    before = make_daily(last_sunday, "easy")
    # ada: two clean solves, slow; bob: two clean, faster; cy: one clean and fast, one with hints;
    # dee: one late solve, and one from the week before, neither counts.
    make_solve(monday["easy"], "ada", 400)
    make_solve(tuesday, "ada", 500)
    make_solve(monday["easy"], "bob", 300)
    make_solve(monday["medium"], "bob", 550)
    make_solve(monday["easy"], "cy", 100)
    make_solve(tuesday, "cy", 90, assisted=True)
    make_solve(monday["medium"], "dee", 60, late=True)
    make_solve(before, "dee", 50)
    rows = boards.league_standing(league, MONDAY, TODAY)
    assert [(r.username, r.rank, r.clean, int(r.seconds)) for r in rows] == [
        ("bob", 1, 2, 850),
        ("ada", 2, 2, 900),
        ("cy", 3, 1, 100),
        ("dee", 4, 0, 0),
    ]
    assert boards.week_of(TODAY) == (MONDAY, SUNDAY) and boards.week_of(SUNDAY) == (MONDAY, SUNDAY)
    log_in(client, "ada")
    page = text(client.get(f"/leagues/{league.pk}/"))
    assert "Monday 16 March to Sunday 22 March" in page
    assert "the most clean solves of the week's dailies comes first; on a tie, the smaller total time" in page
    assert "bob 2 14:10" in page


# --- the home page --------------------------------------------------------------------------------


def test_the_home_page_shows_each_leagues_standing_today(client, frozen):
    daily = make_daily(TODAY, "easy")
    work = make_league("ada", "Work", "bob", "cy", "dee", "eve")
    for name, seconds in (("bob", 200), ("cy", 210), ("dee", 220), ("eve", 230), ("ada", 240)):
        make_solve(daily, name, seconds)
    make_solve(make_daily(TODAY - datetime.timedelta(days=1), "easy"), "eve", 10)  # yesterday: not today's
    log_in(client, "ada")
    response = client.get("/")
    page = text(response)
    assert "Your leagues today" in page and "css/leagues.css" in response.content.decode()
    assert f'href="/leagues/{work.pk}/"' in response.content.decode()
    assert "1. bob 1 solved, 3:20 2. cy 1 solved, 3:30 3. dee 1 solved, 3:40 5. ada (you) 1 solved, 4:00" in page


def test_a_league_with_no_clean_solve_today_says_so_on_the_home_page(client, frozen):
    make_solve(make_daily(TODAY, "easy"), "bob", 200, assisted=True)
    make_league("ada", "Quiet", "bob")
    log_in(client, "ada")
    assert "Quiet No clean solves yet today among its 2 members." in text(client.get("/"))


def test_the_home_page_and_the_header_offer_leagues_to_players_with_an_account_only(client, frozen):
    make_daily(TODAY, "easy")
    log_in(client, "ada")
    page = client.get("/").content.decode()
    assert 'href="/leagues/" class="nav-leagues">Leagues</a>' in page and "Play in a league with friends" in page
    assert "Your leagues today" not in page and "leagues.css" not in page
    client.force_login(guest_create())
    assert 'href="/leagues/"' not in client.get("/").content.decode()
    assert 'href="/leagues/"' not in Client().get("/").content.decode()


def test_the_home_page_knows_at_once_when_a_player_joins_leaves_or_loses_a_league(client, frozen):
    # Whether a player is in any league is kept between home pages, so one in none asks nothing
    # about leagues; every change of their memberships must drop it.
    make_daily(TODAY, "easy")
    make_player("cy")
    ada = log_in(client, "ada")
    assert "Your leagues today" not in text(client.get("/"))
    with CaptureQueriesContext(connection) as kept:
        client.get("/")
    assert not [q for q in kept.captured_queries if "membership" in q["sql"]]
    work = make_league("cy", "Work")
    membership.league_join(work, ada)
    assert "Your leagues today Work" in text(client.get("/"))
    membership.league_leave(work, ada)
    assert "Your leagues today" not in text(client.get("/"))
    membership.league_join(work, ada)
    assert "Work" in text(client.get("/"))
    membership.league_delete(work, User.objects.get(username="cy"))
    assert "Your leagues today" not in text(client.get("/"))


def test_the_home_pages_league_cards_cost_the_same_queries_for_one_league_or_many(frozen):
    daily = make_daily(TODAY, "easy")
    make_solve(daily, "bob", 200)
    ada = make_player("ada")
    make_league("ada", "First", "bob")
    with CaptureQueriesContext(connection) as one:
        boards.home_cards(ada, TODAY)
    for n in range(5):
        make_league("ada", f"More {n}", "bob", f"friend{n}")
    with CaptureQueriesContext(connection) as many:
        cards = boards.home_cards(ada, TODAY)
    assert len(cards) == 6 and len(many) == len(one) <= 3


# --- limits under races (PostgreSQL) ---------------------------------------------------------------


def at_once(*jobs) -> tuple[list[str], list[BaseException]]:
    """Run the jobs in threads started together; what each did ("ok" or "refused"), sorted, and errors."""
    found = concurrency.at_once(*jobs, timeout=60)
    refused = [o for o in found if isinstance(o, membership.LeagueRefused)]
    errors = [o for o in concurrency.raised(found) if o not in refused]
    return sorted(["ok"] * (len(found) - len(refused) - len(errors)) + ["refused"] * len(refused)), errors


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_players_joining_at_once_never_overfill_a_league(postgres, monkeypatch):
    monkeypatch.setattr(membership, "MAX_MEMBERS", 3)
    league = make_league("ada", "Small", "bob")
    joiners = [make_player(name) for name in ("cy", "dee", "eve")]
    outcomes, errors = at_once(*(lambda p=p: membership.league_join(league, p) for p in joiners))
    assert not errors and outcomes == ["ok", "refused", "refused"]
    assert league.memberships.count() == 3


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_one_player_joining_and_making_leagues_at_once_stays_within_their_limit(postgres, monkeypatch):
    monkeypatch.setattr(membership, "MAX_LEAGUES_PER_PLAYER", 2)
    ada = make_player("ada")
    make_league("ada", "Mine")
    others = [make_league(owner, f"{owner}'s") for owner in ("bob", "cy")]
    outcomes, errors = at_once(
        lambda: membership.league_create(ada, "Another"),
        *(lambda lg=lg: membership.league_join(lg, ada) for lg in others),
    )
    assert not errors and outcomes == ["ok", "refused", "refused"]
    assert Membership.objects.filter(user=ada).count() == 2
