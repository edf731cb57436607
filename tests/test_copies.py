"""Copies of a replay (puzzles/fairplay/copies.py): a second account that plays another player's
public replay again, move for move with its timing, is held for review, its original left alone;
a player who fills the grid in the same order at their own pace is not. Through the board's API,
as the copier plays, with the server's clock held still.
"""

from __future__ import annotations

import datetime
import random

import pytest
import time_machine
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from puzzles.fairplay import copies, judge, ranking, words
from puzzles.models import Attempt, Solve

from .factories import judge_follow_up, make_event, make_solve, post, solve_through_api, url

pytestmark = pytest.mark.django_db

Placed = list[tuple[int, int, float]]  # (cell, digit, seconds after the page opened)


@pytest.fixture
def clock():
    with time_machine.travel(timezone.now(), tick=False) as traveller:
        yield traveller


def logged_in(name: str) -> Client:
    """A client logged in as a player old enough to be ranked."""
    client = Client()
    client.force_login(User.objects.create_user(name, date_joined=timezone.now() - datetime.timedelta(days=3)))
    return client


def own_pace(daily, seed: int, first: float = 4.0) -> Placed:
    """Every empty cell, row by row, with its digit, at a person's uneven pace (1.2 to 4 s a digit)."""
    rng, at, placed = random.Random(seed), first, []
    for cell, given in enumerate(daily.puzzle.givens):
        if given == "0":
            at += rng.uniform(1.2, 4.0)
            placed.append((cell, int(daily.puzzle.solution[cell]), at))
    return placed


def play(name: str, daily, clock, placed: Placed) -> Solve:
    """A new player plays `placed` through the board's API as the board writes: an open, a save of
    each three digits 0.3 s after the last of them (each move aged from when it was made), the
    submit with the rest; then the verdict, as the beat's sweep gives it. Returns their solve."""
    client = logged_in(name)
    started, digits = timezone.now(), ["0"] * 81
    assert post(client, url(daily, "beat"), {"phase": "open"}).status_code == 200
    for version, start in enumerate(range(0, len(placed), 3)):
        batch = placed[start : start + 3]
        last = start + 3 >= len(placed)
        sent = batch[-1][2] + 0.3
        clock.move_to(started + datetime.timedelta(seconds=sent))
        for cell, digit, _ in batch:
            digits[cell] = str(digit)
        moves = [[round((sent - at) * 1000), "d", [[cell, digit]]] for cell, digit, at in batch]
        body = {"version": version, "digits": "".join(digits), "moves": moves}
        if not last:
            body |= {"corner": [""] * 81, "centre": [""] * 81}
        answer = post(client, url(daily, "submit" if last else "save"), body)
        assert answer.status_code == 200, answer.content
    judge_follow_up(daily)
    return Solve.objects.get(user__username=name)


def replay_watched(daily, solve: Solve, clock) -> Placed:
    """What a copier sees: another account solves the daily (as it may then watch the ranked
    replays), then reads the solve's replay; its digits placed with their times on the clock."""
    scout = logged_in("scout")
    solve_through_api(scout, daily, 300, clock=clock)
    answer = scout.get(reverse("puzzles:api-replay", args=(daily.date, daily.difficulty, solve.pk)))
    assert answer.status_code == 200
    return [
        (cell, digit, ms / 1000) for ms, layer, cells in answer.json()["moves"] if layer == "d" for cell, digit in cells
    ]


@pytest.fixture
def original(daily, clock) -> Solve:
    """Ada's solve at her own pace: ranked, and so a replay any player who solved the daily may watch."""
    solve = play("ada", daily, clock, own_pace(daily, seed=1))
    assert solve.unranked == "" and not solve.flagged
    return solve


def test_a_second_account_replaying_a_public_replay_move_for_move_is_held_as_a_copy(daily, clock, original):
    watched = replay_watched(daily, original, clock)
    copy = play("copycat", daily, clock, watched)
    assert copy.seconds == pytest.approx(original.seconds, abs=1)  # it would tie
    assert copy.flagged and copy.held == ranking.COPY
    assert words.reasons_for_you(copy) == [
        "its record of play matches another solve's, so it is held until an admin checks it"
    ]
    original.refresh_from_db()
    assert not original.flagged and list(Solve.objects.ranked()) == [original]
    # Deciding the day's holds again (each later solve's follow-up) keeps it so, and the original alone.
    judge.held_again(daily)
    assert Solve.objects.get(pk=copy.pk).held == ranking.COPY and not Solve.objects.get(pk=original.pk).flagged


def test_a_copy_played_a_little_faster_with_a_scripts_jitter_is_held(daily, clock, original):
    # 5% faster to rank ahead rather than tie, each digit up to 0.4 s off, and a slower start.
    rng = random.Random(7)
    watched = replay_watched(daily, original, clock)
    start = watched[0][2]
    jittered = [(cell, digit, 9 + 0.95 * (at - start) + rng.uniform(-0.4, 0.4)) for cell, digit, at in watched]
    jittered.sort(key=lambda placed: placed[2])
    copy = play("copycat", daily, clock, jittered)
    assert copy.seconds < original.seconds
    assert copy.flagged and copy.held == ranking.COPY


def test_a_player_filling_the_grid_in_the_same_order_at_their_own_pace_is_not_held(daily, clock, original):
    # Row by row like Ada, and in the same time all told: only the timing tells them apart.
    mine = own_pace(daily, seed=2)
    stretch = (original.seconds - 4) / (mine[-1][2] - 4)
    honest = play("bob", daily, clock, [(c, d, 4 + (at - 4) * stretch) for c, d, at in mine])
    assert honest.seconds == pytest.approx(original.seconds, abs=1)
    assert honest.placed.head == original.placed.head and honest.placed.tail == original.placed.tail
    assert honest.unranked == "" and not honest.flagged
    assert set(Solve.objects.ranked()) == {original, honest}


def test_the_review_queue_shows_a_copy_beside_its_original(daily, clock, original, admin_client):
    copy = play("copycat", daily, clock, replay_watched(daily, original, clock))
    page = admin_client.get(reverse("admin:puzzles_solve_change", args=[copy.pk])).content.decode()
    assert "copy: its record of play repeats an earlier solve&#x27;s of this puzzle" in page
    assert "this solve, copycat" in page and f"solve {original.pk}</a>, ada" in page
    first = daily.puzzle.givens.index("0")  # both filled row by row
    cell = f"r{first // 9 + 1}c{first % 9 + 1} = {daily.puzzle.solution[first]}"
    assert page.count(f"<td>1</td><td>{cell}</td><td>0.0 s</td><td>{cell}</td><td>0.0 s</td>") == 1
    for solve in (copy, original):
        assert reverse("puzzles:replay", args=[daily.date, daily.difficulty, solve.pk]) in page
    # An original, like any solve not held as a copy, says so.
    page = admin_client.get(reverse("admin:puzzles_solve_change", args=[original.pk])).content.decode()
    assert "Not held as a copy." in page


def test_the_review_queue_is_for_staff_alone(daily, clock, original):
    copy = play("copycat", daily, clock, replay_watched(daily, original, clock))
    address = reverse("admin:puzzles_solve_change", args=[copy.pk])
    assert logged_in("nosy").get(address).status_code == 302  # to the admin's log-in


def uneven_record(attempt: Attempt, seed: int) -> datetime.datetime:
    """A record of play as the board writes it, the page open throughout (each event's clock the
    time since the start), every empty cell filled row by row at an uneven pace of its own (own_pace),
    saved in threes; the submit's time."""
    started, placed = attempt.started_at, own_pace(attempt.daily, seed)
    events = [make_event(attempt, "open", started)]
    for start in range(0, len(placed), 3):
        batch = placed[start : start + 3]
        sent = batch[-1][2] + 0.3
        moves = [(round((sent - at) * 1000), [(cell, digit)]) for cell, digit, at in batch]
        kind = "submit" if start + 3 >= len(placed) else "save"
        events.append(make_event(attempt, kind, started + datetime.timedelta(seconds=sent), moves))
    for event in events:
        event.clock = (event.arrived_at - started).total_seconds()
        event.save(update_fields=["clock"])
    return events[-1].arrived_at


def judged_with_others(daily, others: int) -> int:
    """The queries judging one solve takes when the daily has `others` solves in the same order
    (each a candidate), every one at a pace of its own."""
    for n in range(others):
        solve = make_solve(daily, f"other{n}", 100, solved_at=timezone.now() - datetime.timedelta(minutes=others - n))
        Attempt.objects.filter(pk=solve.attempt_id).update(started_at=solve.solved_at - datetime.timedelta(seconds=200))
        solve.attempt.refresh_from_db()
        uneven_record(solve.attempt, seed=10 + n)
        judge.solve_judge(solve)
    user = User.objects.create_user(f"last{others}", date_joined=timezone.now() - datetime.timedelta(days=3))
    attempt = Attempt.objects.create(user=user, daily=daily, started_at=timezone.now() - datetime.timedelta(minutes=5))
    end = uneven_record(attempt, seed=1)
    solve = Solve.objects.create(
        attempt=attempt, user=user, daily=daily, seconds=(end - attempt.started_at).total_seconds(), solved_at=end
    )
    solve = Solve.objects.select_related("daily__puzzle", "attempt", "user").get(pk=solve.pk)
    with CaptureQueriesContext(connection) as queries:
        judge.solve_judge(solve)
    candidates = {other.placed.head for other in Solve.objects.filter(user__username__startswith="other")}
    assert candidates == {solve.placed.head} != {""} and not solve.flagged  # every one a candidate, none a copy
    Attempt.objects.filter(daily=daily).delete()
    return len(queries)


def test_judging_finds_copies_in_the_same_number_of_queries_however_many_solves_the_puzzle_has(daily):
    assert judged_with_others(daily, 2) == judged_with_others(daily, 30)


# --- the rule, at its edges -----------------------------------------------------------------------


def timed(offsets: list[float]) -> list[copies.Placement]:
    return [(cell, 1, 5 + at) for cell, at in enumerate(offsets)]


ORIGINAL = [2.5 * n + (3 if n % 4 == 0 else 0) for n in range(40)]  # uneven: a pause every fourth


def test_a_record_within_the_tolerance_of_the_original_stretched_to_its_span_repeats_it():
    assert copies.same_play(timed(ORIGINAL), timed(ORIGINAL))
    nudged = [at + (0.9 if n % 2 else -0.9) for n, at in enumerate(ORIGINAL)]
    nudged[0], nudged[-1] = ORIGINAL[0], ORIGINAL[-1]
    assert copies.same_play(timed(nudged), timed(ORIGINAL))
    assert copies.same_play(timed([0.6 * at for at in ORIGINAL]), timed(ORIGINAL))  # 40% faster


def test_a_tenth_of_the_placements_may_stray_but_no_more():
    strays = 4  # of 40
    off = [at + (5 if 5 <= n < 5 + strays else 0) for n, at in enumerate(ORIGINAL)]
    assert copies.same_play(timed(off), timed(ORIGINAL))
    off = [at + (5 if 5 <= n < 6 + strays else 0) for n, at in enumerate(ORIGINAL)]
    assert not copies.same_play(timed(off), timed(ORIGINAL))
    late = [at + (1.1 if n % 2 and n < len(ORIGINAL) - 1 else 0) for n, at in enumerate(ORIGINAL)]  # span kept
    assert not copies.same_play(timed(late), timed(ORIGINAL))


def test_a_record_stretched_past_twice_or_half_the_originals_span_or_too_short_repeats_nothing():
    assert not copies.same_play(timed([0.45 * at for at in ORIGINAL]), timed(ORIGINAL))
    assert not copies.same_play(timed([2.1 * at for at in ORIGINAL]), timed(ORIGINAL))
    short = ORIGINAL[: copies.COPY_MIN_PLACEMENTS - 1]
    assert not copies.same_play(timed(short), timed(short))
    assert copies.order_keys(timed(short)) == ("", "")


def test_the_order_of_each_half_is_a_fingerprint_of_its_own():
    placed = timed(ORIGINAL)
    swapped = [placed[1], placed[0], *placed[2:]]  # two cells of the first half swapped
    head, tail = copies.order_keys(placed)
    assert copies.order_keys(swapped)[0] != head and copies.order_keys(swapped)[1] == tail
    assert copies.unpack(copies.pack(placed)) == placed
