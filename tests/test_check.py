"""Checks (hints.check_request, POST .../check/): which of the player's digits are wrong, never
what belongs in them; an assist, so a later solve is not ranked; limited apart from the hints.
Showing mistakes asks the same as each digit is placed ("auto"), under a limit of its own."""

from __future__ import annotations

import pytest
import time_machine
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from puzzles.models import Attempt, Check, Hint, PlayEvent, Solve
from puzzles.play import hints
from puzzles.results.leaderboard import standing_of

from .factories import EASY_GIVENS, EASY_SOLUTION, make_solve, player_digits, post, solve_through_api, url

pytestmark = pytest.mark.django_db

OPEN_CELLS = [cell for cell, given in enumerate(EASY_GIVENS) if given == "0"]


def with_digits(entries: dict[int, str]) -> str:
    """The player's digits: `entries` (cell: digit) on an otherwise empty board."""
    board = ["0"] * 81
    for cell, digit in entries.items():
        board[cell] = digit
    return "".join(board)


def wrong_digit(cell: int) -> str:
    return str(int(EASY_SOLUTION[cell]) % 9 + 1)


def check(client: Client, daily, digits: object):
    return post(client, url(daily, "check"), {"digits": digits})


def test_the_check_address_is_named_like_the_boards_other_endpoints(daily):
    day = daily.date.isoformat()
    assert reverse("puzzles:api-check", args=[daily.date, "easy"]) == f"/api/daily/{day}/easy/check/"


def test_a_check_names_the_wrong_cells_and_nothing_else(player, daily):
    right, wrong_a, wrong_b = OPEN_CELLS[0], OPEN_CELLS[5], OPEN_CELLS[20]
    digits = with_digits({right: EASY_SOLUTION[right], wrong_a: wrong_digit(wrong_a), wrong_b: wrong_digit(wrong_b)})
    response = check(player, daily, digits)
    assert response.status_code == 200 and response["Cache-Control"] == "private, no-store"
    assert response.json() == {"wrong": [wrong_a, wrong_b], "checks": 1}
    # The digits sent are not saved: a check is no save.
    attempt = Attempt.objects.get()
    assert attempt.digits == "0" * 81 and attempt.version == 0 and attempt.saved_at is None
    assert attempt.checks_used == 1 and Check.objects.get().wrong == 2


def test_a_check_never_reveals_the_solution(player, daily):
    # Every open cell wrong: the answer is the cells, in order, and no digit of the solution.
    digits = with_digits({cell: wrong_digit(cell) for cell in OPEN_CELLS})
    body = check(player, daily, digits).json()
    assert body == {"wrong": OPEN_CELLS, "checks": 1}
    assert EASY_SOLUTION not in check(player, daily, player_digits()).content.decode()


def test_givens_never_count_as_wrong(player, daily):
    # The givens echoed back in their cells are stored as the player's 0, never checked.
    response = check(player, daily, EASY_GIVENS)
    assert response.status_code == 200 and response.json()["wrong"] == []


def test_an_empty_or_right_board_still_counts_as_a_check(player, daily):
    assert check(player, daily, "0" * 81).json() == {"wrong": [], "checks": 1}
    assert check(player, daily, player_digits()).json() == {"wrong": [], "checks": 2}
    assert player.get(url(daily, "state")).json()["checks"] == 2


def test_the_state_says_how_many_checks_were_used(player, daily):
    assert player.get(url(daily, "state")).json()["checks"] == 0
    check(player, daily, "0" * 81)
    assert player.get(url(daily, "state")).json()["checks"] == 1


def test_a_check_on_a_puzzle_never_started_starts_it(player, daily):
    assert check(player, daily, "0" * 81).status_code == 200
    assert Attempt.objects.get().checks_used == 1
    assert player.get(url(daily, "state")).json()["started"] is True


def test_a_solve_after_a_check_is_assisted_and_not_ranked(player, daily, user):
    make_solve(daily, "grace", 300)
    check(player, daily, "0" * 81)
    solved = post(player, url(daily, "submit"), {"version": 0, "digits": player_digits()})
    assert solved.json()["solved"] is True
    solve = Solve.objects.get(user=user)
    assert solve.assisted is True and list(Solve.objects.ranked().values_list("user__username", flat=True)) == ["grace"]
    results = player.get(f"/daily/{daily.date.isoformat()}/easy/results/").content.decode()
    assert "Not on the leaderboard" in results and "Rank 1" not in results
    assert "played on the day, without hints or checks." in results


def test_a_solve_without_hints_or_checks_is_not_counted_as_helped(player, daily):
    # Whether it ranks is then the record of play's to say (fairplay/ranking.py; this script-made solve of a
    # new account has no moves), never help it did not have.
    solve_through_api(player, daily, seconds=100)  # slower than the floor for a too-fast solve
    solve = Solve.objects.get()
    assert solve.assisted is False
    assert all("hint" not in reason for reason in standing_of(solve).reasons)


def test_a_solved_puzzle_gets_no_check_but_409_with_the_state(player, daily):
    post(player, url(daily, "submit"), {"version": 0, "digits": player_digits()})
    response = check(player, daily, player_digits())
    assert response.status_code == 409 and "solved" in response.json()["error"]
    state = response.json()["state"]
    assert state["solved"] is True and state["checks"] == 0
    assert Attempt.objects.get().checks_used == 0 and not Check.objects.exists()


@pytest.mark.parametrize(
    "digits",
    [None, "", "12", "x" * 81, "0" * 82, 5, ["0"] * 81, "9" * 81, "٣" * 81],  # "9"*81 overwrites givens
)
def test_malformed_digits_get_400_and_change_nothing(player, daily, digits):
    check(player, daily, "0" * 81)
    response = check(player, daily, digits)
    assert response.status_code == 400 and response.json()["error"]
    assert Attempt.objects.get().checks_used == 1 and Check.objects.count() == 1


def test_a_visitors_first_check_makes_a_guest_and_a_malformed_one_makes_nothing(client, daily):
    assert check(client, daily, "x").status_code == 400
    assert not User.objects.exists() and not Attempt.objects.exists()
    assert check(client, daily, "0" * 81).status_code == 200
    guest = User.objects.get(guest__isnull=False)
    assert Attempt.objects.get().user == guest and Attempt.objects.get().checks_used == 1


def test_a_check_only_ever_counts_on_the_players_own_attempt(player, daily, user):
    other = User.objects.create_user("mallory", password="a long enough password 1")
    theirs = Attempt.objects.create(user=other, daily=daily)
    post(player, url(daily, "check"), {"digits": "0" * 81, "attempt": theirs.pk, "user": other.pk})
    theirs.refresh_from_db()
    assert theirs.checks_used == 0 and Attempt.objects.get(user=user).checks_used == 1


def test_a_check_needs_json_and_a_csrf_token(user, daily):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    assert check(strict, daily, "0" * 81).status_code == 403
    strict.get(url(daily, "state"))
    token = strict.cookies["csrftoken"].value
    form = strict.post(url(daily, "check"), "digits=0", content_type="text/plain", HTTP_X_CSRFTOKEN=token)
    assert form.status_code == 415
    assert strict.get(url(daily, "check")).status_code == 405
    assert not Attempt.objects.exists()
    assert post(strict, url(daily, "check"), {"digits": "0" * 81}, HTTP_X_CSRFTOKEN=token).status_code == 200


def test_too_many_checks_in_a_minute_are_refused_with_retry_after(player, daily, settings):
    settings.CHECKS_PER_MINUTE = 2
    with time_machine.travel(timezone.now(), tick=False) as clock:
        assert check(player, daily, "0" * 81).status_code == 200
        clock.shift(20)
        assert check(player, daily, "0" * 81).status_code == 200
        refused = check(player, daily, "0" * 81)
        assert refused.status_code == 429 and "checks" in refused.json()["error"]
        assert refused["Retry-After"] == "40" and refused.json()["retry_after"] == 40
        assert Attempt.objects.get().checks_used == 2 and Check.objects.count() == 2
        clock.shift(41)
        assert check(player, daily, "0" * 81).status_code == 200


def test_hints_and_checks_are_limited_apart(player, daily, settings):
    settings.HINTS_PER_MINUTE = 1
    settings.CHECKS_PER_MINUTE = 1
    assert post(player, url(daily, "hint"), {"digits": "0" * 81}).status_code == 200
    assert check(player, daily, "0" * 81).status_code == 200  # a hint took none of the checks
    refused = check(player, daily, "0" * 81)
    assert refused.status_code == 429 and "checks" in refused.json()["error"]
    another = post(player, url(daily, "hint"), {"digits": "4" + "0" * 80})
    assert another.status_code == 429 and "hints" in another.json()["error"]
    attempt = Attempt.objects.get()
    assert (attempt.hints_used, attempt.checks_used, Hint.objects.count(), Check.objects.count()) == (1, 1, 1, 1)


def test_a_beginner_stepping_through_two_hints_can_still_check(player, daily):
    # The case: two hints of three presses each, then Check, all within the defaults.
    for digits in ("0" * 81, "4" + "0" * 80):
        for _ in range(3):
            assert post(player, url(daily, "hint"), {"digits": digits}).status_code == 200
    assert check(player, daily, "0" * 81).status_code == 200


def test_another_players_checks_do_not_count_against_the_limit(player, daily, settings):
    settings.CHECKS_PER_MINUTE = 1
    other = User.objects.create_user("grace", password="a long enough password 1")
    hints.check_request(other, daily, "0" * 81)
    assert check(player, daily, "0" * 81).status_code == 200


def auto_check(client: Client, daily, digits: object):
    """The check showing mistakes makes as a digit is placed."""
    return post(client, url(daily, "check"), {"digits": digits, "auto": True})


def test_a_check_as_a_digit_is_placed_counts_like_a_check_under_a_limit_of_its_own(player, daily, user, settings):
    settings.CHECKS_PER_MINUTE = 1
    settings.AUTO_CHECKS_PER_MINUTE = 3
    wrong = OPEN_CELLS[3]
    digits = with_digits({OPEN_CELLS[0]: EASY_SOLUTION[OPEN_CELLS[0]], wrong: wrong_digit(wrong)})
    with time_machine.travel(timezone.now(), tick=False) as clock:
        assert check(player, daily, "0" * 81).status_code == 200
        assert check(player, daily, "0" * 81).status_code == 429  # a press of Check: one a minute here
        for auto in ("true", 1, None):  # only true itself is the board's check of a placement
            assert post(player, url(daily, "check"), {"digits": "0" * 81, "auto": auto}).status_code == 429
        clock.shift(5)
        # The answer is a check's, and it is counted as one: on the attempt, and in the record of play.
        response = auto_check(player, daily, digits)
        assert response.status_code == 200 and response.json() == {"wrong": [wrong], "checks": 2}
        assert Check.objects.latest("created").wrong == 1 and Attempt.objects.get().digits == "0" * 81
        assert list(PlayEvent.objects.values_list("kind", flat=True)) == [PlayEvent.Kind.CHECK] * 2
        assert auto_check(player, daily, digits).status_code == 200
        refused = auto_check(player, daily, digits)  # the press of Check counted: three in the minute
        assert refused.status_code == 429 and "checks" in refused.json()["error"]
        assert refused.json()["retry_after"] == 55
        assert Attempt.objects.get().checks_used == 3 and Check.objects.count() == 3
        assert player.get(url(daily, "state")).json()["checks"] == 3
        clock.shift(56)
        assert auto_check(player, daily, digits).status_code == 200
    # A solve with mistakes shown had checks: it is not ranked.
    make_solve(daily, "grace", 300)
    assert post(player, url(daily, "submit"), {"version": 0, "digits": player_digits()}).json()["solved"] is True
    solve = Solve.objects.get(user=user)
    assert solve.assisted and not Solve.objects.ranked().filter(pk=solve.pk).exists()
