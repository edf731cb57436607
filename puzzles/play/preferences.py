"""A player's settings for the board, kept on the server for every player, a guest too.

This is the one schema: every setting, its default and what it may be. A player's row
(models.Preferences) holds only the settings they chose, so a default changed here reaches every
player who never chose that one. Signing up keeps a guest's row (it becomes the account's);
logging in to an account keeps the account's settings if it has any, else takes the guest's.
"""

from __future__ import annotations

from django.db import transaction

from ..models import Preferences

THEMES = ("system", "light", "dark")
AUTO_CANDIDATES = ("off", "centre", "corner")

DEFAULTS: dict[str, bool | str] = {
    "remove_notes": True,  # a digit entered removes itself from its peers' notes
    "positional_notes": False,  # corner notes each in its own place of a 3 by 3 (1 top left), not corners first
    "highlight_units": True,  # the selected cell's row, column and box
    "highlight_same": True,  # the other cells holding the selected digit
    "show_timer": True,
    "theme": "system",  # one of THEMES; "system" follows the device
    "wrap_arrows": False,  # the arrow keys go round from one edge to the other
    "auto_candidates": "off",  # one of AUTO_CANDIDATES: the board keeps every empty cell's candidates as notes
    "show_mistakes": False,  # a wrong digit is marked as it is placed (each placement a check: no solve is ranked)
    "seen_howto": False,  # the how-to-play was shown on a board once (static/js/howto.js); never again by itself
}


# The settings that are a choice among words, and their choices; the others are true or false.
CHOICES: dict[str, tuple[str, ...]] = {"theme": THEMES, "auto_candidates": AUTO_CANDIDATES}


class BadPreferences(ValueError):
    """Settings the board cannot have sent; the message says what is wrong."""


def _problem(key: str, value: object) -> str:
    """What is wrong with one setting, or "" when nothing is."""
    if key not in DEFAULTS:
        return f"there is no setting called {str(key)[:40]!r}"
    if key in CHOICES:
        choices = CHOICES[key]
        return "" if isinstance(value, str) and value in choices else f"{key} must be one of {', '.join(choices)}"
    return "" if isinstance(value, bool) else f"{key} must be true or false"


def preferences_clean(changes: object) -> dict[str, bool | str]:
    """Check some settings as the board sends them; raise BadPreferences for any that is wrong."""
    if not isinstance(changes, dict):
        raise BadPreferences("settings must be a JSON object")
    for key, value in changes.items():
        if problem := _problem(key, value):
            raise BadPreferences(problem)
    return dict(changes)


def _with_defaults(chosen: dict) -> dict[str, bool | str]:
    # A stored choice that is no longer allowed (a theme taken away, say) falls back to the default.
    return {**DEFAULTS, **{key: value for key, value in chosen.items() if not _problem(key, value)}}


def preferences_read(user) -> dict[str, bool | str]:
    """Every setting for the player (the defaults for a visitor); reading makes nothing."""
    if not getattr(user, "is_authenticated", False):
        return dict(DEFAULTS)
    chosen = Preferences.objects.filter(user=user).values_list("values", flat=True).first()
    return _with_defaults(chosen or {})


def preferences_update(user, changes: object) -> dict[str, bool | str]:
    """Merge some settings into the player's, and return all of them; nothing changes if any is wrong."""
    clean = preferences_clean(changes)
    if not clean:
        return preferences_read(user)
    with transaction.atomic():
        # Locked: two tabs changing different settings at once must both be kept.
        row, _ = Preferences.objects.select_for_update().get_or_create(user=user)
        row.values = {**row.values, **clean}
        row.save(update_fields=["values", "updated_at"])
    return _with_defaults(row.values)


def preferences_move(guest, account) -> None:
    """A guest merged into an account: the account keeps its own settings if it has any, else
    takes the guest's (which would otherwise go with the guest)."""
    if not Preferences.objects.filter(user=account).exists():
        Preferences.objects.filter(user=guest).update(user=account)
