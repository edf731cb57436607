"""Hints that explain: staging from the player's own position, mistakes, limits, and recording."""

import json

import pytest
import time_machine
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from puzzles.engine import UNITS
from puzzles.models import Attempt, Hint, Solve
from puzzles.play import hints

from .factories import EASY_GIVENS, EASY_SOLUTION, player_digits, post, url

pytestmark = pytest.mark.django_db

GIVENS, SOLUTION = EASY_GIVENS, EASY_SOLUTION
EMPTY = "0" * 81
NO_NOTES = [""] * 81
BOX_5 = 22  # unit index: rows 0-8, columns 9-17, boxes 18-26
R5C6 = 41  # from the start, r5c6 sees every digit but 4: a naked single


def position(digits=EMPTY, centre=None, corner=None):
    return {"digits": digits, "corner": corner or NO_NOTES, "centre": centre or NO_NOTES}


def with_digit(cell, digit, digits=EMPTY):
    return digits[:cell] + str(digit) + digits[cell + 1 :]


def ask(client, daily, payload=None):
    return post(client, url(daily, "hint"), payload if payload is not None else position())


# --- staging --------------------------------------------------------------------------------


def test_the_first_hint_says_only_where_to_look(player, daily):
    response = ask(player, daily)
    assert response.status_code == 200
    hint = response.json()
    assert hint["stage"] == 1 and hint["kind"] == "step" and hint["final"] is False
    assert hint["unit"] == {"index": BOX_5, "name": "box 5", "cells": list(UNITS[BOX_5])}
    assert hint["highlight"] == list(UNITS[BOX_5])
    assert "box 5" in hint["message"]
    # Nothing of the technique, the cell or the digit yet.
    assert set(hint) == {"stage", "kind", "final", "unit", "highlight", "message", "hints_used"}
    text = response.content.decode()
    assert "single" not in text and "r5c6" not in text and "placements" not in text


def test_asking_again_on_the_same_position_names_the_technique_and_then_the_step(player, daily):
    ask(player, daily)
    second = ask(player, daily).json()
    assert second["stage"] == 2
    assert second["technique"]["name"] == "naked-single"
    assert second["technique"]["title"] == "Naked single" and second["technique"]["about"]
    assert second["unit"]["name"] == "box 5"
    assert "placements" not in second and "explanation" not in second and "cells" not in second
    assert "r5c6" not in json.dumps(second)

    third = ask(player, daily).json()
    assert third["stage"] == 3 and third["final"] is True
    assert third["placements"] == [{"cell": R5C6, "name": "r5c6", "digit": 4}]
    assert third["eliminations"] == []
    assert third["highlight"] == [R5C6]
    assert third["explanation"].startswith("Row 5, column 6 (r5c6)") and "4" in third["explanation"]


def test_a_fourth_request_repeats_the_last_stage_and_is_recorded_again_as_the_same_hint(player, daily):
    for _ in range(3):
        ask(player, daily)
    again = ask(player, daily).json()
    # hints_used counts hints, not stages: the stages of one hint are one hint.
    assert again["stage"] == 3 and again["hints_used"] == 1
    assert Hint.objects.count() == 4 and Attempt.objects.get().hints_used == 1


def test_a_changed_position_starts_again_at_stage_one(player, daily):
    ask(player, daily)
    ask(player, daily)
    moved = ask(player, daily, position(with_digit(R5C6, 4))).json()
    assert moved["stage"] == 1
    # Changing only the centre notes is a new position too.
    centre = list(NO_NOTES)
    centre[0] = "48"
    assert ask(player, daily, position(with_digit(R5C6, 4))).json()["stage"] == 2
    assert ask(player, daily, position(with_digit(R5C6, 4), centre=centre)).json()["stage"] == 1


def test_corner_notes_are_not_candidates_and_do_not_change_the_position(player, daily):
    corner = list(NO_NOTES)
    corner[R5C6] = "1"  # would rule out the 4 if it were read as a candidate list
    first = ask(player, daily, position(corner=corner)).json()
    assert first["kind"] == "step"
    assert ask(player, daily, position()).json()["stage"] == 2


def test_centre_notes_are_the_players_candidates(player, daily):
    centre = list(NO_NOTES)
    centre[0] = "4"  # r1c1 narrowed to its right digit: now the first naked single
    for _ in range(3):
        hint = ask(player, daily, position(centre=centre)).json()
    assert hint["placements"] == [{"cell": 0, "name": "r1c1", "digit": 4}]


def test_a_wrong_digit_is_pointed_out_a_stage_at_a_time(player, daily):
    wrong = with_digit(0, 1)  # r1c1 is 4; box 1 already has a given 1 in r3c3
    first = ask(player, daily, position(wrong)).json()
    assert first["kind"] == "wrong-digit" and first["stage"] == 1
    assert "wrong" in first["message"] and first["unit"]["name"] == "box 1"
    assert "cell" not in first and "r1c1" not in json.dumps(first)
    second = ask(player, daily, position(wrong)).json()
    assert second["cell"] == {"index": 0, "name": "r1c1"} and second["highlight"] == [0]
    assert "explanation" not in second
    third = ask(player, daily, position(wrong)).json()
    assert "r3c3" in third["explanation"] and third["eliminations"] == [{"cell": 0, "name": "r1c1", "digit": 1}]
    assert Hint.objects.filter(technique="wrong-digit").count() == 3


def test_notes_that_leave_out_the_right_digit_are_pointed_out(player, daily):
    centre = list(NO_NOTES)
    centre[0] = "58"  # r1c1 needs its 4
    first = ask(player, daily, position(centre=centre)).json()
    assert first["kind"] == "missing-candidate" and "notes" in first["message"]
    assert "r1c1" not in json.dumps(first)
    assert ask(player, daily, position(centre=centre)).json()["cell"]["name"] == "r1c1"
    last = ask(player, daily, position(centre=centre)).json()
    # r1c1's candidates are 4 and 5: the notes keep the 5 and leave out only the 4.
    assert "leave out 4," in last["explanation"] and "put it back" in last["explanation"]


def test_a_full_correct_board_asks_for_a_submit_and_records_nothing(player, daily):
    hint = ask(player, daily, position(player_digits(SOLUTION))).json()
    assert hint["kind"] == "complete" and hint["stage"] == 0 and "submit" in hint["message"]
    assert not Hint.objects.exists() and Attempt.objects.get().hints_used == 0


def test_no_hint_ever_carries_the_solution(player, daily):
    for payload in (position(), position(with_digit(0, 1))):
        for _ in range(3):
            text = ask(player, daily, payload).content.decode()
            assert SOLUTION not in text and "solution" not in text


# --- refusals -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("payload", "status"),
    [
        ({"digits": "12"}, 400),
        ({}, 400),
        ({"digits": "x" * 81}, 400),
        ({"digits": "9" * 81}, 400),  # overwrites givens
        ({"digits": EMPTY, "centre": ["1"] * 80}, 400),
        ({"digits": EMPTY, "centre": ["11"] + [""] * 80}, 400),
        ({"digits": EMPTY, "corner": ["<b>"] + [""] * 80}, 400),
        ({"digits": EMPTY, "centre": [7] + [""] * 80}, 400),
        ({"digits": 5}, 400),
        ([1, 2, 3], 400),
        ("{not json", 400),
        ({"digits": EMPTY, "pad": "x" * 20000}, 413),
    ],
)
def test_bad_payloads_are_refused_with_a_message_and_record_nothing(player, daily, payload, status):
    response = ask(player, daily, payload)
    assert response.status_code == status
    assert response.json()["error"]
    assert not Hint.objects.exists()
    assert not Attempt.objects.filter(hints_used__gt=0).exists()


def test_a_visitors_hint_is_asked_as_a_new_guest(daily):
    response = ask(Client(), daily)
    assert response.status_code == 200
    assert Hint.objects.get().user.guest


def test_a_hint_needs_a_csrf_token(daily, user):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    refused = ask(strict, daily)
    assert refused.status_code == 403 and "reload" in refused.json()["error"]
    assert not Hint.objects.exists()
    strict.get(url(daily, "state"))  # what the board asks first; it sets the CSRF cookie
    token = strict.cookies["csrftoken"].value
    assert post(strict, url(daily, "hint"), position(), HTTP_X_CSRFTOKEN=token).status_code == 200


def test_a_hint_is_a_post(player, daily):
    assert player.get(url(daily, "hint")).status_code == 405


def test_a_solved_puzzle_gets_no_hints(player, daily):
    player.get(url(daily))
    post(player, url(daily, "submit"), {"version": 0, "digits": player_digits(SOLUTION)})
    response = ask(player, daily)
    assert response.status_code == 409 and "solved" in response.json()["error"]
    assert not Hint.objects.exists()


def new_positions(count):
    """`count` different positions, each a step further along: the right digit in one more cell."""
    digits, out = EMPTY, []
    for cell in [c for c, g in enumerate(GIVENS) if g == "0"][:count]:
        out.append(position(digits))
        digits = with_digit(cell, SOLUTION[cell], digits)
    return out


def test_too_many_hints_in_a_minute_are_refused_with_retry_after(player, daily, settings):
    settings.HINTS_PER_MINUTE = 3
    first, second, third, fourth = new_positions(4)
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        for payload in (first, second, third):
            assert ask(player, daily, payload).status_code == 200
            clock.shift(10)
        refused = ask(player, daily, fourth)
        assert refused.status_code == 429
        # The first hint, 30 seconds ago, leaves the minute in 30 seconds; the message says what is limited.
        assert "hints" in refused.json()["error"] and refused["Retry-After"] == "30"
        assert refused.json()["retry_after"] == 30
        attempt = Attempt.objects.get()
        assert Hint.objects.count() == 3 and attempt.hints_used == 3 and attempt.hint_stage == 1
        # The hint in progress goes on: its later stages are free.
        assert ask(player, daily, third).json()["stage"] == 2
        assert ask(player, daily, third).json()["stage"] == 3
        clock.shift(31)
        assert ask(player, daily, fourth).status_code == 200


def test_the_stages_of_one_hint_are_one_hint(player, daily, settings):
    settings.HINTS_PER_MINUTE = 1
    first, second = new_positions(2)
    with time_machine.travel(timezone.now(), tick=False):
        assert [ask(player, daily, first).json()["stage"] for _ in range(3)] == [1, 2, 3]
        assert Attempt.objects.get().hints_used == 1
        refused = ask(player, daily, second)
        assert refused.status_code == 429 and "hints" in refused.json()["error"]


def test_showing_the_last_stage_again_and_again_is_limited_too(player, daily, settings):
    settings.HINTS_PER_MINUTE = 1
    with time_machine.travel(timezone.now(), tick=False):
        for _ in range(3):  # a hint's three stages: the most requests one hint allows in a minute
            assert ask(player, daily).status_code == 200
        refused = ask(player, daily)
        assert refused.status_code == 429 and "hint requests" in refused.json()["error"]
        assert Hint.objects.count() == 3


def test_the_limit_counts_the_players_hints_on_every_daily_but_no_one_elses(player, daily, settings, user):
    settings.HINTS_PER_MINUTE = 2
    first, second = new_positions(2)
    other = User.objects.create_user("grace", password="a long enough password 1")
    Attempt.objects.create(user=other, daily=daily)
    for payload in (first, second):
        hints.hint_request(other, daily, payload["digits"], NO_NOTES, NO_NOTES)
    assert ask(player, daily, first).status_code == 200
    # The player's own hint elsewhere counts against the same minute.
    Hint.objects.create(attempt=Attempt.objects.get(user=user), user=user, stage=1, technique="x")
    assert ask(player, daily, second).status_code == 429


# --- recording ------------------------------------------------------------------------------


def test_each_hint_is_recorded_on_the_attempt_and_the_later_solve_is_marked_hinted(player, daily, user):
    player.get(url(daily))
    ask(player, daily)
    ask(player, daily)
    attempt = Attempt.objects.get()
    # Two stages of one hint: one hint used, both stages in the record.
    assert attempt.hints_used == 1 and attempt.hint_stage == 2 and attempt.hint_position
    assert attempt.digits == EMPTY and attempt.version == 0  # the position sent is not saved
    assert list(Hint.objects.values_list("user", "stage", "technique")) == [
        (user.pk, 1, "naked-single"),
        (user.pk, 2, "naked-single"),
    ]
    solved = post(player, url(daily, "submit"), {"version": 0, "digits": player_digits(SOLUTION)})
    assert solved.json()["solved"] is True
    assert Solve.objects.get().assisted is True
    assert not Solve.objects.ranked().exists()


def test_a_hint_only_ever_touches_the_players_own_attempt(player, daily, user):
    other = User.objects.create_user("mallory", password="a long enough password 1")
    theirs = Attempt.objects.create(user=other, daily=daily)
    ask(player, daily, {**position(), "attempt": theirs.pk, "user": other.pk})
    theirs.refresh_from_db()
    assert theirs.hints_used == 0
    assert Attempt.objects.get(user=user).hints_used == 1
    assert Hint.objects.get().user == user


# --- locking (PostgreSQL) -------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_hints_at_once_on_one_position_reveal_two_stages(postgres, todays_easy):
    import threading

    from django.db import connections

    user = User.objects.create_user("ada", password="a long enough password 1")
    attempt = Attempt.objects.create(user=user, daily=todays_easy)
    for _round in range(3):
        Attempt.objects.filter(pk=attempt.pk).update(hint_stage=0, hint_position="")
        barrier = threading.Barrier(2)
        stages, errors = [], []

        def run():
            try:
                barrier.wait()
                stages.append(hints.hint_request(user, todays_easy, EMPTY, NO_NOTES, NO_NOTES).stage)
            except BaseException as exc:  # reported below
                errors.append(exc)
            finally:
                connections.close_all()

        threads = [threading.Thread(target=run) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        assert not errors
        assert sorted(stages) == [1, 2]
    assert Attempt.objects.get(pk=attempt.pk).hints_used == 3  # three hints, of two stages each


def relabelled(grid, shift):
    """The same puzzle with its digits renamed (d -> d + shift, mod 9): another valid puzzle."""
    return "".join("0" if ch == "0" else str((int(ch) - 1 + shift) % 9 + 1) for ch in grid)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_hints_at_once_on_several_dailies_never_pass_the_players_limit(postgres, todays_easy, settings):
    import threading

    from django.db import connections

    from .factories import make_daily, make_known_puzzle

    settings.HINTS_PER_MINUTE = 3
    user = User.objects.create_user("ada", password="a long enough password 1")
    attempts = [Attempt.objects.create(user=user, daily=todays_easy)]
    for shift, tier in ((1, "medium"), (2, "hard")):
        puzzle = make_known_puzzle(
            relabelled(GIVENS, shift), relabelled(SOLUTION, shift), techniques={"naked-single": 49}
        )
        daily = make_daily(todays_easy.date, tier, puzzle)
        attempts.append(Attempt.objects.create(user=user, daily=daily))
    # Each request a new hint: two positions on each daily.
    jobs = [(a.daily, digits) for a in attempts for digits in (EMPTY, with_digit(80, 9))]
    barrier = threading.Barrier(len(jobs))
    outcomes, errors = [], []

    def run(daily, digits):
        try:
            barrier.wait()
            hints.hint_request(user, daily, digits, NO_NOTES, NO_NOTES)
            outcomes.append("shown")
        except hints.HintsTooFast:
            outcomes.append("refused")
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=job) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors
    assert sorted(outcomes) == ["refused"] * 3 + ["shown"] * 3
    assert Hint.objects.count() == 3
    assert sum(a.hints_used for a in Attempt.objects.all()) == 3


def test_the_state_says_how_far_the_hint_for_the_stored_position_has_gone(player, daily):
    base = f"/api/daily/{daily.date.isoformat()}/{daily.difficulty}/"
    position = {"version": 0, "digits": "0" * 81, "corner": [""] * 81, "centre": [""] * 81}
    assert player.post(base + "save/", json.dumps(position), content_type="application/json").status_code == 200
    assert player.get(base + "state/").json()["hint_stage"] == 0
    for _ in range(2):
        player.post(base + "hint/", json.dumps(position), content_type="application/json")
    assert player.get(base + "state/").json()["hint_stage"] == 2
    moved = {**position, "version": 1, "digits": "4" + "0" * 80}
    assert player.post(base + "save/", json.dumps(moved), content_type="application/json").status_code == 200
    assert player.get(base + "state/").json()["hint_stage"] == 0
    assert Attempt.objects.get().hints_used == 1  # one hint, two stages


def test_the_state_says_how_many_hints_the_attempt_has_had_so_the_board_asks_before_the_first(player, daily):
    assert player.get(url(daily, "state")).json()["hints"] == 0
    for digits in (EMPTY, EMPTY, with_digit(0, 4)):  # two hints, the first of them shown in two stages
        ask(player, daily, position(digits))
    assert player.get(url(daily, "state")).json()["hints"] == 2
    solved = post(player, url(daily, "submit"), {"version": 0, "digits": player_digits()})
    assert solved.json()["solved"] is True and solved.json()["state"]["hints"] == 2
    assert player.get(url(daily, "state")).json()["hints"] == 2


# A top-1465 puzzle whose first step is a hidden single: 7 has one place in box 7, r9c3.
HIDDEN_GIVENS = "400030000000600800000000001000050090080000600070200000000102700503000040900000000"
HIDDEN_SOLUTION = "468931527751624839392578461134756298289413675675289314846192753513867942927345186"


def test_hints_stage_a_known_hidden_single_where_to_look_then_what_then_where(player, daily):
    from .factories import make_daily, make_known_puzzle

    puzzle = make_known_puzzle(HIDDEN_GIVENS, HIDDEN_SOLUTION, tier="extreme", score=80, hardest="trial-and-error")
    hard = make_daily(daily.date, "extreme", puzzle)
    empty = {"digits": "0" * 81, "corner": [""] * 81, "centre": [""] * 81}
    first, second, third = (ask(player, hard, empty).json() for _ in range(3))
    assert (first["stage"], first["unit"]["name"]) == (1, "box 7")
    assert "technique" not in first and "7" not in first["message"].replace("box 7", "")
    assert (second["stage"], second["technique"]["name"], second["technique"]["title"]) == (
        2,
        "hidden-single",
        "Hidden single",
    )
    assert "placements" not in second
    assert third["stage"] == 3 and third["placements"] == [{"cell": 74, "name": "r9c3", "digit": 7}]
    assert third["explanation"] == "In box 7, 7 can only go in row 9, column 3 (r9c3), so it goes there."
    assert HIDDEN_SOLUTION not in json.dumps([first, second, third])
