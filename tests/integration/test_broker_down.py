"""Redis stopped: pages still serve, enqueueing fails with a message, admins are told."""

import shutil
import socket
import subprocess
import time

import pytest

from puzzles.pipeline.broker import broker_status, enqueue

pytestmark = [pytest.mark.integration, pytest.mark.django_db]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def private_redis():
    """A Redis server of our own, which the test may stop without disturbing anything else."""
    binary = shutil.which("redis-server")
    if binary is None:
        from tests.conftest import _missing

        _missing("redis-server is not installed")
    port = free_port()
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    import redis

    client = redis.Redis(port=port)
    for _ in range(50):
        try:
            client.ping()
            break
        except redis.ConnectionError:
            time.sleep(0.1)
    yield proc, f"redis://127.0.0.1:{port}/0"
    if proc.poll() is None:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture
def app_on(private_redis):
    from sudokusite.celery import app

    proc, url = private_redis
    old = (app.conf.broker_url, app.conf.broker_transport_options)
    app.conf.broker_url = url
    app.conf.broker_transport_options = {"socket_timeout": 2, "socket_connect_timeout": 2}
    app._pool = None
    app.amqp._producer_pool = None
    yield proc
    app.conf.broker_url, app.conf.broker_transport_options = old
    app._pool = None
    app.amqp._producer_pool = None


def test_with_redis_stopped_pages_serve_and_enqueueing_reports_the_broker_unreachable(app_on, client, admin_client):
    from puzzles.pipeline.tasks import publish_dailies

    assert broker_status()[0] is True
    assert enqueue(lambda: publish_dailies.delay()) == (True, "")

    app_on.terminate()
    app_on.wait(timeout=10)

    reachable, sentence = broker_status()
    assert reachable is False and "unreachable" in sentence
    started = time.monotonic()
    ok, reason = enqueue(lambda: publish_dailies.delay())
    assert not ok and "unreachable" in reason
    assert time.monotonic() - started < 10, "a request must not hang on a dead broker"
    assert client.get("/").status_code == 200
    dashboard = admin_client.get("/admin/puzzles/pool/dashboard/")
    assert dashboard.status_code == 200
    assert b"unreachable" in dashboard.content
    seeded = admin_client.post(
        "/admin/puzzles/pool/dashboard/",
        {"tier": "easy", "count": "3", "filler": "diagonal-boxes", "symmetry": "none"},
        follow=True,
    )
    assert seeded.status_code == 200
    assert b"unreachable" in seeded.content
