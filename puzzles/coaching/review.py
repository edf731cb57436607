"""A solve's annotated review, made from its replay's timeline: what made each placement, the
longest stalls and what was there to find in them, and the mistakes (the JSON shape is in
models/coaching.py's docstring).

Progress is a right digit placed. Each one is judged on the board the player had just before it:

- The digits: the givens and the player's right digits on the board then. A wrong digit never
  enters it: what it rules out is not the puzzle's, and the mistake is told on its own.
- The candidates: what those digits leave in each cell, narrowed by the player's centre notes
  there, where they kept notes and those notes still hold the cell's own digit. Centre notes are
  the candidates a player writes (hints read them so); corner notes mark where a digit may go in
  a box, which is no list of a cell's candidates. Notes that leave out the cell's own digit are
  a slip the review does not build on, so in that cell the digits alone count. A player without
  notes is judged on what the digits leave, the pencil marks anyone can see from the digits.

Why this board and not a full set of pencil marks carried from one placement to the next: a
technique is credited only if the player could have seen it there. Carried marks held
eliminations the player never made, so an Easy filled in row order was credited with an ALS-XZ
and a Nishio that only the engine had worked out.

On that board a placement is credited with the simplest technique that makes it (engine.justify):
a single, or one step of a technique of the puzzle's tier or easier that leaves the single;
where the notes make it a single that the digits alone do not, the steps that took those notes
out, when the engine finds them from the digits. A placement no such step makes was placed ahead of the logic: it credits no
technique (verdict "ahead"). Forcing chains and Nishio credit nothing either: following a digit
until it breaks is trying it. Only credited placements give the skill profile a technique use.

Digits and notes come from the timeline's moves in order; where a write's recorded digits differ
from the board the moves made (a move the board never sent), the difference counts as made at
that write, as the replay shows it. A solve without moves gives empty lists.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import engine
from ..fairplay.replays import Timeline
from ..play.hint_answers import peoples_words

# Made again when the rules or the JSON shape change: a stored review of another version is stale.
# 2: judged on the board the player had, "ahead" for what no step there made (1 carried full
# pencil marks and said "guess").
REVIEW_VERSION = 2
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
    """The three lists stored with a solve, and the techniques the placements are credited with."""

    placements: list[dict[str, Any]] = field(default_factory=list)
    stalls: list[dict[str, Any]] = field(default_factory=list)
    mistakes: list[dict[str, Any]] = field(default_factory=list)

    def uses(self) -> list[tuple[str, float]]:
        """(technique, seconds to find it) for each placement credited with a technique."""
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


class Notes:
    """The player's centre notes as the timeline's moves leave them, read forward: each cell's
    mask (bit d - 1 for digit d), 0 where it has none."""

    def __init__(self, timeline: Timeline) -> None:
        self._moves = timeline.moves
        self._read = 0
        self.marks = [0] * 81

    def after(self, moves: int) -> list[int]:
        """The notes after the first `moves` moves (never fewer than asked before)."""
        for timed in self._moves[self._read : moves]:
            if timed.move.layer == "n":
                for cell, value in timed.move.cells:
                    self.marks[cell] = sum(1 << (int(d) - 1) for d in str(value))
        self._read = max(self._read, moves)
        return self.marks


def _trusted(marks: list[int], solution: str) -> list[int]:
    """The notes the review builds on: each cell's, where they hold the cell's own digit."""
    return [mark if mark >> (int(digit) - 1) & 1 else 0 for mark, digit in zip(marks, solution)]


def review_timeline(timeline: Timeline, solution: str, tier: str | None = None) -> Review:
    """The review of a solve whose replay is `timeline`, of the puzzle with that solution and tier
    (None: any technique may credit a placement)."""
    review = Review()
    changes = changes_of(timeline)
    if not changes:
        return review
    stalls = {index: (start, end) for start, end, index in _stall_ends(changes, solution, timeline.end_ms)}
    digits = [int(g) for g in timeline.givens]  # the givens and the right digits on the board
    notes = Notes(timeline)
    wrong: dict[int, tuple[Change, int]] = {}  # cell -> the wrong digit's change, and the right one
    progress = 0
    for index, c in enumerate(changes):
        right = int(solution[c.cell])
        digits[c.cell] = 0
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
        marks = _trusted(notes.after(c.move), solution)
        found = engine.justify(digits, c.cell, c.digit, tier, marks)
        if index in stalls:
            easiest = engine.easiest(digits, marks)
            review.stalls.append(_stall(stalls[index], c.move, easiest, found.steps or ()))
        entry |= {
            "verdict": "logic" if found.steps else "ahead",
            "technique": found.technique,
            "steps": _words(found.steps or ()),
            "think_ms": max(0, c.ms - progress),
        }
        review.placements.append(entry)
        digits[c.cell] = c.digit
        progress = c.ms
    if -1 in stalls:
        marks = _trusted(notes.after(len(timeline.moves)), solution)
        review.stalls.append(_stall(stalls[-1], 0, engine.easiest(digits, marks), ()))
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
