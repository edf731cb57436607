"""The cap on mail to one address: every message the site sends (password resets, address
verifications, reminders; allauth's through adapter.py's send_mail) goes through `send`, which
counts it against the recipient and sends it only while the address is within
settings.MAIL_CAP_PER_HOUR and MAIL_CAP_PER_DAY.

So a stranger asking for resets, sign-ups or address changes in someone else's name can bring a
mailbox no more than a few mails. An address counts as its mailbox: case aside, a +tag dropped,
and Gmail's dots too, which Gmail ignores. The counts are fixed windows (the clock's hour and UTC
day) in the shared cache, beside the rate limits (ratelimits.py); a mail refused is taken back
off the counts, so only mails sent use the day up. The cache holds no address, only a keyed hash.
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.core.mail import EmailMessage
from django.utils.crypto import salted_hmac

from .ratelimits import HOUR, window_refund, window_wait

log = logging.getLogger(__name__)

DAY = 24 * HOUR
GMAIL = frozenset({"gmail.com", "googlemail.com"})


def mailbox(address: str) -> str:
    """The mailbox an address reaches: lower-case, without a +tag, and for Gmail without dots."""
    local, _, domain = address.strip().lower().rpartition("@")
    local = local.partition("+")[0]
    if domain in GMAIL:
        local, domain = local.replace(".", ""), "gmail.com"
    return f"{local}@{domain}"


def mailbox_id(address: str) -> str:
    """A name for an address's mailbox that does not give the address away (for keys and logs)."""
    return salted_hmac("puzzles.accounts.mailcap", mailbox(address)).hexdigest()[:16]


def mail_allowed(address: str, now: float | None = None) -> bool:
    """Count one mail to `address`: True while within the hour's and the day's caps; False (and
    nothing counted) once either is reached."""
    now = time.time() if now is None else now
    key = f"mailcap:{mailbox_id(address)}"
    windows = ((settings.MAIL_CAP_PER_HOUR, HOUR), (settings.MAIL_CAP_PER_DAY, DAY))
    over = [window_wait(key, limit, seconds, now) is not None for limit, seconds in windows]
    if not any(over):
        return True
    for _, seconds in windows:
        window_refund(key, seconds, now)
    return False


def send(message: EmailMessage, kind: str) -> bool:
    """Send a message to one address unless that address is over its caps; whether it went.
    A mail held back is logged under the address's mailbox_id, never the address."""
    (address,) = message.recipients()
    if not mail_allowed(address):
        log.warning("mail cap: %s to mailbox %s not sent (over its caps)", kind, mailbox_id(address))
        return False
    message.send()
    return True
