"""Practice bench: how fast walking generated puzzles finds practice positions, per technique.

    python bench/practice.py [--minutes 5] [--pool 10] [--seed 1] [--markdown]

Generates puzzles of every tier in turn, walks each (engine.walk) and keeps, as the pool task
does (puzzles/practice/pool.py), at most one position per technique per puzzle, each checked to
have an instance (engine.instances). Prints, per technique, the positions found per minute of
this process's time and how long its pool of --pool positions took to fill ("-" when it did not
within the run: a technique the generator rarely meets). One process, one core, no database.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import markdown_header, markdown_row, row
from puzzles.engine import TECHNIQUES, TIERS, generate, instances, walk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--pool", type=int, default=10, help="positions a technique's pool holds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--markdown", action="store_true", help="print a table for docs/performance.md")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    found = {t.name: 0 for t in TECHNIQUES if t.name != "trial-and-error"}
    filled: dict[str, float] = {}
    puzzles = {tier: 0 for tier in TIERS}
    generating = walking = 0.0
    started = time.perf_counter()
    deadline = started + args.minutes * 60
    turn = 0
    while time.perf_counter() < deadline:
        tier = TIERS[turn % len(TIERS)]
        turn += 1
        t0 = time.perf_counter()
        made = generate(tier, rng)
        t1 = time.perf_counter()
        puzzles[tier] += 1
        seen: set[str] = set()
        for moment in walk(made.givens, made.solution):
            name = moment.step.technique
            if name not in found or name in seen:
                continue
            seen.add(name)
            if instances(list(moment.digits), list(moment.cands), name, made.solution):
                found[name] += 1
                if found[name] == args.pool:
                    filled[name] = time.perf_counter() - started
        generating += t1 - t0
        walking += time.perf_counter() - t1
    minutes = (time.perf_counter() - started) / 60

    made_text = ", ".join(f"{puzzles[t]} {t}" for t in TIERS)
    print(
        f"{sum(puzzles.values())} puzzles ({made_text}) in {minutes:.1f} min: "
        f"{generating:.0f} s generating, {walking:.0f} s walking and checking"
    )
    titles = ("technique", "tier", "positions", "per minute", f"pool of {args.pool} filled after")
    if args.markdown:
        print(markdown_header(*titles))
    else:
        print(row(*titles, widths=(-22, 8, 10, 11, 26)))
    for technique in TECHNIQUES:
        if technique.name not in found:
            continue
        count = found[technique.name]
        when = filled.get(technique.name)
        cells = (
            technique.name,
            technique.tier,
            count,
            f"{count / minutes:.1f}",
            f"{when:.0f} s" if when is not None else "-",
        )
        print(markdown_row(*cells) if args.markdown else row(*cells, widths=(-22, 8, 10, 11, 26)))


if __name__ == "__main__":
    main()
