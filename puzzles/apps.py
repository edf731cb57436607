from django.apps import AppConfig
from django.core import checks


class PuzzlesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "puzzles"
    verbose_name = "Puzzles"

    def ready(self) -> None:
        from .accounts.push import vapid_keys_check
        from .auth import connect_signals

        connect_signals()
        # The admin lives with the rest of the staff side (staff/), not at the app's top level
        # where Django's autodiscovery looks; importing it registers its model admins.
        from .staff import admin  # noqa: F401

        # Push reminders need a VAPID pair that belongs together (accounts/push.py).
        checks.register(vapid_keys_check, checks.Tags.security)
