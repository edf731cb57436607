"""Changing a username: the sign-up's rules (allauth's and adapter.py's: the allowed characters, the
length, no name taken by spelling or by look, usernames.py), at most once every
settings.USERNAME_CHANGE_DAYS, and tried at most settings.USERNAME_TRIES_PER_HOUR times an hour
from one client address, so that nobody probes which names are taken faster than the sign-up lets them.

A change records a UsernameChange (when, not from what). The header reads the user afresh (the
user cache is dropped on save, auth.py), and the day's boards and league tables read names under
a fingerprint that the change moves (results/leaderboard.py), so every page shows the new name at once.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

from allauth.account.adapter import get_adapter
from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from ..models import UsernameChange
from .usernames import lookalike_taken

if TYPE_CHECKING:
    from django.contrib.auth.models import User as UserModel

User = get_user_model()

USERNAME_TRIES = "username-tries"  # what the hourly limit per client counts (ratelimits.hourly_wait)


def next_change_at(user: UserModel) -> datetime.datetime | None:
    """When the player may change their name again; None when they may now."""
    last = UsernameChange.objects.filter(user_id=user.pk).order_by("-changed_at").first()
    if last is None:
        return None
    at = last.changed_at + datetime.timedelta(days=settings.USERNAME_CHANGE_DAYS)
    return at if at > timezone.now() else None


class UsernameForm(forms.Form):
    username = forms.CharField(
        label="New username",
        max_length=150,
        help_text="Letters a to z (small or capital), digits and . _ - only.",
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none", "spellcheck": "false"}),
    )

    def __init__(self, *args: Any, user: UserModel, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_username(self) -> str:
        name = self.cleaned_data["username"].strip()
        current = self.user.get_username()
        if name == current:
            raise ValidationError("That is already your username.", code="unchanged")
        # The sign-up's checks of the name itself: characters, length, names kept back.
        name = get_adapter().clean_username(name, shallow=True)
        # Taken by someone else, by spelling (case aside) or by look; the player's own name, in
        # another case or a look-alike spelling, is theirs to take.
        if User.objects.filter(username__iexact=name).exclude(pk=self.user.pk).exists():
            raise ValidationError("That username is taken. Choose another.", code="username_taken")
        if (taken := lookalike_taken(name, excluding=self.user.pk)) is not None:
            raise ValidationError(
                f"That username reads too like “{taken}”, which is taken. Choose another.", code="username_lookalike"
            )
        return name

    def clean(self) -> dict[str, Any]:
        if (at := next_change_at(self.user)) is not None:
            raise ValidationError(
                f"You changed your username recently; you can change it again on {at:%-d %B %Y}.", code="too_soon"
            )
        return self.cleaned_data

    def save(self) -> None:
        """Change the name; two changes racing (two tabs) leave one, the limit counted for it.
        Raises ValidationError when the name was taken, or a change made, since the form was checked."""
        try:
            with transaction.atomic():
                user = User.objects.select_for_update().get(pk=self.user.pk)
                if next_change_at(user) is not None:
                    raise ValidationError("You changed your username a moment ago.", code="too_soon")
                user.username = self.cleaned_data["username"]
                user.save(update_fields=["username"])
                UsernameChange.objects.create(user=user)
        except IntegrityError:  # another player took the same spelling a moment before
            raise ValidationError("That username is taken. Choose another.", code="username_taken") from None
        self.user.username = user.username
