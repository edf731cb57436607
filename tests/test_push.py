"""Push reminders: a local push service that decrypts what the reminder run sends (as a browser
would, with the keys the test's "browser" made), a gone device forgotten and a failing one kept,
the subscribe and unsubscribe endpoints' refusals, and the channel in the settings form. Which
endpoints and addresses the workers post to: tests/test_push_endpoints.py."""

from __future__ import annotations

import base64
import datetime
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
import time_machine
from allauth.account.models import EmailAddress
from celery.exceptions import SoftTimeLimitExceeded
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.contrib.auth.models import User
from django.core import mail
from django.core.management import call_command
from django.test import Client
from py_vapid import Vapid
from requests.adapters import HTTPAdapter

from puzzles.accounts import push, push_endpoints, reminders
from puzzles.accounts.guests import guest_create
from puzzles.models import PushSubscription, Reminder, ReminderSent

from .concurrency import at_once, raised
from .factories import log_in
from .test_reminders import NOW, make_dailies, send_at

SUBSCRIBE = "/account/reminders/push/"
REMOVE = "/account/reminders/push/remove/"
PUSH_SERVICE = "https://updates.push.services.mozilla.com"  # the devices' endpoints, served locally


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@pytest.fixture(autouse=True)
def vapid_keys(settings):
    public, private = push.new_vapid_keys()
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = public, private
    settings.VAPID_SUBJECT = "mailto:sudoku@example.com"
    settings.TIME_ZONE = "UTC"
    settings.SITE_URL = "https://sudoku.example"
    return public


class PushService:
    """A push service on 127.0.0.1: records each POST (path, headers with lower-case names, body) and answers with
    `status[path]` (201 by default), as a browser vendor's would; a redirect points to /elsewhere."""

    def __init__(self) -> None:
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        self.status: dict[str, int] = {}
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                service.received.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(service.status.get(self.path, 201))
                self.send_header("Location", "/elsewhere")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def device(self, user: User, name: str) -> Device:
        """A browser's subscription at /push/<name>, with the keys only the browser holds."""
        return Device(user, f"{PUSH_SERVICE}/push/{name}")


class Device:
    """What a browser makes when it subscribes: an ECDH key pair and an auth secret, and the row
    the server keeps (only the public half and the secret)."""

    def __init__(self, user: User, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.row = PushSubscription.objects.create(
            user=user, endpoint=endpoint, p256dh=b64(public), auth=b64(self.auth)
        )

    def read(self, body: bytes) -> dict:
        """Decrypt a message as the browser does (RFC 8291, aes128gcm)."""
        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"))


@pytest.fixture
def service(monkeypatch):
    """The local push service, which the workers' posts to PUSH_SERVICE reach instead (over plain
    HTTP, the checked connection left out: tests/test_push_endpoints.py tests it)."""
    found = PushService()
    found.thread.start()
    plain = HTTPAdapter()

    def to_the_local_service(adapter, request, **kwargs):
        request.url = request.url.replace(PUSH_SERVICE, found.url, 1)
        return plain.send(request, **kwargs)

    monkeypatch.setattr(push_endpoints.CheckedAdapter, "send", to_the_local_service)
    yield found
    plain.close()
    found.server.shutdown()
    found.server.server_close()


def make_player(name: str, *, push_on: bool = True, email: bool = False, verified: bool = True) -> User:
    user = User.objects.create_user(name, f"{name}@example.com")
    EmailAddress.objects.create(user=user, email=f"{name}@example.com", verified=verified, primary=True)
    Reminder.objects.create(user=user, email=email, push=push_on, hour=8, time_zone="UTC")
    return user


def vapid_claims(headers: dict[str, str], public_key: str) -> dict:
    """The VAPID JWT's claims, after checking its ES256 signature against the site's public key."""
    scheme, _, params = headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == public_key
    head, claims, signature = fields["t"].split(".")
    raw = unb64(signature)
    point = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(public_key))
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    point.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    return json.loads(unb64(claims))


# --- sending ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_reminder_run_pushes_a_message_only_the_players_device_can_read(service, vapid_keys):
    make_dailies()
    ada = make_player("ada")  # no solve yet: no streak
    phone = service.device(ada, "ada-phone")
    report = send_at(NOW)
    assert (report.pushed, report.push_failed, report.push_gone, report.sent) == (1, 0, 0, 0)
    [(path, headers, body)] = service.received
    assert path == "/push/ada-phone"
    assert headers["content-encoding"] == "aes128gcm"
    assert headers["ttl"] == str(4 * 3600) and headers["urgency"] == "normal"
    claims = vapid_claims(headers, vapid_keys)
    assert claims["aud"] == PUSH_SERVICE and claims["sub"] == "mailto:sudoku@example.com"
    assert b"Today" not in body  # encrypted: the service itself cannot read it
    message = phone.read(body)
    assert message["title"] == "Today's sudoku"
    assert message["url"] == "/" and message["tag"] == "daily-reminder"
    assert message["body"] == "Today's puzzles: Easy, Medium, Hard, Expert, Extreme. Start a streak today."
    assert message["icon"].startswith("/static/icons/icon-192")
    assert mail.outbox == []  # push only
    assert ReminderSent.objects.filter(user=ada).count() == 1
    assert PushSubscription.objects.get(pk=phone.row.pk).last_used is not None
    # The same hour again, or a second run: claimed already, nothing more is pushed.
    send_at(NOW + datetime.timedelta(minutes=20))
    assert len(service.received) == 1


@pytest.mark.django_db
def test_each_device_gets_the_reminder_and_mail_goes_too_when_both_channels_are_on(service):
    make_dailies()
    ada = make_player("ada", email=True)
    phone, laptop = service.device(ada, "phone"), service.device(ada, "laptop")
    report = send_at(NOW)
    assert (report.pushed, report.sent) == (2, 1)
    assert [m.to for m in mail.outbox] == [["ada@example.com"]]
    read = {path: None for path, _, _ in service.received}
    assert set(read) == {"/push/phone", "/push/laptop"}
    for device, (_, _, body) in zip((phone, laptop), sorted(service.received, key=lambda r: r[0] != "/push/phone")):
        assert device.read(body)["title"] == "Today's sudoku"


@pytest.mark.django_db
def test_push_needs_no_address_and_a_player_with_push_but_no_device_is_not_claimed(service):
    make_dailies()
    ada = make_player("ada", verified=False)  # push only: no verified address needed
    service.device(ada, "ada")
    bob = make_player("bob")  # push on, no device: nothing to send, and that is fine
    cid = make_player("cid", push_on=False)  # everything off
    service.device(cid, "cid")
    report = send_at(NOW)
    assert report.pushed == 1 and [p for p, _, _ in service.received] == ["/push/ada"]
    assert set(ReminderSent.objects.values_list("user__username", flat=True)) == {"ada"}
    assert not ReminderSent.objects.filter(user=bob).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("status", [404, 410])
def test_a_device_the_push_service_says_is_gone_is_forgotten(service, status, caplog):
    make_dailies()
    ada = make_player("ada")
    gone, kept = service.device(ada, "gone"), service.device(ada, "kept")
    service.status["/push/gone"] = status
    report = send_at(NOW)
    assert (report.pushed, report.push_gone, report.push_failed) == (1, 1, 0)
    assert list(PushSubscription.objects.values_list("pk", flat=True)) == [kept.row.pk]
    assert not PushSubscription.objects.filter(pk=gone.row.pk).exists()


@pytest.mark.django_db
def test_a_push_service_failing_keeps_the_device_logs_it_and_the_mail_still_goes(service, caplog):
    make_dailies()
    ada = make_player("ada", email=True)
    device = service.device(ada, "busy")
    service.status["/push/busy"] = 500
    report = send_at(NOW)
    assert (report.pushed, report.push_failed, report.push_gone, report.sent) == (0, 1, 0, 1)
    assert PushSubscription.objects.filter(pk=device.row.pk, last_used=None).exists()
    assert "refused (500)" in caplog.text
    # The claim stands: the player is not pushed again that day.
    send_at(NOW + datetime.timedelta(minutes=30))
    assert len(service.received) == 1 and len(mail.outbox) == 1


@pytest.mark.django_db
@pytest.mark.parametrize("status", [302, 307, 308])
def test_a_push_service_redirecting_is_a_failure_and_the_redirect_is_not_followed(service, status, caplog):
    make_dailies()
    ada = make_player("ada")
    device = service.device(ada, "moved")
    service.status["/push/moved"] = status
    report = send_at(NOW)
    assert (report.pushed, report.push_failed) == (0, 1)
    assert [path for path, _, _ in service.received] == ["/push/moved"]  # /elsewhere never asked
    assert f"refused ({status})" in caplog.text
    assert PushSubscription.objects.filter(pk=device.row.pk).exists()


@pytest.mark.django_db
def test_an_unreachable_push_service_is_a_failure_not_a_crash(service, caplog):
    make_dailies()
    ada = make_player("ada")
    device = service.device(ada, "x").row
    service.url = "http://127.0.0.1:9"  # the discard port: nothing listens
    report = send_at(NOW)
    assert (report.push_failed, report.pushed) == (1, 0)
    assert PushSubscription.objects.filter(pk=device.pk).exists()
    assert "not reached" in caplog.text


@pytest.mark.django_db
def test_the_soft_time_limit_during_a_push_ends_the_run_and_leaves_the_untried_due(service, monkeypatch):
    make_dailies()
    for n in range(3):
        service.device(make_player(f"p{n}"), f"p{n}")
    real, calls = push.webpush, []

    def cut_short_on_the_second(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise SoftTimeLimitExceeded
        return real(*args, **kwargs)

    monkeypatch.setattr(push, "webpush", cut_short_on_the_second)
    with pytest.raises(SoftTimeLimitExceeded):
        send_at(NOW, batch=10)
    # p0 went; p1's push was cut short (kept: never twice); p2 was never tried and is due again.
    assert set(ReminderSent.objects.values_list("user__username", flat=True)) == {"p0", "p1"}
    monkeypatch.setattr(push, "webpush", real)
    assert send_at(NOW + datetime.timedelta(minutes=5)).pushed == 1
    assert sorted(path for path, _, _ in service.received) == ["/push/p0", "/push/p2"]


@pytest.mark.django_db
def test_the_payload_counts_the_streak_in_one_line():
    puzzles = [{"tier": "Easy", "url": "x"}, {"tier": "Hard", "url": "y"}]
    assert push.reminder_payload(puzzles, 1)["body"] == "Today's puzzles: Easy, Hard. Your streak: 1 day."
    assert push.reminder_payload(puzzles, 12)["body"] == "Today's puzzles: Easy, Hard. Your streak: 12 days."


def test_the_vapid_keys_command_prints_a_pair_py_vapid_loads(capsys, settings):
    call_command("vapid_keys")
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.split())
    key = Vapid.from_string(lines["VAPID_PRIVATE_KEY"])
    public = key.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    assert b64(public) == lines["VAPID_PUBLIC_KEY"] and len(unb64(lines["VAPID_PUBLIC_KEY"])) == 65
    # A PEM works as well (pasted on one line with \n).
    pem = key.private_pem().decode()
    settings.VAPID_PRIVATE_KEY = pem
    assert (
        push.vapid().public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        == public
    )


def test_the_system_check_wants_a_vapid_pair_that_belongs_together(settings):
    assert push.vapid_keys_check() == []
    other, _ = push.new_vapid_keys()
    settings.VAPID_PUBLIC_KEY = other
    assert [e.id for e in push.vapid_keys_check()] == ["puzzles.E103"]
    settings.VAPID_PRIVATE_KEY = "not a key"
    assert [e.id for e in push.vapid_keys_check()] == ["puzzles.E102"]
    settings.VAPID_PRIVATE_KEY = ""
    assert [e.id for e in push.vapid_keys_check()] == ["puzzles.E101"]
    settings.VAPID_PUBLIC_KEY = ""
    assert push.vapid_keys_check() == []


# --- subscribing --------------------------------------------------------------------------------


def browser_subscription(endpoint: str = "https://fcm.googleapis.com/fcm/send/wpush/v2/abc") -> dict:
    key = ec.generate_private_key(ec.SECP256R1()).public_key()
    public = key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return {"endpoint": endpoint, "expirationTime": None, "keys": {"p256dh": b64(public), "auth": b64(os.urandom(16))}}


def post(client: Client, url: str, data: object, method: str = "post", **extra):
    body = data if isinstance(data, (str, bytes)) else json.dumps(data)
    return getattr(client, method)(url, body, content_type="application/json", **extra)


@pytest.mark.django_db
def test_a_player_subscribes_this_browser_and_subscribing_again_updates_it(client):
    ada = log_in(client, "ada")
    first = browser_subscription()
    response = post(client, SUBSCRIBE, first)
    assert response.status_code == 201 and response.json() == {"devices": 1}
    assert response["Cache-Control"].startswith("max-age=0")
    row = PushSubscription.objects.get(user=ada)
    assert (row.endpoint, row.p256dh, row.auth) == (first["endpoint"], first["keys"]["p256dh"], first["keys"]["auth"])
    again = browser_subscription(first["endpoint"])
    assert post(client, SUBSCRIBE, again).json() == {"devices": 1}
    assert PushSubscription.objects.get(user=ada).p256dh == again["keys"]["p256dh"]


def test_the_known_push_services_are_the_browsers_and_nothing_beside_them():
    for host in (
        "fcm.googleapis.com",
        "updates.push.services.mozilla.com",
        "web.push.apple.com",
        "wns2-by3p.notify.windows.com",
    ):
        assert push_endpoints.is_push_service(host), host
    for host in ("push.apple.com.evil.test", "evilpush.apple.com", "googleapis.com", "127.0.0.1", "localhost"):
        assert not push_endpoints.is_push_service(host), host


@pytest.mark.django_db
def test_a_shared_browser_follows_whoever_subscribed_last(client):
    bob = User.objects.create_user("bob")
    shared = browser_subscription()
    PushSubscription.objects.create(user=bob, endpoint=shared["endpoint"], p256dh="x", auth="y")
    ada = log_in(client, "ada")
    assert post(client, SUBSCRIBE, shared).status_code == 201
    assert list(PushSubscription.objects.values_list("user", flat=True)) == [ada.pk]


@pytest.mark.django_db
def test_a_player_has_at_most_the_devices_the_settings_allow(client, settings):
    settings.PUSH_DEVICES_PER_PLAYER = 2
    ada = log_in(client, "ada")
    for n in range(2):
        assert (
            post(client, SUBSCRIBE, browser_subscription(f"https://fcm.googleapis.com/fcm/send/{n}")).status_code == 201
        )
    response = post(client, SUBSCRIBE, browser_subscription("https://fcm.googleapis.com/fcm/send/third"))
    assert response.status_code == 409 and "at most 2 devices" in response.json()["error"]
    # One of the two again is no new device.
    assert post(client, SUBSCRIBE, browser_subscription("https://fcm.googleapis.com/fcm/send/0")).status_code == 201
    assert PushSubscription.objects.filter(user=ada).count() == 2


@pytest.mark.django_db
def test_visitors_and_guests_cannot_subscribe(client):
    assert post(client, SUBSCRIBE, browser_subscription()).status_code == 403
    client.force_login(guest_create())
    response = post(client, SUBSCRIBE, browser_subscription())
    assert response.status_code == 403 and "log in" in response.json()["error"]
    assert not PushSubscription.objects.exists()


@pytest.mark.django_db
def test_subscribing_needs_the_csrf_token():
    browser = Client(enforce_csrf_checks=True)
    log_in(browser, "ada")
    assert post(browser, SUBSCRIBE, browser_subscription()).status_code == 403
    assert post(browser, REMOVE, {"endpoint": "https://fcm.googleapis.com/fcm/send/x"}).status_code == 403
    assert (
        post(browser, REMOVE, {"endpoint": "https://fcm.googleapis.com/fcm/send/x"}, method="delete").status_code == 403
    )
    assert not PushSubscription.objects.exists()


def bad_keys(**keys: object) -> dict:
    good = browser_subscription()
    return {**good, "keys": {**good["keys"], **keys}}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    [
        "{not json",
        "[1, 2]",
        "null",
        "[" * 5000 + "]" * 5000,
        {},
        {"endpoint": "http://fcm.googleapis.com/fcm/send/plain-http", "keys": browser_subscription()["keys"]},
        {"endpoint": "javascript:alert(1)", "keys": browser_subscription()["keys"]},
        {"endpoint": "https://", "keys": browser_subscription()["keys"]},
        {"endpoint": "https://10.0.0.7/admin", "keys": browser_subscription()["keys"]},
        {"endpoint": "https://localhost/push", "keys": browser_subscription()["keys"]},
        {"endpoint": "https://fcm.googleapis.com.evil.test/x", "keys": browser_subscription()["keys"]},
        {"endpoint": "https://evilpush.apple.com.test/x", "keys": browser_subscription()["keys"]},
        {"endpoint": "https://fcm.googleapis.com:8443/x", "keys": browser_subscription()["keys"]},
        {"endpoint": "https://fcm.googleapis.com:99999/x", "keys": browser_subscription()["keys"]},
        {"endpoint": ["https://fcm.googleapis.com/fcm/send/x"], "keys": browser_subscription()["keys"]},
        {"endpoint": "https://fcm.googleapis.com/fcm/send/" + "x" * 1000, "keys": browser_subscription()["keys"]},
        {"endpoint": "https://fcm.googleapis.com/fcm/send/x", "keys": "both"},
        {"endpoint": "https://fcm.googleapis.com/fcm/send/x"},
        bad_keys(p256dh="not base64 at all!"),
        bad_keys(p256dh=b64(b"short")),
        bad_keys(auth=b64(os.urandom(32))),
        bad_keys(auth=None),
        bad_keys(auth=12),
        bad_keys(p256dh="+" * 87),
    ],
)
def test_a_malformed_subscription_is_a_clear_400_and_stores_nothing(client, body):
    log_in(client, "ada")
    response = post(client, SUBSCRIBE, body)
    assert response.status_code in (400, 413) and response.json()["error"]
    assert not PushSubscription.objects.exists()


@pytest.mark.django_db
def test_any_content_type_or_method_gets_an_answer_not_a_500(client):
    log_in(client, "ada")
    form = client.post(SUBSCRIBE, {"endpoint": "https://fcm.googleapis.com/fcm/send/x"})
    assert form.status_code == 415
    assert client.post(SUBSCRIBE, b"\xff\xfe", content_type="text/plain").status_code == 415
    assert client.post(SUBSCRIBE, b"\xff\xfe", content_type="application/json").status_code == 400
    assert client.post(SUBSCRIBE, b"x" * 10_000, content_type="application/json").status_code == 413
    assert client.get(SUBSCRIBE).status_code == 405 and client.get(SUBSCRIBE)["Allow"] == "POST"
    assert client.put(SUBSCRIBE, "{}", content_type="application/json").status_code == 405
    assert client.get(REMOVE).status_code == 405 and client.get(REMOVE)["Allow"] == "POST, DELETE"
    assert client.post(REMOVE, {"endpoint": 1}).status_code == 415
    assert not PushSubscription.objects.exists()


@pytest.mark.django_db
def test_without_vapid_keys_push_is_not_offered(client, settings):
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    log_in(client, "ada")
    assert post(client, SUBSCRIBE, browser_subscription()).status_code == 404
    page = client.get("/account/reminders/")
    assert b"push-channel" not in page.content and b"js/push.js" not in page.content
    assert "push" not in page.context["form"].fields


@pytest.mark.django_db
def test_a_player_removes_their_own_device_and_never_another_players(client):
    bob = User.objects.create_user("bob")
    bobs = PushSubscription.objects.create(
        user=bob, endpoint="https://fcm.googleapis.com/fcm/send/bob", p256dh="x", auth="y"
    )
    ada = log_in(client, "ada")
    mine = PushSubscription.objects.create(
        user=ada, endpoint="https://fcm.googleapis.com/fcm/send/ada", p256dh="x", auth="y"
    )
    response = post(client, REMOVE, {"endpoint": bobs.endpoint})
    assert response.status_code == 200 and response.json() == {"removed": False}  # as if it were nobody's
    assert PushSubscription.objects.filter(pk=bobs.pk).exists()
    assert post(client, REMOVE, {"endpoint": mine.endpoint}, method="delete").json() == {"removed": True}
    assert not PushSubscription.objects.filter(pk=mine.pk).exists()
    assert post(client, REMOVE, {"endpoint": ["x"]}).json() == {"removed": False}


@pytest.mark.django_db
def test_subscribing_over_and_over_is_rate_limited(client):
    log_in(client, "ada")
    from puzzles.views.push import CHANGES_PER_HOUR

    for n in range(CHANGES_PER_HOUR):
        post(client, REMOVE, {"endpoint": f"https://fcm.googleapis.com/fcm/send/{n}"})
    response = post(client, SUBSCRIBE, browser_subscription())
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert not PushSubscription.objects.exists()


# --- the channel in the settings form -----------------------------------------------------------


@pytest.mark.django_db
def test_the_form_offers_push_hidden_until_the_browser_shows_it_and_saves_the_channel(client, vapid_keys):
    ada = log_in(client, "ada")
    page = client.get("/account/reminders/")
    content = page.content.decode()
    assert 'id="push-channel"' in content and f'data-push-key="{vapid_keys}"' in content
    assert 'id="push-channel" ' in content and " hidden>" in content.split('id="push-channel"')[1].split("\n")[0]
    assert "js/push.js" in content and 'name="push"' in content
    # Push alone needs no verified address.
    response = client.post("/account/reminders/", {"push": "on", "hour": "7", "time_zone": "Europe/Paris"})
    assert response.status_code == 302
    reminder = Reminder.objects.get(user=ada)
    assert (reminder.push, reminder.email) == (True, False)
    assert client.get("/account/reminders/").context["form"].initial["push"] is True
    PushSubscription.objects.create(user=ada, endpoint="https://fcm.googleapis.com/fcm/send/1", p256dh="x", auth="y")
    assert b"(1 device now)" in client.get("/account/reminders/").content
    # Both channels.
    EmailAddress.objects.create(user=ada, email="ada@example.com", verified=True, primary=True)
    client.post("/account/reminders/", {"push": "on", "email": "on", "hour": "7", "time_zone": "Europe/Paris"})
    assert Reminder.objects.filter(user=ada, push=True, email=True).exists()
    client.post("/account/reminders/", {"hour": "7", "time_zone": "Europe/Paris"})
    assert Reminder.objects.filter(user=ada, push=False, email=False).exists()


@pytest.mark.django_db
def test_without_keys_the_form_leaves_the_push_channel_as_it_was(client, settings):
    ada = log_in(client, "ada")
    Reminder.objects.create(user=ada, push=True, hour=8, time_zone="UTC")
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    client.post("/account/reminders/", {"push": "on", "hour": "9", "time_zone": "UTC"})
    assert Reminder.objects.filter(user=ada, push=True, hour=9).exists()


@pytest.mark.django_db
def test_the_one_click_unsubscribe_turns_push_off_too(client):
    ada = make_player("ada", email=True)
    assert reminders.reminders_stop(ada.pk) is True
    assert Reminder.objects.filter(user=ada, push=False, email=False).exists()


# --- at once (PostgreSQL) -----------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_push_to_each_device_exactly_once(postgres, service):
    make_dailies()
    devices = []
    for n in range(12):
        player = make_player(f"p{n:02d}", email=False)
        devices.append(service.device(player, f"p{n:02d}"))
    reports: list[reminders.RunReport] = []
    with time_machine.travel(NOW, tick=False):
        errors = raised(at_once(*[lambda: reports.append(reminders.reminders_send(batch=3))] * 2))
    assert not errors
    paths = sorted(path for path, _, _ in service.received)
    assert paths == sorted(f"/push/p{n:02d}" for n in range(12))
    assert sum(r.pushed for r in reports) == 12
    by_path = {path: body for path, _, body in service.received}
    assert all(d.read(by_path[f"/push/{d.row.user.username}"])["tag"] == "daily-reminder" for d in devices)


@pytest.mark.postgres
@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_two_browsers_subscribing_at_once_never_pass_the_device_limit(postgres, settings):
    settings.PUSH_DEVICES_PER_PLAYER = 1
    ada = User.objects.create_user("ada")
    fields = [
        push.subscription_fields(browser_subscription(f"https://fcm.googleapis.com/fcm/send/{n}")) for n in range(4)
    ]
    errors = raised(at_once(*[lambda f=f: push.device_subscribe(ada, f) for f in fields]))
    assert len(errors) == 3 and all(isinstance(e, push.TooManyDevices) for e in errors)
    assert PushSubscription.objects.filter(user=ada).count() == 1
