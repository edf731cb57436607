"""A puzzle a player brings, checked at the edge: its text read, then the engine's verdict (one
solution or not, and how hard it is), found under a time cap and a limit per client address.

The engine has no clock of its own, and rating the hardest puzzles takes it seconds (a few
known ones more), so the verdict is worked out in a child process that is killed at
settings.BROUGHT_CHECK_SECONDS. Each verdict, a refusal too, is kept in the shared cache, so
opening the same link again costs nothing and counts against no limit; a puzzle once played is
stored (models/brought.py), and its row is the verdict from then on. Only a verdict the engine
has to work out counts against the address's settings.BROUGHT_CHECKS_PER_HOUR.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction

from .. import engine
from ..accounts.ratelimits import hourly_wait
from ..models import BroughtPuzzle

VERDICT_CACHE_SECONDS = 24 * 3600


class BadPuzzle(ValueError):
    """A puzzle the site does not serve; the message says why, in words a player understands."""


class ChecksTooFast(Exception):
    """The client asked for more new puzzles to be checked than an hour allows."""

    def __init__(self, retry_after: int) -> None:
        minutes = max(1, round(retry_after / 60))
        super().__init__(
            f"That's a lot of new puzzles from one place in an hour: try again in about {minutes} "
            f"minute{'s' if minutes != 1 else ''}. Puzzles already played here open at once."
        )
        self.retry_after = retry_after


@dataclass(frozen=True)
class Verdict:
    """A puzzle with exactly one solution, and how the engine rates it."""

    givens: str
    solution: str
    tier: str
    score: int
    hardest: str
    clues: int


def givens_of(text: object) -> str:
    """The givens as the site writes them (81 digits, 0 for a blank) from a player's text: 81
    characters of 1-9 with 0 or . for blanks, whitespace anywhere ignored; else BadPuzzle."""
    if not isinstance(text, str) or not text.strip():
        raise BadPuzzle("Paste a puzzle: 81 characters, the digits 1 to 9 with 0 or . for each empty cell.")
    try:
        grid = engine.parse(text)
    except engine.InvalidGrid as exc:
        raise BadPuzzle(f"That is not a puzzle the site can read: {exc}.") from None
    if 0 not in grid:
        raise BadPuzzle("Every cell is filled in: there is nothing to solve.")
    return engine.format_grid(grid)


def _verdict_now(givens: str) -> Verdict | str:
    """The engine's verdict, or why the puzzle is not served (in the child process)."""
    found = engine.count_solutions(givens, limit=2)
    if found == 0:
        return "This puzzle has no solution, so it cannot be played: check the digits you copied."
    if found > 1:
        return (
            "This puzzle has more than one solution, so logic alone cannot finish it and the site does "
            "not serve it: check the digits you copied (a missing given is the usual cause)."
        )
    solution = engine.solve(givens)
    assert solution is not None  # exactly one solution
    rating = engine.rate(givens, solution=solution)
    clues = 81 - givens.count("0")
    return Verdict(givens, engine.format_grid(solution), rating.tier, rating.score, rating.hardest or "", clues)


def _child(send: Any, work: Callable[[str], object], givens: str) -> None:
    send.send(work(givens))
    send.close()


def within(seconds: float, work: Callable[[str], object], givens: str) -> object | None:
    """work(givens) worked out in a child process; None when it took longer than `seconds` (the
    child is killed) or died. The child only computes: it touches no database and no cache."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(send, work, givens), daemon=True)
    child.start()
    send.close()
    try:
        return receive.recv() if receive.poll(seconds) else None
    except EOFError:  # the child died without an answer
        return None
    finally:
        receive.close()
        child.kill()
        child.join()


def _cache_key(givens: str) -> str:
    return f"brought-verdict:{givens}"


def verdict_of(givens: str, address: str) -> Verdict:
    """The verdict on a puzzle (givens as givens_of writes them): the stored puzzle's, the one
    kept in the cache, or the engine's now, counted against `address`. BadPuzzle when it is not
    served, ChecksTooFast past the address's limit."""
    stored = BroughtPuzzle.objects.filter(givens=givens).first()
    if stored is not None:
        return Verdict(stored.givens, stored.solution, stored.tier, stored.score, stored.hardest, stored.clues)
    kept = cache.get(_cache_key(givens))
    if kept is None:
        wait = hourly_wait("brought-check", address, settings.BROUGHT_CHECKS_PER_HOUR)
        if wait is not None:
            raise ChecksTooFast(wait)
        limit = settings.BROUGHT_CHECK_SECONDS
        found = within(limit, _verdict_now, givens)
        if found is None:
            found = f"Checking this puzzle took longer than the site allows ({limit:g} seconds), so it is not served."
        kept = asdict(found) if isinstance(found, Verdict) else {"refused": str(found)}
        cache.set(_cache_key(givens), kept, VERDICT_CACHE_SECONDS)
    if "refused" in kept:
        raise BadPuzzle(kept["refused"])
    return Verdict(**kept)


def puzzle_kept(verdict: Verdict) -> BroughtPuzzle:
    """The stored puzzle of a verdict, stored now if it is not yet (a player's first write)."""
    fields = asdict(verdict)
    givens = fields.pop("givens")
    try:
        with transaction.atomic():
            puzzle, _ = BroughtPuzzle.objects.get_or_create(givens=givens, defaults=fields)
    except IntegrityError:  # another request stored it between the read and the insert
        puzzle = BroughtPuzzle.objects.get(givens=givens)
    return puzzle
