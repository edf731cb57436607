"""The reminder's mail: its one-click unsubscribe token and the message itself (plain text and
HTML, with RFC 8058's List-Unsubscribe headers). Nothing here reads the database; reminders.py
gathers what a message needs and sends it.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse

from ..models import DailyPuzzle
from ..results.share import SITE_NAME, daily_url, site_url

# The token names the user and the list, under a salt of its own: a token signed for anything
# else on the site (a session, a password reset) never passes for an unsubscribe token.
UNSUBSCRIBE_SALT = "puzzles.reminders.unsubscribe"
LIST = "reminders"
# A link in a mail kept in an inbox still works for this long; an older one gets the 400 page,
# which says how to turn reminders off from the settings page instead.
UNSUBSCRIBE_MAX_AGE = datetime.timedelta(days=180)


class BadToken(ValueError):
    """An unsubscribe token that was tampered with, is too old, or names another list."""


def unsubscribe_token(user_id: int) -> str:
    """A signed, dated token that turns off the reminders of one user."""
    return signing.dumps({"user": user_id, "list": LIST}, salt=UNSUBSCRIBE_SALT, compress=True)


def user_of_token(token: str) -> int:
    """The user an unsubscribe token names; BadToken when it was tampered with or is stale."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT, max_age=UNSUBSCRIBE_MAX_AGE)
    except signing.SignatureExpired as exc:
        raise BadToken("This unsubscribe link is too old.") from exc
    except (signing.BadSignature, ValueError, TypeError) as exc:
        raise BadToken("This unsubscribe link is not one the site made.") from exc
    if not isinstance(data, dict) or data.get("list") != LIST or not isinstance(data.get("user"), int):
        raise BadToken("This unsubscribe link is not one the site made.")
    return data["user"]


def unsubscribe_url(user_id: int) -> str:
    """The absolute address of the one-click unsubscribe page (GET shows, POST turns off)."""
    return site_url(reverse("puzzles:reminders-stop", args=(unsubscribe_token(user_id),)))


@dataclass(frozen=True)
class Recipient:
    """What one message needs to know of its player."""

    user_id: int
    name: str
    address: str
    streak: int


def puzzle_links(dailies: Sequence[DailyPuzzle]) -> list[dict[str, str]]:
    """The day's puzzles as the mail lists them: tier and absolute link, no givens or solutions."""
    return [{"tier": daily.get_difficulty_display(), "url": daily_url(daily)} for daily in dailies]


def reminder_message(
    recipient: Recipient, day: datetime.date, puzzles: list[dict[str, str]], connection: object = None
) -> EmailMultiAlternatives:
    """The daily note to one player: the day's puzzles and their streak, with one-click unsubscribe."""
    stop = unsubscribe_url(recipient.user_id)
    context = {
        "name": recipient.name,
        "day": day,
        "puzzles": puzzles,
        "streak": recipient.streak,
        "unsubscribe_url": stop,
        "settings_url": site_url(reverse("puzzles:reminders")),
        "site_name": SITE_NAME,
        "site_url": settings.SITE_URL,
    }
    subject = render_to_string("email/reminder_subject.txt", context).strip()
    message = EmailMultiAlternatives(
        subject=subject,
        body=render_to_string("email/reminder.txt", context),
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[recipient.address],
        headers={"List-Unsubscribe": f"<{stop}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"},
        connection=connection,
    )
    message.attach_alternative(render_to_string("email/reminder.html", context), "text/html")
    return message
