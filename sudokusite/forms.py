"""The site's form renderer: Django's own templates, with each field's errors described first."""

from __future__ import annotations

from django.forms.boundfield import BoundField
from django.forms.renderers import DjangoTemplates


class ErrorFirstField(BoundField):
    """A field whose input is described by its errors before its help text.

    Django points aria-describedby at the help and then the errors, so a screen reader reads a
    password's rules before saying what was wrong with it; the error is what the player needs
    first. Only the order changes: ids and markup are Django's.
    """

    @property
    def aria_describedby(self):
        described = super().aria_describedby
        return " ".join(reversed(described.split())) if described else described


class SiteRenderer(DjangoTemplates):
    """FORM_RENDERER: every form's fields are ErrorFirstField (Django 5.2's bound_field_class)."""

    bound_field_class = ErrorFirstField
