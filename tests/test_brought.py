"""Play any puzzle (puzzles/brought/, views/brought.py): reading a pasted puzzle, the engine's
verdict under its limits, the board's API for it, and that it never ranks, rates or enters a pool."""

from __future__ import annotations

import datetime
import json

import pytest
import time_machine
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from puzzles.accounts.deletion import player_delete
from puzzles.accounts.guests import guest_merge, guests_idle, is_guest
from puzzles.brought import checking
from puzzles.brought.checking import BadPuzzle, ChecksTooFast, givens_of, verdict_of
from puzzles.models import (
    Attempt,
    BroughtAttempt,
    BroughtPuzzle,
    DailyPuzzle,
    Hint,
    PlayerRating,
    PlayEvent,
    PracticePosition,
    Puzzle,
    Solve,
    SolveReview,
    TechniqueUse,
)

from .factories import EASY_GIVENS, EASY_SOLUTION, player_digits, post

GIVENS, SOLUTION = EASY_GIVENS, EASY_SOLUTION
# Row 1 needs a 9 in its last cell, and column 9 has one already: no solution, and no two digits clash.
NONE = "123456780" + "000000009" + "0" * 63
SEVERAL = "0" * 80 + "1"
# Easter Monster: one solution, and some seconds of the rater's time.
SLOW = "100000002090400050006000700050903000000070000000850040700000600030009080002000001"
ADDRESS = "203.0.113.9"
# Half past the hour and the minute: the limits count in fixed windows, which a test must not see turn.
MID_WINDOW = datetime.datetime(2026, 11, 29, 12, 30, 30, tzinfo=datetime.UTC)

pytestmark = pytest.mark.django_db


def api(name: str, givens: str = GIVENS) -> str:
    return f"/api/play/{givens}/{name}/"


def page(givens: str = GIVENS) -> str:
    return f"/play/?p={givens}"


def rows() -> dict[str, int]:
    """The rows of every table a visit could write."""
    models = (User, BroughtPuzzle, BroughtAttempt, Puzzle, DailyPuzzle, Attempt, Solve, PlayEvent, Hint)
    return {model.__name__: model.objects.count() for model in models}


# --- reading what a player pastes -------------------------------------------------------------


def test_a_puzzle_reads_with_dots_or_zeros_and_whitespace_anywhere():
    dotted = GIVENS.replace("0", ".")
    lines = "\n".join(dotted[i : i + 9] for i in range(0, 81, 9))
    assert givens_of(dotted) == givens_of(f"  {lines}  ") == GIVENS


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("", "Paste a puzzle"),
        (GIVENS[:80], "81 cells, this one has 80"),
        (GIVENS + "1", "81 cells, this one has 82"),
        ("x" + GIVENS[1:], "unexpected character 'x' at row 1, column 1"),
        ("33" + GIVENS[2:], "two 3s in row 1"),
        (SOLUTION, "Every cell is filled in"),
    ],
)
def test_a_malformed_puzzle_is_refused_with_words_that_say_why(text, said):
    with pytest.raises(BadPuzzle, match=said):
        givens_of(text)


def test_the_engine_finds_the_one_solution_and_rates_it():
    verdict = verdict_of(GIVENS, ADDRESS)
    assert verdict.solution == SOLUTION and verdict.tier == "easy" and verdict.clues == 81 - GIVENS.count("0")


@pytest.mark.parametrize(("givens", "said"), [(NONE, "has no solution"), (SEVERAL, "more than one solution")])
def test_a_puzzle_without_exactly_one_solution_is_not_served(givens, said):
    with pytest.raises(BadPuzzle, match=said):
        verdict_of(givens, ADDRESS)


def test_a_check_past_the_time_cap_is_refused(settings):
    settings.BROUGHT_CHECK_SECONDS = 0.05
    with pytest.raises(BadPuzzle, match=r"took longer than the site allows \(0.05 seconds\)"):
        verdict_of(SLOW, ADDRESS)


@time_machine.travel(MID_WINDOW, tick=False)  # a fixed window's count, not its turn
def test_an_address_may_have_so_many_new_puzzles_checked_an_hour_and_a_known_one_is_free(settings):
    settings.BROUGHT_CHECKS_PER_HOUR = 2
    verdict_of(GIVENS, ADDRESS)
    with pytest.raises(BadPuzzle):
        verdict_of(SEVERAL, ADDRESS)
    verdict_of(GIVENS, ADDRESS)  # kept: it costs the engine nothing and counts for nothing
    with pytest.raises(ChecksTooFast, match="try again in about"):
        verdict_of(NONE, ADDRESS)
    with pytest.raises(BadPuzzle, match="no solution"):
        verdict_of(NONE, "198.51.100.7")  # another client has its own hour


# --- the pages: the paste box and the board ------------------------------------------------------


def test_play_without_a_puzzle_is_the_paste_box(client):
    response = client.get("/play/")
    assert response.status_code == 200
    assert b'name="p"' in response.content and b"not ranked" in response.content


def test_a_pasted_puzzle_with_dots_is_sent_to_its_one_address(client):
    response = client.get("/play/", {"p": GIVENS.replace("0", ".")})
    assert response.status_code == 302 and response["Location"] == page()


@pytest.mark.parametrize(
    ("givens", "status", "said"),
    [("12345", 400, b"81 cells"), (SEVERAL, 422, b"more than one solution"), (NONE, 422, b"no solution")],
)
def test_a_puzzle_that_is_not_served_gives_the_paste_box_saying_why(client, givens, status, said):
    response = client.get("/play/", {"p": givens})
    assert response.status_code == status and said in response.content
    assert b'role="alert"' in response.content and b"sudoku-grid" not in response.content


def test_the_puzzles_board_shows_its_givens_and_rating_never_its_solution_and_writes_nothing(client):
    before = rows()
    response = client.get(page())
    assert response.status_code == 200
    body = response.content.decode()
    assert GIVENS in body and SOLUTION not in body and "Easy" in body and "not ranked" in body
    assert f"/api/play/{GIVENS}/save/" in body and f"http://testserver/play/?p={GIVENS}" in body
    state = client.get(api("state")).json()
    assert state["givens"] == GIVENS and state["player"] is None and SOLUTION not in str(state)
    assert rows() == before


def test_too_many_new_puzzles_from_one_address_is_a_429(client, settings):
    settings.BROUGHT_CHECKS_PER_HOUR = 0
    response = client.get(page())
    assert response.status_code == 429 and response["Retry-After"]


# --- playing it -----------------------------------------------------------------------------------


def test_a_visitors_first_move_stores_the_puzzle_and_makes_a_guest_who_keeps_it(client):
    digits = "4" + "0" * 80
    response = post(client, api("save"), {"version": 0, "digits": digits, "moves": [[0, "d", [[0, 4]]]]})
    assert response.status_code == 200 and response.json()["version"] == 1
    attempt = BroughtAttempt.objects.get()
    assert is_guest(attempt.user) and attempt.puzzle.solution == SOLUTION and attempt.moves_logged == 1
    state = client.get(api("state")).json()
    assert state["digits"] == digits and state["version"] == 1 and state["started"] and SOLUTION not in str(state)


@pytest.mark.parametrize("name", ["save", "beat", "submit", "hint", "check"])
def test_every_write_needs_the_csrf_token(db, name):
    client = Client(enforce_csrf_checks=True)
    response = post(client, api(name), {"version": 0, "digits": "0" * 81, "phase": "open"})
    assert response.status_code == 403 and not BroughtPuzzle.objects.exists() and not User.objects.exists()


def test_a_write_for_a_puzzle_the_site_does_not_serve_is_a_404_and_makes_nobody(client):
    response = post(client, api("save", SEVERAL), {"version": 0, "digits": "0" * 81})
    assert response.status_code == 404 and "more than one solution" in response.json()["error"]
    assert rows()["User"] == 0 and not BroughtPuzzle.objects.exists()


def test_a_stale_save_is_refused_with_the_newest_state(player):
    post(player, api("save"), {"version": 0, "digits": "4" + "0" * 80})
    response = post(player, api("save"), {"version": 0, "digits": "0" * 80 + "2"})
    assert response.status_code == 409 and response.json()["state"]["digits"] == "4" + "0" * 80


def test_a_hint_and_a_check_answer_as_on_a_daily_without_the_solution(player):
    hint = post(player, api("hint"), {"digits": "0" * 81, "corner": [""] * 81, "centre": [""] * 81})
    assert hint.status_code == 200 and hint.json()["stage"] == 1
    wrong = "5" + "0" * 80  # the first cell is a 4
    check = post(player, api("check"), {"digits": wrong})
    assert check.json() == {"wrong": [0], "checks": 1}
    attempt = BroughtAttempt.objects.get()
    assert (attempt.hints_used, attempt.checks_used) == (1, 1)
    assert SOLUTION not in hint.content.decode() + check.content.decode()


@time_machine.travel(MID_WINDOW, tick=False)  # a fixed window's count, not its turn
def test_hints_are_limited_a_minute(player, settings):
    settings.HINTS_PER_MINUTE = 1
    post(player, api("hint"), {"digits": "0" * 81})
    response = post(player, api("hint"), {"digits": "4" + "0" * 80})
    assert response.status_code == 429


def solve(client: Client) -> None:
    post(client, api("beat"), {"phase": "open"})
    cells = [i for i, g in enumerate(GIVENS) if g == "0"]
    moves = [[len(cells) - n, "d", [[cell, int(SOLUTION[cell])]]] for n, cell in enumerate(cells)]
    digits = player_digits(SOLUTION, GIVENS)
    assert (
        post(client, api("save"), {"version": 0, "digits": digits[:40] + "0" * 41, "moves": moves[:20]}).status_code
        == 200
    )
    response = post(client, api("submit"), {"version": 1, "digits": digits, "moves": moves[20:]})
    assert response.status_code == 200 and response.json()["solved"] is True


def test_a_wrong_grid_is_not_solved(player):
    digits = player_digits(SOLUTION, GIVENS)
    response = post(player, api("submit"), {"version": 0, "digits": "0" + digits[1:]})
    assert response.json() == {"solved": False, "message": "Not quite: some cells are still empty.", "version": 1}


def test_the_solve_shows_its_results_and_review_and_says_it_is_not_ranked(player, user):
    solve(player)
    response = player.get(f"/play/{GIVENS}/results/")
    body = response.content.decode()
    assert response.status_code == 200 and 'data-solved="true"' in body
    assert "not ranked, moves no rating, and counts for no streak or leaderboard" in body
    assert 'data-review-state="ready"' in body and "placements:" in body
    assert f"/play/?p={GIVENS}" in body
    assert post(player, api("save"), {"version": 2, "digits": "0" * 81}).status_code == 409  # solved


def test_a_review_the_engine_cannot_make_in_time_is_said_so(player, settings):
    solve(player)
    settings.BROUGHT_CHECK_SECONDS = 0.00001  # the review may take three times this
    body = player.get(f"/play/{GIVENS}/results/").content.decode()
    assert 'data-review-state="missing"' in body and "could not be made in the time" in body


def test_nobody_else_reads_a_players_results(player, client):
    solve(player)
    other = Client()
    other.force_login(User.objects.create_user("bob"))
    assert other.get(f"/play/{GIVENS}/results/").status_code == 404
    assert Client().get(f"/play/{GIVENS}/results/").status_code == 404


def test_a_brought_solve_enters_no_pool_ranking_rating_or_profile(player, client):
    solve(player)
    player.get(f"/play/{GIVENS}/results/")  # the review made
    tables = (Puzzle, DailyPuzzle, Attempt, Solve, PlayEvent, Hint, SolveReview, TechniqueUse, PlayerRating)
    tables += (PracticePosition,)
    for model in tables:
        assert not model.objects.exists(), model.__name__
    assert GIVENS not in client.get("/archive/", follow=True).content.decode()


def test_a_players_read_of_the_state_writes_nothing(player):
    before = rows()
    state = player.get(api("state")).json()
    assert state["player"]["name"] == "ada" and state["started"] is False
    assert rows() == before


def test_the_players_data_download_holds_their_brought_puzzles_with_their_moves(player):
    solve(player)
    response = player.get("/account/export/")
    data = json.loads(b"".join(response.streaming_content))
    (brought,) = data["brought_puzzles"]
    assert brought["givens"] == GIVENS and brought["solve_seconds"] is not None and brought["tier"] == "easy"
    assert len(brought["moves"]) == GIVENS.count("0") and brought["moves"][0][1] == "d"
    assert data["attempts"] == []


def test_deleting_a_player_deletes_their_brought_attempts_and_keeps_the_puzzle(player, user):
    solve(player)
    player_delete(user)
    assert not BroughtAttempt.objects.exists() and BroughtPuzzle.objects.get().givens == GIVENS


def test_a_guests_brought_puzzles_move_to_their_account(client):
    post(client, api("save"), {"version": 0, "digits": "4" + "0" * 80})
    guest = BroughtAttempt.objects.get().user
    account = User.objects.create_user("carol")
    guest_merge(guest, account)
    assert BroughtAttempt.objects.get().user == account


def test_the_check_runs_apart_and_answers_none_when_the_child_dies():
    assert checking.within(5, lambda givens: givens.count("0"), GIVENS) == GIVENS.count("0")
    assert checking.within(5, lambda _: __import__("os")._exit(1), GIVENS) is None


def test_the_archive_has_the_paste_box(client):
    body = client.get("/archive/", follow=True).content.decode()
    assert 'action="/play/"' in body and 'name="p"' in body


def test_a_guest_who_plays_brought_puzzles_is_not_idle(client, settings):
    post(client, api("save"), {"version": 0, "digits": "4" + "0" * 80})
    guest = BroughtAttempt.objects.get().user
    later = timezone.now() + datetime.timedelta(days=settings.GUEST_TTL_DAYS + 5)
    BroughtAttempt.objects.update(updated_at=later - datetime.timedelta(days=1))
    assert guest not in guests_idle(later)
    BroughtAttempt.objects.update(updated_at=later - datetime.timedelta(days=settings.GUEST_TTL_DAYS + 1))
    assert guest in guests_idle(later)
