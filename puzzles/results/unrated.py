"""Why a player has no rating yet, and the step that ranks or rates their solves, said as it is
for them: the stats page's rating card, and the results' link to the email page.

The rule is fairplay/ranking.py's (a solve is rated when it would be ranked, its day aside:
ranking.not_rated_codes) and its words are fairplay/words.py's; what is read here is the
player's own: their solves, and whether their email address is verified, or added and waiting
for its link.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import TYPE_CHECKING

from allauth.account.models import EmailAddress
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from ..fairplay import ranking, words
from ..models import Guest, Solve

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def verify_step(user_id: int, then: str) -> words.Step | None:
    """The step that verifies the player's address (words.verify_step), or None when an address
    of theirs is verified already: one query. The address waiting is the one the email page
    offers to send again (allauth's newest unverified one)."""
    addresses = list(EmailAddress.objects.filter(user_id=user_id).order_by("pk").values_list("email", "verified"))
    if any(verified for _, verified in addresses):
        return None
    pending = addresses[-1][0] if addresses else None
    return words.verify_step(pending, then, reverse("account_email"))


def new_account_step(solve: Solve, codes: list[str]) -> words.Step | None:
    """The step under a solve held back as a new account's (NEW_ACCOUNT among its `codes`), or None
    when verifying would gain the player nothing: another reason keeps this solve off, and the
    account is old enough now for its next solves to be ranked anyway."""
    if ranking.NEW_ACCOUNT not in codes:
        return None
    then = words.verify_then(codes)
    if then == words.RANKS_YOURS and not is_new(solve.user):
        return None
    return verify_step(solve.user_id, then)


def is_new(user: User) -> bool:
    """Whether a solve the account made now would be held back as a new account's, the email aside
    (judge.is_new_account's age rule)."""
    age = timezone.now() - user.date_joined
    return age < datetime.timedelta(hours=settings.RANKED_ACCOUNT_MIN_HOURS)


@dataclass(frozen=True)
class RatingNote:
    """What the stats page says in place of a rating: why there is none, and the step that gets one."""

    sentence: str
    step: words.Step | None = None


def rating_note(user: User) -> RatingNote:
    """Why a player without a rating has none, from their own solves: a few queries."""
    if Guest.objects.filter(user_id=user.pk).exists():
        return RatingNote(words.GUEST_UNRATED, words.sign_up_step(reverse("account_signup")))
    solves = Solve.objects.filter(user=user)
    if solves.rated().exists():
        return RatingNote(words.RATING_ON_ITS_WAY)
    # Solves that verifying would judge again, and rate (judge.account_verified).
    waiting = solves.filter(unranked=ranking.NEW_ACCOUNT, assisted=False).exclude(review=Solve.Review.DISQUALIFIED)
    step = verify_step(user.pk, words.RANKS_YOURS) if is_new(user) or waiting.exists() else None
    last = solves.select_related("daily").order_by("-solved_at", "-pk").first()
    if last is None:
        return RatingNote(words.NO_RATING_YET, step)
    return RatingNote(words.last_solve_unrated(last), step)
