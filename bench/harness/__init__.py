"""What the benches share: the services, the processes they start, the site's data, clients and
figures.

A bench is a short script on top of this package. It starts with

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from bench.harness import ...

so that it runs as `python bench/<name>.py` from any folder. Nothing here prints a figure of its
own; each bench says what it measures and prints its table with `row` or `markdown_row`.
"""

from pathlib import Path

from .clients import Browser, Connection
from .figures import markdown_header, markdown_row, percentile, ranks, row, spearman
from .processes import (
    ROOT,
    celery_beat,
    celery_worker,
    children_of,
    cpu_seconds,
    free_port,
    gunicorn,
    precise_cpu_seconds,
    server_pids,
    spawn,
    stop,
    wait_until,
)
from .services import (
    BROKER_URL,
    CACHE_URL,
    TIERS,
    daily_path,
    enqueue_seed_batch,
    ensure_database,
    ensure_redis,
    logged_in_session,
    logged_in_sessions,
    make_puzzles,
    new_players,
    new_seed_batch,
    purge_queues,
    reset_site,
    setup_django,
    setup_site,
)

BENCH: Path = ROOT / "bench"

__all__ = [
    "BENCH",
    "BROKER_URL",
    "CACHE_URL",
    "ROOT",
    "TIERS",
    "Browser",
    "Connection",
    "celery_beat",
    "celery_worker",
    "children_of",
    "cpu_seconds",
    "daily_path",
    "enqueue_seed_batch",
    "ensure_database",
    "ensure_redis",
    "free_port",
    "gunicorn",
    "logged_in_session",
    "logged_in_sessions",
    "make_puzzles",
    "markdown_header",
    "markdown_row",
    "new_players",
    "new_seed_batch",
    "percentile",
    "precise_cpu_seconds",
    "purge_queues",
    "ranks",
    "reset_site",
    "row",
    "server_pids",
    "setup_django",
    "setup_site",
    "spawn",
    "spearman",
    "stop",
    "wait_until",
]
