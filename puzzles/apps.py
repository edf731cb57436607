from django.apps import AppConfig


class PuzzlesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "puzzles"
    verbose_name = "Puzzles"

    def ready(self) -> None:
        from .auth import connect_signals

        connect_signals()
