"""Clients of the site on loopback: a keep-alive connection, and a browser that keeps cookies
and times every request."""

from __future__ import annotations

import http.client
import time
from http.cookies import SimpleCookie


class Connection:
    """A keep-alive HTTP connection to the site on loopback, opened again after any failure."""

    def __init__(self, port: int, timeout: float = 30) -> None:
        self.port, self.timeout = port, timeout
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)

    def send(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes, http.client.HTTPResponse | None]:
        """(status, body, response); (0, b"", None) when no answer came (refused, reset, timed out)."""
        try:
            self.conn.request(method, path, body=body, headers=headers or {})
            response = self.conn.getresponse()
            return response.status, response.read(), response
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
            return 0, b"", None

    def close(self) -> None:
        self.conn.close()


class Browser:
    """One player's keep-alive connection and cookies; every request is timed and recorded in
    `samples` as (kind, when it was sent, milliseconds, status)."""

    def __init__(self, port: int, samples: list, timeout: float = 60) -> None:
        self.samples = samples
        self.conn = Connection(port, timeout)
        self.cookies: dict[str, str] = {}

    def request(
        self, kind: str, method: str, path: str, body: bytes | None = None, content_type: str = "application/json"
    ) -> tuple[int, bytes]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if method == "POST":
            headers["Content-Type"] = content_type
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        started, sent_at = time.perf_counter(), time.monotonic()
        status, data, response = self.conn.send(method, path, body, headers)
        # When it was sent, not when it came back: a request belongs to the phase it was sent in.
        self.samples.append((kind, sent_at, (time.perf_counter() - started) * 1000, status))
        if response is not None:
            for header in response.msg.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(header).items():
                    self.cookies[name] = morsel.value
        return status, data

    def close(self) -> None:
        self.conn.close()
