"""`make run`: the web server, a Celery worker and Celery beat, started and stopped together.

Without REDIS_URL they share a broker folder under var/ (kombu's filesystem transport), so the
same worker and beat code as production runs with nothing else installed. Stopping any one of
them (or Ctrl+C) stops them all.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    host = os.environ.get("HOST", "127.0.0.1")
    port = os.environ.get("PORT", "8000")
    var = Path(os.environ.get("VAR_DIR", ROOT / "var"))
    var.mkdir(parents=True, exist_ok=True)
    python = sys.executable
    subprocess.run([python, "manage.py", "migrate", "--noinput"], cwd=ROOT, check=True)
    celery = [python, "-m", "celery", "-A", "sudokusite"]
    # Two workers, so a long generation task never delays publishing and other short work.
    commands = {
        "worker": celery
        + [
            "worker",
            "--queues",
            "default",
            "--loglevel",
            "INFO",
            "--concurrency",
            "1",
            "--hostname",
            "default@%h",
        ],
        "generator": celery
        + [
            "worker",
            "--queues",
            "generation",
            "--loglevel",
            "INFO",
            "--concurrency",
            os.environ.get("WORKER_CONCURRENCY", "1"),
            "--hostname",
            "generation@%h",
        ],
        "beat": celery
        + [
            "beat",
            "--loglevel",
            "INFO",
            "--schedule",
            str(var / "celerybeat-schedule"),
        ],
        "web": [python, "manage.py", "runserver", f"{host}:{port}"],
    }
    children = {name: subprocess.Popen(cmd, cwd=ROOT) for name, cmd in commands.items()}
    # Start the pools filling now rather than at beat's first tick; the practice pool a little
    # later, once the dailies' first fills are queued ahead of it (it gives way to them).
    subprocess.run(
        [
            python,
            "manage.py",
            "shell",
            "-c",
            "from puzzles.pipeline.tasks import fill_practice, refill_pools; refill_pools.delay(); fill_practice.apply_async(countdown=20)",
        ],
        cwd=ROOT,
    )
    print(f"Daily Sudoku: http://{host}:{port}/  (worker and beat running; Ctrl+C stops all)", flush=True)

    def stop(*_: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    parent = os.getppid()
    status = 0
    try:
        while True:
            if os.getppid() != parent:
                print("make went away; stopping", file=sys.stderr)
                raise KeyboardInterrupt
            for name, child in children.items():
                code = child.poll()
                if code is not None:
                    print(f"{name} stopped (exit {code}); stopping the others", file=sys.stderr)
                    status = code or 1
                    raise KeyboardInterrupt
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        for child in children.values():
            if child.poll() is None:
                child.terminate()
        deadline = time.monotonic() + 10
        for child in children.values():
            try:
                child.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
    return status


if __name__ == "__main__":
    sys.exit(main())
