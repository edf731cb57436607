"""Where the workers post push messages: the endpoint rule on subscribing (a 400, nothing stored)
and again before each send, and the connection that goes only to the public address it checked.
No test touches the network: the resolver is a table, and the connection layer (urllib3's
create_connection and TLS wrap) records what it was asked for and stops there."""

from __future__ import annotations

import logging
import socket
import ssl

import pytest
import urllib3.connection
import urllib3.util.connection
from django.contrib.auth.models import User

from puzzles.accounts import push
from puzzles.accounts.push_endpoints import address_problem, as_sent, push_endpoint_problem
from puzzles.models import PushSubscription

from .factories import log_in
from .test_push import SUBSCRIBE, Device, browser_subscription, make_player, post
from .test_reminders import NOW, make_dailies, send_at

ISSUE = "https://127.0.0.1\\@fcm.googleapis.com/fcm/send/abc"  # issue 43's: urlsplit and requests disagree
FCM = "https://fcm.googleapis.com/fcm/send/abc"
PUBLIC = "142.250.185.10"  # an address of Google's: global

BAD = [
    ISSUE,
    "https://fcm.googleapis.com\\@127.0.0.1/fcm/send/abc",
    "https://fcm.googleapis.com@127.0.0.1/",
    "https://user:secret@fcm.googleapis.com/fcm/send/abc",
    "https://:443@fcm.googleapis.com/fcm/send/abc",
    "https://127.0.0.1/",
    "https://127.0.0.1#@fcm.googleapis.com/",
    "https://[::1]/",
    "https://[::ffff:127.0.0.1]/",
    "https://2130706433/",
    "https://0x7f.1/",
    "https://017700000001/",
    "https://127.1/",
    "https://localhost/push",
    "http://fcm.googleapis.com/fcm/send/abc",
    "HTTPS://fcm.googleapis.com/fcm/send/abc",
    "https://fcm.googleapis.com:8443/",
    "https://fcm.googleapis.com:80/fcm/send/abc",
    "https://fcm.googleapis.com:/fcm/send/abc",
    "https://evil.com/",
    "https://fcm.googleapis.com.evil.com/",
    "https://evilfcm.googleapis.com.",
    "https://fcm.googleapis.com./fcm/send/abc",
    "https://web.push.apple.com./abc",
    "https://FCM.googleapis.com/fcm/send/abc",
    "https://fcm.googleapis.c\u043em/fcm/send/abc",  # a Cyrillic o
    "https://\uff46\uff43\uff4d.googleapis.com/fcm/send/abc",  # full-width letters, which IDNA folds to fcm
    "https://fcm.googleapis.com\t/fcm/send/abc",
    " https://fcm.googleapis.com/fcm/send/abc",
    "https://fcm.googleapis.com/fcm/send/abc\n",
]
GOOD = [
    FCM,
    "https://fcm.googleapis.com:443/fcm/send/dAb:APA91bE-x_y",
    "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABh",
    "https://web.push.apple.com/QGuQyavXutnMH",
    "https://wns2-par02p.notify.windows.com/w/?token=BQYAAABs%2bAQ%2fx",
]


@pytest.fixture(autouse=True)
def vapid_keys(settings):
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = push.new_vapid_keys()
    settings.VAPID_SUBJECT = "mailto:sudoku@example.com"


# --- subscribing --------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("endpoint", BAD)
def test_an_endpoint_the_workers_must_not_post_to_is_a_400_and_stores_nothing(client, endpoint):
    log_in(client, "ada")
    response = post(client, SUBSCRIBE, browser_subscription(endpoint))
    assert response.status_code == 400 and response.json()["error"]
    assert not PushSubscription.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("endpoint", GOOD)
def test_the_browsers_push_services_are_accepted(client, endpoint):
    ada = log_in(client, "ada")
    assert post(client, SUBSCRIBE, browser_subscription(endpoint)).status_code == 201
    assert PushSubscription.objects.get(user=ada).endpoint == endpoint


def test_the_issues_endpoint_is_refused_because_requests_reads_another_host_than_urlsplit():
    assert as_sent(ISSUE)[1] == "127.0.0.1"  # what the worker connected to
    assert push_endpoint_problem(ISSUE)
    assert as_sent(FCM) == ("https", "fcm.googleapis.com", None) and push_endpoint_problem(FCM) is None


def test_the_push_services_are_a_setting_of_exact_hosts_and_dotted_domains(settings):
    settings.PUSH_SERVICE_HOSTS = ["push.example.net", ".push.example.org"]
    assert push_endpoint_problem("https://push.example.net/abc") is None
    assert push_endpoint_problem("https://eu.push.example.org/abc") is None
    for refused in ("https://push.example.org/abc", "https://a.push.example.net/abc", FCM):
        assert push_endpoint_problem(refused) == "That push service is not one this site sends to."


@pytest.mark.parametrize(
    ("address", "problem"),
    [
        ("127.0.0.1", "loopback"),
        ("10.0.0.7", "private"),
        ("192.168.1.1", "private"),
        ("169.254.169.254", "link-local"),
        ("0.0.0.0", "unspecified"),
        ("224.0.0.1", "multicast"),
        ("240.0.0.1", "reserved"),
        ("100.64.0.1", "not global"),
        ("::1", "loopback"),
        ("::", "unspecified"),
        ("fe80::1%eth0", "link-local"),
        ("fc00::1", "private"),
        ("::ffff:127.0.0.1", "loopback"),
        ("::ffff:10.0.0.1", "private"),
        ("64:ff9b::a9fe:a9fe", "link-local"),
        ("2002:7f00:1::", "loopback"),
        (PUBLIC, None),
        ("2a00:1450:4001:82a::200a", None),
    ],
)
def test_only_public_addresses_are_connected_to(address, problem):
    assert address_problem(address) == problem


# --- sending ------------------------------------------------------------------------------------


class Resolver:
    """socket.getaddrinfo from a table (host -> addresses), recording each name asked; from the
    second answer on, a name in `later` resolves there instead (DNS rebinding)."""

    def __init__(self, table: dict[str, list[str]], later: dict[str, list[str]] | None = None) -> None:
        self.table, self.later, self.asked = table, later or {}, []

    def __call__(self, host, port, family=0, type=0, proto=0, flags=0):
        answered = host in self.asked
        self.asked.append(host)
        if host not in self.table:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        found = []
        for address in self.later.get(host, self.table[host]) if answered else self.table[host]:
            if ":" in address:
                found.append((socket.AF_INET6, socket.SOCK_STREAM, 6, "", (address, port, 0, 0)))
            else:
                found.append((socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port)))
        return found


class ConnectionLayer:
    """urllib3's create_connection and TLS wrap, recording what they were asked: the address and
    port connected to, and the name TLS would verify and send as SNI; it stops at the handshake."""

    def __init__(self) -> None:
        self.connected: list[tuple[str, int]] = []
        self.tls_names: list[str] = []

    def create_connection(self, address, *args, **kwargs):
        self.connected.append(address)
        return socket.socket()  # never connected: the handshake below is refused first

    def ssl_wrap_socket(self, sock, *args, server_hostname=None, **kwargs):
        self.tls_names.append(server_hostname)
        sock.close()
        raise ssl.SSLError("the test stops at the handshake")


@pytest.fixture
def network(monkeypatch):
    """Resolve through `network.resolver` (set it per test), connect through the recorder."""
    layer = ConnectionLayer()
    layer.resolver = Resolver({})
    monkeypatch.setattr(socket, "getaddrinfo", lambda *args, **kwargs: layer.resolver(*args, **kwargs))
    monkeypatch.setattr(urllib3.util.connection, "create_connection", layer.create_connection)
    monkeypatch.setattr(urllib3.connection, "ssl_wrap_socket", layer.ssl_wrap_socket)
    return layer


def refusals(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if "not sent to" in r.getMessage()]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "addresses",
    [["127.0.0.1"], ["10.0.0.7"], ["169.254.169.254"], ["::1"], ["::ffff:10.0.0.1"], [PUBLIC, "10.0.0.7"]],
)
def test_a_push_service_name_resolving_inside_is_never_connected_to(network, addresses, caplog):
    network.resolver = Resolver({"fcm.googleapis.com": addresses})
    device = Device(User.objects.create_user("ada"), FCM)
    assert push.send_push(device.row, {"title": "x"}) is push.Outcome.FAILED
    assert network.resolver.asked == ["fcm.googleapis.com"]
    assert network.connected == [] and network.tls_names == []
    [record] = refusals(caplog)
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert f"resolves to {addresses[-1]}" in record.getMessage()
    assert PushSubscription.objects.filter(pk=device.row.pk).exists()  # kept, as after a failed send


@pytest.mark.django_db
def test_a_stored_endpoint_the_rule_refuses_is_never_resolved_nor_connected_to(network, caplog):
    network.resolver = Resolver({"fcm.googleapis.com": [PUBLIC], "127.0.0.1": ["127.0.0.1"]})
    device = Device(User.objects.create_user("ada"), ISSUE)  # stored before the rule
    assert push.send_push(device.row, {"title": "x"}) is push.Outcome.FAILED
    assert network.resolver.asked == [] and network.connected == []
    [record] = refusals(caplog)
    assert record.levelno == logging.WARNING and record.exc_info is None


@pytest.mark.django_db
def test_a_public_push_service_is_connected_to_at_the_address_checked_under_its_own_name(network, caplog):
    # The name would resolve inside on a second look (DNS rebinding): it is looked up once.
    network.resolver = Resolver({"fcm.googleapis.com": [PUBLIC]}, later={"fcm.googleapis.com": ["127.0.0.1"]})
    device = Device(User.objects.create_user("ada"), FCM)
    assert push.send_push(device.row, {"title": "x"}) is push.Outcome.FAILED  # stopped at the handshake
    assert network.resolver.asked == ["fcm.googleapis.com"]
    assert network.connected == [(PUBLIC, 443)]
    assert network.tls_names == ["fcm.googleapis.com"]  # the certificate checked for the name
    assert "not reached" in caplog.text and not refusals(caplog)


@pytest.mark.django_db
def test_the_reminder_run_counts_a_refused_device_as_failed_and_goes_on(network, caplog):
    make_dailies()
    network.resolver = Resolver({"fcm.googleapis.com": ["10.0.0.7"]})
    ada = make_player("ada", email=True)
    Device(ada, FCM)
    Device(ada, ISSUE)
    report = send_at(NOW)
    assert (report.pushed, report.push_failed, report.push_gone, report.sent) == (0, 2, 0, 1)
    assert network.connected == [] and len(refusals(caplog)) == 2
