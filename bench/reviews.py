"""Review bench: how long a solve's annotated review takes to make, per tier.

    python bench/reviews.py [--per-tier 20] [--shuffle 0.1] [--wrong 0.05] [--notes] [--seed 1] [--markdown]

Puzzles of every tier: the easy ones generated (engine.generate), the others rated from the
bench's collections (se_rated.txt, then top1465.txt) until each tier has --per-tier. Each is
"solved" in the order of the engine's own walk, except that with chance --shuffle a placement
swaps with a later one (a digit put in ahead of the logic), and with chance --wrong a wrong digit
goes in first and is erased a few digits later. With --notes the player keeps centre notes, the
pencil marks of the walk at the same point of the solve, written before each digit; without, the
player has none. Digits come every few seconds, with now and then a long stall. The review
(coaching/review.py's review_timeline, what the task's service runs after reading the replay, with
the puzzle's tier) is timed for each solve; prints per tier the median and 95th percentile in ms,
the slowest, and the share of placements it judged placed ahead. One process, one core; the
database is not used (reading the replay is not timed).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import BENCH, markdown_header, markdown_row, percentile, row
from puzzles.engine import TIERS, InvalidGrid, as_grid, generate, rate, solve, walk

if TYPE_CHECKING:  # Django is set up in main(), before the replays are imported
    from puzzles.fairplay.replays import Timeline

COLLECTIONS = (BENCH / "se_rated.txt", BENCH / "top1465.txt")


def puzzles_by_tier(per_tier: int, rng: random.Random) -> dict[str, list[str]]:
    """Up to `per_tier` puzzles of each tier, as 81-digit text."""
    found: dict[str, list[str]] = {tier: [] for tier in TIERS}
    while len(found["easy"]) < per_tier:
        found["easy"].append("".join(map(str, generate("easy", rng).givens)))
    for path in COLLECTIONS:
        for line in path.read_text().splitlines():
            if all(len(found[t]) >= per_tier for t in TIERS):
                return found
            text = line.split()[0] if line.strip() and not line.startswith("#") else ""
            try:
                grid = as_grid(text)
            except InvalidGrid:
                continue
            tier = rate(grid).tier
            if len(found[tier]) < per_tier:
                found[tier].append("".join(map(str, grid)))
    return found


def _notes(cands: tuple[int, ...]) -> list[str]:
    return ["".join(str(d) for d in range(1, 10) if mask >> (d - 1) & 1) for mask in cands]


def played(givens: str, rng: random.Random, shuffle: float, wrong: float, notes: bool = False) -> tuple[Timeline, str]:
    """A replay's timeline of one simulated solve (the module's docstring has the rules)."""
    from puzzles.fairplay.replays import Snapshot, TimedMove, Timeline
    from puzzles.record_of_play.moves import Move

    solution = solve(givens)
    assert solution is not None
    moments = [(pair, moment.cands) for moment in walk(givens, solution) for pair in moment.step.placements]
    order = [pair for pair, _ in moments]
    marks = [_notes(cands) for _, cands in moments]  # the walk's pencil marks before each digit
    kept = [""] * 81
    for i in range(len(order)):
        if rng.random() < shuffle:
            j = rng.randrange(i, len(order))
            order[i], order[j] = order[j], order[i]
    timeline = Timeline(givens=givens)
    ms = 0
    erase_at: dict[int, list[int]] = {}
    for number, (cell, digit) in enumerate(order):
        ms += rng.randint(2_000, 15_000) if rng.random() > 0.05 else rng.randint(60_000, 300_000)
        if rng.random() < wrong:
            other = rng.choice([d for d in range(1, 10) if d != digit])
            timeline.moves.append(TimedMove(ms, Move(0, "d", ((cell, other),))))
            erase_at.setdefault(number + rng.randint(1, 5), []).append(cell)
            ms += 1_000
        for gone in erase_at.pop(number, []):
            timeline.moves.append(TimedMove(ms, Move(0, "d", ((gone, 0),))))
        if notes:
            changed = tuple((c, mark) for c, mark in enumerate(marks[number]) if mark != kept[c])
            if changed:
                timeline.moves.append(TimedMove(ms, Move(0, "n", changed)))
                kept = marks[number]
        timeline.moves.append(TimedMove(ms, Move(0, "d", ((cell, digit),))))
    timeline.end_ms = ms
    digits = "".join("0" if g != "0" else str(s) for g, s in zip(givens, solution))
    timeline.writes.append(Snapshot(len(timeline.moves), ms, digits))
    return timeline, "".join(map(str, solution))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-tier", type=int, default=20)
    parser.add_argument("--shuffle", type=float, default=0.1, help="chance a placement is made early")
    parser.add_argument("--wrong", type=float, default=0.05, help="chance a wrong digit comes first")
    parser.add_argument("--notes", action="store_true", help="the player keeps the walk's pencil marks as notes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--markdown", action="store_true", help="print a table for docs/algorithms.md")
    args = parser.parse_args()

    # Django's settings for the imports only: a throwaway SQLite database, never opened.
    os.environ["DATABASE_URL"] = "sqlite:///" + os.path.join(tempfile.mkdtemp(), "bench.db")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sudokusite.settings")
    import django

    django.setup()
    from puzzles.coaching.review import review_timeline

    rng = random.Random(args.seed)
    started = time.perf_counter()
    puzzles = puzzles_by_tier(args.per_tier, rng)
    print(
        f"puzzles found in {time.perf_counter() - started:.0f} s: " + ", ".join(f"{len(puzzles[t])} {t}" for t in TIERS)
    )
    titles = ("tier", "solves", "placements", "median ms", "p95 ms", "slowest ms", "ahead")
    print(markdown_header(*titles) if args.markdown else row(*titles, widths=(-10, 11)))
    for tier in TIERS:
        times, placed, ahead = [], 0, 0
        for givens in puzzles[tier]:
            timeline, solution = played(givens, rng, args.shuffle, args.wrong, args.notes)
            t0 = time.perf_counter()
            review = review_timeline(timeline, solution, tier)
            times.append((time.perf_counter() - t0) * 1000)
            right = [p for p in review.placements if p["verdict"] != "wrong"]
            placed += len(right)
            ahead += sum(1 for p in right if p["verdict"] == "ahead")
        if not times:
            continue
        cells = (
            tier,
            len(times),
            f"{placed / len(times):.0f}",
            f"{percentile(times, 0.5):.0f}",
            f"{percentile(times, 0.95):.0f}",
            f"{max(times):.0f}",
            f"{ahead / max(1, placed):.1%}",
        )
        print(markdown_row(*cells) if args.markdown else row(*cells, widths=(-10, 11)))


if __name__ == "__main__":
    main()
