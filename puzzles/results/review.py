"""A solve's annotated review as its player reads it: the longest stalls, the mistakes, and the
timeline of placements with the singles folded into runs.

It reads the stored review (models/coaching.py documents its JSON) and only words it: every
figure was worked out when the review was made. Shown to the solve's own player alone: the
views check that before they call anything here.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from ..coaching.review import REVIEW_VERSION
from ..coaching.services import review_of
from ..durations import format_duration
from ..engine import TECHNIQUE_BY_NAME, spoken, technique_phrase, technique_title
from ..models import Solve, SolveReview

# The techniques whose placements fold into a run of "singles": they are what every easy step
# is, and fifty of them one under the other would bury the steps worth reading.
SINGLES = frozenset({"hidden-single", "naked-single"})
# A single the player took this long to find is shown on its own, not folded into its run.
SLOW_SINGLE_MS = 60_000
# How many of the longest stalls the page shows, and the shortest worth calling a stop: a few
# seconds between digits is finding the next one, not being stuck.
STALLS_SHOWN = 3
STALL_MIN_MS = 15_000
# A review is made within moments of its solve; one missing this long after is not coming by
# itself (a solve from before reviews, a task given up), and the page stops saying it is.
REVIEW_WAIT = datetime.timedelta(minutes=15)


def clock(ms: float) -> str:
    """A moment on the player's clock, as the board's clock shows it: 4:05."""
    return format_duration(ms / 1000)


@dataclass(frozen=True)
class Reason:
    """One step of a justification, or one technique that was there during a stall."""

    technique: str
    text: str

    @property
    def title(self) -> str:
        return technique_title(self.technique)

    @property
    def phrase(self) -> str:
        """'a hidden single', for the middle of a sentence."""
        return technique_phrase(self.technique) if self.technique in TECHNIQUE_BY_NAME else self.title.lower()

    @property
    def in_guide(self) -> bool:
        return self.technique in TECHNIQUE_BY_NAME


def _reasons(items: Any) -> list[Reason]:
    return [Reason(str(r.get("technique", "")), str(r.get("text", ""))) for r in items or [] if isinstance(r, dict)]


@dataclass(frozen=True)
class Placement:
    move: int
    ms: int
    cell: int
    digit: int
    verdict: str  # logic, ahead or wrong
    technique: str
    steps: list[Reason]
    think_ms: int
    ended_stall: bool = False

    @property
    def time(self) -> str:
        return clock(self.ms)

    @property
    def think(self) -> str:
        return clock(self.think_ms)

    @property
    def where(self) -> str:
        """The cell in people's words: 'row 3, column 7'."""
        return spoken(self.cell)

    @property
    def label(self) -> str:
        """What made it: the technique's title, 'Placed ahead' or 'A wrong digit'."""
        if self.verdict == "wrong":
            return "A wrong digit"
        if self.verdict != "logic" or not self.technique:
            return "Placed ahead"
        return technique_title(self.technique)

    @property
    def in_guide(self) -> bool:
        return self.verdict == "logic" and self.technique in TECHNIQUE_BY_NAME

    @property
    def single(self) -> bool:
        """A quick single: folded into its run on the timeline."""
        return (
            self.verdict == "logic"
            and self.technique in SINGLES
            and self.think_ms < SLOW_SINGLE_MS
            and not self.ended_stall
        )


@dataclass(frozen=True)
class Run:
    """Placements shown together: one worth its own line, or a run of quick singles folded away."""

    placements: list[Placement]
    folded: bool

    @property
    def first(self) -> Placement:
        return self.placements[0]

    @property
    def last(self) -> Placement:
        return self.placements[-1]

    @property
    def count(self) -> int:
        return len(self.placements)


@dataclass(frozen=True)
class Stall:
    from_ms: int
    to_ms: int
    move: int  # the move that ended it; 0 when none did
    available: list[Reason]

    @property
    def length(self) -> str:
        return clock(self.to_ms - self.from_ms)

    @property
    def span(self) -> str:
        return f"from {clock(self.from_ms)} to {clock(self.to_ms)}"

    @property
    def what(self) -> str:
        """What was there to find, and what the player went on with when it was something else:
        'A hidden single was there: in box 7, 4 can only go in r8c2. You went on with an X-wing.'
        ('' if nothing)."""
        if not self.available:
            return ""
        first, *rest = self.available
        phrase = first.phrase[:1].upper() + first.phrase[1:]
        text = first.text.rstrip(".")
        said = f"{phrase} was there: {text[:1].lower()}{text[1:]}." if text else f"{phrase} was there."
        others = list(dict.fromkeys(r.phrase for r in rest if r.technique != first.technique))
        if others:
            said += f" You went on with {' and '.join(others[:2])}."
        return said

    @property
    def sentence(self) -> str:
        """'4:10 here, from 2:03 to 6:13. A hidden single was there: ...'"""
        return f"{self.length} here, {self.span}. {self.what}".rstrip()


@dataclass(frozen=True)
class Mistake:
    move: int
    ms: int
    cell: int
    digit: int
    right: int
    stayed_ms: int

    @property
    def time(self) -> str:
        return clock(self.ms)

    @property
    def where(self) -> str:
        return spoken(self.cell)

    @property
    def sentence(self) -> str:
        """'A 5 in row 1, column 4 at 2:00: it was an 8, and stayed 0:42 on the board.'; one put
        right within a second of the clock 'was corrected at once' (it stayed 0:00)."""
        if self.stayed_ms < 1000:
            stayed = "was corrected at once"
        else:
            stayed = f"stayed {clock(self.stayed_ms)} on the board"
        return f"A {self.digit} in {spoken(self.cell)} at {clock(self.ms)}: it was {_a(self.right)}, and {stayed}."


def _a(digit: int) -> str:
    """'an 8', 'a 5'."""
    return f"an {digit}" if digit == 8 else f"a {digit}"


@dataclass
class ShownReview:
    placements: list[Placement]
    stalls: list[Stall]
    mistakes: list[Mistake]
    runs: list[Run] = field(default_factory=list)

    @property
    def ahead(self) -> int:
        """How many right digits were placed ahead of the logic (no step on the board made them)."""
        return sum(p.verdict == "ahead" for p in self.placements)

    @property
    def summary(self) -> str:
        """One line: how many placements, by logic, ahead of it and mistakes."""
        logic = sum(p.verdict == "logic" for p in self.placements)
        parts = [f"{logic} by logic"]
        if self.ahead:
            parts.append(f"{self.ahead} placed ahead of the logic")
        wrong = len(self.mistakes)
        parts.append(f"{wrong} wrong digit{'s' if wrong != 1 else ''}" if wrong else "no wrong digits")
        total = len(self.placements)
        return f"{total} placement{'s' if total != 1 else ''}: {', '.join(parts)}."

    @property
    def ahead_words(self) -> str:
        """What 'placed ahead of the logic' means, said under the summary when there are any."""
        return (
            "A digit placed ahead of the logic is one no single step on your board made at that moment "
            "(your digits and centre notes then): you worked it out further ahead, or knew it. "
            "It counts toward none of your techniques."
        )


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def runs_of(placements: list[Placement]) -> list[Run]:
    """The timeline's runs: each run of quick singles folded into one, every other placement alone."""
    runs: list[Run] = []
    for p in placements:
        if p.single and runs and runs[-1].folded:
            runs[-1].placements.append(p)
        else:
            runs.append(Run([p], folded=p.single))
    # A "run" of one single reads better as its own line.
    return [Run(r.placements, folded=False) if r.folded and r.count == 1 else r for r in runs]


def shown_review(review: SolveReview) -> ShownReview:
    """The stored review in the page's terms; entries of another shape are skipped, never a 500."""
    stalls = [
        Stall(_int(s.get("from_ms")), _int(s.get("to_ms")), _int(s.get("move")), _reasons(s.get("available")))
        for s in review.stalls or []
        if isinstance(s, dict) and _int(s.get("to_ms")) - _int(s.get("from_ms")) >= STALL_MIN_MS
    ]
    stalls.sort(key=lambda s: s.from_ms - s.to_ms)  # longest first, whatever the stored order
    stall_ends = {s.move for s in stalls[:STALLS_SHOWN] if s.move}
    placements = [
        Placement(
            move=_int(p.get("move")),
            ms=_int(p.get("ms")),
            cell=_int(p.get("cell")) % 81,
            digit=_int(p.get("digit")),
            verdict=str(p.get("verdict", "")),
            technique=str(p.get("technique") or ""),
            steps=_reasons(p.get("steps")),
            think_ms=_int(p.get("think_ms")),
            ended_stall=_int(p.get("move")) in stall_ends,
        )
        for p in review.placements or []
        if isinstance(p, dict)
    ]
    mistakes = [
        Mistake(
            _int(m.get("move")),
            _int(m.get("ms")),
            _int(m.get("cell")) % 81,
            _int(m.get("digit")),
            _int(m.get("right")),
            _int(m.get("stayed_ms")),
        )
        for m in review.mistakes or []
        if isinstance(m, dict)
    ]
    return ShownReview(placements, stalls[:STALLS_SHOWN], mistakes, runs_of(placements))


def review_expected(solve: Solve, now: datetime.datetime | None = None) -> bool:
    """Whether a review not stored yet is still worth waiting for: the solve is recent."""
    return (now or timezone.now()) - solve.solved_at < REVIEW_WAIT


def review_shown(solve: Solve) -> ShownReview | None:
    """The solve's review to show its player, or None while it is being prepared (or was made by
    older rules, and is being made again). A page that read the solve with its review
    (select_related("annotated")) pays no query for it."""
    if Solve.annotated.is_cached(solve):
        stored = getattr(solve, "annotated", None)  # None cached: no review stored
        review = stored if stored is not None and stored.version == REVIEW_VERSION else None
    else:
        review = review_of(solve)
    return shown_review(review) if review is not None else None
