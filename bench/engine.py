"""Engine benchmark: prints a table of fill, clear, count, rate and generation figures.

    python bench/engine.py [--seconds-per-tier 20] [--samples 300] [--qqwing-source GIT]
                           [--rounds 3] [--only-qqwing]

Everything runs in this one process, so on one core. Every figure is CPU time (the process's,
time.process_time), not wall time, so a machine shared with other work slows the figures less;
"per minute" means per minute of CPU. Figures are medians unless a column says otherwise; they
vary a little between runs and machines, so compare runs made on one machine.

The first table sets us beside qqwing (bench/qqwing.py builds it and says what it times): a
minimal puzzle and counting over top-1465, in rounds that alternate qqwing and us, so a change
in the machine's load falls on both. Both sides are CPU time of the work only (qqwing's startup
taken off, our imports done before), summed over the rounds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import qqwing
from bench.harness import BENCH, percentile, row
from puzzles.engine import (
    DEFAULT_FILLER,
    FILLERS,
    TIERS,
    clear,
    count_solutions,
    fill,
    generate,
    parse,
    rate,
)

TOP1465 = BENCH / "top1465.txt"
T = TypeVar("T")


def timed(fn: Callable[[], T]) -> tuple[float, T]:
    start = time.process_time()
    value = fn()
    return (time.process_time() - start) * 1000, value


def show(*cells: object) -> None:
    print(row(*cells, widths=(-34, 12)))


def bench_fillers(samples: int) -> None:
    print(f"\nFill a complete grid ({samples} seeds each)")
    show("filler", "median ms", "p90 ms", "restarts/grid", "rollbacks/grid")
    for name in FILLERS:
        times, restarts, rollbacks = [], 0, 0
        for seed in range(samples):
            ms, (_, stats) = timed(lambda: fill(random.Random(seed), filler=name))
            times.append(ms)
            restarts += stats.restarts
            rollbacks += stats.rollbacks
        show(
            name,
            f"{statistics.median(times):.2f}",
            f"{percentile(times, 0.9):.2f}",
            f"{restarts / samples:.2f}",
            f"{rollbacks / samples:.2f}",
        )


def bench_minimal(samples: int) -> list[list[int]]:
    print(f"\nMinimal unique puzzle, fill ({DEFAULT_FILLER}) plus clear ({samples} seeds)")
    show("symmetry", "median ms", "p90 ms", "clear only ms", "mean clues")
    puzzles = []
    for symmetry in ("none", "rotational"):
        totals, clears, clues = [], [], []
        for seed in range(samples):
            rng = random.Random(seed)
            fill_ms, (solution, _) = timed(lambda: fill(rng))
            clear_ms, givens = timed(lambda: clear(solution, rng, symmetry=symmetry))
            totals.append(fill_ms + clear_ms)
            clears.append(clear_ms)
            clues.append(sum(1 for d in givens if d))
            if symmetry == "none":
                puzzles.append(givens)
        show(
            symmetry,
            f"{statistics.median(totals):.2f}",
            f"{percentile(totals, 0.9):.2f}",
            f"{statistics.median(clears):.2f}",
            f"{statistics.mean(clues):.1f}",
        )
    return puzzles


def bench_count() -> list[list[int]]:
    grids = [parse(line) for line in TOP1465.read_text().split() if line.strip()]
    start = time.process_time()
    for grid in grids:
        count_solutions(grid, limit=2)
    seconds = time.process_time() - start
    print(
        f"\ncount_solutions(limit=2) over top-1465: {len(grids)} puzzles in {seconds:.2f} s, "
        f"{len(grids) / seconds:.0f} puzzles/s"
    )
    return grids


def our_minimal_seconds(seeds: range) -> float:
    """The CPU seconds we spend filling and clearing one minimal puzzle per seed."""
    start = time.process_time()
    for seed in seeds:
        rng = random.Random(seed)
        solution, _ = fill(rng)
        clear(solution, rng)
    return time.process_time() - start


def our_count_seconds(grids: list[list[int]]) -> float:
    """The CPU seconds we spend counting the solutions of `grids` with a limit of 2."""
    start = time.process_time()
    for grid in grids:
        count_solutions(grid, limit=2)
    return time.process_time() - start


def bench_beside_qqwing(source: str, samples: int, rounds: int) -> None:
    try:
        binary = qqwing.build(source)
    except qqwing.CannotBuild as error:
        print(f"\nqqwing skipped: {error}")
        return
    lines = TOP1465.read_text().split()
    grids = [parse(line) for line in lines]
    spent = {"qqwing minimal": 0.0, "ours minimal": 0.0, "qqwing count": 0.0, "ours count": 0.0}
    for turn in range(rounds):
        seeds = range(turn * samples, (turn + 1) * samples)
        spent["qqwing minimal"] += qqwing.minimal_seconds(binary, samples)
        spent["ours minimal"] += our_minimal_seconds(seeds)
        spent["qqwing count"] += qqwing.count_seconds(binary, lines)
        spent["ours count"] += our_count_seconds(grids)
    made = samples * rounds
    counted = len(grids) * rounds
    print(f"\nBeside qqwing {qqwing.PINNED[:7]}, CPU time, {rounds} alternating rounds")
    show("work", "qqwing", "ours", "ours / qqwing")
    show(
        f"minimal puzzle, ms each ({made})",
        f"{spent['qqwing minimal'] * 1000 / made:.2f}",
        f"{spent['ours minimal'] * 1000 / made:.2f}",
        f"{spent['ours minimal'] / spent['qqwing minimal']:.2f}x",
    )
    show(
        "count top-1465 limit 2, puzzles/s",
        f"{counted / spent['qqwing count']:.0f}",
        f"{counted / spent['ours count']:.0f}",
        f"{spent['ours count'] / spent['qqwing count']:.2f}x",
    )


def bench_rate(minimal: list[list[int]], top: list[list[int]]) -> None:
    print("\nRating (full, no early stop)")
    show("set", "median ms", "p90 ms", "max ms", "tiers seen")
    for label, grids in (("random minimal puzzles", minimal), ("top-1465, first 200", top[:200])):
        times: list[float] = []
        tiers: dict[str, int] = {}
        for grid in grids:
            ms, rating = timed(lambda: rate(grid))
            times.append(ms)
            tiers[rating.tier] = tiers.get(rating.tier, 0) + 1
        seen = " ".join(f"{t}:{tiers[t]}" for t in TIERS if t in tiers)
        show(label, f"{statistics.median(times):.2f}", f"{percentile(times, 0.9):.2f}", f"{max(times):.1f}", seen)


def bench_generate(seconds: float) -> None:
    print(f"\nGenerated per minute, one core ({seconds:.0f} s per tier, filler {DEFAULT_FILLER})")
    show("tier", "puzzles", "per minute", "tries/puzzle", "median ms")
    for tier in TIERS:
        rng = random.Random(2026)
        made, tries, times = 0, 0, []
        start = time.process_time()
        while time.process_time() - start < seconds:
            ms, puzzle = timed(lambda: generate(tier, rng))
            made += 1
            tries += puzzle.tries
            times.append(ms)
        elapsed = time.process_time() - start
        show(tier, made, f"{made * 60 / elapsed:.0f}", f"{tries / made:.1f}", f"{statistics.median(times):.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--seconds-per-tier", type=float, default=20.0)
    parser.add_argument("--qqwing-source", help="git URL or directory of qqwing (see bench/qqwing.py)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds beside qqwing")
    parser.add_argument("--only-qqwing", action="store_true", help="print only the table beside qqwing")
    args = parser.parse_args()
    bench_beside_qqwing(qqwing.source_from(args.qqwing_source), args.samples // args.rounds, args.rounds)
    if args.only_qqwing:
        return
    bench_fillers(args.samples)
    minimal = bench_minimal(args.samples)
    top = bench_count()
    bench_rate(minimal, top)
    bench_generate(args.seconds_per_tier)


if __name__ == "__main__":
    main()
