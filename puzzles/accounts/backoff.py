"""The ceiling on one account's failed log-ins from every address: it slows guessing and never
locks the owner out.

A failed log-in counts against its client address and against the account from that address
(allauth's "login_failed" limits, keyed so in adapter.py): a stranger's guesses close only the
stranger's own door. Across every address an account is only slowed. Once it has had
LOGIN_ACCOUNT_FAILURES_PER_HOUR failures in the current hour, an attempt on it from a browser that
has not logged in to it before waits for its address's turn: LOGIN_BACKOFF_SECONDS after that
address's first attempt on the account, then twice as long after each attempt it makes, up to
LOGIN_BACKOFF_MAX_SECONDS. A turn is the address's own: nothing another address does moves it, so
however hard the account is guessed, its owner gets in after at most their own address's wait.

A browser that logged in to the account before is not slowed at all: a successful log-in leaves it
a signed cookie naming the account (KNOWN_DEVICE), which no guesser can forge; nor is the owner's
own session (a password change asks for the current password). What no ceiling can do without a
captcha is hold a guesser with ever fresh addresses below one guess per address per wait: to an
account, a fresh address is its owner on a new phone.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time

from allauth.account.utils import filter_users_by_email, filter_users_by_username
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import ngettext

from .ratelimits import HOUR, address_group, window_hit, window_key

log = logging.getLogger(__name__)

ACCOUNT_BACKOFF = "account_backoff"  # the code of the refusal
KNOWN_DEVICE = "known_device"  # the cookie naming the accounts a browser has logged in to
KNOWN_DEVICE_SALT = "puzzles.accounts.backoff.known_device"
KNOWN_DEVICE_SECONDS = 365 * 24 * HOUR
KNOWN_DEVICE_ACCOUNTS = 5  # a shared browser remembers the last five accounts logged in on it


def account_key(login: str) -> str:
    """The cache key of the account a log-in names: its username or email as typed, case aside."""
    return "login-account:" + hashlib.sha256(login.lower().encode()).hexdigest()[:32]


def count_failure(login: str, now: float | None = None) -> None:
    """Count one failed log-in as `login`, from whatever address."""
    now = time.time() if now is None else now
    count = window_hit(f"{account_key(login)}:failures", HOUR, now)
    if count == settings.LOGIN_ACCOUNT_FAILURES_PER_HOUR:
        log.warning(
            "%d failed log-ins this hour for one account (%s): unknown browsers now wait", count, account_key(login)
        )


def under_attack(login: str, now: float) -> bool:
    """Whether `login` has had its hour's ceiling of failures (never, with the ceiling at 0)."""
    ceiling = settings.LOGIN_ACCOUNT_FAILURES_PER_HOUR
    return ceiling > 0 and cache.get(window_key(f"{account_key(login)}:failures", HOUR, now), 0) >= ceiling


def delay(attempts: int) -> int:
    """The wait before an address's next attempt on an account under attack, after `attempts`."""
    return min(settings.LOGIN_BACKOFF_MAX_SECONDS, settings.LOGIN_BACKOFF_SECONDS * 2**attempts)


def turn_wait(login: str, address: str, now: float) -> int:
    """0 when `address` may try `login` now (its turn, which this takes), else the seconds until its
    turn. A turn is set by the address's own attempts alone, so no one else can put it off."""
    key = f"{account_key(login)}:turn:{address_group(address)}"
    keep = HOUR + settings.LOGIN_BACKOFF_MAX_SECONDS
    turn = cache.get(key)
    if turn is None:  # the address's first attempt on the account since it came under attack
        cache.set(key, (now + delay(0), 0), keep)
        return delay(0)
    not_before, attempts = turn
    if now < not_before:
        return math.ceil(not_before - now)
    if not cache.add(f"{key}:{not_before}", True, keep):  # a request from the same address took it
        return delay(attempts + 1)
    cache.set(key, (now + delay(attempts + 1), attempts + 1), keep)
    return 0


def known_accounts(request: HttpRequest) -> list[int]:
    """The accounts this browser has logged in to, oldest first (its KNOWN_DEVICE cookie)."""
    value = request.get_signed_cookie(KNOWN_DEVICE, "", salt=KNOWN_DEVICE_SALT, max_age=KNOWN_DEVICE_SECONDS) or ""
    return [int(pk) for pk in value.split(".") if pk.isdecimal()]


def accounts_named(login: str) -> set[int]:
    """The accounts a log-in as `login` may be, looked up as allauth's log-in looks them up."""
    named = set(filter_users_by_username(login).values_list("pk", flat=True))
    if "@" in login:
        named |= {user.pk for user in filter_users_by_email(login, prefer_verified=True)}
    return named


def owner_known(request: HttpRequest, login: str) -> bool:
    """Whether the browser has logged in to every account `login` may be (its cookie) or is logged
    in as it: all of them, so a guesser's own account cannot vouch for an address it shares."""
    known = set(known_accounts(request))
    if request.user.is_authenticated:
        known.add(request.user.pk)
    return bool(known) and bool(named := accounts_named(login)) and named <= known


def check(request: HttpRequest, login: str, address: str, now: float | None = None) -> None:
    """Refuse an attempt on `login` from `address` before its turn while the account is under
    attack, unless the browser is the owner's; the refusal says how long to wait."""
    now = time.time() if now is None else now
    if not under_attack(login, now) or owner_known(request, login):
        return
    if wait := turn_wait(login, address, now):
        message = ngettext(
            "Too many attempts on this account; try again in %(seconds)d second.",
            "Too many attempts on this account; try again in %(seconds)d seconds.",
            wait,
        )
        raise ValidationError(message, code=ACCOUNT_BACKOFF, params={"seconds": wait})


def remember_device(request: HttpRequest, response: HttpResponse) -> None:
    """Leave the browser of a successful log-in a cookie naming its account beside the others it
    logged in to (the last KNOWN_DEVICE_ACCOUNTS)."""
    pk = request.user.pk
    known = [*(other for other in known_accounts(request) if other != pk), pk][-KNOWN_DEVICE_ACCOUNTS:]
    response.set_signed_cookie(
        KNOWN_DEVICE,
        ".".join(map(str, known)),
        salt=KNOWN_DEVICE_SALT,
        max_age=KNOWN_DEVICE_SECONDS,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
