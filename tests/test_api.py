"""Playing a daily: pages, accounts, and the board's JSON API (saves, heartbeats, submits)."""

import datetime

import pytest
import time_machine
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from puzzles import attempts, pipeline
from puzzles.models import Attempt, DailyPuzzle, Solve
from puzzles.views import api, pages

from .factories import EASY_GIVENS, EASY_SOLUTION, make_puzzle, player_digits, post, url

pytestmark = pytest.mark.django_db

GIVENS, SOLUTION = EASY_GIVENS, EASY_SOLUTION


# --- pages ----------------------------------------------------------------------------------


def test_anyone_may_look_at_a_daily_but_may_not_play_it(client, daily):
    response = client.get(url(daily))
    assert response.status_code == 200
    assert SOLUTION.encode() not in response.content
    assert f'href="/accounts/login/?next={url(daily)}"'.encode() in response.content
    # The board asks who is here at once; a visitor is told to log in, and nothing starts.
    assert client.get(url(daily, "state")).status_code == 401
    assert not Attempt.objects.exists()


def test_opening_a_daily_starts_the_players_attempt_once(player, daily):
    # What the board does on opening: the page (the same for everyone), then the player's state.
    for _ in range(2):
        assert SOLUTION.encode() not in player.get(url(daily)).content
        state = player.get(url(daily, "state"))
        assert state.status_code == 200 and SOLUTION not in state.content.decode()
    assert Attempt.objects.count() == 1


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
    assert state["player"] == {"id": ada.pk, "name": "ada_lovelace"} and state["digits"] == "4" + "0" * 80
    client.force_login(bob)
    state = client.get(url(daily, "state")).json()
    assert state["player"] == {"id": bob.pk, "name": "bob_kahn"} and state["digits"] == "0" * 81


@pytest.mark.parametrize(
    "address",
    ["/daily/2026-13-01/easy/", "/daily/2026-02-30/easy/", "/daily/1999-01-01/easy/", "/daily/{today}/impossible/"],
)
def test_bad_dates_and_difficulties_are_a_friendly_404(client, daily, address):
    response = client.get(address.format(today=daily.date.isoformat()))
    assert response.status_code == 404
    assert b"No puzzle here" in response.content


def test_a_future_daily_is_never_served(client, daily):
    tomorrow = daily.date + datetime.timedelta(days=1)
    DailyPuzzle.objects.filter(pk=daily.pk).update(date=tomorrow)
    assert client.get(f"/daily/{tomorrow.isoformat()}/easy/").status_code == 404
    assert post(client, f"/api/daily/{tomorrow.isoformat()}/easy/save/", {}).status_code in (401, 404)


def test_the_home_page_shows_each_difficulty_with_the_players_status(player, daily):
    page = player.get("/").content.decode()
    assert "Not started" in page and "Not published yet" in page
    player.get(url(daily, "state"))  # the board opens the attempt
    assert "In progress" in player.get("/").content.decode()


# --- accounts -------------------------------------------------------------------------------


def test_signing_up_logs_in_and_returns_to_the_puzzle(client, daily):
    response = client.post(
        "/accounts/signup/",
        {"username": "grace", "password1": "correct horse battery", "password2": "correct horse battery", "next": url(daily)},
    )
    assert response.status_code == 302 and response.url == url(daily)
    assert client.get(url(daily, "state")).json()["player"]["name"] == "grace"


def test_signup_applies_the_password_validators(client):
    response = client.post("/accounts/signup/", {"username": "weak", "password1": "123", "password2": "123"})
    assert response.status_code == 200
    assert not User.objects.filter(username="weak").exists()
    assert b"too short" in response.content


def test_signup_ignores_a_next_address_on_another_site(client):
    response = client.post(
        "/accounts/signup/",
        {"username": "eve", "password1": "correct horse battery", "password2": "correct horse battery", "next": "https://evil.example/"},
    )
    assert response.url == "/"


def test_logging_in_from_the_puzzle_page_brings_the_player_back(client, daily):
    User.objects.create_user("ada", password="a long enough password 1")
    response = client.post("/accounts/login/", {"username": "ada", "password": "a long enough password 1", "next": url(daily)})
    assert response.status_code == 302 and response.url == url(daily)


def test_repeated_wrong_passwords_lock_the_login_for_a_while(client, settings):
    User.objects.create_user("ada", password="a long enough password 1")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/accounts/login/", {"username": "ada", "password": "wrong"})
    locked = client.post("/accounts/login/", {"username": "ada", "password": "a long enough password 1"})
    assert locked.status_code == 429
    assert b"Too many failed log-ins" in locked.content


# --- saving ---------------------------------------------------------------------------------


def test_a_save_stores_digits_and_notes_and_bumps_the_version(player, daily):
    digits = "4" + "0" * 80
    corner = [""] * 81
    corner[1] = "58"
    response = post(player, url(daily, "save"), {"version": 0, "digits": digits, "corner": corner, "centre": [""] * 81})
    assert response.status_code == 200 and response.json()["version"] == 1
    attempt = Attempt.objects.get()
    assert attempt.digits == digits and attempt.corner[1] == "58"
    state = player.get(url(daily, "state")).json()
    assert state["digits"] == digits and state["version"] == 1 and "solution" not in state


def test_a_stale_save_is_refused_with_409_and_the_newest_state(player, daily):
    post(player, url(daily, "save"), {"version": 0, "digits": "4" + "0" * 80})
    response = post(player, url(daily, "save"), {"version": 0, "digits": "0" * 80 + "2"})
    assert response.status_code == 409
    assert response.json()["state"]["digits"] == "4" + "0" * 80
    assert Attempt.objects.get().digits == "4" + "0" * 80


@pytest.mark.parametrize(
    "payload, status",
    [
        ({"version": 0, "digits": "12"}, 400),
        ({"version": 0, "digits": "x" * 81}, 400),
        ({"version": 0, "digits": "9" * 81}, 400),  # overwrites givens
        ({"version": "0", "digits": "0" * 81}, 400),
        ({"version": 0, "digits": "0" * 81, "corner": ["1"] * 80}, 400),
        ({"version": 0, "digits": "0" * 81, "centre": ["11"] + [""] * 80}, 400),
        ({"version": 0, "digits": "0" * 81, "corner": ["<script>"] + [""] * 80}, 400),
        ([1, 2, 3], 400),
        ("{not json", 400),
        ({"version": 0, "digits": "0" * 81, "pad": "x" * 20000}, 413),
    ],
)
def test_malformed_oversized_or_tampered_saves_get_a_4xx_and_change_nothing(player, daily, payload, status):
    post(player, url(daily, "save"), {"version": 0, "digits": "4" + "0" * 80})
    response = post(player, url(daily, "save"), payload)
    assert response.status_code == status
    assert "error" in response.json()
    attempt = Attempt.objects.get()
    assert attempt.digits == "4" + "0" * 80 and attempt.version == 1


def test_the_api_needs_a_login_and_a_csrf_token(daily):
    assert post(Client(), url(daily, "save"), {"version": 0, "digits": "0" * 81}).status_code == 401
    refused = post(Client(enforce_csrf_checks=True), url(daily, "save"), {"version": 0, "digits": "0" * 81})
    assert refused.status_code == 403 and "reload" in refused.json()["error"]
    user = User.objects.create_user("ada", password="a long enough password 1")
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    assert post(strict, url(daily, "save"), {"version": 0, "digits": "0" * 81}).status_code == 403
    assert "csrftoken" in strict.get(url(daily, "state")).cookies  # the board's first request sets it
    token = strict.cookies["csrftoken"].value
    assert post(strict, url(daily, "save"), {"version": 0, "digits": "0" * 81}, HTTP_X_CSRFTOKEN=token).status_code == 200
    assert "csrftoken" not in strict.get(url(daily, "state")).cookies  # and leaves it alone after


def test_one_player_can_never_touch_another_players_attempt(player, daily):
    other = User.objects.create_user("mallory", password="a long enough password 1")
    theirs = attempts.attempt_open(other, daily)
    attempts.attempt_save(other, daily, version=0, digits="4" + "0" * 80, corner=None, centre=None)
    # Our save goes to our own attempt, whatever the payload says.
    post(player, url(daily, "save"), {"version": 0, "digits": "0" * 80 + "2", "attempt": theirs.pk, "user": other.pk})
    theirs.refresh_from_db()
    assert theirs.digits == "4" + "0" * 80
    assert player.get(url(daily, "state")).json()["digits"] == "0" * 80 + "2"


# --- time -----------------------------------------------------------------------------------


def test_the_server_counts_active_time_from_heartbeats_and_skips_long_gaps(player, daily, settings):
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        player.get(url(daily, "state"))  # the board opens the attempt: the clock starts
        clock.shift(10)
        assert post(player, url(daily, "beat"), {}).json()["elapsed"] == 10
        clock.shift(10)
        post(player, url(daily, "beat"), {})
        clock.shift(settings.HEARTBEAT_GAP_SECONDS + 600)  # the tab was hidden: not counted
        assert post(player, url(daily, "beat"), {}).json()["elapsed"] == 20
        clock.shift(5)
        assert post(player, url(daily, "beat"), {"elapsed": 99999}).json()["elapsed"] == 25


# --- solving --------------------------------------------------------------------------------


def test_a_wrong_grid_gets_a_message_and_the_game_goes_on(player, daily):
    player.get(url(daily, "state"))
    wrong = list(SOLUTION)
    wrong[0], wrong[1] = wrong[1], wrong[0]  # r1c1 and r1c2 are both empty cells in GIVENS
    response = post(player, url(daily, "submit"), {"version": 0, "digits": player_digits("".join(wrong))})
    assert response.status_code == 200 and response.json()["solved"] is False
    assert "Not quite" in response.json()["message"]
    assert not Solve.objects.exists()
    assert SOLUTION not in response.content.decode()


def test_the_right_grid_is_recorded_once_with_the_servers_time(player, daily):
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        player.get(url(daily, "state"))
        clock.shift(8)
        post(player, url(daily, "beat"), {})
        clock.shift(4)
        response = post(player, url(daily, "submit"), {"version": 0, "digits": player_digits(SOLUTION), "seconds": 1})
    body = response.json()
    assert body["solved"] is True and body["seconds"] == 12
    again = post(player, url(daily, "submit"), {"version": 1, "digits": player_digits(SOLUTION)})
    assert again.json()["solved"] is True
    assert Solve.objects.count() == 1 and Solve.objects.get().seconds == 12
    # A solved puzzle's progress no longer changes.
    assert post(player, url(daily, "save"), {"version": 1, "digits": "0" * 81}).status_code == 409


def test_the_database_allows_one_solve_per_player_and_daily(player, daily):
    from django.db import IntegrityError

    player.get(url(daily, "state"))
    post(player, url(daily, "submit"), {"version": 0, "digits": player_digits(SOLUTION)})
    solve = Solve.objects.get()
    with pytest.raises(IntegrityError):
        Solve.objects.create(attempt=solve.attempt, user=solve.user, daily=solve.daily, seconds=1)


def test_the_page_kept_in_memory_follows_a_change_of_the_dailys_puzzle(client, daily):
    from puzzles.models import Puzzle

    fewer = "0" + EASY_GIVENS[1:2] + "0" + EASY_GIVENS[3:]  # the same puzzle less one given
    assert EASY_GIVENS.encode() in client.get(url(daily)).content
    daily.puzzle = Puzzle.objects.create(
        givens=fewer, solution=EASY_SOLUTION, tier="easy", score=1, hardest="naked-single", clues=31, filler="imported"
    )
    daily.save()  # as the admin does
    page = client.get(url(daily)).content
    assert fewer.encode() in page and EASY_GIVENS.encode() not in page


def test_the_log_out_form_takes_the_token_board_js_gives_it(daily):
    # The page names nobody, so board.js puts the CSRF cookie's token in the header's log-out form.
    client = Client(enforce_csrf_checks=True)
    client.force_login(User.objects.create_user("ada", password="x"))
    client.get(url(daily, "state"))
    assert client.post("/accounts/logout/", {"csrfmiddlewaretoken": ""}).status_code == 403
    response = client.post("/accounts/logout/", {"csrfmiddlewaretoken": client.cookies["csrftoken"].value})
    assert response.status_code == 302 and client.get(url(daily, "state")).status_code == 401


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


def test_a_failure_on_our_side_is_a_json_500_for_the_board_and_a_plain_page_elsewhere(daily, monkeypatch):
    client = Client(raise_request_exception=False)
    client.force_login(User.objects.create_user("ada", password="x"))

    def broken(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(api, "attempt_save", broken)
    monkeypatch.setattr(pages, "attempt_state", broken)
    response = post(client, url(daily, "save"), {"version": 0, "digits": "0" * 81})
    assert response.status_code == 500 and "try again" in response.json()["error"]
    page = client.get(url(daily))
    assert page.status_code == 500 and "went away" not in page.content.decode() and "Traceback" not in page.content.decode()


def test_the_home_page_shows_times_as_the_clock_does(player, daily):
    attempt = attempts.attempt_open(User.objects.get(username="ada"), daily)
    attempt.active_seconds = 65.7
    attempt.save()
    assert "In progress, 1:05 so far" in player.get("/").content.decode()
    Solve.objects.create(attempt=attempt, user=attempt.user, daily=daily, seconds=3725)
    assert "Solved in 1:02:05" in player.get("/").content.decode()


def test_a_new_day_nobody_published_is_published_by_its_first_visitor(client):
    from puzzles.models import Puzzle

    for seed, tier in enumerate(("easy", "medium")):
        make_puzzle(tier, seed)
    page = client.get("/").content.decode()
    assert DailyPuzzle.objects.for_date().count() == 2
    assert page.count("Not published yet") == 3
    easy = DailyPuzzle.objects.get(difficulty="easy")
    assert client.get(url(easy)).status_code == 200
    assert Puzzle.objects.filter(used=True).count() == 2


def test_todays_missing_puzzle_page_is_published_on_the_way(client):
    make_puzzle("hard", 3)
    today = timezone.localdate().isoformat()
    assert client.get(f"/daily/{today}/hard/").status_code == 200
    assert client.get(f"/daily/{today}/expert/").status_code == 404  # its pool is empty: nothing to publish


def test_visitors_arriving_while_the_day_is_being_published_wait_for_it(db):
    import threading
    import time

    from django.core.cache import cache

    today = timezone.localdate()
    running = f"publish-running:{today.isoformat()}"
    cache.add(running, 1, 10)  # another request is publishing the day right now
    threading.Timer(0.3, lambda: cache.delete(running)).start()
    started = time.monotonic()
    assert pipeline.daily_publish_if_missing(today) is True  # it waited, then says: read the day again
    assert 0.25 < time.monotonic() - started < 2
    # Once tried, a day whose pools are empty is not tried again on every request.
    assert pipeline.daily_publish_if_missing(today) is True
    assert pipeline.daily_publish_if_missing(today) is False


def test_the_state_is_read_in_one_query_with_its_solve(daily, django_assert_num_queries):
    # The board asks for it on every opening of a puzzle: the attempt and its solve together.
    from puzzles.attempts import position_key

    def state(user):
        if Attempt.objects.filter(user=user).exists():
            with django_assert_num_queries(1):  # the solve comes with it, too
                return attempts.attempt_state(attempts.attempt_open(user, daily), daily)
        return attempts.attempt_state(attempts.attempt_open(user, daily), daily)

    ada = User.objects.create_user("ada", password="x")
    state(ada)  # never opened: started by the read
    assert Attempt.objects.filter(user=ada).count() == 1

    corner = [""] * 81
    corner[1], corner[3] = "27", "139"
    centre = [""] * 81
    centre[1] = "5"
    attempt = attempts.attempt_open(ada, daily)
    attempts.attempt_save(ada, daily, version=0, digits="4" + "0" * 80, corner=corner, centre=centre)
    Attempt.objects.filter(pk=attempt.pk).update(
        hint_stage=2, hint_position=position_key("4" + "0" * 80, attempts.position_clean(GIVENS, "4" + "0" * 80, corner, centre)[2])
    )
    shown = state(ada)
    assert shown["corner"][3] == "139" and shown["hint_stage"] == 2

    result = attempts.attempt_submit(ada, daily, version=1, digits=player_digits(SOLUTION))
    assert result.solved
    shown = state(ada)
    assert shown["solved"] and shown["solve_seconds"] == round(result.solve.seconds, 1)
