"""The processes a bench starts (gunicorn, Celery workers and beat), stops and waits for."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(condition: Callable[[], bool], timeout: float, interval: float = 0.1) -> bool:
    """True as soon as `condition()` is, False when `timeout` seconds pass first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(interval)
    return False


def answers(port: int, path: str = "/ping/") -> bool:
    """Whether the site on `port` answers `path` with 200."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        conn.request("GET", path)
        return conn.getresponse().status == 200
    except (OSError, http.client.HTTPException):
        return False
    finally:
        conn.close()


def spawn(command: list[str], env: dict[str, str], log: Path | None = None) -> subprocess.Popen:
    """A server process in a session of its own (so `stop` can end what it leaves behind), its
    output in `log` when given."""
    out: IO[str] | None = open(log, "a") if log else None
    return subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=out,
        stderr=subprocess.STDOUT if out else None,
        start_new_session=True,
    )


def gunicorn(
    port: int,
    env: dict[str, str],
    workers: int | None = None,
    site_config: bool = False,
    timeout: int | None = 60,
    log: Path | None = None,
) -> subprocess.Popen:
    """gunicorn serving the site on loopback, with the site's own settings module when
    `site_config` (sudokusite/gunicorn.py), started and answering /ping/ before it returns."""
    command = [sys.executable, "-m", "gunicorn"]
    if site_config:
        command += ["-c", "python:sudokusite.gunicorn"]
    command += ["sudokusite.wsgi", "--bind", f"127.0.0.1:{port}", "--log-level", "warning"]
    if workers:
        command += ["--workers", str(workers)]
    if timeout:
        command += ["--timeout", str(timeout)]
    server = spawn(command, env, log)
    if not wait_until(lambda: answers(port), 60, 0.2):
        stop(server)
        raise SystemExit(f"gunicorn did not answer on port {port}" + (f"; see {log}" if log else ""))
    return server


CELERY = [sys.executable, "-m", "celery", "-A", "sudokusite"]


def celery_worker(
    name: str,
    env: dict[str, str],
    log: Path,
    queues: str = "default,generation",
    loglevel: str = "WARNING",
    pool: str = "prefork",
) -> subprocess.Popen:
    """One Celery worker with one pool process, as the benches run them: no gossip, mingle or
    heartbeat between workers, so starting and stopping one does not wait on the others."""
    return spawn(
        [
            *CELERY,
            "worker",
            "--queues",
            queues,
            "--concurrency",
            "1",
            "--hostname",
            f"{name}@%h",
            "--loglevel",
            loglevel,
            "--pool",
            pool,
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        env,
        log,
    )


def celery_beat(env: dict[str, str], log: Path, schedule: Path) -> subprocess.Popen:
    return spawn([*CELERY, "beat", "--loglevel", "INFO", "--schedule", str(schedule)], env, log)


def stop(*processes: subprocess.Popen | None, grace: float = 30) -> None:
    """SIGTERM to each process (gunicorn's master and Celery's main process then stop their
    children gracefully), SIGKILL to a process group still there after `grace` seconds, and to
    anything of the group left behind."""
    running = [p for p in processes if p is not None]
    for process in running:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + grace
    for process in running:
        try:
            process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass  # the group is gone: nothing was left behind
        process.wait(timeout=10)


def children_of(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return sorted(int(p) for p in out.split())


def cpu_seconds(pids: list[int]) -> float:
    """The CPU time (user and system) some processes have used so far, from /proc/<pid>/stat;
    a process that has exited counts nothing. Linux only, as the benches' servers are."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        total += int(fields[11]) + int(fields[12])  # utime and stime: the 14th and 15th fields
    return total / tick


def precise_cpu_seconds(pids: list[int]) -> float:
    """cpu_seconds to the microsecond, where the kernel tells it: the scheduler's own count of the
    time each thread ran (se.sum_exec_runtime, in ms, in /proc/<pid>/task/<tid>/sched), where
    /proc/<pid>/stat counts in ticks of 10 ms. A thread that has exited counts nothing (stat keeps
    its time), so this is for single-threaded servers such as gunicorn's sync workers. Without
    the scheduler's file (a kernel built without it), cpu_seconds."""
    total = 0.0
    for pid in pids:
        try:
            tasks = list(Path(f"/proc/{pid}/task").iterdir())
            for task in tasks:
                for line in (task / "sched").read_text().splitlines():
                    if line.startswith("se.sum_exec_runtime"):
                        total += float(line.split(":")[1]) / 1000
                        break
                else:
                    return cpu_seconds(pids)
        except FileNotFoundError:
            if Path(f"/proc/{pid}").exists():  # no scheduler's file on this kernel
                return cpu_seconds(pids)
            continue  # the process has exited
    return total


def server_pids(process: subprocess.Popen) -> list[int]:
    """A server's processes: the one started and its children (gunicorn's master and workers)."""
    return [process.pid, *children_of(process.pid)]
