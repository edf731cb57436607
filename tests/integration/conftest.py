"""Fixtures for tests against real services: a Redis broker and Celery workers."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def redis_broker(redis_url: str) -> Iterator[str]:
    """Point the Celery app at the real Redis, with its queues emptied before and after."""
    from sudokusite.celery import app

    old_url = app.conf.broker_url
    app.conf.broker_url = redis_url
    app.conf.broker_transport_options = {"visibility_timeout": 900, "socket_timeout": 5, "socket_connect_timeout": 5}
    app._pool = None  # the producer pool caches connections to the old broker

    def purge() -> None:
        with app.connection_for_write() as conn:
            for queue in ("default", "generation"):
                conn.default_channel.queue_purge(queue)

    purge()
    yield redis_url
    purge()
    app.conf.broker_url = old_url
    app._pool = None


def _database_url() -> str:
    """The URL of the test database pytest-django created, for worker processes to share."""
    s = connection.settings_dict
    user = s.get("USER") or ""
    host = s.get("HOST") or "127.0.0.1"
    port = s.get("PORT") or 5432
    return f"postgres://{user}@{host}:{port}/{s['NAME']}"


@pytest.fixture
def start_worker_process(postgres, redis_broker) -> Iterator[Callable[..., subprocess.Popen]]:
    """Start real `celery worker` processes on the test database and the real Redis."""
    started: list[subprocess.Popen] = []

    def start(
        name: str = "w1", concurrency: int = 1, extra_env: dict | None = None, beat: bool = False
    ) -> subprocess.Popen:
        """A worker; with `beat`, Celery beat inside it too, its pool and publishing sweeps put
        off for a day (the judge's sweep, every second, is what a test of a solve waits for)."""
        env = {**os.environ, "DATABASE_URL": _database_url(), "REDIS_URL": redis_broker, **(extra_env or {})}
        temporary = Path(os.environ.get("TMPDIR", "/tmp"))
        log = open(temporary / f"worker-{name}-{os.getpid()}.log", "w")
        embedded: list[str] = []
        if beat:
            env.update({f"{what}_EVERY_SECONDS": "86400" for what in ("REFILL", "PUBLISH", "PRACTICE")})
            embedded = ["--beat", "--schedule", str(temporary / f"beat-{name}-{os.getpid()}")]
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "sudokusite",
                "worker",
                "--queues",
                "default,generation",
                "--concurrency",
                str(concurrency),
                "--hostname",
                f"{name}@%h",
                "--loglevel",
                "INFO",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                *embedded,
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        proc.log_path = log.name  # type: ignore[attr-defined]
        started.append(proc)
        return proc

    yield start
    for proc in started:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    for proc in started:
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll until condition() holds, failing with `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


def pool_children(pid: int) -> list[int]:
    """The process ids of a worker's pool processes."""
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]
