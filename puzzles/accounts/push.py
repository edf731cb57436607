"""Web Push, the reminders' second channel: the site's VAPID keys, the devices a player subscribed
(subscribe, unsubscribe, at most PUSH_DEVICES_PER_PLAYER each), and one message to one device.

Push is offered only when both VAPID keys are set (`push_offered`). A message is encrypted for
the device (RFC 8291, aes128gcm) and posted to its push service by pywebpush, with a TTL of a few
hours (a reminder that waits longer is stale: the player's hour has passed) and normal urgency.
The push service's 404 or 410 means the browser unsubscribed: its row is deleted. Any other
failure is logged and counted, and the row kept (a push service has bad moments too).

Endpoints come from browsers, so from anyone: push_endpoints.py holds the rule for where the
workers may post, checked on subscribing and again before each send, and the session pywebpush
posts with, which connects only to the public address it checked.
"""

from __future__ import annotations

import base64
import binascii
import enum
import json
import logging
from functools import cache

from celery.exceptions import SoftTimeLimitExceeded
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core import checks
from django.core.signals import setting_changed
from django.db import transaction
from django.utils import timezone
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from ..models import PushSubscription
from .push_endpoints import PushSession, RefusedAddress, push_endpoint_problem

log = logging.getLogger(__name__)

TAG = "daily-reminder"  # a second reminder on a device replaces the first rather than piling up
TIMEOUT_SECONDS = 10  # a push service slower than this is a failure, not a stalled task
GONE = (404, 410)  # RFC 8030: the subscription has expired or was removed
ENDPOINT_LENGTH = 1000  # PushSubscription.endpoint's max_length; the services' are some 200


class Outcome(enum.Enum):
    SENT = "sent"
    GONE = "gone"  # the subscription is deleted
    FAILED = "failed"  # logged; the subscription kept


class BadSubscription(ValueError):
    """A subscription the browser could not have sent: its message says what is wrong."""


# --- keys ---------------------------------------------------------------------------------------


def push_offered() -> bool:
    """Whether the site offers push: both VAPID keys are set."""
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


@cache
def vapid() -> Vapid:
    """The site's VAPID signing key, from VAPID_PRIVATE_KEY (base64url raw key, or a PEM)."""
    key = settings.VAPID_PRIVATE_KEY.strip()
    if key.startswith("-----BEGIN"):
        return Vapid.from_pem(key.encode())
    return Vapid.from_string(key)


def _forget_keys(setting: str, **_: object) -> None:
    if setting == "VAPID_PRIVATE_KEY":  # tests change the keys
        vapid.cache_clear()


setting_changed.connect(_forget_keys)


# --- devices ------------------------------------------------------------------------------------


def _base64url(value: object, name: str, length: int) -> str:
    """`value` if it is base64url (padding optional) of exactly `length` bytes."""
    if not isinstance(value, str) or not value or len(value) > 200:
        raise BadSubscription(f"The subscription's {name} key is missing.")
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise BadSubscription(f"The subscription's {name} key is not base64url.") from None
    if len(raw) != length or any(c in value for c in "+/"):
        raise BadSubscription(f"The subscription's {name} key is not a {length}-byte base64url value.")
    return value.rstrip("=")


def subscription_fields(payload: dict) -> dict[str, str]:
    """The endpoint and keys of a browser's PushSubscription.toJSON(), checked: an endpoint the
    site posts to (push_endpoint_problem), a 65-byte P-256 public key and a 16-byte auth secret.
    BadSubscription otherwise."""
    endpoint = payload.get("endpoint")
    if not isinstance(endpoint, str) or len(endpoint) > ENDPOINT_LENGTH:
        raise BadSubscription("The subscription has no endpoint.")
    problem = push_endpoint_problem(endpoint)
    if problem:
        raise BadSubscription(problem)
    keys = payload.get("keys")
    if not isinstance(keys, dict):
        raise BadSubscription("The subscription has no keys.")
    return {
        "endpoint": endpoint,
        "p256dh": _base64url(keys.get("p256dh"), "p256dh", 65),
        "auth": _base64url(keys.get("auth"), "auth", 16),
    }


class TooManyDevices(Exception):
    """The player has PUSH_DEVICES_PER_PLAYER devices already."""


def device_subscribe(user: User, fields: dict[str, str]) -> PushSubscription:
    """Store this browser's subscription for `user`. The same endpoint again updates its keys and
    moves it to `user` only (a shared browser follows whoever subscribed last); a new one past
    PUSH_DEVICES_PER_PLAYER raises TooManyDevices. Locking the player's row makes the count exact."""
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        found = PushSubscription.objects.select_for_update().filter(endpoint=fields["endpoint"]).first()
        new_here = found is None or found.user_id != user.pk
        if new_here and PushSubscription.objects.filter(user=user).count() >= settings.PUSH_DEVICES_PER_PLAYER:
            raise TooManyDevices
        subscription, _ = PushSubscription.objects.update_or_create(
            endpoint=fields["endpoint"],
            defaults={"user": user, "p256dh": fields["p256dh"], "auth": fields["auth"], "created": timezone.now()},
        )
    return subscription


def device_unsubscribe(user: User, endpoint: object) -> bool:
    """Forget the player's own subscription at `endpoint`; whether there was one. Another player's
    endpoint is left alone (and answered alike, so nobody learns whose it is)."""
    if not isinstance(endpoint, str):
        return False
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return deleted > 0


# --- sending ------------------------------------------------------------------------------------


def send_push(subscription: PushSubscription, payload: dict) -> Outcome:
    """Encrypt `payload` (as JSON) for one device and post it to its push service: SENT, GONE (a
    404 or 410: the row is deleted) or FAILED (logged; the row kept). An endpoint the rule refuses
    (a row stored before it) or a name resolving to an inside address is FAILED, never connected to."""
    problem = push_endpoint_problem(subscription.endpoint)
    if problem:
        log.warning("push: device %d of user %d not sent to: %s", subscription.pk, subscription.user_id, problem)
        return Outcome.FAILED
    claims = {"sub": settings.VAPID_SUBJECT}  # a fresh dict: webpush adds "aud" and "exp" to it
    try:
        with PushSession() as session:
            webpush(
                subscription.info(),
                json.dumps(payload),
                vapid_private_key=vapid(),
                vapid_claims=claims,
                ttl=settings.PUSH_TTL_SECONDS,
                headers={"Urgency": "normal"},
                timeout=TIMEOUT_SECONDS,
                requests_session=session,
            )
    except RefusedAddress as exc:
        log.warning("push: device %d of user %d not sent to: %s", subscription.pk, subscription.user_id, exc)
        return Outcome.FAILED
    except WebPushException as exc:
        status = exc.response.status_code if exc.response is not None else None
        if status in GONE:
            PushSubscription.objects.filter(pk=subscription.pk).delete()
            log.info(
                "push: device %d of user %d is gone (%d); forgotten", subscription.pk, subscription.user_id, status
            )
            return Outcome.GONE
        log.warning("push: device %d of user %d refused (%s): %s", subscription.pk, subscription.user_id, status, exc)
        return Outcome.FAILED
    except SoftTimeLimitExceeded:  # the task's time is up: not a device's failure
        raise
    except Exception:  # a push service unreachable, a timeout, a key that will not load
        log.exception("push: device %d of user %d not reached", subscription.pk, subscription.user_id)
        return Outcome.FAILED
    PushSubscription.objects.filter(pk=subscription.pk).update(last_used=timezone.now())
    return Outcome.SENT


def reminder_payload(puzzles: list[dict[str, str]], streak: int) -> dict:
    """The daily reminder as the service worker shows it (static/js/sw.js): a title, one line with
    the day's puzzles and the player's streak, the icon, today's puzzles (/) to open, and the tag."""
    tiers = ", ".join(puzzle["tier"] for puzzle in puzzles)
    if streak:
        standing = f"Your streak: {streak} day{'s' if streak != 1 else ''}."
    else:
        standing = "Start a streak today."
    return {
        "title": "Today's sudoku",
        "body": f"Today's puzzles: {tiers}. {standing}",
        "icon": staticfiles_storage.url("icons/icon-192.png"),
        "url": "/",
        "tag": TAG,
    }


def push_reminder(user_id: int, payload: dict) -> dict[Outcome, int]:
    """Send the reminder to each of the player's devices; how many of each outcome."""
    counts = dict.fromkeys(Outcome, 0)
    for subscription in PushSubscription.objects.filter(user_id=user_id).order_by("pk"):
        counts[send_push(subscription, payload)] += 1
    return counts


def new_vapid_keys() -> tuple[str, str]:
    """A new VAPID key pair as the settings take it: (public, private), both base64url without
    padding: the public key an uncompressed P-256 point, the private key its raw 32 bytes."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    private = key.private_numbers().private_value.to_bytes(32, "big")
    return b64url(public), b64url(private)


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def vapid_keys_check(**_: object) -> list[checks.CheckMessage]:
    """A system check: the VAPID keys are both set or both empty, the private key loads, and the
    public key is its own (a mismatched pair would have every push refused, and every browser
    subscribe with a key the site cannot sign for)."""
    public, private = settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY
    if not public and not private:
        return []
    if not (public and private):
        return [checks.Error("Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither.", id="puzzles.E101")]
    try:
        key = vapid()
    except Exception as exc:
        return [checks.Error(f"VAPID_PRIVATE_KEY does not load: {exc}", id="puzzles.E102")]
    own = key.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    if b64url(own) != public.rstrip("="):
        return [checks.Error("VAPID_PUBLIC_KEY is not the public half of VAPID_PRIVATE_KEY.", id="puzzles.E103")]
    return []
