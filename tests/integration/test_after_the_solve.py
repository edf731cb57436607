"""What a solve sets going, run by a real Celery worker and beat through a real Redis broker on
PostgreSQL: its verdict and review, found by the beat's sweep (the submit sends nothing), and the
ratings brought up to the clean solves."""

import pytest

from puzzles.fairplay.ranking import CHECKING, NO_RECORD
from puzzles.models import PlayerRating, RatingChange, Solve, SolveReview
from puzzles.pipeline.tasks import rate_solves
from tests.factories import log_in, make_solve, solve_through_api

from .conftest import wait_for

pytestmark = [pytest.mark.integration, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_the_beats_sweep_finds_a_new_solve_and_a_worker_gives_its_verdict_and_review(
    start_worker_process, client, daily
):
    start_worker_process("after-solve", beat=True)
    log_in(client, "ada")
    assert solve_through_api(client, daily, 90, judged=False)["solved"]
    # The judge runs in the worker, after the answer: the test client sends no moves, as a script.
    wait_for(lambda: Solve.objects.get().unranked != CHECKING, 60, "the solve's verdict")
    assert Solve.objects.get().unranked == NO_RECORD
    wait_for(lambda: SolveReview.objects.filter(solve__user__username="ada").exists(), 60, "the solve's review")
    review = SolveReview.objects.get(solve__user__username="ada")
    # The whole grid went in with the submit: every digit is a placement, reviewed in the worker.
    assert len(review.placements) == daily.puzzle.givens.count("0")
    assert review.worker_ms > 0


def test_a_worker_applies_the_clean_solves_to_the_ratings(start_worker_process, daily):
    start_worker_process("ratings")
    make_solve(daily, "ada", 300)
    make_solve(daily, "bob", 900)
    make_solve(daily, "cy", 200, assisted=True)  # a hint: not rated
    rate_solves.delay()
    wait_for(lambda: RatingChange.objects.count() == 2, 60, "the two clean solves in the ratings")
    ada, bob = (PlayerRating.objects.get(user__username=name) for name in ("ada", "bob"))
    assert ada.rating > bob.rating  # the faster on the same puzzle
    assert not PlayerRating.objects.filter(user__username="cy", solves__gt=0).exists()
