"""The engine's command line.

    python -m puzzles.engine generate --difficulty hard --count 5 --seed 1 [--filler NAME] [--symmetry NAME] [--json]
    python -m puzzles.engine solve GRID          (GRID may be '-': one grid a line on standard input)
    python -m puzzles.engine rate GRID [--json]

Answers come one a line, in input order. A bad grid prints its reason on standard error, keeps
its place in the output with an 'invalid:' line, and makes the exit status 1.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Iterator

from .catalogue import TIERS
from .clearer import SYMMETRIES, symmetry_of
from .fillers import DEFAULT_FILLER, FILLERS
from .generator import GenerationGaveUp, check_options, generate
from .grid import Grid, InvalidGrid, format_grid, parse
from .rater import rate
from .solver import solutions


def _grids(source: str) -> Iterator[tuple[int, str]]:
    """(line number, text) of each grid named on the command line or read from stdin."""
    if source != "-":
        yield 1, source
        return
    for number, line in enumerate(sys.stdin, start=1):
        text = line.split("#", 1)[0].strip()
        if text:
            yield number, text


def _each_grid(source: str, answer: Callable[[Grid], str], as_json: bool) -> int:
    """Print answer(grid) for every grid; report bad ones in place and return the exit status."""
    status = 0
    for number, text in _grids(source):
        try:
            line = answer(parse(text))
        except InvalidGrid as exc:
            status = 1
            where = f"line {number}: " if source == "-" else ""
            print(f"{where}{exc}", file=sys.stderr)
            line = json.dumps({"error": str(exc)}) if as_json else f"invalid: {exc}"
        print(line, flush=True)
    return status


def _solve_line(grid: Grid) -> str:
    found = solutions(grid, limit=2)
    if not found:
        return "no solution"
    return f"{format_grid(found[0])} {'unique' if len(found) == 1 else 'multiple'}"


def _rate_line(as_json: bool) -> Callable[[Grid], str]:
    def answer(grid: Grid) -> str:
        rating = rate(grid)
        if as_json:
            record = {
                "givens": format_grid(grid),
                "solution": format_grid(solutions(grid, limit=1)[0]),
                "difficulty": rating.tier,
                "score": rating.score,
                "hardest": rating.hardest,
                "techniques": dict(rating.techniques),
                "clues": sum(1 for d in grid if d),
                "filler": None,
                "symmetry": symmetry_of(grid),
            }
            return json.dumps(record)
        return f"{format_grid(grid)} {rating.tier} {rating.score} {rating.hardest}"

    return answer


def _generate(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    for _ in range(args.count):
        made = generate(args.difficulty, rng, filler=args.filler, symmetry=args.symmetry)
        record = made.to_dict()
        if args.json:
            print(json.dumps(record), flush=True)
        else:
            print(f"{record['givens']} {record['difficulty']} {record['score']}", flush=True)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m puzzles.engine", description="Sudoku engine")
    commands = parser.add_subparsers(dest="command", required=True)

    gen = commands.add_parser("generate", help="make minimal puzzles of one difficulty")
    gen.add_argument("--difficulty", required=True, choices=TIERS)
    gen.add_argument("--count", type=int, default=1)
    gen.add_argument("--seed", type=int, default=None, help="reproduce a run exactly")
    gen.add_argument("--filler", default=DEFAULT_FILLER, choices=list(FILLERS))
    gen.add_argument("--symmetry", default="none", choices=SYMMETRIES)
    gen.add_argument("--json", action="store_true", help="one JSON object a line")

    solve_cmd = commands.add_parser("solve", help="solve a grid, and say whether it is unique")
    solve_cmd.add_argument("grid", help="81 characters, or - for one grid a line on stdin")

    rate_cmd = commands.add_parser("rate", help="rate a puzzle by the techniques it needs")
    rate_cmd.add_argument("grid", help="81 characters, or - for one grid a line on stdin")
    rate_cmd.add_argument("--json", action="store_true", help="one JSON object a line")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "generate":
            if args.count < 1:
                raise ValueError("--count must be at least 1")
            check_options(args.difficulty, args.filler, args.symmetry)
            return _generate(args)
        if args.command == "solve":
            return _each_grid(args.grid, _solve_line, as_json=False)
        return _each_grid(args.grid, _rate_line(args.json), args.json)
    except (ValueError, GenerationGaveUp) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
