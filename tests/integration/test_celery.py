"""Tasks run by real Celery workers through a real Redis broker, on PostgreSQL."""

import signal
import time

import pytest
from celery.contrib.testing.worker import start_worker

from puzzles.models import DailyPuzzle, Pool, Puzzle, SeedBatch, site_today
from puzzles.pipeline import pools
from puzzles.pipeline.tasks import publish_dailies, refill_pools, work_seed_batch

from .conftest import pool_children, wait_for

pytestmark = [pytest.mark.integration, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_an_embedded_worker_refills_the_pools_and_publishes_through_redis(postgres, redis_broker, settings):
    from sudokusite.celery import app

    # Every score inside its band, so a pool is full at its target and no spare is kept beside it.
    settings.PUZZLE_SCORE_BANDS = dict.fromkeys(settings.PUZZLE_SCORE_BANDS, (0, 10**6))

    for tier, target in (("easy", 3), ("medium", 2), ("hard", 1), ("expert", 1), ("extreme", 1)):
        Pool.objects.create(tier=tier, target=target)
    with start_worker(app, pool="solo", perform_ping_check=False, queues=["default", "generation"]):
        refill_pools.delay()
        # Each fill task also publishes its fresh puzzles into empty slots of its own tier.
        wait_for(lambda: Puzzle.objects.count() >= 8, 60, "the pools to reach their targets")
        publish_dailies.delay()
        wait_for(lambda: DailyPuzzle.objects.for_date(site_today()).count() == 5, 30, "today's dailies")
    assert Puzzle.objects.count() == 8  # every pool filled to its target, none beyond
    assert Puzzle.objects.filter(used=True).count() == DailyPuzzle.objects.count()


def test_a_worker_killed_mid_batch_leaves_no_partial_row_and_the_task_runs_again(start_worker_process):
    batch = pools.seed_batch_create("hard", 25, filler="diagonal-boxes", symmetry="none")
    worker = start_worker_process("killme", concurrency=1)
    work_seed_batch.delay(batch.pk)
    wait_for(lambda: SeedBatch.objects.get(pk=batch.pk).made >= 2, 90, "the batch to start")
    children = pool_children(worker.pid)
    assert children, "the worker has no pool process to kill"
    made_at_kill = SeedBatch.objects.get(pk=batch.pk).made
    for pid in children:
        signal_kill(pid)
    assert made_at_kill < 25, "the batch finished before the kill; make it larger"
    wait_for(lambda: SeedBatch.objects.get(pk=batch.pk).done, 180, "the batch to finish after the kill")
    batch.refresh_from_db()
    assert batch.made == 25
    stored = Puzzle.objects.filter(tier="hard")
    assert stored.count() == 25
    for puzzle in stored:
        assert len(puzzle.givens) == 81 and len(puzzle.solution) == 81 and puzzle.techniques
    log = open(worker.log_path).read()
    assert log.count("Task puzzles.tasks.work_seed_batch") >= 2 or "WorkerLostError" in log


def signal_kill(pid: int) -> None:
    import os

    os.kill(pid, signal.SIGKILL)
    time.sleep(0.1)


def test_two_worker_processes_share_one_batch_without_duplicates(start_worker_process):
    batch = pools.seed_batch_create("medium", 12, filler="row-by-row", symmetry="none")
    start_worker_process("a")
    start_worker_process("b")
    work_seed_batch.delay(batch.pk)
    work_seed_batch.delay(batch.pk)
    wait_for(lambda: SeedBatch.objects.get(pk=batch.pk).done, 120, "the shared batch to finish")
    assert Puzzle.objects.filter(tier="medium").count() == 12
    assert Puzzle.objects.values("givens").distinct().count() == Puzzle.objects.count()
