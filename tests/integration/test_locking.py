"""Concurrent publishers and refillers on PostgreSQL: the locks and claims hold.

SQLite ignores select_for_update, so these run on PostgreSQL only.
"""

import datetime
import random

import pytest

from puzzles.models import DailyPuzzle, Pool, Puzzle, SeedBatch
from puzzles.pipeline import pools, publishing
from puzzles.play import attempts

from ..concurrency import at_once, raised

pytestmark = [pytest.mark.integration, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def run_together(*jobs):
    """Run the jobs in threads released at the same moment; re-raise the first failure."""
    found = at_once(*jobs)
    errors = raised(found)
    if errors:
        raise errors[0]
    return found


def make_puzzles(tier, n, seed=0):
    rng = random.Random(seed)
    for _ in range(n):
        pools.puzzle_store(pools.puzzle_make(tier, rng=rng))


def test_two_publishers_at_once_give_exactly_one_daily_per_slot(postgres):
    for tier in ("easy", "medium", "hard", "expert", "extreme"):
        make_puzzles(tier, 3, seed=len(tier))
    day = datetime.date(2026, 11, 22)
    for attempt in range(3):  # several rounds, so the race is really run more than once
        target = day + datetime.timedelta(days=attempt)
        reports = run_together(*(lambda d=target: publishing.daily_publish(d) for _ in range(3)))
        assert DailyPuzzle.objects.filter(date=target).count() == 5
        published = [set(r.published) for r in reports]
        # Every slot was published by exactly one of the publishers.
        for tier in ("easy", "medium", "hard", "expert", "extreme"):
            assert sum(tier in p for p in published) == 1
            assert not DailyPuzzle.objects.get(date=target, difficulty=tier).substitute
    # No puzzle was published twice and every used puzzle has its daily.
    assert Puzzle.objects.filter(used=True).count() == DailyPuzzle.objects.count()


def test_two_publishers_never_take_the_same_puzzle_for_different_days(postgres):
    make_puzzles("easy", 4, seed=3)
    for tier in ("medium", "hard", "expert", "extreme"):
        make_puzzles(tier, 1, seed=9)
    a, b = datetime.date(2027, 1, 1), datetime.date(2027, 1, 2)
    run_together(lambda: publishing.daily_publish(a), lambda: publishing.daily_publish(b))
    easy = DailyPuzzle.objects.filter(difficulty="easy")
    assert easy.count() == 2
    assert len({d.puzzle_id for d in easy}) == 2


def test_two_refills_at_once_overfill_nothing(postgres):
    Pool.objects.create(tier="easy", target=12)
    reports = run_together(
        *(lambda s=seed: pools.pool_fill("easy", budget_seconds=60, rng=random.Random(s)) for seed in range(4))
    )
    assert Puzzle.objects.available("easy").count() == 12
    assert sum(r.stored for r in reports) == 12


def test_two_workers_on_one_seed_batch_make_exactly_what_was_asked(postgres):
    batch = pools.seed_batch_create("easy", 7, filler="diagonal-boxes", symmetry="none")
    run_together(
        lambda: pools.seed_batch_work(batch.pk, rng=random.Random(1)),
        lambda: pools.seed_batch_work(batch.pk, rng=random.Random(2)),
    )
    assert SeedBatch.objects.get(pk=batch.pk).made == 7
    assert Puzzle.objects.count() == 7


# --- a player's saves and submits racing each other --------------------------------------------


def stored_version(user, daily) -> int:
    from puzzles.models import Attempt

    return Attempt.objects.filter(user=user, daily=daily).values_list("version", flat=True).get()


def _outcome(job):
    def run():
        try:
            return job()
        except attempts.StaleSave:
            return "stale"
        except attempts.AlreadySolved:
            return "solved"

    return run


def test_two_saves_from_the_same_version_one_wins_the_other_is_stale(postgres, todays_easy):
    from django.contrib.auth.models import User

    player = User.objects.create_user("ada")
    attempts.attempt_open(player, todays_easy)
    for _ in range(5):
        version = stored_version(player, todays_easy)
        a, b = run_together(
            *[
                _outcome(
                    lambda d=d: attempts.attempt_save(
                        player, todays_easy, version=version, digits=d + "0" * 80, corner=None, centre=None
                    )
                )
                for d in "45"
            ]
        )
        assert sorted([a == "stale", b == "stale"]) == [False, True]
        assert stored_version(player, todays_easy) == version + 1


def test_a_save_racing_the_solving_submit_never_changes_a_solved_attempt(postgres, todays_easy):
    from django.contrib.auth.models import User

    from tests.factories import player_digits

    player = User.objects.create_user("ada")
    attempts.attempt_open(player, todays_easy)
    mine = player_digits()
    submit, save = run_together(
        _outcome(lambda: attempts.attempt_submit(player, todays_easy, version=0, digits=mine)),
        _outcome(
            lambda: attempts.attempt_save(player, todays_easy, version=0, digits="0" * 81, corner=None, centre=None)
        ),
    )
    from puzzles.models import Attempt

    attempt = Attempt.objects.get(user=player)
    if save in ("stale", "solved"):
        # The submit went first: the solved board stays as it was submitted.
        assert submit.solved and attempt.digits == mine
    else:
        # The save went first: the submit then started from a stale version.
        assert submit == "stale" and attempt.digits == "0" * 81 and not attempt.is_solved
