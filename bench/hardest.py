"""Generation benchmark: puzzles made per minute for each tier, the hard tier's hardest
techniques, and how long rating the made puzzles takes.

    python bench/hardest.py [--seconds 15] [--puzzles 0] [--tiers easy,medium,hard,expert,extreme]
                            [--seed 2026] [--aimed]

Everything runs in this one process, so on one core. Each tier makes puzzles from a fixed seed
for `--seconds` (or exactly `--puzzles` of them, when given). The rating column rates each made
puzzle again in full (rate(givens), no ceiling), as the site does when it shows the steps.
With --aimed the hard tier also runs exactly as a refill (pools.pool_fill) makes and keeps it,
without the database: an empty pool of the hard target (--target, else PUZZLE_POOL_TARGETS) is
filled from engine.generate_stream, every puzzle offered to the pool's rule (inside the score
band, engine.family_keeps while aiming, which lasts the first AIM_SHARE of each
GENERATION_BUDGET_SECONDS; spares outside the band up to the target), and when it is full
another empty one is filled, until the time is up. It prints the puzzles kept inside the band
per minute, how many fills ended with every family, and the spread of the kept puzzles across
the families; then the same for a pool with room for every puzzle offered (ROOMY_TARGET), the
rate at which refills keep puzzles whenever the pool wants them. A pool of 20 from empty keeps
its first 19 within seconds and then spends the aim's share of the task's budget looking for a
family the band rarely admits (a swordfish is about 1 hard puzzle in 460), so its kept per minute
is a fill's pace, not the refills' rate.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import percentile, row
from puzzles.engine import (
    AIM_SHARE,
    DEFAULT_FILLER,
    FAMILIES,
    TIERS,
    Generated,
    family_keeps,
    family_stock,
    generate,
    generate_stream,
    rate,
)
from sudokusite.settings import GENERATION_BUDGET_SECONDS, PUZZLE_POOL_TARGETS, PUZZLE_SCORE_BANDS

# A pool target no run of the bench fills: every puzzle offered finds room, so kept per minute is
# the refills' rate when the pool wants puzzles, the aim's keep rule applied.
ROOMY_TARGET = 100_000


def show(*cells: object) -> None:
    print(row(*cells))


def make(tier: str, rng: random.Random, seconds: float, puzzles: int) -> tuple[list[Generated], float]:
    """Puzzles of a tier from one random source, for `seconds` or until `puzzles` are made."""
    made: list[Generated] = []
    start = time.perf_counter()
    while (len(made) < puzzles) if puzzles else (time.perf_counter() - start < seconds):
        made.append(generate(tier, rng))
    return made, time.perf_counter() - start


@dataclass
class Fills:
    """What the pool's refills kept of the hard puzzles made, fill after fill from empty."""

    kept: list[Generated] = field(default_factory=list)  # inside the band
    spares: int = 0
    discarded: int = 0
    fills: int = 0
    with_every_family: int = 0
    seconds: float = 0.0


def fill_pools(rng: random.Random, seconds: float, target: int) -> Fills:
    """Hard pools of `target` filled from empty, one after another, for `seconds`, by the rule
    of pools.pool_fill and _pool_wants; a fill cut short by the time is not counted."""
    low, high = PUZZLE_SCORE_BANDS["hard"]
    fills = Fills()
    puzzles = generate_stream("hard", rng)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        held: list[Generated] = []
        spares = 0
        budget_start = time.perf_counter()
        while len(held) < target and time.perf_counter() - start < seconds:
            if time.perf_counter() - budget_start >= GENERATION_BUDGET_SECONDS:
                budget_start = time.perf_counter()  # the next refill task, on the pool as it is
            aiming = time.perf_counter() - budget_start < GENERATION_BUDGET_SECONDS * AIM_SHARE
            made = next(puzzles)
            stock = family_stock("hard", (p.rating.hardest for p in held))
            if low <= made.rating.score <= high:
                if family_keeps(made.rating.hardest, stock, target, aiming):
                    held.append(made)
                    continue
            elif spares < target:
                spares += 1
                continue
            fills.discarded += 1
        fills.kept += held
        fills.spares += spares
        if len(held) == target:
            fills.fills += 1
            fills.with_every_family += min(family_stock("hard", (p.rating.hardest for p in held)).values()) > 0
    fills.seconds = time.perf_counter() - start
    return fills


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
    parser.add_argument("--aimed", action="store_true", help="also fill hard pools as the refills do")
    parser.add_argument("--target", type=int, default=PUZZLE_POOL_TARGETS["hard"], help="the hard pool's target")
    args = parser.parse_args()
    tiers = [t.strip() for t in args.tiers.split(",") if t.strip()]
    budget = f"{args.puzzles} puzzles" if args.puzzles else f"{args.seconds:.0f} s"
    print(f"Generated per minute, one core ({budget} per tier, seed {args.seed}, filler {DEFAULT_FILLER})")
    show("tier", "puzzles", "per minute", "tries/puzzle", "rate med ms", "rate p90 ms")
    hard: dict[str, list[Generated]] = {}
    for tier in tiers:
        made, elapsed = make(tier, random.Random(args.seed), args.seconds, args.puzzles)
        times = rating_times(made)
        tries = sum(p.tries for p in made)
        show(
            tier,
            len(made),
            f"{len(made) * 60 / elapsed:.0f}",
            f"{tries / len(made):.1f}",
            f"{statistics.median(times):.1f}",
            f"{percentile(times, 0.9):.1f}",
        )
        if tier == "hard":
            hard[tier] = made
    if args.aimed:
        low, high = PUZZLE_SCORE_BANDS["hard"]
        print(
            f"\nHard as the refills keep it: pools filled from empty, band {low}-{high}, "
            f"aiming for the first {GENERATION_BUDGET_SECONDS * AIM_SHARE:.0f} s of each task"
        )
        show("target", "made", "kept in band", "kept per minute", "spares", "discarded", "fills", "every family")
        # The pool's own target, then a pool with room for all it is offered in the time: the
        # first shows a fill's hunt for the families the band rarely admits, the second the rate
        # at which refills keep puzzles while the pool has room (the aim's cost alone).
        for target in (args.target, ROOMY_TARGET):
            fills = fill_pools(random.Random(args.seed), args.seconds, target)
            made = len(fills.kept) + fills.spares + fills.discarded
            show(
                target,
                made,
                len(fills.kept),
                f"{len(fills.kept) * 60 / fills.seconds:.0f}",
                fills.spares,
                fills.discarded,
                fills.fills,
                fills.with_every_family,
            )
            if target == args.target:
                hard["kept hard"] = fills.kept
    for label, made in hard.items():
        shares(label, made)


if __name__ == "__main__":
    main()
