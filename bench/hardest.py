"""Generation benchmark: puzzles made per minute for each tier, the hard tier's hardest
techniques, and how long rating the made puzzles takes.

    python bench/hardest.py [--seconds 15] [--puzzles 0] [--tiers easy,medium,hard,expert,extreme]
                            [--seed 2026] [--aimed]

Everything runs in this one process, so on one core. Each tier makes puzzles from a fixed seed
for `--seconds` (or exactly `--puzzles` of them, when given). The rating column rates each made
puzzle again in full (rate(givens), no ceiling), as the site does when it shows the steps.
With --aimed the hard tier also runs as the pool's refills do: each puzzle aimed at the family
of hard techniques least represented so far (generator.generate_varied).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import percentile, row
from puzzles.engine import DEFAULT_FILLER, FAMILIES, TIERS, Generated, family_stock, generate, generate_varied, rate


def show(*cells: object) -> None:
    print(row(*cells))


def make(tier: str, rng: random.Random, seconds: float, puzzles: int, aimed: bool) -> tuple[list[Generated], float]:
    """Puzzles of a tier from one random source, for `seconds` or until `puzzles` are made."""
    made: list[Generated] = []
    held: list[str | None] = []
    start = time.perf_counter()
    while (len(made) < puzzles) if puzzles else (time.perf_counter() - start < seconds):
        if aimed:
            puzzle = generate_varied(tier, rng, family_stock(tier, held))
            held.append(puzzle.rating.hardest)
        else:
            puzzle = generate(tier, rng)
        made.append(puzzle)
    return made, time.perf_counter() - start


def rating_times(made: list[Generated]) -> list[float]:
    times = []
    for puzzle in made:
        start = time.perf_counter()
        rate(puzzle.givens)
        times.append((time.perf_counter() - start) * 1000)
    return times


def shares(label: str, made: list[Generated]) -> None:
    counts = Counter(p.rating.hardest for p in made)
    families = family_stock("hard", (p.rating.hardest for p in made))
    print(f"\nHardest technique of the {label} puzzles ({len(made)})")
    show("technique", "puzzles", "share")
    for name, n in counts.most_common():
        show(name, n, f"{100 * n / len(made):.0f}%")
    show("family", "puzzles", "share")
    for family in FAMILIES["hard"]:
        show(family, families[family], f"{100 * families[family] / len(made):.0f}%")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15.0, help="per tier, unless --puzzles is given")
    parser.add_argument("--puzzles", type=int, default=0, help="make exactly this many per tier")
    parser.add_argument("--tiers", default=",".join(TIERS))
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--aimed", action="store_true", help="also run hard aimed family by family")
    args = parser.parse_args()
    tiers = [t.strip() for t in args.tiers.split(",") if t.strip()]
    runs = [(t, False) for t in tiers] + ([("hard", True)] if args.aimed else [])
    budget = f"{args.puzzles} puzzles" if args.puzzles else f"{args.seconds:.0f} s"
    print(f"Generated per minute, one core ({budget} per tier, seed {args.seed}, filler {DEFAULT_FILLER})")
    show("tier", "puzzles", "per minute", "tries/puzzle", "rate med ms", "rate p90 ms")
    hard: dict[str, list[Generated]] = {}
    for tier, aimed in runs:
        made, elapsed = make(tier, random.Random(args.seed), args.seconds, args.puzzles, aimed)
        times = rating_times(made)
        label = f"{tier}, aimed" if aimed else tier
        tries = sum(p.tries for p in made)
        show(
            label,
            len(made),
            f"{len(made) * 60 / elapsed:.0f}",
            f"{tries / len(made):.1f}",
            f"{statistics.median(times):.1f}",
            f"{percentile(times, 0.9):.1f}",
        )
        if tier == "hard":
            hard[label] = made
    for label, made in hard.items():
        shares(label, made)


if __name__ == "__main__":
    main()
