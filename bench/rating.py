"""Rating bench: how our rater's order agrees with a reference rating, and how fast it rates.

    python bench/rating.py [FILE ...] [--worst N] [--extreme-with NAME,...] [--json]

Each FILE holds lines "<81 characters> <reference rating>" (default bench/se_rated.txt, rated by
Sukaku Explainer); '#' lines and blank lines are skipped, a malformed line is reported and skipped.
Every puzzle is rated with puzzles.engine.rate(). The figures: time per puzzle; Spearman's rank
correlation between the reference rating and our score, overall and inside each of our tiers, and
between the reference rating and our tier; the median reference rating of each tier; a table of
reference-rating bands against our tiers; puzzles rated extreme although their hardest technique
is one that should not make them so; and with --worst N, the puzzles whose rank by our score is
furthest from their rank by the reference rating. Times vary between machines; compare runs made
on one machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import BENCH, percentile, ranks, spearman
from puzzles.engine import TIERS, InvalidGrid, parse, rate, tier_of

SE_RATED = BENCH / "se_rated.txt"
# Reference-rating bands for the cross-table: (label, lowest rating in the band).
BANDS: tuple[tuple[str, float], ...] = (
    ("<1.5", 0.0),
    ("1.5-2.4", 1.5),
    ("2.5-3.4", 2.5),
    ("3.5-4.4", 3.5),
    ("4.5-5.4", 4.5),
    ("5.5-6.4", 5.5),
    ("6.5-7.4", 6.5),
    ("7.5-8.4", 7.5),
    ("8.5+", 8.5),
)


@dataclass
class Rated:
    """One puzzle of a collection: where it came from, its reference rating and ours."""

    where: str  # 'file:line'
    reference: float
    tier: str
    score: int
    hardest: str | None
    ms: float


def parse_collection(lines: Iterable[str], name: str = "") -> tuple[list[tuple[str, str, float]], list[str]]:
    """(puzzles as (where, grid text, rating), problems as 'name:line: why'); never raises on bad lines."""
    puzzles, problems = [], []
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        where = f"{name}:{number}" if name else str(number)
        fields = text.split()
        if len(fields) != 2:
            problems.append(f"{where}: expected '<grid> <rating>', got {len(fields)} fields")
            continue
        try:
            rating = float(fields[1])
            parse(fields[0])
        except (ValueError, InvalidGrid) as error:
            problems.append(f"{where}: {error}")
            continue
        puzzles.append((where, fields[0], rating))
    return puzzles, problems


def band_of(rating: float) -> str:
    """The label of the band a reference rating falls in."""
    return [label for label, low in BANDS if rating >= low][-1]


def cross_table(pairs: Iterable[tuple[float, str]]) -> dict[str, dict[str, int]]:
    """{band: {tier: count}} for (reference rating, our tier) pairs, every band and tier present."""
    table = {label: dict.fromkeys(TIERS, 0) for label, _ in BANDS}
    for rating, tier in pairs:
        table[band_of(rating)][tier] += 1
    return table


def rate_all(puzzles: list[tuple[str, str, float]]) -> list[Rated]:
    out = []
    for where, grid, reference in puzzles:
        start = time.perf_counter()
        rating = rate(grid)
        ms = (time.perf_counter() - start) * 1000
        out.append(Rated(where, reference, rating.tier, rating.score, rating.hardest, ms))
    return out


def figures(rated: list[Rated], worst: int, extreme_with: set[str]) -> dict:
    """Every figure the bench prints, as plain values."""
    refs = [r.reference for r in rated]
    times = [r.ms for r in rated]
    tiers = {}
    for tier in TIERS:
        inside = [r for r in rated if r.tier == tier]
        tiers[tier] = {
            "count": len(inside),
            "spearman_score": spearman([r.reference for r in inside], [r.score for r in inside]),
            "median_reference": statistics.median([r.reference for r in inside]) if inside else None,
        }
    ref_rank, score_rank = ranks(refs), ranks([r.score for r in rated])
    far = sorted(range(len(rated)), key=lambda i: -abs(ref_rank[i] - score_rank[i]))[:worst]
    return {
        "puzzles": len(rated),
        "ms": {"median": statistics.median(times), "p90": percentile(times, 0.9), "max": max(times)},
        "spearman_score": spearman(refs, [r.score for r in rated]),
        "spearman_tier": spearman(refs, [TIERS.index(r.tier) for r in rated]),
        "tiers": tiers,
        "cross_table": cross_table((r.reference, r.tier) for r in rated),
        "extreme_with": [r.where for r in rated if r.tier == "extreme" and r.hardest in extreme_with],
        "worst": [
            {
                "where": rated[i].where,
                "reference": rated[i].reference,
                "tier": rated[i].tier,
                "score": rated[i].score,
                "hardest": rated[i].hardest,
                "rank_gap": round(score_rank[i] - ref_rank[i], 1),
            }
            for i in far
        ],
    }


def rho(value: float | None) -> str:
    return "-" if value is None else f"{value:+.3f}"


def show(f: dict) -> None:
    ms = f["ms"]
    print(f"{f['puzzles']} puzzles; ms per puzzle: median {ms['median']:.1f}, p90 {ms['p90']:.1f}, max {ms['max']:.1f}")
    print(f"Spearman, reference rating vs our score: {rho(f['spearman_score'])}")
    print(f"Spearman, reference rating vs our tier (easy=0 ... extreme=4): {rho(f['spearman_tier'])}")
    print(f"\n{'tier':<10}{'puzzles':>9}{'rho(score)':>12}{'median ref':>12}")
    for tier, t in f["tiers"].items():
        median = "-" if t["median_reference"] is None else f"{t['median_reference']:.1f}"
        print(f"{tier:<10}{t['count']:>9}{rho(t['spearman_score']):>12}{median:>12}")
    print(f"\n{'reference':<10}" + "".join(f"{tier:>9}" for tier in TIERS))
    for band, row in f["cross_table"].items():
        print(f"{band:<10}" + "".join(f"{row[tier]:>9}" for tier in TIERS))
    if f["extreme_with"]:
        shown = ", ".join(f["extreme_with"][:10])
        print(f"\nRated extreme with a lower-tier hardest technique: {len(f['extreme_with'])} ({shown})")
    else:
        print("\nRated extreme with a lower-tier hardest technique: none")
    if f["worst"]:
        print(f"\n{'line':<22}{'ref':>5}  {'tier':<8}{'score':>6}  {'hardest':<18}{'rank gap':>9}")
        for w in f["worst"]:
            print(
                f"{w['where']:<22}{w['reference']:>5.1f}  {w['tier']:<8}{w['score']:>6}  "
                f"{w['hardest'] or '-':<18}{w['rank_gap']:>+9.1f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, default=[SE_RATED])
    parser.add_argument("--worst", type=int, default=0, metavar="N")
    parser.add_argument(
        "--extreme-with",
        metavar="NAME,...",
        help="techniques that should not make a puzzle extreme (default: every one below extreme)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.extreme_with:
        extreme_with = set(args.extreme_with.split(","))
    else:
        from puzzles.engine import TECHNIQUES

        extreme_with = {t.name for t in TECHNIQUES if tier_of(t.name) != "extreme"}
    puzzles = []
    for path in args.files:
        found, problems = parse_collection(path.read_text().splitlines(), path.name)
        puzzles += found
        for problem in problems:
            print(f"skipped {problem}", file=sys.stderr)
    if not puzzles:
        sys.exit("no puzzles to rate")
    f = figures(rate_all(puzzles), args.worst, extreme_with)
    if args.json:
        print(json.dumps(f, indent=2))
    else:
        show(f)


if __name__ == "__main__":
    main()
