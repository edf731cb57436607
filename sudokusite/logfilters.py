"""Filters on the site's log (settings.LOGGING)."""

from __future__ import annotations

import logging


class QuietSweeps(logging.Filter):
    """Drop Celery's routine lines about the frequent sweeps: the judge's runs every second, and
    beat's sending it, the worker's receiving it and its success would be three lines a second all
    day. Their warnings and errors pass, and the sweep logs itself when it followed a solve up."""

    TASKS = ("puzzles.tasks.judge_waiting",)

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.INFO or not record.name.startswith("celery."):
            return True
        message = record.getMessage()
        return not any(task in message for task in self.TASKS)
