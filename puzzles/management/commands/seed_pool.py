from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError, CommandParser

from puzzles import engine
from puzzles.models import TIER_ORDER, SeedBatch
from puzzles.pipeline import pools


class Command(BaseCommand):
    help = "Make N puzzles of a tier: enqueue the work for the workers, or with --now make them here."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--difficulty", required=True, choices=TIER_ORDER)
        parser.add_argument("--count", type=int, default=10)
        parser.add_argument("--filler", default=engine.DEFAULT_FILLER, choices=list(engine.FILLERS))
        parser.add_argument("--symmetry", default="none", choices=engine.SYMMETRIES)
        parser.add_argument("--now", action="store_true", help="make the puzzles in this process")

    def handle(self, *args, difficulty: str, count: int, filler: str, symmetry: str, now: bool, **options) -> None:
        try:
            batch = pools.seed_batch_create(difficulty, count, filler=filler, symmetry=symmetry)
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        if not now:
            from puzzles.pipeline.tasks import seed_batch_enqueue

            try:
                seed_batch_enqueue(batch.pk)
            except Exception as exc:  # the broker is away: say so, keep the batch for a retry
                raise CommandError(f"could not reach the task broker ({exc}); run again with --now") from exc
            self.stdout.write(f"Enqueued batch #{batch.pk}: {count} {difficulty} puzzles ({filler}, {symmetry}).")
            return
        started = time.monotonic()
        self._progress(batch)
        batch = pools.seed_batch_work(batch.pk, progress=self._progress)
        seconds = time.monotonic() - started
        if self.stdout.isatty():
            self.stdout.write("")
        self.stdout.write(
            self.style.SUCCESS(
                f"Made {batch.made} {difficulty} puzzles in {seconds:.1f} s "
                f"({seconds / max(batch.made, 1):.2f} s each); pool now holds "
                f"{pools.pool_get(difficulty).available}."
            )
        )

    def _progress(self, batch: SeedBatch) -> None:
        width = 30
        filled = width * batch.made // batch.requested
        bar = "#" * filled + "-" * (width - filled)
        line = f"[{bar}] {batch.made}/{batch.requested} {batch.tier}"
        if self.stdout.isatty():
            self.stdout.write(f"\r{line}", ending="")
            self.stdout.flush()
        elif batch.made in (0, batch.requested) or batch.made % 10 == 0:
            self.stdout.write(line)
