from __future__ import annotations

from django.core.management.base import BaseCommand, CommandParser

from puzzles.pipeline import rerating


class Command(BaseCommand):
    help = (
        "Rate every stored puzzle again with the current engine: score, hardest technique and techniques "
        "for all, the tier for unpublished pool puzzles only. Safe to run again."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--batch-size", type=int, default=rerating.BATCH_SIZE, help="puzzles per transaction")
        parser.add_argument("--dry-run", action="store_true", help="count what would change, change nothing")

    def handle(self, *args, batch_size: int, dry_run: bool, **options) -> None:
        def progress(report: rerating.RerateReport) -> None:
            self.stdout.write(f"  {report.checked} checked ...")

        report = rerating.puzzles_rerate(batch_size=max(1, batch_size), dry_run=dry_run, progress=progress)
        verb = "would change" if dry_run else "changed"
        self.stdout.write(
            f"{report.checked} puzzles checked: {report.changed} {verb} score or techniques, "
            f"{report.retiered} pool puzzles {'would move' if dry_run else 'moved'} to another tier, "
            f"{len(report.failed)} refused by the engine."
        )
        if report.failed:
            self.stderr.write(self.style.WARNING(f"refused: puzzle ids {', '.join(map(str, report.failed))}"))
        if dry_run:
            self.stdout.write("Dry run: nothing was written.")
