"""The database connection's health check (sudokusite/postgresql): no round trip for a quiet,
idle connection, and a connection the server has closed is replaced before a request uses it."""

import time

import psycopg
import pytest
from django.db import connection
from django.db.backends.postgresql.base import DatabaseWrapper as DjangoWrapper

pytestmark = [pytest.mark.integration, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def begin_request() -> None:
    """What Django does between requests to a connection it keeps (close_old_connections)."""
    connection.close_if_unusable_or_obsolete()


def backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


@pytest.fixture
def server_checks(postgres, monkeypatch) -> list[bool]:
    """Every time Django's own check (SELECT 1) runs, and what it answered; on a connection
    opened now, so that it is within its CONN_MAX_AGE whatever test ran before in this process
    (one older than that is closed as obsolete, rightly, before any check)."""
    assert connection.health_check_enabled, "CONN_HEALTH_CHECKS is off in these settings"
    connection.close()
    answers: list[bool] = []
    asked = DjangoWrapper.is_usable

    def is_usable(self) -> bool:
        answers.append(asked(self))
        return answers[-1]

    monkeypatch.setattr(DjangoWrapper, "is_usable", is_usable)
    return answers


def test_a_quiet_idle_connection_is_reused_without_asking_the_server(server_checks):
    pid = backend_pid()
    for _ in range(3):
        begin_request()
        assert backend_pid() == pid
    assert server_checks == []


def test_a_connection_the_server_closed_is_replaced_before_the_request_uses_it(server_checks, settings):
    pid = backend_pid()
    params = connection.get_connection_params()
    with psycopg.connect(
        **{k: v for k, v in params.items() if k in ("dbname", "user", "host", "port", "password")}, autocommit=True
    ) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    time.sleep(0.2)  # the server's goodbye reaches the socket

    begin_request()
    assert backend_pid() != pid  # no error: a fresh connection answered
    assert server_checks == [False]  # the socket had something to say, so the server was asked
