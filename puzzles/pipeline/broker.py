"""Talking to the task broker without ever letting its absence break a page."""

from __future__ import annotations

import logging
import time
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


# After a send fails, a player's request does not try again for this long: each try can cost
# seconds of connection timeouts, and the beat's sweeps do that work once the broker is back.
AWAY_SECONDS = 30.0
_away_since: float | None = None


def enqueue_unless_away(send: Callable[[], object]) -> bool:
    """enqueue() for work a sweep will pick up anyway: skipped at once, False, while the broker
    failed in this process within AWAY_SECONDS."""
    global _away_since
    if _away_since is not None and time.monotonic() - _away_since < AWAY_SECONDS:
        return False
    sent, _ = enqueue(send)
    _away_since = None if sent else time.monotonic()
    return sent
