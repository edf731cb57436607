"""The Celery application; its settings are the CELERY_* names in settings.py."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sudokusite.settings")

app = Celery("sudokusite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
