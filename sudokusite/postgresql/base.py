"""Django's PostgreSQL backend with a health check that costs no round trip when it need not.

With CONN_HEALTH_CHECKS, Django sends `SELECT 1` before the first query of every request that
reuses a connection, so that a restarted database costs no request an error. That is a round
trip to PostgreSQL on every save. But a database that restarts, or closes an idle connection,
says so on the socket (a termination notice, then the end of the stream), and an idle
connection has nothing else to read: so the check here looks at the socket first, without
waiting, and asks PostgreSQL only when something is there or the connection is not idle.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg import pq


class DatabaseWrapper(base.DatabaseWrapper):
    # Set by Django's BaseDatabaseWrapper; the stubs leave them out.
    health_check_enabled: bool
    health_check_done: bool

    def close_if_health_check_failed(self) -> None:
        if self.health_check_enabled and not self.health_check_done and self._idle_and_quiet():
            self.health_check_done = True
            return
        super().close_if_health_check_failed()  # Django's own check: SELECT 1, closed on failure

    def _idle_and_quiet(self) -> bool:
        """True for an open connection, outside any transaction, with nothing waiting on its socket."""
        conn = self.connection
        if conn is None or conn.closed or conn.broken or conn.info.transaction_status != pq.TransactionStatus.IDLE:
            return False
        try:
            readable, _, _ = select.select([conn.fileno()], [], [], 0)
        except (OSError, ValueError):
            return False
        return not readable
