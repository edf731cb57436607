"""The services fault injection runs on, its own and never the shared ones: a PostgreSQL cluster
(initdb in a temporary folder, on a free port; run as the `postgres` user when started as root)
and a redis-server on a free port."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
from pathlib import Path

from bench.harness import free_port, spawn, stop, wait_until

PG_BIN = Path(os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin"))


class PrivatePostgres:
    """A throwaway PostgreSQL cluster; initdb and pg_ctl refuse to run as root, so they run as
    the `postgres` user then."""

    def __init__(self, root: Path) -> None:
        self.data, self.sockets, self.log = root / "pg", root / "pg-sockets", root / "pg.log"
        self.port = free_port()
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/sudoku_faults"

    def _run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
        command = [str(PG_BIN / args[0]), *args[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=True)

    def init(self) -> None:
        self.sockets.mkdir()
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            for path in (self.data.parent, self.sockets):
                os.chown(path, owner.pw_uid, owner.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8")
        self.start()
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "sudoku_faults")

    def _options(self) -> str:
        return f"-p {self.port} -k {self.sockets} -c listen_addresses=127.0.0.1 -c fsync=off"

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-o", self._options(), "-l", str(self.log), "-w", "start")

    def restart(self) -> None:
        self._run(
            "pg_ctl", "-D", str(self.data), "-o", self._options(), "-l", str(self.log), "-m", "fast", "-w", "restart"
        )

    def stop(self, mode: str = "immediate") -> None:
        if (self.data / "postmaster.pid").exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def ready(self) -> bool:
        return (
            subprocess.run([str(PG_BIN / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(self.port)]).returncode == 0
        )


class PrivateRedis:
    def __init__(self, root: Path) -> None:
        self.port, self.log = free_port(), root / "redis.log"
        self.proc: subprocess.Popen | None = None

    def url(self, db: int) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        options = ["--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        binary = shutil.which("redis-server") or "redis-server"
        self.proc = spawn([binary, *options, "--daemonize", "no"], dict(os.environ), self.log)
        import redis

        client = redis.Redis(port=self.port, socket_connect_timeout=0.5)
        if not wait_until(lambda: _pings(client), 10):
            raise SystemExit("the private redis-server did not start")

    def stop(self) -> None:
        stop(self.proc, grace=10)
        self.proc = None


def _pings(client) -> bool:
    try:
        return bool(client.ping())
    except Exception:
        return False
