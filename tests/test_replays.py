"""Replays (puzzles/replays.py, views/replays.py): a solve's moves on the player's clock of active
time, the digits after each write, and who may watch: the solver, players who solved that daily
(the ranked solves), staff (any); a 404 for everyone else, the same as for no solve at all."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from puzzles.fairplay.replays import replay_visible, timeline_of
from puzzles.models import Attempt, Guest, PlayEvent, Solve
from puzzles.record_of_play.moves import moves_clean, pack
from tests.conftest import EASY_GIVENS, EASY_SOLUTION
from tests.factories import make_daily, make_solve, player_digits

pytestmark = pytest.mark.django_db

T0 = timezone.make_aware(datetime.datetime(2026, 3, 1, 9, 0))
SOLVED = player_digits()  # the player's digits of the whole solution


def make_events(attempt: Attempt, *events: tuple) -> None:
    """The attempt's record of play: (kind, seconds after T0[, moves as the board sends them[, digits]]),
    the attempt started at T0."""
    attempt.started_at = T0
    attempt.save(update_fields=["started_at"])
    for kind, at, *rest in events:
        moves = rest[0] if rest else []
        digits = rest[1] if len(rest) > 1 else ""
        PlayEvent.objects.create(
            attempt=attempt,
            kind=kind,
            arrived_at=T0 + datetime.timedelta(seconds=at),
            moves=pack(moves_clean(moves)),
            placed=sum(1 for move in moves if move[1] == "d" for _, value in move[2] if value),
            digits=digits,
        )


def digits_with(**cells: int) -> str:
    """The player's 81 digits with the cells named c<i> set."""
    digits = ["0"] * 81
    for name, value in cells.items():
        digits[int(name[1:])] = str(value)
    return "".join(digits)


def ms_of(timeline) -> list[int]:
    return [move.ms for move in timeline.moves]


# ---- The timeline. ----


def test_moves_are_placed_on_the_clock_of_active_time_and_time_away_does_not_pass(todays_easy):
    solve = make_solve(todays_easy, "ada", 60)
    make_events(
        solve.attempt,
        ("open", 0),
        ("save", 10, [[2000, "d", [[0, 4]]], [500, "c", [[1, "56"]]]], digits_with(c0=4)),
        ("close", 20),
        # The page's last save often lands just after its close: its move sits where the clock stopped.
        ("save", 25, [[6000, "n", [[3, "19"]]]], digits_with(c0=4)),
        ("open", 100),  # 80 s away: none of it on the replay's clock
        ("save", 130, [[5000, "d", [[3, 9]]]], digits_with(c0=4, c3=9)),
        ("submit", 140, [[1000, "d", [[1, 8]]]], SOLVED),
    )
    timeline = timeline_of(solve)
    assert timeline.givens == EASY_GIVENS
    assert ms_of(timeline) == [8_000, 9_500, 20_000, 45_000, 59_000]
    assert [(w.after, w.ms) for w in timeline.writes] == [(2, 10_000), (3, 20_000), (4, 50_000), (5, 60_000)]
    assert timeline.writes[-1].digits == SOLVED
    assert timeline.end_ms == 60_000
    assert timeline.seconds == 60
    assert timeline.as_dict()["moves"][1] == [9_500, "c", [[1, "56"]]]


def test_a_record_that_kept_its_clock_is_replayed_on_it_and_ends_at_the_solves_time(todays_easy):
    solve = make_solve(todays_easy, "ada", 60)
    make_events(
        solve.attempt,
        ("open", 0),
        ("save", 10, [[2000, "d", [[0, 4]]]], digits_with(c0=4)),
        ("close", 20),
        # 80 s later, of which the clock counted 30: a move aged 50 s was made off the clock.
        ("save", 100, [[50_000, "d", [[3, 9]]], [1000, "d", [[1, 8]]]], digits_with(c0=4, c1=8, c3=9)),
        ("submit", 110, [[0, "d", [[2, 1]]]], SOLVED),
    )
    for event, clock in zip(PlayEvent.objects.order_by("id"), [0, 10, 20, 50, 60]):
        PlayEvent.objects.filter(pk=event.pk).update(clock=clock)
    timeline = timeline_of(solve)
    assert ms_of(timeline) == [8_000, 20_000, 49_000, 60_000]
    assert [(w.after, w.ms) for w in timeline.writes] == [(1, 10_000), (3, 50_000), (4, 60_000)]
    assert timeline.end_ms == 60_000 == solve.seconds * 1000


def test_a_move_is_never_placed_before_the_event_that_came_before_its_write(todays_easy):
    solve = make_solve(todays_easy, "ada", 30)
    make_events(
        solve.attempt,
        ("open", 0),
        ("hint", 10),
        # Made (by its age) 15 s before it arrived, before the hint: placed at the hint's moment.
        ("save", 12, [[15_000, "d", [[0, 4]]], [1_000, "d", [[1, 8]]]], digits_with(c0=4, c1=8)),
        ("submit", 30, [], SOLVED),
    )
    assert ms_of(timeline_of(solve)) == [10_000, 11_000]


def test_a_second_open_while_the_clock_runs_changes_nothing(todays_easy):
    solve = make_solve(todays_easy, "ada", 20)
    make_events(
        solve.attempt,
        ("open", 0),
        ("open", 5),  # a second tab
        ("close", 10),
        ("close", 12),  # both tabs closed: nothing more to stop
        ("open", 50),
        ("submit", 60, [[0, "d", [[0, 4]]]], SOLVED),
    )
    timeline = timeline_of(solve)
    assert ms_of(timeline) == [20_000]
    assert timeline.end_ms == 20_000


def test_a_write_after_a_close_restarts_the_clock_only_if_it_was_made_after_the_close(todays_easy):
    solve = make_solve(todays_easy, "ada", 30)
    make_events(
        solve.attempt,
        ("open", 0),
        ("close", 10),
        # Its move was made 50 s after the close: the page was open again, its open never arrived.
        ("save", 62, [[2000, "d", [[0, 4]]]], digits_with(c0=4)),
        ("close", 70),
        ("submit", 300, [[0, "d", [[3, 9]]]], SOLVED),  # a write with nothing before it: from now
    )
    timeline = timeline_of(solve)
    assert ms_of(timeline) == [10_000, 20_000]  # 10 s, then 60 to 70 s; the submit adds nothing
    assert timeline.end_ms == 20_000


def test_a_record_without_an_open_runs_from_its_first_move(todays_easy):
    # A guest's: their first move made the attempt, so no open came before it.
    solve = make_solve(todays_easy, "ada", 30)
    make_events(
        solve.attempt,
        ("save", 10, [[3000, "d", [[0, 4]]], [1000, "d", [[1, 8]]]], digits_with(c0=4, c1=8)),
        ("close", 30),
        ("open", 200),
        ("submit", 205, [[2000, "d", [[3, 9]]]], SOLVED),
    )
    timeline = timeline_of(solve)
    assert ms_of(timeline) == [0, 2_000, 26_000]
    assert timeline.end_ms == 28_000


def test_a_lost_move_is_made_good_by_the_digits_recorded_after_its_write(todays_easy):
    solve = make_solve(todays_easy, "ada", 20)
    make_events(
        solve.attempt,
        ("open", 0),
        # The board placed 4 and 8 but the 8's move was lost; the server recorded both digits.
        ("save", 10, [[1000, "d", [[0, 4]]]], digits_with(c0=4, c1=8)),
        ("submit", 20, [], SOLVED),
    )
    timeline = timeline_of(solve)
    assert len(timeline.moves) == 1
    snapshot = timeline.writes[0]
    assert (snapshot.after, snapshot.ms) == (1, 10_000)
    assert snapshot.digits[:2] == "48"  # replay.js puts the 8 on the board as it passes the write
    assert timeline.as_dict()["writes"][0] == [1, 10_000, digits_with(c0=4, c1=8)]


def test_the_timeline_ends_at_the_submit_that_solved_the_puzzle(todays_easy):
    solve = make_solve(todays_easy, "ada", 40)
    wrong = SOLVED[:-1] + ("1" if SOLVED[-1] != "1" else "2")
    make_events(
        solve.attempt,
        ("open", 0),
        ("submit", 20, [[0, "d", [[80, int(wrong[-1])]]]], wrong),  # not quite: the clock goes on
        ("submit", 40, [[0, "d", [[80, int(SOLVED[-1])]]]], SOLVED),
        ("close", 45),
        ("save", 50, [[0, "k", [[0, "1"]]]], SOLVED),  # nothing after the solve is part of it
    )
    timeline = timeline_of(solve)
    assert ms_of(timeline) == [20_000, 40_000]
    assert timeline.end_ms == 40_000
    assert [w.ms for w in timeline.writes] == [20_000, 40_000]


def test_a_solve_without_a_record_is_its_givens_then_its_solved_grid_at_its_time(todays_easy):
    solve = make_solve(todays_easy, "ada", 245.6)
    Attempt.objects.filter(pk=solve.attempt_id).update(digits=SOLVED)
    solve.attempt.refresh_from_db()
    timeline = timeline_of(solve)
    assert timeline.moves == []
    assert timeline.end_ms == 245_600
    assert [(w.after, w.ms, w.digits) for w in timeline.writes] == [(0, 245_600, SOLVED)]


# ---- Who may watch. ----


@pytest.fixture
def solves(todays_easy) -> dict[str, Solve]:
    """Today's easy: bob's ranked solve, carol's held one (flagged), dan's with hints, a guest's;
    eve started it and has not solved it."""
    found = {
        "bob": make_solve(todays_easy, "bob", 200),
        "carol": make_solve(todays_easy, "carol", 15, flagged=True),
        "dan": make_solve(todays_easy, "dan", 300, assisted=True),
    }
    found["guest"] = make_solve(todays_easy, "guest-0123456789abcdef", 250)
    Guest.objects.create(user=found["guest"].user)
    eve = User.objects.create_user("eve")
    Attempt.objects.create(user=eve, daily=todays_easy)
    for solve in found.values():
        make_events(solve.attempt, ("open", 0), ("submit", 100, [[0, "d", [[0, 4]]]], SOLVED))
    return found


def replay_api(daily, solve_id: int) -> str:
    return reverse("puzzles:api-replay", args=(daily.date, daily.difficulty, solve_id))


def replay_page(daily, solve_id: int) -> str:
    return reverse("puzzles:replay", args=(daily.date, daily.difficulty, solve_id))


def as_user(client, username: str) -> User:
    user = User.objects.get(username=username)
    client.force_login(user)
    return user


def test_a_player_who_solved_it_watches_their_own_and_the_ranked_solves_but_no_others(client, solves):
    daily = solves["bob"].daily
    as_user(client, "dan")  # solved with hints: not ranked, yet solved
    assert client.get(replay_api(daily, solves["dan"].pk)).status_code == 200
    assert client.get(replay_api(daily, solves["bob"].pk)).status_code == 200
    assert client.get(replay_api(daily, solves["carol"].pk)).status_code == 404  # held: not ranked
    assert client.get(replay_api(daily, solves["guest"].pk)).status_code == 404  # a guest's: not ranked


def test_a_late_solver_may_watch_the_ranked_solves_too(client, solves, todays_easy):
    late = make_solve(todays_easy, "fay", 500, late=True)
    assert replay_visible(solves["bob"], late.user)
    assert not replay_visible(solves["dan"], late.user)


def test_nobody_sees_a_daily_s_record_before_solving_it(client, solves):
    daily = solves["bob"].daily
    for solve in solves.values():
        assert client.get(replay_api(daily, solve.pk)).status_code == 404  # a visitor
        assert client.get(replay_page(daily, solve.pk)).status_code == 404
    as_user(client, "eve")  # started, not solved
    assert client.get(replay_api(daily, solves["bob"].pk)).status_code == 404
    assert client.get(replay_page(daily, solves["bob"].pk)).status_code == 404


def test_a_refusal_reads_the_same_as_a_solve_that_does_not_exist(client, solves):
    daily = solves["bob"].daily
    as_user(client, "eve")
    refused = client.get(replay_api(daily, solves["bob"].pk))
    missing = client.get(replay_api(daily, 999_999))
    assert refused.status_code == missing.status_code == 404
    assert refused.json() == missing.json()


def test_solving_another_daily_opens_nothing_of_this_one(client, solves, todays_easy):
    other = make_daily(todays_easy.date, "medium")
    make_solve(other, "eve", 400)
    as_user(client, "eve")
    assert client.get(replay_api(todays_easy, solves["bob"].pk)).status_code == 404
    # Nor does a solve of this daily show under the other's address.
    as_user(client, "dan")
    assert client.get(replay_api(other, solves["bob"].pk)).status_code == 404


def test_staff_may_watch_any_solve(client, solves):
    staff = User.objects.create_user("admin", is_staff=True)
    client.force_login(staff)
    daily = solves["carol"].daily
    for solve in solves.values():
        assert client.get(replay_api(daily, solve.pk)).status_code == 200
    assert client.get(replay_page(daily, solves["carol"].pk)).status_code == 200


def test_a_guest_watches_their_own_replay(client, solves):
    as_user(client, solves["guest"].user.username)
    daily = solves["guest"].daily
    assert client.get(replay_api(daily, solves["guest"].pk)).status_code == 200
    assert client.get(replay_api(daily, solves["bob"].pk)).status_code == 200


# ---- The answers. ----


def test_the_timeline_answer_is_private_and_only_answers_get(client, solves):
    daily = solves["bob"].daily
    as_user(client, "bob")
    response = client.get(replay_api(daily, solves["bob"].pk))
    assert response["Cache-Control"] == "private, no-store"
    body = response.json()
    assert body["givens"] == EASY_GIVENS
    assert body["moves"] == [[100_000, "d", [[0, 4]]]]
    assert body["writes"] == [[1, 100_000, SOLVED]]
    assert body["end_ms"] == 100_000
    assert body["seconds"] == 200
    assert client.get(replay_api(daily, 999_999))["Cache-Control"] == "private, no-store"
    refused = client.post(replay_api(daily, solves["bob"].pk))
    assert refused.status_code == 405
    assert refused["Allow"] == "GET"


def test_the_page_shows_the_board_s_grid_read_only_and_where_the_timeline_is(client, solves):
    daily = solves["bob"].daily
    as_user(client, "dan")
    response = client.get(replay_page(daily, solves["bob"].pk))
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    page = response.content.decode()
    assert "bob's replay" in page
    assert f'data-timeline-url="{replay_api(daily, solves["bob"].pk)}"' in page
    assert page.count('role="gridcell"') == 81
    assert 'aria-readonly="true"' in page
    assert 'id="sudoku-keypad"' not in page
    assert 'type="range"' in page
    assert "js/replay.js" in page
    assert EASY_SOLUTION not in page


def test_the_player_s_own_replay_says_it_is_theirs(client, solves):
    as_user(client, "bob")
    page = client.get(replay_page(solves["bob"].daily, solves["bob"].pk)).content.decode()
    assert "Your replay" in page


def test_the_player_s_results_link_their_replay(client, solves):
    as_user(client, "dan")
    daily = solves["dan"].daily
    page = client.get(reverse("puzzles:results", args=(daily.date, daily.difficulty))).content.decode()
    assert f'<a href="{replay_page(daily, solves["dan"].pk)}">Watch your replay</a>' in page


def test_the_page_gives_the_time_ranked_by_when_it_is_not_the_clock_s(client, solves):
    Solve.objects.filter(pk=solves["bob"].pk).update(ranked_seconds=212)
    as_user(client, "bob")
    page = client.get(replay_page(solves["bob"].daily, solves["bob"].pk)).content.decode()
    assert "Solved in <strong>3:20</strong>, ranked by <strong>3:32</strong>" in page
    Solve.objects.filter(pk=solves["bob"].pk).update(ranked_seconds=200.4)
    page = client.get(replay_page(solves["bob"].daily, solves["bob"].pk)).content.decode()
    assert "Solved in <strong>3:20</strong></p>" in page
