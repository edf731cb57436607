"""Talking to the task broker without ever letting its absence break a page."""

from __future__ import annotations

import logging
from collections.abc import Callable

from celery import current_app as app
from kombu.exceptions import OperationalError

log = logging.getLogger(__name__)


def broker_status(timeout: float = 2.0) -> tuple[bool, str]:
    """(reachable, a sentence for admins) after one quick connection attempt."""
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, timeout=timeout)
            return True, f"The task broker ({conn.transport_cls}) is reachable."
    except Exception as exc:  # any failure to connect means the same thing to an admin
        return False, f"The task broker is unreachable: {exc}"


def enqueue(send: Callable[[], object]) -> tuple[bool, str]:
    """Run a task-sending call; (False, reason) instead of an exception when the broker is away."""
    try:
        send()
        return True, ""
    except (OperationalError, OSError, ConnectionError) as exc:
        log.error("could not enqueue a task: %s", exc)
        return False, f"The task broker is unreachable, so the work was not queued ({exc})."
