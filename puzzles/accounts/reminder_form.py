"""The reminder settings form: the channels (email, push), a local hour and an IANA zone, checked here."""

from __future__ import annotations

from typing import Any

from django import forms

from .reminders import is_time_zone, offered_time_zones

HOURS = [(hour, f"{hour:02d}:00") for hour in range(24)]


class ReminderForm(forms.Form):
    email = forms.BooleanField(label="Email me a reminder each day", required=False)
    # Offered only when the site has VAPID keys (the form drops it otherwise), and shown by push.js
    # only where the browser can subscribe; ticking it subscribes this browser there and then.
    push = forms.BooleanField(
        label="Send a notification to my devices",
        required=False,
        widget=forms.CheckboxInput(attrs={"aria-describedby": "push-help push-status"}),  # the template's
    )
    hour = forms.TypedChoiceField(
        label="At this hour", choices=HOURS, coerce=int, help_text="Your local time, in the zone below."
    )
    time_zone = forms.ChoiceField(label="Time zone")

    def __init__(self, *args: Any, can_email: bool, can_push: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.can_email = can_email
        if not can_push:
            del self.fields["push"]
        zone = self.fields["time_zone"]
        assert isinstance(zone, forms.ChoiceField)
        names = list(offered_time_zones())
        kept = self.initial.get("time_zone")  # the player's own, even an old alias, stays theirs
        if kept and kept not in names and is_time_zone(kept):
            names = sorted([*names, kept])
        zone.choices = [(name, name.replace("_", " ")) for name in names]

    def clean_time_zone(self) -> str:
        name = self.cleaned_data["time_zone"]
        if not is_time_zone(name):  # the choices already say so; the rule is the zone list's
            raise forms.ValidationError("Choose a time zone from the list.")
        return name

    def clean_email(self) -> bool:
        wanted = self.cleaned_data["email"]
        if wanted and not self.can_email:
            raise forms.ValidationError("Reminders go only to a verified address: verify or add one first.")
        return wanted
