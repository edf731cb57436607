"""Score bands bench: the distribution of scores the generator makes in each tier.

    python bench/bands.py [--seed 2026] [--counts 100,100,80,80,30] [--tiers easy,medium]

Makes each tier's puzzles with generate() from one seeded generator, as a pool refill would,
and prints for each tier the scores at the tenths of the distribution, the middle band that
holds about four fifths of them (10% to 90%), and the band the settings give now. The default
score bands in sudokusite/settings.py are read from this table (docs/algorithms.md).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import markdown_header, markdown_row, percentile
from puzzles.engine import TIERS, generate

DEFAULT_COUNTS = (100, 100, 80, 80, 30)


def settings_bands() -> dict[str, tuple[int, int]]:
    """The bands the site would use with no SCORE_BAND_* variables set."""
    from sudokusite.settings import SCORE_BAND_DEFAULTS

    return dict(zip(TIERS, SCORE_BAND_DEFAULTS, strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--counts", default=",".join(map(str, DEFAULT_COUNTS)), help="puzzles per tier, easy first")
    parser.add_argument("--tiers", default=",".join(TIERS), help="the tiers to make, comma-separated")
    args = parser.parse_args()
    counts = dict(zip(TIERS, (int(n) for n in args.counts.split(",")), strict=True))
    tiers = [t for t in TIERS if t in args.tiers.split(",")]
    bands = settings_bands()
    rng = random.Random(args.seed)
    print(f"seed {args.seed}; scores in hundredths of the Sudoku Explainer scale")
    print(
        markdown_header(
            "tier", "puzzles", "lowest", "10%", "50%", "90%", "highest", "middle 80%", "band now", "in band", "seconds"
        )
    )
    for tier in tiers:
        started = time.perf_counter()
        scores = sorted(generate(tier, rng).rating.score for _ in range(counts[tier]))
        seconds = time.perf_counter() - started
        low, high = bands[tier]
        inside = sum(low <= s <= high for s in scores)
        tenth, middle, ninth = (percentile(scores, q) for q in (0.1, 0.5, 0.9))
        print(
            markdown_row(
                tier,
                len(scores),
                scores[0],
                tenth,
                middle,
                ninth,
                scores[-1],
                f"{tenth}-{ninth}",
                f"{low}-{high}",
                f"{inside / len(scores):.0%}",
                f"{seconds:.0f}",
            )
        )


if __name__ == "__main__":
    main()
