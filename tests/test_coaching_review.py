"""A solve's annotated review (coaching/review.py, coaching/services.py), from a solve played through
the board's API: the technique each placement took, the longest stall and what was there, the
wrong digit and how long it stayed, stored once however often it is made."""

from __future__ import annotations

import datetime

import pytest
import time_machine
from django.utils import timezone

from puzzles.coaching.review import REVIEW_VERSION
from puzzles.coaching.services import review_of, review_store
from puzzles.engine import solve as solve_grid
from puzzles.engine import walk
from puzzles.models import Solve, SolveReview, TechniqueUse, site_today
from tests.factories import log_in, make_daily, make_known_puzzle, make_solve, post, url

pytestmark = pytest.mark.django_db

# Its walk meets an X-wing on 4s (rows 3 and 5) that leaves r9c8 the only place for 4 in box 9.
X_WING = "000102600000050290900006003300600900100030008007008005400500002026040000005203000"
SOLUTION = "".join(map(str, solve_grid(X_WING)))
R9C8 = 79
GAP, STALL, WRONG_FOR = 5, 200, 30  # seconds between digits; before r9c8's 4; the wrong digit's stay


def walk_order() -> list[tuple[int, int]]:
    """The placements in the order the engine's own solve makes them."""
    return [pair for moment in walk(X_WING) for pair in moment.step.placements]


@pytest.fixture
def played(client):
    """A solve of the X-wing puzzle through the API: a digit every GAP seconds in the walk's order,
    a wrong 1 or 2 put in the 21st placement's cell after the 5th and erased WRONG_FOR seconds later,
    and a STALL-second think before r9c8's 4. Returns (solve, wrong cell)."""
    daily = make_daily(site_today(), "hard", make_known_puzzle(X_WING, SOLUTION, tier="hard", hardest="x-wing"))
    log_in(client)
    order = walk_order()
    wrong_cell = order[20][0]
    wrong_digit = 1 if SOLUTION[wrong_cell] != "1" else 2
    board = ["0"] * 81
    with time_machine.travel(timezone.now(), tick=False) as clock:
        assert client.get(url(daily)).status_code == 200
        post(client, url(daily, "beat"), {"phase": "open"})
        version = 0

        def write(cell: int, digit: int, kind: str = "save") -> None:
            nonlocal version
            board[cell] = str(digit)
            body = {"version": version, "digits": "".join(board), "moves": [[0, "d", [[cell, digit]]]]}
            response = post(client, url(daily, kind), body)
            assert response.status_code == 200, response.content
            version = response.json().get("version", version)

        def wait(seconds: int) -> None:
            # The board beats every 10 s while it is open: a long think counts on the clock in full.
            for _ in range(seconds // 10):
                clock.shift(10)
                post(client, url(daily, "beat"), {"phase": "tick"})
            clock.shift(seconds % 10)

        for number, (cell, digit) in enumerate(order, start=1):
            wait(STALL if cell == R9C8 else GAP)
            write(cell, digit, "submit" if number == len(order) else "save")
            if number == 5:
                write(wrong_cell, wrong_digit)
            if number == 5 + WRONG_FOR // GAP:
                write(wrong_cell, 0)
    return Solve.objects.get(daily=daily), wrong_cell


def test_the_review_names_each_placements_technique_the_longest_stall_and_the_mistake(played):
    solve, wrong_cell = played
    review = review_store(solve.pk)
    assert review is not None and review.version == REVIEW_VERSION and review.worker_ms > 0
    placements = {p["cell"]: p for p in review.placements if p["verdict"] != "wrong"}
    assert len(placements) == X_WING.count("0")
    assert all(p["verdict"] == "logic" and p["technique"] for p in placements.values())
    x_wing = placements[R9C8]
    assert x_wing["technique"] == "x-wing" and x_wing["think_ms"] == STALL * 1000
    assert x_wing["steps"][0]["technique"] == "x-wing"
    assert x_wing["steps"][-1] == {
        "technique": "hidden-single",
        "text": "In box 9, 4 can only go in r9c8, so it goes there.",  # named in full in the step before
    }
    assert "row 9, column 7 (r9c7)" in x_wing["steps"][0]["text"]
    singles = [p for p in placements.values() if p["cell"] != R9C8]
    assert {p["think_ms"] for p in singles} <= {GAP * 1000, 2 * GAP * 1000}

    longest = review.stalls[0]
    assert longest["to_ms"] - longest["from_ms"] == STALL * 1000
    assert longest["to_ms"] == x_wing["ms"] and longest["move"] == x_wing["move"]
    assert "x-wing" in [step["technique"] for step in longest["available"]]
    assert len(review.stalls) == 3 and review.stalls[1]["to_ms"] - review.stalls[1]["from_ms"] <= 2 * GAP * 1000

    (wrong,) = [p for p in review.placements if p["verdict"] == "wrong"]
    assert wrong["cell"] == wrong_cell and wrong["technique"] == "" and wrong["steps"] == []
    (mistake,) = review.mistakes
    assert mistake["cell"] == wrong_cell and mistake["digit"] == wrong["digit"]
    assert mistake["right"] == int(SOLUTION[wrong_cell]) and mistake["stayed_ms"] == WRONG_FOR * 1000
    assert mistake["move"] == wrong["move"] and mistake["ms"] == wrong["ms"]
    assert review_of(solve) == review


def test_making_the_review_again_stores_one_review_and_the_same_technique_uses(played):
    solve, _ = played
    review_store(solve.pk)
    first = sorted(TechniqueUse.objects.values_list("technique", "think_seconds", "solved_at", "user_id"))
    review_store(solve.pk)
    assert SolveReview.objects.count() == 1
    assert sorted(TechniqueUse.objects.values_list("technique", "think_seconds", "solved_at", "user_id")) == first
    assert len(first) == X_WING.count("0") and ("x-wing", float(STALL), solve.solved_at, solve.user_id) in first


def test_an_old_solve_without_moves_gets_empty_lists_and_a_gone_one_none():
    daily = make_daily(site_today() - datetime.timedelta(days=3))
    old = make_solve(daily, "ada", 300)
    review = review_store(old.pk)
    assert review is not None and (review.placements, review.stalls, review.mistakes) == ([], [], [])
    assert review_store(old.pk + 1000) is None


def test_a_review_made_by_older_rules_is_not_shown():
    old = make_solve(make_daily(site_today()), "ada", 300)
    review_store(old.pk)
    SolveReview.objects.filter(solve=old).update(version=REVIEW_VERSION - 1)
    assert review_of(old) is None


def test_a_digit_only_a_write_recorded_counts_at_that_write_and_the_last_stretch_is_a_stall():
    from puzzles.coaching.review import changes_of, review_timeline
    from puzzles.fairplay.replays import Snapshot, TimedMove, Timeline
    from puzzles.record_of_play.moves import Move

    (first, digit), (second, other) = walk_order()[:2]
    sent = ["0"] * 81
    sent[first], sent[second] = str(digit), str(other)
    timeline = Timeline(
        givens=X_WING,
        moves=[TimedMove(4_000, Move(0, "d", ((first, digit),)))],
        # The board never sent the second digit's move: the write's digits have it.
        writes=[Snapshot(1, 9_000, "".join(sent))],
        end_ms=100_000,
    )
    changes = changes_of(timeline)
    assert [(c.move, c.ms, c.cell, c.digit) for c in changes] == [(1, 4_000, first, digit), (1, 9_000, second, other)]
    review = review_timeline(timeline, SOLUTION)
    assert [p["think_ms"] for p in review.placements] == [4_000, 5_000]
    assert review.stalls[0] == {
        "from_ms": 9_000,
        "to_ms": 100_000,
        "move": 0,
        "available": review.stalls[0]["available"],
    }
    assert review.stalls[0]["available"] and review.mistakes == []
