"""The Celery application; its settings are the CELERY_* names in settings.py."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sudokusite.settings")

app = Celery("sudokusite")
app.config_from_object("django.conf:settings", namespace="CELERY")
# The tasks live in the pipeline package, not at the app's top level where Celery looks by default.
app.autodiscover_tasks(["puzzles.pipeline"])
