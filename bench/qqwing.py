"""qqwing, built from its C++ sources, as the engine bench's yardstick.

    python bench/qqwing.py [--qqwing-source URL-OR-GIT-DIR]

bench/engine.py imports this module; run on its own it builds qqwing and prints its two figures.

The source is a git repository (`--qqwing-source`, or QQWING_SOURCE, or the public GitHub one),
checked out at PINNED and compiled once with `g++ -O2` into the ignored var/bench/qqwing-<commit>/.
qqwing's own build runs autotools to write config.h; the three macros its sources read are written
here instead, so only g++ is needed.

What is timed, and why it compares with our figures:

- A minimal puzzle: `qqwing --generate N --nopuzzle`. qqwing's generator (generatePuzzleSymmetry,
  symmetry none) fills a random grid by its solver, takes back the cells its logic filled (they
  can always go), then tries every remaining clue once in random order, keeping it out when the
  puzzle still has one solution: the same one-pass clearing as ours, so its puzzles are minimal
  too. Without --difficulty (and no stats or history asked for) it neither rates nor solves the
  puzzle, and --nopuzzle leaves nothing to print but the summary line.
- Counting: `qqwing --solve --nosolution --count-solutions` over top-1465. qqwing's command line
  counts without a limit, but every top-1465 puzzle has one solution, and proving that takes the
  same search with a limit of 2 as without one. --nosolution stops it solving each puzzle a
  second time to print it.

Both are CPU time of the child process (user plus system, from wait4), minus the CPU time of a
run that only starts and reads an empty input, so startup is left out of the figures.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import BENCH, ROOT

DEFAULT_SOURCE = "https://github.com/stephenostermiller/qqwing"
PINNED = "6048c90d84dded879e8e388c4da3da7acf0b5780"
BUILDS = ROOT / "var" / "bench"
CONFIG_H = '#define HAVE_GETTIMEOFDAY 1\n#define VERSION "1.3.4"\n#define PACKAGE_STRING "qqwing 1.3.4"\n'


class CannotBuild(RuntimeError):
    """qqwing could not be built here; the message says what is missing."""


def build(source: str, commit: str = PINNED) -> Path:
    """The path of a qqwing binary built from `source` at `commit`, building it on first use."""
    binary = BUILDS / f"qqwing-{commit}" / "qqwing"
    if binary.exists():
        return binary
    if shutil.which("g++") is None:
        raise CannotBuild("g++ is not installed; qqwing is built from its C++ sources with it")
    if shutil.which("git") is None:
        raise CannotBuild("git is not installed; it fetches qqwing's sources")
    with tempfile.TemporaryDirectory() as scratch:
        checkout = Path(scratch) / "qqwing"
        for command in (
            ["git", "clone", "--quiet", source, str(checkout)],
            ["git", "-C", str(checkout), "checkout", "--quiet", commit],
        ):
            done = subprocess.run(command, capture_output=True, text=True)
            if done.returncode:
                raise CannotBuild(f"could not get qqwing {commit[:7]} from {source}: {done.stderr.strip()}")
        (checkout / "src" / "cpp" / "config.h").write_text(CONFIG_H)
        binary.parent.mkdir(parents=True, exist_ok=True)
        sources = [str(checkout / "src" / "cpp" / name) for name in ("main.cpp", "qqwing.cpp")]
        done = subprocess.run(["g++", "-O2", "-o", str(binary), *sources], capture_output=True, text=True)
        if done.returncode:
            raise CannotBuild(f"g++ could not compile qqwing:\n{done.stderr.strip()}")
    return binary


def _cpu_seconds(command: list[str], stdin: str = "") -> float:
    """The CPU time (user plus system) a command takes to run to the end on `stdin`."""
    with tempfile.TemporaryFile("w+") as feed:
        feed.write(stdin)
        feed.seek(0)
        child = subprocess.Popen(command, stdin=feed, stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise RuntimeError(f"{command[0]} exited with {child.returncode}")
    return usage.ru_utime + usage.ru_stime


def startup_seconds(binary: Path) -> float:
    """The CPU time of a qqwing run that starts, reads an empty input and stops."""
    return _cpu_seconds([str(binary), "--solve", "--nosolution", "--count-solutions", "--one-line"])


def minimal_seconds(binary: Path, count: int) -> float:
    """The CPU seconds qqwing spends generating `count` minimal puzzles, startup left out."""
    spent = _cpu_seconds([str(binary), "--generate", str(count), "--nopuzzle", "--one-line"])
    return max(0.0, spent - startup_seconds(binary))


def count_seconds(binary: Path, puzzles: list[str]) -> float:
    """The CPU seconds qqwing spends counting the solutions of `puzzles`, startup left out."""
    command = [str(binary), "--solve", "--nosolution", "--count-solutions", "--one-line"]
    spent = _cpu_seconds(command, "\n".join(puzzles) + "\n")
    return max(0.0, spent - startup_seconds(binary))


def source_from(arg: str | None) -> str:
    """The qqwing source to build from: the argument, else QQWING_SOURCE, else GitHub."""
    return arg or os.environ.get("QQWING_SOURCE") or DEFAULT_SOURCE


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--qqwing-source", help=f"git URL or directory (default $QQWING_SOURCE or {DEFAULT_SOURCE})")
    parser.add_argument("--samples", type=int, default=300)
    args = parser.parse_args()
    try:
        binary = build(source_from(args.qqwing_source))
    except CannotBuild as error:
        sys.exit(f"bench/qqwing.py: {error}")
    puzzles = (BENCH / "top1465.txt").read_text().split()
    made = minimal_seconds(binary, args.samples)
    counted = count_seconds(binary, puzzles)
    print(f"qqwing {PINNED[:7]} ({binary})")
    print(f"minimal puzzle: {made * 1000 / args.samples:.2f} ms CPU each ({args.samples} puzzles)")
    print(f"count over top-1465: {len(puzzles) / counted:.0f} puzzles/s CPU")


if __name__ == "__main__":
    main()
