"""Forms of the staff pages; each normalises and validates its own input."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db import transaction

from .. import engine
from ..models import DailyPuzzle, Tier
from ..pipeline import publishing

MAX_SEED_COUNT = 500
# A text file of grids is about 83 bytes a puzzle, so this is room for some 25,000 of them.
MAX_IMPORT_BYTES = 2 * 1024 * 1024


class SeedForm(forms.Form):
    """How many puzzles of a tier to make, and how: the options of a seed batch."""

    tier = forms.ChoiceField(choices=Tier.choices)
    count = forms.IntegerField(min_value=1, max_value=MAX_SEED_COUNT, initial=10)
    filler = forms.ChoiceField(choices=[(name, name) for name in engine.FILLERS], initial=engine.DEFAULT_FILLER)
    symmetry = forms.ChoiceField(choices=[(name, name) for name in engine.SYMMETRIES], initial="none")


class RequeueForm(forms.Form):
    """An unfinished seed batch to hand to the workers again (after the broker was away)."""

    batch = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class ImportForm(forms.Form):
    """A text file of grids, one a line; cleaned_data["file"] is the list of its lines."""

    file = forms.FileField(
        label="Text file",
        help_text=(
            "UTF-8 text, at most 2 MB. One 81-character grid a line, 0 or . for an empty cell; "
            "blank lines and comments (# to the end of a line) are skipped."
        ),
    )

    def clean_file(self) -> list[str]:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_IMPORT_BYTES:
            raise ValidationError(
                f"The file is {upload.size / 1024 / 1024:.1f} MB; the limit is "
                f"{MAX_IMPORT_BYTES // 1024 // 1024} MB. Split it and import the parts."
            )
        try:
            # utf-8-sig: editors on Windows like to start a UTF-8 file with a byte-order mark.
            text = upload.read().decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ValidationError(
                f"The file is not UTF-8 text (the byte at position {exc.start} is not UTF-8). "
                "Save it as UTF-8 and try again."
            ) from None
        return text.splitlines()


def rehearse(action: Callable[[], Any]) -> None:
    """Run a database action and undo it: the action's own rules decide, nothing is kept."""
    with transaction.atomic():
        action()
        transaction.set_rollback(True)


class DailyScheduleForm(forms.ModelForm):
    """Publishing a chosen puzzle on a date, refused with the service's reason when taken.

    clean() rehearses publishing.daily_schedule so that the rules and their wording live in one
    place; the admin then calls the service for real when it saves.
    """

    class Meta:
        model = DailyPuzzle
        fields = ["date", "difficulty", "puzzle"]
        help_texts = {
            "puzzle": "An unpublished puzzle. One of another tier is published as a substitute.",
        }

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        puzzle, day, difficulty = cleaned.get("puzzle"), cleaned.get("date"), cleaned.get("difficulty")
        if puzzle is None or day is None or not difficulty:
            return cleaned  # a field is missing and already has its own error
        try:
            rehearse(lambda: publishing.daily_schedule(puzzle, day, difficulty))
        except publishing.SlotTaken as exc:
            # Attached to the field at fault, which also spares the admin Django's own, vaguer
            # "already exists" message about that field.
            self.add_error("puzzle" if puzzle.used else "date", str(exc))
        return cleaned
