"""Sukaku Explainer bench: fresh puzzles of every tier, rated by Sukaku Explainer (SE), as a
reference the rater's changes can be judged by (issue 29).

    python bench/sukaku.py [--per-tier 40] [--seed 2026] [--tiers easy,...] [--threads 1]
                           [--source GIT] [--commit HASH] [--puzzles FILE] [--save FILE] [--json]

Sukaku Explainer is built once from its public sources into var/bench/sukaku-<commit>/ (the first
12 digits of --commit, pinned by default): the source (--source, else $SUKAKU_SOURCE, else
the public GitHub repository) is cloned, the commit checked out, every .java file compiled with
javac, and every other file of the tree copied beside the classes (SE reads its HTML and
pictures as resources). Later runs reuse the build. It needs git, java and javac on the PATH and
is never a test dependency.

The puzzles are made as a pool refill makes them (puzzles/pipeline/pools.py: pool_fill,
puzzle_make, _family_stock), without a database:
- the same: each puzzle is made by the engine call a refill uses, with its defaults (the
  default filler, no symmetry), one seeded generator per tier; a tier with families (hard)
  takes every puzzle of engine.generate_stream in turn, as a refill offers each one to its pool;
  the bands are PUZZLE_SCORE_BANDS, read from sudokusite/settings.py with the environment's
  SCORE_BAND_* overrides;
- not the same: every puzzle made is kept and rated, where a refill keeps a hard puzzle only
  while its family has room (engine.family_keeps), stops at its target in band and discards
  spares past theirs; admins' seed batches are not imitated; and the same seed gives the same
  puzzles only as long as the engine does.
The figures are printed for all the puzzles made and again for those inside their tier's band,
which is where dailies are published from.

All puzzles not yet rated are rated by SE's serate in one JVM (through a file; --threads is
serate's own), with the name of SE's hardest technique. Ratings are kept in ratings.txt in the
build's folder, a line per puzzle as serate printed it, so a rerun rates only new puzzles.
--puzzles FILE rates a given file of "<81 characters> <tier>" lines instead of making puzzles
(our score is computed again by the current engine); --save FILE writes the made puzzles in
that form.

Per tier it prints the count, SE's median, range and tenths, the share of the tier at or below
the previous tier's median and above the next tier's, SE's commonest hardest techniques, and
Spearman's rank correlation between our score and SE's rating inside the tier; then the
issue's checks, each as holds or does not hold with its figures.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import ROOT, percentile, row, spearman
from puzzles.engine import TIERS, InvalidGrid, format_grid, generate_stream, parse, rate

DEFAULT_SOURCE = "https://github.com/SudokuMonster/SukakuExplainer.git"
PINNED = "362854eea4e983017726d406ac9ee8a28909bcc7"  # "Fix #111 1st in bug report #114"
SCRATCH = ROOT / "var" / "bench"
SERATE = "diuf.sudoku.test.serate"
# The bars: how many puzzles a tier needs, the share of extreme allowed at or below
# expert's median, and the rating no extreme puzzle may fall below.
AT_LEAST, EXTREME_OVERLAP, EXTREME_FLOOR = 40, 0.10, 6.0
TOP_TECHNIQUES = 3
# SE names some techniques with a code of their variant (Skyscraper 011, WXYZ-Wing 126): the
# commonest hardest techniques are counted without it.
VARIANT_CODE = re.compile(r" \d{3,}$")
COLUMNS = ("tier", "n", "median", "min", "p10", "p90", "max", "<=prev", ">next", "rho", "  SE's hardest")


class Unavailable(Exception):
    """SE cannot be built or run here; the message says what is missing."""


@dataclass
class Rated:
    """One puzzle: its tier and score by our engine, whether the score is in the tier's band, and
    SE's rating and hardest technique (None until rated)."""

    givens: str
    tier: str
    score: int
    hardest: str | None
    in_band: bool
    se: float | None = None
    se_hardest: str = ""


# Building and running Sukaku Explainer


def build_folder(commit: str) -> Path:
    return SCRATCH / f"sukaku-{commit[:12]}"


def sukaku_build(source: str, commit: str) -> Path:
    """sukaku_build(source, commit) -> the folder of SE's compiled classes, built once per commit;
    raises Unavailable when a tool, the source or the commit is missing or javac fails."""
    classes = build_folder(commit) / "classes"
    if (classes / (SERATE.replace(".", "/") + ".class")).exists():
        return classes
    for tool in ("git", "java", "javac"):
        if shutil.which(tool) is None:
            raise Unavailable(f"{tool} is not on the PATH: Sukaku Explainer needs git and a JDK to build")
    classes.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=classes.parent) as scratch:
        work = Path(scratch)
        _run(["git", "clone", "--quiet", "--no-checkout", source, str(work / "src")], f"cannot clone {source}")
        _run(["git", "-C", str(work / "src"), "checkout", "--quiet", commit], f"{source} has no commit {commit}")
        files = [p for p in (work / "src").rglob("*") if p.is_file() and ".git" not in p.relative_to(work).parts]
        java = [str(p) for p in files if p.suffix == ".java"]
        (work / "sources.txt").write_text("\n".join(java) + "\n", encoding="utf-8")
        built = work / "classes"
        print(f"building Sukaku Explainer {commit[:12]}: {len(java)} Java files", file=sys.stderr)
        _run(
            ["javac", "-encoding", "ISO-8859-1", "-nowarn", "-d", str(built), f"@{work / 'sources.txt'}"],
            "javac failed",
        )
        for path in files:
            if path.suffix != ".java":
                target = built / path.relative_to(work / "src")
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, target)
        (classes.parent / "source.txt").write_text(f"{source} {commit}\n", encoding="utf-8")
        os.replace(built, classes)  # whole or not at all: a half build is never reused
    return classes


def _run(command: list[str], failure: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = "\n".join(done.stderr.strip().splitlines()[-5:])
        raise Unavailable(f"{failure}:\n{tail}" if tail else failure)


def serate_command(classes: Path, puzzles: Path, threads: int) -> list[str]:
    """The command that rates a file of puzzles, printing per puzzle 'grid<TAB>rating<TAB>hardest'."""
    return [
        "java", "-Xrs", "-Xmx500m", "-cp", str(classes), SERATE,
        "--format=%g\t%r\t%R", f"--input={puzzles}", "--output=-", f"--threads={threads}",
    ]  # fmt: skip


def parse_serate_line(line: str) -> tuple[str, float, str] | None:
    """parse_serate_line(line) -> (grid, rating, hardest technique) from a line serate printed
    with serate_command's format; None for any other line."""
    fields = line.rstrip("\r\n").split("\t")
    if len(fields) != 3 or len(fields[0]) != 81:
        return None
    try:
        rating = float(fields[1])
    except ValueError:
        return None
    return fields[0], rating, fields[2].strip()


def read_ratings(lines: Iterable[str]) -> dict[str, tuple[float, str]]:
    """{grid: (rating, hardest)} from serate's lines (the cache); other lines are skipped."""
    return {grid: (rating, name) for grid, rating, name in filter(None, map(parse_serate_line, lines))}


def se_rate(grids: list[str], classes: Path, threads: int) -> dict[str, tuple[float, str]]:
    """SE's (rating, hardest) for each grid, from the cache or, for the rest, from one serate
    run whose lines are added to the cache as they come."""
    cache = classes.parent / "ratings.txt"
    known = read_ratings(cache.read_text(encoding="utf-8").splitlines()) if cache.exists() else {}
    wanted = list(dict.fromkeys(g for g in grids if g not in known))
    if wanted:
        print(f"rating {len(wanted)} puzzles with Sukaku Explainer ({len(known)} cached)", file=sys.stderr)
        for line in _serate_lines(wanted, classes, threads, cache):
            if parsed := parse_serate_line(line):
                known[parsed[0]] = parsed[1:]
    missing = [g for g in grids if g not in known]
    if missing:
        raise Unavailable(f"serate printed no rating for {len(missing)} puzzles, the first {missing[0]}")
    return {g: known[g] for g in grids}


def _serate_lines(grids: list[str], classes: Path, threads: int, cache: Path) -> Iterator[str]:
    with tempfile.NamedTemporaryFile("w", suffix=".txt", dir=classes.parent, delete=False) as given:
        given.write("\n".join(grids) + "\n")
    try:
        with (
            subprocess.Popen(
                serate_command(classes, Path(given.name), threads), stdout=subprocess.PIPE, text=True
            ) as java,
            cache.open("a", encoding="utf-8") as kept,
        ):
            assert java.stdout is not None
            for done, line in enumerate(java.stdout, start=1):
                kept.write(line)
                kept.flush()
                if done % 10 == 0:
                    print(f"  {done}/{len(grids)}", file=sys.stderr)
                yield line
        if java.returncode != 0:
            raise Unavailable(f"serate stopped with exit status {java.returncode}")
    finally:
        os.unlink(given.name)


# The puzzles


def score_bands() -> dict[str, tuple[int, int]]:
    """The bands the site would use with this environment (SCORE_BAND_* included)."""
    from sudokusite.settings import PUZZLE_SCORE_BANDS

    return dict(PUZZLE_SCORE_BANDS)


def make_fresh(tier: str, count: int, seed: int, band: tuple[int, int]) -> list[Rated]:
    """`count` puzzles of the tier made as a refill makes them (the module's docstring says how
    far), from a generator seeded by the seed and the tier."""
    rng = random.Random(f"{seed}:{tier}")
    made: list[Rated] = []
    for puzzle in itertools.islice(generate_stream(tier, rng), count):
        score = puzzle.rating.score
        made.append(Rated(format_grid(puzzle.givens), tier, score, puzzle.rating.hardest, band[0] <= score <= band[1]))
    return made


def read_puzzles(lines: Iterable[str], name: str = "") -> tuple[list[tuple[str, str]], list[str]]:
    """(puzzles as (grid in digits, tier), problems as 'name:line: why') from '<81 characters> <tier>'
    lines; '#' lines and blank lines are skipped."""
    puzzles, problems = [], []
    for number, line in enumerate(lines, start=1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        where = f"{name}:{number}"
        if len(fields) != 2 or fields[1] not in TIERS:
            problems.append(f"{where}: expected '<grid> <tier>' with a tier of {', '.join(TIERS)}")
            continue
        try:
            grid = format_grid(parse(fields[0]))  # one spelling per puzzle, the cache's key
        except InvalidGrid as error:
            problems.append(f"{where}: {error}")
            continue
        puzzles.append((grid, fields[1]))
    return puzzles, problems


def rate_given(puzzles: list[tuple[str, str]], bands: dict[str, tuple[int, int]]) -> list[Rated]:
    """Given puzzles with their tier, scored by the current engine."""
    out = []
    for grid, tier in puzzles:
        rating = rate(grid)
        low, high = bands[tier]
        out.append(Rated(grid, tier, rating.score, rating.hardest, low <= rating.score <= high))
    return out


# The figures


def tier_figures(rated: list[Rated], tiers: Iterable[str] = TIERS) -> dict[str, dict]:
    """Per tier (every tier given, empty ones with a count of 0): SE's median, min, p10, p90 and
    max, the shares at or below the previous tier's median and above the next tier's, SE's
    commonest hardest techniques and Spearman between our score and SE's rating."""
    tiers = list(tiers)
    by_tier = {t: [r for r in rated if r.tier == t and r.se is not None] for t in tiers}
    medians = {t: statistics.median(_ratings(rs)) if rs else None for t, rs in by_tier.items()}
    out = {}
    for i, tier in enumerate(tiers):
        inside = by_tier[tier]
        ratings = _ratings(inside)
        below = medians[tiers[i - 1]] if i > 0 else None
        above = medians[tiers[i + 1]] if i + 1 < len(tiers) else None
        out[tier] = {
            "count": len(ratings),
            "median": medians[tier],
            "min": min(ratings, default=None),
            "p10": percentile(ratings, 0.1) if ratings else None,
            "p90": percentile(ratings, 0.9) if ratings else None,
            "max": max(ratings, default=None),
            "at_or_below_previous_median": _share(ratings, lambda se: se <= below) if below is not None else None,
            "above_next_median": _share(ratings, lambda se: se > above) if above is not None else None,
            "below_floor": sum(se < EXTREME_FLOOR for se in ratings),
            "techniques": Counter(technique(r.se_hardest) for r in inside).most_common(TOP_TECHNIQUES),
            "spearman": spearman([r.score for r in inside], ratings),
        }
    return out


def technique(se_name: str) -> str:
    """technique(se_name) -> SE's name of a technique without its variant code, if any."""
    return VARIANT_CODE.sub("", se_name)


def _ratings(rated: list[Rated]) -> list[float]:
    return [r.se for r in rated if r.se is not None]


def _share(values: list[float], test) -> float | None:
    return sum(map(test, values)) / len(values) if values else None


def checks(figures: dict[str, dict]) -> list[tuple[str, bool, str]]:
    """The issue's 'done when' on one set of tier figures, as (check, holds, what was measured);
    the checks are 'count', 'rising', 'overlap' and 'floor', the last two only with extreme."""
    tiers = [t for t in TIERS if t in figures]
    counts = ", ".join(f"{t} {figures[t]['count']}" for t in tiers)
    medians = [figures[t]["median"] for t in tiers]
    rising = all(a is not None and b is not None and b > a for a, b in pairwise(medians))
    order = " < ".join(f"{t} {_one(m)}" for t, m in zip(tiers, medians))
    out = [
        ("count", all(figures[t]["count"] >= AT_LEAST for t in tiers), f"{AT_LEAST} or more rated per tier: {counts}"),
        ("rising", rising, f"each tier's SE median above the previous tier's: {order}"),
    ]
    extreme = figures.get("extreme")
    if extreme and "expert" in figures:
        share = extreme["at_or_below_previous_median"]
        expert_median = _one(figures["expert"]["median"])
        what = (
            f"at most {EXTREME_OVERLAP:.0%} of extreme at or below expert's median ({expert_median}): {_percent(share)}"
        )
        out.append(("overlap", share is not None and share <= EXTREME_OVERLAP, what))
    if extreme:
        lowest = f"{extreme['below_floor']} of {extreme['count']}, lowest {_one(extreme['min'])}"
        clear = extreme["count"] > 0 and extreme["below_floor"] == 0
        out.append(("floor", clear, f"no extreme below {EXTREME_FLOOR}: {lowest}"))
    return out


def _one(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"  # one in 200 shows as 0.5%, not 0%


def _rho(value: float | None) -> str:
    return "-" if value is None else f"{value:+.2f}"


def print_figures(title: str, figures: dict[str, dict]) -> None:
    print(f"\n{title}")
    widths = (-8, 5, 6, 5, 5, 5, 5, 9, 9, 7, 0)
    print(row(*COLUMNS, widths=widths))
    for tier, f in figures.items():
        names = ", ".join(f"{name} {n}" for name, n in f["techniques"])
        cells = [f["count"], *(_one(f[k]) for k in ("median", "min", "p10", "p90", "max"))]
        shares = _percent(f["at_or_below_previous_median"]), _percent(f["above_next_median"])
        print(row(tier, *cells, *shares, _rho(f["spearman"]), f"  {names}", widths=widths))
    for _, holds, text in checks(figures):
        print(f"{'holds' if holds else 'does not hold'}: {text}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--per-tier", type=int, default=AT_LEAST, help="puzzles made per tier")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--tiers", default=",".join(TIERS), help="the tiers to make, comma-separated")
    parser.add_argument("--source", default=os.environ.get("SUKAKU_SOURCE", DEFAULT_SOURCE), help="git source of SE")
    parser.add_argument("--commit", default=PINNED, help="SE's commit to build")
    parser.add_argument("--threads", type=int, default=1, help="serate's --threads")
    parser.add_argument("--puzzles", type=Path, help="rate this file of '<grid> <tier>' lines instead")
    parser.add_argument("--save", type=Path, help="write the puzzles as '<grid> <tier>' lines")
    parser.add_argument("--json", action="store_true", help="print a JSON summary instead of the tables")
    args = parser.parse_args()
    bands = score_bands()
    try:
        classes = sukaku_build(args.source, args.commit)
        if args.puzzles:
            puzzles, problems = read_puzzles(args.puzzles.read_text().splitlines(), args.puzzles.name)
            for problem in problems:
                print(problem, file=sys.stderr)
            rated = rate_given(puzzles, bands)
            origin = f"{len(rated)} puzzles from {args.puzzles}"
        else:
            tiers = [t for t in TIERS if t in args.tiers.split(",")]
            rated = [r for t in tiers for r in make_fresh(t, args.per_tier, args.seed, bands[t])]
            origin = f"{len(rated)} fresh puzzles, {args.per_tier} per tier, seed {args.seed}"
        if args.save:
            args.save.write_text("".join(f"{r.givens} {r.tier}\n" for r in rated))
        ratings = se_rate([r.givens for r in rated], classes, args.threads)
        for r in rated:
            r.se, r.se_hardest = ratings[r.givens]
    except Unavailable as problem:
        sys.exit(f"bench/sukaku.py: {problem}")
    tiers = [t for t in TIERS if any(r.tier == t for r in rated)]
    every, in_band = tier_figures(rated, tiers), tier_figures([r for r in rated if r.in_band], tiers)
    if args.json:
        summary = {"sukaku": {"source": args.source, "commit": args.commit}, "origin": origin, "bands": bands}
        sets = {"all": every, "in_band": in_band}
        summary |= {
            name: {"tiers": f, "checks": [{"check": c, "holds": h, "what": w} for c, h, w in checks(f)]}
            for name, f in sets.items()
        }
        print(json.dumps(summary | {"puzzles": [asdict(r) for r in rated]}, indent=1))
        return
    print(f"{origin}; Sukaku Explainer {args.commit[:12]}; ratings on SE's scale, rho is Spearman of our score")
    print_figures("every puzzle made", every)
    print_figures("inside the tier's score band (where dailies come from)", in_band)


if __name__ == "__main__":
    main()
