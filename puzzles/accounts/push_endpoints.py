"""Where the workers may post a push message: the rule for a subscription's endpoint, and a
transport that connects only to the public address it checked.

The endpoint comes from a browser, so from anyone: the workers must never be aimed inside our
network with it. `push_endpoint_problem` is the one rule, called on subscribing (a 400) and again
before each send (for rows stored before it). It reads the address with Python's urlsplit and with
requests' own parsing (urllib3's, then the adapter's), and refuses it unless both name the same
host: `https://127.0.0.1\\@fcm.googleapis.com/` was a push service to urlsplit and 127.0.0.1 to
requests. Beyond that: https on port 443, no user-info, a lower-case ASCII host name (no IP
literal in any spelling, no trailing dot), and the host in PUSH_SERVICE_HOSTS.

A name in that list still resolves through DNS, which whoever runs it can point anywhere, and can
point elsewhere between a check and a connect. So `PushSession` connects through
`CheckedHTTPSConnection`, which resolves the host once, refuses (`RefusedAddress`) unless every
address is public, and connects to those checked addresses, not to the name again; TLS still
verifies the certificate for the name and sends it as SNI and Host. It follows no redirect and
reads no proxy or .netrc from the environment.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from typing import Any
from urllib.parse import urlparse, urlsplit

import requests
from django.conf import settings
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPSConnection
from urllib3.connectionpool import HTTPSConnectionPool
from urllib3.exceptions import ConnectTimeoutError, NameResolutionError, NewConnectionError
from urllib3.util import connection, parse_url

HTTPS_PORT = 443
# Printable ASCII only: parsers drop, keep or re-encode spaces, controls and other characters
# each in their own way; browsers' endpoints never hold them (their tokens are base64url).
PRINTABLE = re.compile(r"[\x21-\x7e]+")
LABEL = r"(?!-)[a-z0-9-]{1,63}(?<!-)"
HOST_NAME = re.compile(rf"{LABEL}(?:\.{LABEL})*")  # IDNA's ASCII form, lower case, no trailing dot
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")  # RFC 6052: an IPv4 address in its last 32 bits
REFUSED_KINDS = ("loopback", "link_local", "unspecified", "multicast", "reserved", "private")  # the narrowest first


class RefusedAddress(Exception):
    """A push service's name resolved to an address the site does not connect to."""


# --- the endpoint -------------------------------------------------------------------------------


def is_push_service(host: str) -> bool:
    """Whether `host` is one of PUSH_SERVICE_HOSTS: that very name, or under one written with a
    leading dot (".push.apple.com" names web.push.apple.com). Compared as written: a host in any
    other form (upper case, a trailing dot) is refused by push_endpoint_problem before this."""
    for allowed in settings.PUSH_SERVICE_HOSTS:
        allowed = allowed.lower()
        if host == allowed or (allowed.startswith(".") and host.endswith(allowed)):
            return True
    return False


def is_ip_literal(host: str) -> bool:
    """Whether `host` is an IP address in any spelling a resolver takes: 127.0.0.1, ::1, and
    inet_aton's 2130706433, 0x7f.1 or 127.1 (no top-level domain is a number)."""
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        pass
    try:
        socket.inet_aton(host)
        return True
    except OSError:
        pass
    return host.rstrip(".").rsplit(".", 1)[-1].isdigit()


def as_sent(url: str) -> tuple[str, str | None, int | None]:
    """The scheme, host and port requests connects to for `url`: its own parse of the address
    (urllib3's parse_url, in PreparedRequest.prepare_url), then its adapter's reading of that."""
    prepared = requests.PreparedRequest()
    prepared.prepare_url(url, None)
    sent = urlparse(str(prepared.url))
    return sent.scheme, sent.hostname, sent.port


def push_endpoint_problem(url: str) -> str | None:
    """Why the site will not post to `url`, in a sentence, or None for an https address on a
    known push service that every parser on the way reads alike."""
    if not PRINTABLE.fullmatch(url) or "\\" in url:
        return "A push endpoint is a plain https address (printable ASCII, no backslash)."
    try:
        parts = urlsplit(url)
        port = parts.port  # a ValueError for one that is no number
    except ValueError:
        return "A push endpoint is an https address."
    host = parts.hostname or ""
    if not url.startswith("https://") or not host:
        return "A push endpoint is an https address."
    if "@" in parts.netloc:
        return "A push endpoint has no user name or password in it."
    if is_ip_literal(host):
        return "A push endpoint names its push service, not an IP address."
    if port not in (None, HTTPS_PORT) or parts.netloc not in (host, f"{host}:{HTTPS_PORT}"):
        return "A push endpoint's host is written in lower case, on port 443 or none."
    if not HOST_NAME.fullmatch(host) or len(host) > 253:
        return "A push endpoint's host is a plain ASCII name, with no trailing dot."
    if not is_push_service(host):
        return "That push service is not one this site sends to."
    try:
        sender, parsed = as_sent(url), parse_url(url)
    except (requests.RequestException, ValueError):
        return "A push endpoint is an https address."
    if sender[:2] != ("https", host) or sender[2] not in (None, HTTPS_PORT) or parsed.host != host:
        return "A push endpoint reads as one host to every parser."
    return None


# --- the address --------------------------------------------------------------------------------


def address_problem(text: str) -> str | None:
    """Why the site will not connect to this IP address (what kind it is), or None for a public
    one. For IPv6, the IPv4 address it carries (mapped, 6to4, NAT64) is judged as well."""
    address = ipaddress.ip_address(text.split("%", 1)[0])  # an IPv6 zone index is no part of it
    if isinstance(address, ipaddress.IPv6Address):
        inner = address.ipv4_mapped or address.sixtofour
        if inner is None and address in NAT64:
            inner = ipaddress.IPv4Address(int(address) & 0xFFFF_FFFF)
        if inner is not None and (problem := address_problem(str(inner))):
            return problem
    for kind in REFUSED_KINDS:
        if getattr(address, f"is_{kind}"):
            return kind.replace("_", "-")
    return None if address.is_global else "not global"


def public_addresses(host: str, port: int) -> list[str]:
    """The addresses `host` resolves to, once, when every one is public; RefusedAddress otherwise
    (a name with one inside address among public ones is nobody's push service)."""
    found = socket.getaddrinfo(host, port, connection.allowed_gai_family(), socket.SOCK_STREAM)
    addresses = list(dict.fromkeys(str(sockaddr[0]) for *_, sockaddr in found))
    for address in addresses:
        if problem := address_problem(address):
            raise RefusedAddress(f"{host} resolves to {address} ({problem})")
    return addresses


# --- the transport ------------------------------------------------------------------------------


class CheckedHTTPSConnection(HTTPSConnection):
    """An HTTPS connection to the public addresses its host resolved to when checked, tried in
    turn; the host name stays what TLS verifies and sends (SNI, Host)."""

    def _new_conn(self) -> socket.socket:
        port = self.port or HTTPS_PORT
        try:
            addresses = public_addresses(self.host, port)
        except socket.gaierror as exc:
            raise NameResolutionError(self.host, self, exc) from exc
        failure: OSError | None = None
        for address in addresses:
            try:
                return connection.create_connection(
                    (address, port),
                    self.timeout,
                    source_address=self.source_address,
                    socket_options=self.socket_options,
                )
            except TimeoutError as exc:
                raise ConnectTimeoutError(self, f"Connection to {self.host} timed out.") from exc
            except OSError as exc:
                failure = exc
        raise NewConnectionError(self, f"Failed to establish a new connection: {failure}") from failure


class CheckedHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = CheckedHTTPSConnection


class CheckedAdapter(HTTPAdapter):
    """requests' adapter for https, over CheckedHTTPSConnection (and for https only)."""

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"https": CheckedHTTPSPool}


class PushSession(requests.Session):
    """The session pywebpush posts with: https over CheckedAdapter only, no redirect followed (a
    push service answers, it does not send us on), no proxy or credentials from the environment."""

    def __init__(self) -> None:
        super().__init__()
        self.trust_env = False
        self.adapters.clear()
        self.mount("https://", CheckedAdapter())

    def get_redirect_target(self, resp: requests.Response) -> None:
        return None
