"""A solve's annotated review, made from its replay's timeline: what justified each placement, the
longest stalls and what was there to find in them, and the mistakes (the JSON shape is in
models/coaching.py's docstring).

Progress is a right digit placed. Each one is judged from the position just before it: the givens
and the right digits on the board then (a wrong digit never enters it), with the candidates a
player with full pencil marks keeps, carried from one placement to the next (engine.Position).
Digits come from the timeline's digit moves in order; where a write's recorded digits differ from
the board the moves made (a move the board never sent), the difference counts as made at that
write, as the replay shows it. A solve without moves gives empty lists.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import engine
from ..fairplay.replays import Timeline
from ..play.hint_answers import peoples_words

# Made again when the rules or the JSON shape change: a stored review of another version is stale.
REVIEW_VERSION = 1
STALLS_KEPT = 3


@dataclass(frozen=True)
class Change:
    """One cell's digit changed: at `ms` on the player's clock, by the first `move` moves."""

    move: int
    ms: int
    cell: int
    digit: int  # 0 for an erase


@dataclass
class Review:
    """The three lists stored with a solve, and the placements the player found by logic."""

    placements: list[dict[str, Any]] = field(default_factory=list)
    stalls: list[dict[str, Any]] = field(default_factory=list)
    mistakes: list[dict[str, Any]] = field(default_factory=list)

    def uses(self) -> list[tuple[str, float]]:
        """(technique, seconds to find it) for each placement justified by logic."""
        return [(p["technique"], p["think_ms"] / 1000) for p in self.placements if p["verdict"] == "logic"]


def changes_of(timeline: Timeline) -> list[Change]:
    """Every change of a digit in a non-given cell, in order (the module's docstring has the rule)."""
    givens = timeline.givens
    board = [0] * 81
    out: list[Change] = []

    def change(move: int, ms: int, cell: int, digit: int) -> None:
        if givens[cell] == "0" and board[cell] != digit:
            board[cell] = digit
            out.append(Change(move, ms, cell, digit))

    writes = iter(timeline.writes)
    write = next(writes, None)
    for number in range(len(timeline.moves) + 1):
        while write is not None and write.after <= number:
            for cell, recorded in enumerate(write.digits[:81]):
                change(write.after, write.ms, cell, int(recorded) if recorded.isdigit() else 0)
            write = next(writes, None)
        if number < len(timeline.moves):
            timed = timeline.moves[number]
            if timed.move.layer == "d":
                for cell, value in timed.move.cells:
                    change(number + 1, timed.ms, cell, int(value))
    return out


def _words(steps: tuple[engine.Step, ...] | list[engine.Step]) -> list[dict[str, str]]:
    """Steps in people's words, each cell named in full at its first mention among them."""
    taught: set[str] = set()
    return [{"technique": s.technique, "text": peoples_words(s.explanation, taught)} for s in steps]


def _stall_ends(changes: list[Change], solution: str, end_ms: int) -> list[tuple[int, int, int]]:
    """The STALLS_KEPT longest stretches between progress, longest first (the earlier of equals):
    (from_ms, to_ms, index of the change that ended it, or -1 for the stretch to the end)."""
    stretches, since = [], 0
    for index, c in enumerate(changes):
        if c.digit and c.digit == int(solution[c.cell]):
            stretches.append((since, c.ms, index))
            since = c.ms
    stretches.append((since, max(end_ms, since), -1))
    stretches.sort(key=lambda s: (-(s[1] - s[0]), s[0]))
    return [s for s in stretches[:STALLS_KEPT] if s[1] > s[0]]


def review_timeline(timeline: Timeline, solution: str) -> Review:
    """The review of a solve whose replay is `timeline`, of the puzzle with that solution."""
    review = Review()
    changes = changes_of(timeline)
    if not changes:
        return review
    stalls = {index: (start, end) for start, end, index in _stall_ends(changes, solution, timeline.end_ms)}
    position = engine.Position(timeline.givens)
    wrong: dict[int, tuple[Change, int]] = {}  # cell -> the wrong digit's change, and the right one
    progress = 0
    for index, c in enumerate(changes):
        right = int(solution[c.cell])
        if position.digits[c.cell]:
            position.erase(c.cell)
        if c.cell in wrong:
            made, should = wrong.pop(c.cell)
            review.mistakes.append(_mistake(made, should, c.ms))
        if not c.digit:
            continue
        entry: dict[str, Any] = {"move": c.move, "ms": c.ms, "cell": c.cell, "digit": c.digit}
        if c.digit != right:
            wrong[c.cell] = (c, right)
            review.placements.append(
                entry | {"verdict": "wrong", "technique": "", "steps": [], "think_ms": max(0, c.ms - progress)}
            )
            continue
        easiest = position.easiest() if index in stalls else None
        found = position.justify(c.cell, c.digit)
        if index in stalls:
            review.stalls.append(_stall(stalls[index], c.move, easiest, found.steps or ()))
        entry |= {
            "verdict": "logic" if found.steps else "guess",
            "technique": found.technique,
            "steps": _words(found.steps or ()),
            "think_ms": max(0, c.ms - progress),
        }
        review.placements.append(entry)
        position.place(c.cell, c.digit)
        progress = c.ms
    if -1 in stalls:
        review.stalls.append(_stall(stalls[-1], 0, position.easiest(), ()))
    for made, should in wrong.values():  # still on the board when the record stops
        review.mistakes.append(_mistake(made, should, timeline.end_ms))
    review.stalls.sort(key=lambda s: (s["from_ms"] - s["to_ms"], s["from_ms"]))
    review.mistakes.sort(key=lambda m: (m["ms"], m["cell"]))
    return review


def _mistake(made: Change, right: int, gone_ms: int) -> dict[str, Any]:
    return {
        "move": made.move,
        "ms": made.ms,
        "cell": made.cell,
        "digit": made.digit,
        "right": right,
        "stayed_ms": max(0, gone_ms - made.ms),
    }


def _stall(
    span: tuple[int, int], move: int, easiest: engine.Step | None, ending: tuple[engine.Step, ...]
) -> dict[str, Any]:
    """A stall with what its position held: the easiest step there (none when the board was
    full), then the steps of the placement that ended it, those that differ from that one."""
    there = [easiest] if easiest else []
    there += [s for s in ending if easiest is None or s.explanation != easiest.explanation]
    return {"from_ms": span[0], "to_ms": span[1], "move": move, "available": _words(there)}
