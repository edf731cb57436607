"""Today's puzzles (views/home.py): a card per difficulty with a drawing of its grid
(drawing.py), the player's streak and yesterday's results, and a visitor's invitation."""

from __future__ import annotations

import datetime
import re

import pytest
import time_machine
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.sessions.backends.cache import SessionStore
from django.core.cache import caches
from django.db import connection
from django.middleware.csrf import _unmask_cipher_token
from django.template.loader import render_to_string
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from puzzles.accounts.guests import guest_create
from puzzles.engine import TECHNIQUE_BY_NAME, TECHNIQUES
from puzzles.fairplay.ranking import day_medians
from puzzles.leagues.membership import league_create, league_join
from puzzles.models import TIER_ORDER, Attempt, Solve
from puzzles.results import history
from puzzles.results.drawing import entries_of, grid_svg
from puzzles.views.home import CARD_TECHNIQUES, card_techniques, render_home

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


def test_two_players_home_pages_never_show_each_others_parts(daily):
    """The cards and the record are drawn once and kept (views/home.py): each page still carries
    only its own reader's name, token, progress and record, whoever asked before."""
    make_daily(daily.date - datetime.timedelta(days=1))
    make_solve(daily, "ada", 245)
    bob = User.objects.create_user("bob")
    Attempt.objects.create(user=bob, daily=daily, digits=EASY_SOLUTION[:40] + "0" * 41, active_seconds=65)
    pages = {}
    for name in ("ada", "bob", "ada", "bob"):  # each asks after the other, from the kept parts
        client = Client(enforce_csrf_checks=True)
        client.force_login(User.objects.get(username=name))
        page = client.get("/").content.decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        pages[name] = (page, token, client.cookies["csrftoken"].value)
    ada, bob = pages["ada"][0], pages["bob"][0]
    assert 'aria-label="Your account (ada)">ada</a>' in ada and ">bob<" not in ada
    assert 'aria-label="Your account (bob)">bob</a>' in bob and ">ada<" not in bob
    assert "Solved in 4:05" in ada and "In progress" not in ada
    assert "In progress, 1:05 so far" in bob and "Solved in" not in bob
    assert "<dt>Streak</dt><dd>1 day</dd>" in ada and "<dt>Streak</dt><dd>0 days</dd>" in bob
    # Each form's token is of its own reader's secret (a masked token unmasks to the cookie's).
    for _page, token, cookie in pages.values():
        assert _unmask_cipher_token(token) == cookie
    visitor = Client().get("/").content.decode()
    assert "Log out" not in visitor and "Your record" not in visitor and "Solved in" not in visitor


TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.mark.parametrize("reader", ["player", "guest", "visitor"])
def test_the_kept_account_part_is_the_header_drawn_for_the_request(reader, rf, db):
    """The home page's account part is kept by name, kind and page (views/home.py): it reads as
    the header's part drawn with the request, a player's log-out form carrying its own token."""
    readers = {"player": lambda: User.objects.create_user("a<b"), "guest": guest_create, "visitor": AnonymousUser}
    user = readers[reader]()
    for path in ("/", "/daily/2026-03-18/easy/", "/"):  # the last from the kept drawing
        request = rf.get(path)
        request.user, request.session = user, SessionStore()
        parts = {"today": TODAY, "cards": "", "waiting": False, "record": "", "league_cards": ""}
        page = render_home(request, {**parts, "reader": reader}).content.decode()
        drawn = render_to_string("_account.html", request=request)
        assert "Log" in drawn and TOKEN.sub("", drawn) in TOKEN.sub("", page)
        tokens = TOKEN.findall(page)
        assert len(tokens) == (reader == "player")
        for token in tokens:
            assert _unmask_cipher_token(token) == request.META["CSRF_COOKIE"]


def test_a_message_left_for_the_reader_shows_once_on_the_home_page(daily):
    """A page with a message is drawn whole (views/home.py), the kept frame holding none."""
    ada = User.objects.create_user("ada")
    bob = User.objects.create_user("bob")
    league = league_create(ada, "Friends")
    league_join(league, bob)
    client = Client()
    client.force_login(bob)
    client.get("/")  # the frame is kept before the message is left
    client.post(f"/leagues/{league.pk}/leave/")  # its redirect not followed: the message waits
    page = client.get("/").content.decode()
    assert "You left Friends." in page and 'aria-label="Your account (bob)">bob</a>' in page
    assert "Solved in" not in page and "Not started" in page
    assert "You left Friends." not in client.get("/").content.decode()


def test_a_player_sees_their_streak_and_yesterdays_results():
    with time_machine.travel(NOON, tick=False):
        yesterday = TODAY - datetime.timedelta(days=1)
        easy, medium, _hard = (make_daily(yesterday, tier) for tier in ("easy", "medium", "hard"))
        solved_then = datetime.datetime(2026, 3, 17, 20, tzinfo=UTC)
        make_solve(easy, "ada", 290, solved_at=solved_then)
        before = make_daily(yesterday - datetime.timedelta(days=1))
        make_solve(before, "ada", 300, solved_at=solved_then - datetime.timedelta(days=1))
        make_solve(medium, "ada", 640, assisted=True, solved_at=solved_then)
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


# --- what each difficulty asks, and the day's median (issue 24) ---------------------------------


def test_each_card_says_which_techniques_its_difficulty_asks_for_from_the_engines_catalogue(client, daily):
    page = client.get("/").content.decode()
    for tier in TIER_ORDER:
        named = CARD_TECHNIQUES[tier]
        # Named techniques belong to that tier, so the catalogue cannot move one without this failing.
        assert all(TECHNIQUE_BY_NAME[name].tier == tier for name in named)
        line = card_techniques(tier)
        assert f'<p class="home-card-asks">{line}</p>' in page
        rest = sum(t.tier == tier for t in TECHNIQUES) - len(named)
        assert line.endswith(f"and {rest} more.") if rest else "more" not in line
    assert card_techniques("easy") == "Asks for hidden single and naked single."
    assert card_techniques("hard").startswith("Adds X-wing, swordfish")
    # A card waiting for its puzzle says it too: what the difficulty asks does not wait.
    assert page.count('class="home-card-asks"') == len(TIER_ORDER)


def test_a_card_shows_the_days_median_once_it_has_enough_ranked_solves(daily):
    for n, seconds in enumerate((200, 300)):
        make_solve(daily, f"solver{n}", seconds)
    make_solve(daily, "helped", 20, assisted=True)  # not ranked: no part of the median
    assert "Today's median" not in Client().get("/").content.decode()

    caches["default"].clear()  # the medians are cached a few minutes
    make_solve(daily, "solver2", 400)
    page = Client().get("/").content.decode()
    assert 'Today\'s median: <span class="time">5:00</span>' in page


def test_the_medians_cost_one_query_for_every_card_and_none_while_cached(daily):
    for tier in TIER_ORDER[1:]:
        make_daily(daily.date, tier)
    for n in range(3):
        make_solve(daily, f"solver{n}", 100 + n)
    with CaptureQueriesContext(connection) as first:
        Client().get("/")
    with CaptureQueriesContext(connection) as again:
        Client().get("/")
    on_solves = [q["sql"] for q in first.captured_queries if "ranked_seconds" in q["sql"]]
    assert len(on_solves) == 1
    assert not [q for q in again.captured_queries if "ranked_seconds" in q["sql"]]
    assert again.captured_queries == []  # the dailies are cached too: a visitor's home asks nothing


def test_the_median_ranks_by_the_ranked_time_and_takes_the_middle_two_of_an_even_count(daily):
    medium = make_daily(daily.date, "medium")
    for n, seconds in enumerate((100, 200, 300, 900)):
        make_solve(medium, f"m{n}", seconds)
    solve = make_solve(daily, "judged", 500)
    Solve.objects.filter(pk=solve.pk).update(ranked_seconds=50)
    found = day_medians([daily, medium])
    assert found[medium.pk] == (250, 4)
    assert found[daily.pk] == (50, 1)
    assert day_medians([]) == {}


# --- a home page waiting for its puzzles ---------------------------------------------------------


def test_a_home_page_missing_a_puzzle_asks_which_are_out_and_a_full_one_does_not(client, daily):
    page = client.get("/").content.decode()
    assert 'data-waiting-url="/api/today/"' in page and "js/preparing" in page
    assert 'id="home-cards-status" role="status"' in page
    for tier in TIER_ORDER[1:]:
        make_daily(daily.date, tier)
    page = client.get("/").content.decode()
    assert "data-waiting-url" not in page and "js/preparing" not in page


def test_todays_published_puzzles_are_listed_easiest_first_and_never_cached(client, daily):
    make_daily(daily.date, "expert")
    make_daily(daily.date + datetime.timedelta(days=1), "hard")  # tomorrow's: not today's
    response = client.get("/api/today/")
    assert response.status_code == 200
    assert response.json() == {"date": daily.date.isoformat(), "published": ["easy", "expert"]}
    assert "no-cache" in response["Cache-Control"]
    assert client.post("/api/today/").status_code == 405


# --- how to play --------------------------------------------------------------------------------


def test_how_to_play_is_a_page_of_its_own_linked_from_every_header(client, daily):
    page = client.get("/how-to-play/").content.decode()
    assert "<h1>How to play</h1>" in page
    for part in ("The rules", "Four ways to write in a cell", "With a keyboard", "On a touch screen"):
        assert part in page
    for mode in ("Digit", "Corner", "Centre", "Colour"):
        assert f"<dt>{mode}</dt>" in page
    for path in ("/", "/how-to-play/", f"/daily/{daily.date.isoformat()}/easy/"):
        assert (
            'href="/how-to-play/" class="nav-howto" data-howto-open>How to play</a>'
            in client.get(path).content.decode()
        )
    assert client.post("/how-to-play/").status_code == 405


def test_the_board_holds_the_how_to_play_as_a_dialog_and_links_it_from_the_keyboard_reference(client, daily):
    page = client.get(f"/daily/{daily.date.isoformat()}/easy/").content.decode()
    assert '<dialog class="sudoku-dialog howto-dialog" id="howto" aria-labelledby="howto-title"' in page
    assert 'data-url="/how-to-play/"' in page and "The rules" not in page  # its words come when it opens
    assert 'id="sudoku-howto-link" data-howto-open>How to play</a>' in page
    assert "js/howto" in page


def test_having_seen_the_how_to_play_is_a_players_setting(client):
    client.force_login(guest_create())
    assert client.get("/api/settings/").json()["settings"]["seen_howto"] is False
    answer = client.post("/api/settings/", {"settings": {"seen_howto": True}}, content_type="application/json")
    assert answer.status_code == 200 and answer.json()["settings"]["seen_howto"] is True
    wrong = client.post("/api/settings/", {"settings": {"seen_howto": "yes"}}, content_type="application/json")
    assert wrong.status_code == 400 and "seen_howto must be true or false" in wrong.json()["error"]


# --- the player's attempts, written out (results/fastpath.py) --------------------------------------


def test_the_written_out_attempts_are_the_orms_in_every_state(daily):
    """Not started, in progress, solved (clean, assisted, late): the written-out read loads the same
    attempts and solves as the ORM's, and asks nothing more when a card reads whether one is solved."""
    from puzzles.results.fastpath import attempts_shown, attempts_written_out

    dailies = [daily, make_daily(daily.date - datetime.timedelta(days=1)), make_daily(daily.date, "medium")]
    ada = User.objects.create_user("ada")
    Attempt.objects.create(user=ada, daily=dailies[1], digits=EASY_SOLUTION[:40] + "0" * 41, active_seconds=65.5)
    make_solve(daily, "ada", 245)
    make_solve(dailies[2], "ada", 300, assisted=True, late=True)
    make_solve(daily, "bob", 100)  # someone else's
    for user in (ada, User.objects.get(username="bob"), User.objects.create_user("cy")):
        ids = [d.pk for d in dailies]
        orm, written = attempts_shown(user.pk, ids), attempts_written_out(user.pk, ids)
        assert written.keys() == orm.keys()
        with CaptureQueriesContext(connection) as asked:
            for daily_id, attempt in written.items():
                theirs = orm[daily_id]
                assert (attempt.pk, attempt.daily_id, attempt.digits, attempt.active_seconds) == (
                    theirs.pk,
                    theirs.daily_id,
                    theirs.digits,
                    theirs.active_seconds,
                )
                assert attempt.is_solved == theirs.is_solved
                if attempt.is_solved:
                    solve, their = attempt.solve, theirs.solve
                    assert (solve.pk, solve.seconds, solve.assisted, solve.late) == (
                        their.pk,
                        their.seconds,
                        their.assisted,
                        their.late,
                    )
                    assert history.play_status(attempt) == history.play_status(theirs)
        assert len(asked) == 0
    assert len(attempts_written_out(ada.pk, [d.pk for d in dailies])) == 3
