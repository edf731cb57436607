from __future__ import annotations

import datetime

from django.core.management.base import BaseCommand, CommandError, CommandParser

from puzzles.pipeline import publishing
from puzzles.pipeline.scores import score_text


class Command(BaseCommand):
    help = "Publish one puzzle per difficulty for a date (default: today in the site's time zone)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--date", help="YYYY-MM-DD")

    def handle(self, *args, date: str | None, **options) -> None:
        day = None
        if date:
            try:
                day = datetime.date.fromisoformat(date)
            except ValueError as exc:
                raise CommandError(f"--date must look like 2026-11-22, not {date!r}") from exc
        report = publishing.daily_publish(day)
        for difficulty, pk in report.published.items():
            note = f" (substitute from {report.substitutes[difficulty]})" if difficulty in report.substitutes else ""
            if difficulty in report.outside_band:
                note += f" (score {score_text(report.outside_band[difficulty])}, outside the band)"
            self.stdout.write(f"{report.day} {difficulty}: puzzle #{pk}{note}")
        for difficulty in report.existing:
            self.stdout.write(f"{report.day} {difficulty}: already published")
        for difficulty in report.missing:
            self.stderr.write(self.style.ERROR(f"{report.day} {difficulty}: NO PUZZLE AVAILABLE"))
        if report.missing:
            raise CommandError(f"{len(report.missing)} slot(s) left empty: seed the pools")
