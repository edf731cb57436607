"""The CPU that groups of processes used over a window, from /proc: the web server's, PostgreSQL's
backends on one database, the Redis server's, the load's own clients, and the whole machine's."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

from .processes import cpu_seconds

Snapshot = dict[str, dict[int, float]]


def pids_named(name: str) -> list[int]:
    """The processes whose command name is exactly `name` (pgrep -x)."""
    out = subprocess.run(["pgrep", "-x", name], capture_output=True, text=True).stdout
    return sorted(int(p) for p in out.split())


def database_backends(url: str) -> Callable[[], list[int]]:
    """A function listing the PostgreSQL backends connected to the database of `url`, but for the
    one it asks through (the server's own background processes serve every database: not counted)."""
    import psycopg

    server, name = url.rsplit("/", 1)
    conn = psycopg.connect(server + "/postgres", autocommit=True)

    def backends() -> list[int]:
        rows = conn.execute(
            "select pid from pg_stat_activity where datname = %s and pid <> pg_backend_pid()", (name,)
        ).fetchall()
        return [row[0] for row in rows]

    return backends


def machine_busy_seconds() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot, all cores, from /proc/stat."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle and iowait
    tick = os.sysconf("SC_CLK_TCK")
    return (sum(fields[:8]) - idle) / tick, sum(fields[:8]) / tick


class Meter:
    """Named groups of processes, each found again at every reading (workers and backends come
    and go); a group's CPU over a window is what its processes used between two readings, a
    process new in the window counting from zero."""

    def __init__(self, groups: dict[str, Callable[[], list[int]]]) -> None:
        self.groups = groups

    def read(self) -> tuple[Snapshot, tuple[float, float]]:
        snap = {name: {pid: cpu_seconds([pid]) for pid in find()} for name, find in self.groups.items()}
        return snap, machine_busy_seconds()

    @staticmethod
    def used(
        start: tuple[Snapshot, tuple[float, float]], end: tuple[Snapshot, tuple[float, float]]
    ) -> dict[str, float]:
        """CPU seconds per group between two readings, and the machine's: "machine" (busy, all
        cores) and "capacity" (the cores times the seconds between the readings)."""
        (first, (busy0, total0)), (last, (busy1, total1)) = start, end
        out = {
            name: sum(max(0.0, cpu - first[name].get(pid, 0.0)) for pid, cpu in pids.items())
            for name, pids in last.items()
        }
        out["machine"], out["capacity"] = busy1 - busy0, total1 - total0
        return out
