"""The practice pool filled by real Celery workers: one on Redis and PostgreSQL, and the ones
`make run` starts (sudokusite/localrun.py) on its SQLite database and folder broker."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time

import pytest
from celery.contrib.testing.worker import start_worker

from puzzles.models import PracticePosition
from puzzles.pipeline.tasks import fill_practice
from tests.engine.practice_positions import practice_position
from tests.factories import make_known_puzzle

from .conftest import ROOT, wait_for

pytestmark = [pytest.mark.integration]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_worker_fills_the_practice_pool_from_a_pool_puzzle_through_redis(postgres, redis_broker, settings):
    from sudokusite.celery import app

    settings.PRACTICE_POOL_SIZE = 1
    settings.PRACTICE_BUDGET_SECONDS = 3
    _, solution, givens = practice_position("x-wing")
    puzzle = make_known_puzzle(givens, "".join(map(str, solution)), tier="expert")
    with start_worker(app, pool="solo", perform_ping_check=False, queues=["default", "generation"]):
        fill_practice.delay()
        wait_for(lambda: PracticePosition.objects.filter(technique="x-wing").exists(), 60, "an x-wing position")
    x_wing = PracticePosition.objects.get(technique="x-wing")
    assert x_wing.puzzle_id == puzzle.pk and x_wing.source == "pool"
    # One position per technique: the pool's size, however many the puzzle and the generator met.
    techniques = list(PracticePosition.objects.values_list("technique", flat=True))
    assert len(techniques) == len(set(techniques))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _positions(database: str) -> int:
    try:
        with sqlite3.connect(database) as db:
            return db.execute("select count(*) from puzzles_practiceposition").fetchone()[0]
    except sqlite3.Error:  # not migrated yet, or locked for a moment
        return 0


def test_make_run_fills_the_practice_pool_too(tmp_path):
    database = tmp_path / "run.db"
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"REDIS_URL", "CACHE_URL", "DATABASE_URL", "CELERY_BROKER_URL"}
    }
    env |= {
        "DATABASE_URL": f"sqlite:///{database}",
        "VAR_DIR": str(tmp_path),
        "PORT": str(_free_port()),
        "PRACTICE_POOL_SIZE": "1",
        "PRACTICE_BUDGET_SECONDS": "5",
        "GENERATION_BUDGET_SECONDS": "2",
    }
    for tier in ("EASY", "MEDIUM", "HARD", "EXPERT", "EXTREME"):
        env[f"POOL_TARGET_{tier}"] = "1"
    run = subprocess.Popen(
        [sys.executable, "-m", "sudokusite.localrun"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and not _positions(str(database)):
            assert run.poll() is None, "make run stopped"
            time.sleep(1)
        assert _positions(str(database)) > 0, "make run kept no practice position within 3 minutes"
    finally:
        os.killpg(run.pid, signal.SIGTERM)
        try:
            run.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(run.pid, signal.SIGKILL)
