"""The players' league form; it normalises and validates its own input."""

from __future__ import annotations

from django import forms


class LeagueForm(forms.Form):
    """A new league's name: 1 to 60 characters once trimmed, runs of spaces made one."""

    name = forms.CharField(
        label="League name",
        max_length=60,
        help_text="Up to 60 characters, for example “Office lunch” or “The Smiths”.",
        error_messages={"required": "Give the league a name.", "max_length": "Keep the name to 60 characters."},
    )

    def clean_name(self) -> str:
        return " ".join(self.cleaned_data["name"].split())
