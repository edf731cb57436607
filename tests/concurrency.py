"""Jobs released at the same moment, for the tests of what must hold under races (on PostgreSQL:
SQLite takes one writer at a time)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connections


def at_once(*jobs: Callable[[], object], timeout: float = 120) -> list[object]:
    """Run the jobs in threads released together, each closing its database connections when done;
    what each returned, or the exception it raised, in the jobs' order."""
    barrier = threading.Barrier(len(jobs))
    outcomes: list[object] = [None] * len(jobs)

    def run(n: int, job: Callable[[], object]) -> None:
        try:
            barrier.wait()
            outcomes[n] = job()
        except BaseException as exc:  # handed to the test, which says what it expected
            outcomes[n] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(n, job)) for n, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    return outcomes


def raised(outcomes: list[object]) -> list[BaseException]:
    """The exceptions among at_once's outcomes."""
    return [outcome for outcome in outcomes if isinstance(outcome, BaseException)]
