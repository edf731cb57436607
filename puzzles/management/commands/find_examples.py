from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from puzzles.engine import TECHNIQUE_BY_NAME, TECHNIQUES, Moment
from puzzles.learn import examples, finding


class Command(BaseCommand):
    help = (
        "Find the technique guide's worked examples: walk the puzzles of the files given (one puzzle a "
        "line, such as top1465.txt), generate puzzles for any technique still missing, and write the "
        "clearest position of each technique to puzzles/learn/examples.json."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="*", type=Path, help="files of puzzles, 81 characters a line")
        parser.add_argument("--limit", type=int, default=0, help="walk only this many puzzles of each file")
        parser.add_argument(
            "--generate", type=int, default=200, help="puzzles to generate for each tier still missing a technique"
        )
        parser.add_argument("--seed", type=int, default=2026, help="the generator's seed, for a search that repeats")
        parser.add_argument("--keep", action="store_true", help="start from the examples already in the file")
        parser.add_argument("--out", type=Path, default=examples.EXAMPLES_FILE, help="where to write the examples")

    def handle(
        self, *args, files: list[Path], limit: int, generate: int, seed: int, keep: bool, out: Path, **options
    ) -> None:
        best: dict[str, finding.Found] = {}
        if keep:
            for name, ex in examples.examples().items():
                best[name] = finding.Found(Moment(ex.digits, ex.cands, ex.step), ex.givens, ex.source, ex.first)
        for path in files:
            if not path.exists():
                raise CommandError(f"{path}: no such file")
            lines = path.read_text().splitlines()[: limit or None]
            finding.search(finding.puzzles_from_file(lines, path.name), best)
            self.stdout.write(f"{path.name}: {len(lines)} puzzles walked, {len(best)} techniques found")
        for tier in dict.fromkeys(TECHNIQUE_BY_NAME[name].tier for name in finding.missing(best)):
            for puzzle in finding.puzzles_generated(tier, seed, generate):
                finding.search([puzzle], best)
                if not any(TECHNIQUE_BY_NAME[name].tier == tier for name in finding.missing(best)):
                    break
            self.stdout.write(f"generated {tier} puzzles: {len(best)} techniques found")
        if gaps := finding.missing(best):
            # No walk met them as the easiest step: a position where their own finder finds one.
            for path in files:
                lines = path.read_text().splitlines()[: limit or None]
                finding.search_beside(finding.puzzles_from_file(lines, path.name), gaps, best)
            self.stdout.write(f"beside the easiest steps: {len(best)} techniques found")
        examples.write_examples(best, [t.name for t in TECHNIQUES], out)
        self.stdout.write(f"{len(best)} examples written to {out}")
        if gaps := finding.missing(best):
            self.stderr.write(self.style.WARNING(f"no example yet for: {', '.join(gaps)}"))
