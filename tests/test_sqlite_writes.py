"""SQLite, `make run`'s database, with several writers at once (settings.py's SQLite OPTIONS).

Ten players save, send heartbeats and ask for hints at the same moment, each on a thread with its
own connection, and not one request may fail with "database is locked". pytest-django's SQLite
test database lives in memory (one shared cache, whose locking is not a file's), so the load runs
in a fresh process on a file database of its own, migrated first: `python -m tests.test_sqlite_writes`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = 10
SAVES = 10  # each followed by a heartbeat
HINTS = 3
REQUESTS = PLAYERS * (2 * SAVES + HINTS)


def test_ten_players_saving_and_asking_for_hints_at_once_on_sqlite_get_no_error(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CACHE_URL")}
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'load.sqlite3'}",
        DJANGO_SETTINGS_MODULE="sudokusite.settings",
        HINTS_PER_MINUTE="1000",  # the rate limit is not what this measures
        VAR_DIR=str(tmp_path / "var"),
    )
    result = subprocess.run(
        [sys.executable, "-m", "tests.test_sqlite_writes"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["answered"] == REQUESTS, report
    assert report["errors"] == [], report


def _load() -> dict:
    """Run the ten players against the database DATABASE_URL names; what failed, and how."""
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connections
    from django.test import Client

    from puzzles.models import site_today
    from tests.factories import EASY_GIVENS, EASY_SOLUTION, make_daily, make_known_puzzle, post, url

    call_command("migrate", verbosity=0)
    daily = make_daily(site_today(), "easy", make_known_puzzle())
    users = [User.objects.create_user(f"player{n}") for n in range(PLAYERS)]
    connections.close_all()
    open_cells = [i for i, given in enumerate(EASY_GIVENS) if given == "0"]
    barrier = threading.Barrier(PLAYERS, timeout=60)
    errors: list[str] = []
    answered = [0]
    lock = threading.Lock()

    def answer(kind: str, response) -> None:
        with lock:
            answered[0] += 1
            if response.status_code != 200:
                exc = getattr(response, "exc_info", None)
                errors.append(f"{kind} {response.status_code}: {exc[1] if exc else response.content[:200]!r}")

    def position(moves: int) -> str:
        filled = set(open_cells[:moves])
        return "".join(EASY_SOLUTION[i] if i in filled else "0" for i in range(81))

    def play(user: User) -> None:
        try:
            client = Client(raise_request_exception=False)
            client.force_login(user)
            barrier.wait()
            version = 0
            for n in range(SAVES):
                saved = post(client, url(daily, "save"), {"version": version, "digits": position(n + 1)})
                answer("save", saved)
                if saved.status_code == 200:
                    version = saved.json()["version"]
                answer("beat", post(client, url(daily, "beat"), {}))
                if n % 3 == 0 and n // 3 < HINTS:
                    body = {"digits": position(n + 1), "corner": [""] * 81, "centre": [""] * 81}
                    answer("hint", post(client, url(daily, "hint"), body))
        except Exception as exc:  # a failure outside a request (logging in, say) is an error too
            with lock:
                errors.append(f"{user.username}: {exc!r}")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=play, args=(user,)) for user in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=240)
    return {"answered": answered[0], "errors": errors}


if __name__ == "__main__":
    print(json.dumps(_load()))
