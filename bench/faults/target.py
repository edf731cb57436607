"""The site under test: gunicorn with production settings (less HTTPS: plain HTTP on loopback),
its players, one easy daily, and the load that runs while a fault is injected."""

from __future__ import annotations

import http.client
import json
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bench.harness import children_of, free_port, gunicorn, make_puzzles, new_players, stop

HEALTH_TOKEN = "faults-monitor-" + "t" * 32  # the prober is the site's monitor
TIMEOUT = 10.0  # seconds a client waits for an answer; anything longer counts as a hang
GUNICORN_WORKERS = 3


@dataclass
class Player:
    """A logged-in player: a session of their own, the version they last saw, what they sent."""

    name: str
    user_id: int
    cookie: str
    csrf: str
    version: int = 0
    acked: list[tuple[int, int]] = field(default_factory=list)  # (save number, version answered)

    def headers(self, port: int) -> dict[str, str]:
        return {
            "Cookie": f"sessionid={self.cookie}; csrftoken={self.csrf}",
            "X-CSRFToken": self.csrf,
            "Content-Type": "application/json",
            "Referer": f"http://127.0.0.1:{port}/",
        }

    def took(self, reply: Reply) -> None:
        """As the board does: adopt the server's version on 200 and on 409, keep the last version
        after any other answer; a 200 is an acknowledged save."""
        data = reply.json() if reply.status in (200, 409) else None
        if reply.status == 200 and data:
            self.version = data["version"]
            self.acked.append((reply.number, data["version"]))
        elif reply.status == 409 and data and "state" in data:
            self.version = data["state"]["version"]


@dataclass
class Reply:
    """One request as a client saw it."""

    kind: str
    player: str
    started: float
    ended: float
    status: int  # 0: no answer (refused, reset or timed out)
    content_type: str = ""
    body: bytes = b""
    error: str = ""
    number: int = 0  # the save's number, for saves

    @property
    def seconds(self) -> float:
        return self.ended - self.started

    def json(self) -> dict | None:
        try:
            data = json.loads(self.body)
        except ValueError:
            return None
        return data if isinstance(data, dict) else None

    @property
    def clean_failure(self) -> bool:
        """A refusal a client can act on: JSON with a message, or the site's own error page."""
        data = self.json() if "json" in self.content_type else None
        if data is not None and data.get("error"):
            return True
        return self.status >= 500 and b"Traceback" not in self.body and b"Something went wrong" in self.body


class Site:
    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.env, self.log, self.port = env, log, free_port()
        self.proc: subprocess.Popen | None = None
        self.path = ""
        self.givens = self.solution = ""

    def start(self) -> None:
        self.proc = gunicorn(self.port, self.env, GUNICORN_WORKERS, timeout=30, log=self.log)

    def workers(self) -> list[int]:
        return children_of(self.proc.pid) if self.proc else []

    def request(
        self,
        method: str,
        path: str,
        body: dict | None = None,
        headers: dict | None = None,
        kind: str = "",
        player: str = "",
        number: int = 0,
    ) -> Reply:
        started = time.monotonic()
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT)
        try:
            conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers or {})
            response = conn.getresponse()
            data = response.read()
            return Reply(
                kind,
                player,
                started,
                time.monotonic(),
                response.status,
                response.getheader("Content-Type", ""),
                data,
                number=number,
            )
        except (OSError, http.client.HTTPException) as exc:
            return Reply(
                kind, player, started, time.monotonic(), 0, error=f"{type(exc).__name__}: {exc}", number=number
            )
        finally:
            conn.close()

    def get(self, path: str) -> Reply:
        return self.request("GET", path, kind="get")

    def api(self, player: Player, action: str, body: dict | None = None, number: int = 0) -> Reply:
        method = "GET" if action == "state" else "POST"
        return self.request(
            method,
            f"/api{self.path}{action}/",
            body,
            player.headers(self.port),
            kind=action,
            player=player.name,
            number=number,
        )

    def refresh_version(self, player: Player) -> None:
        reply, data = self.api(player, "state"), None
        if reply.status == 200 and (data := reply.json()):
            player.version = data["version"]

    def save(self, player: Player, number: int) -> Reply:
        """Save the position that names save `number`, from the version the player last saw."""
        body = {
            "version": player.version,
            "digits": numbered_digits(self.givens, number),
            "corner": [""] * 81,
            "centre": [""] * 81,
        }
        return self.api(player, "save", body, number=number)

    def stop(self) -> None:
        stop(self.proc, grace=20)


def numbered_digits(givens: str, number: int) -> str:
    """A position that names its save: `number` written in base 9 (digits 1-9) into the
    first empty cells, so the stored board says which save it came from."""
    empty = [i for i, g in enumerate(givens) if g == "0"]
    digits = ["0"] * 81
    for cell in empty[:8]:
        number, rest = divmod(number, 9)
        digits[cell] = str(rest + 1)
    return "".join(digits)


def number_of(givens: str, digits: str) -> int:
    empty = [i for i, g in enumerate(givens) if g == "0"]
    number = 0
    for cell in reversed(empty[:8]):
        number = number * 9 + (int(digits[cell]) - 1 if digits[cell] != "0" else 0)
    return number


class Saver(threading.Thread):
    """A player saving every `pace` seconds until told to stop, as the board does."""

    def __init__(self, site: Site, player: Player, stop: threading.Event, pace: float, start_number: int) -> None:
        super().__init__(daemon=True)
        self.site, self.player, self.stop_event, self.pace = site, player, stop, pace
        self.number = start_number
        self.replies: list[Reply] = []

    def run(self) -> None:
        while not self.stop_event.is_set():
            self.number += 1
            reply = self.site.save(self.player, self.number)
            self.replies.append(reply)
            self.player.took(reply)
            self.stop_event.wait(self.pace)


class Prober(threading.Thread):
    """Asks /health/ every half second: what the site itself says about its services."""

    def __init__(self, site: Site, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.site, self.stop_event = site, stop
        self.replies: list[Reply] = []

    def run(self) -> None:
        while not self.stop_event.is_set():
            auth = {"Authorization": f"Bearer {HEALTH_TOKEN}"}
            self.replies.append(self.site.request("GET", "/health/", headers=auth, kind="health"))
            self.stop_event.wait(0.5)


def run_load(
    site: Site, players: list[Player], pace: float, during: Callable[[], dict], start_number: int
) -> tuple[list[Reply], list[Reply], dict]:
    """Players saving and a health prober while `during()` injects the fault; returns the saves,
    the health answers and what `during` reported."""
    stop = threading.Event()
    savers = [Saver(site, p, stop, pace, start_number) for p in players]
    prober = Prober(site, stop)
    for t in (*savers, prober):
        t.start()
    try:
        report = during()
    finally:
        stop.set()
        for t in (*savers, prober):
            t.join(timeout=TIMEOUT + 5)
    return [r for s in savers for r in s.replies], prober.replies, report


def prepare_players(count: int, prefix: str) -> list[Player]:
    return [Player(user.username, user.pk, *session) for user, session in new_players(count, prefix)]


def prepare_daily(site: Site) -> None:
    """Migrate, and make today's easy daily the one every player plays."""
    from django.core.management import call_command

    from puzzles.models import site_today

    call_command("migrate", verbosity=0)
    (puzzle,) = make_puzzles(1, ("easy",), day=site_today())
    site.path = f"/daily/{site_today().isoformat()}/easy/"
    site.givens, site.solution = puzzle.givens, puzzle.solution
