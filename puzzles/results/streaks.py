"""Streaks, and the freezes that forgive a missed day: the rule, written once.

A day counts when the player solves one of its dailies on that same day (history.streak_day).
`streaks(days, today)` walks the counted days up to today and says everything the pages show:

- A streak is a run of counted days, and its length is the number of days played in it. A day a
  freeze covers keeps the run going but adds nothing to its length, as Duolingo counts: the number
  says how many days the player solved, never how many they were forgiven.
- Every FREEZE_EVERY-th day played in a run earns a freeze, and at most FREEZES_KEPT are saved;
  one earned while the bank is full is lost. Only days played count towards the next one: a
  covered day neither counts nor starts the count again, so a freeze never pays for the next.
- A day that ends with nothing counted spends a saved freeze, automatically: the day is marked
  frozen and the run goes on. With none saved the run ends there (it had none to lose), and the
  next counted day starts a new run at 1.
- Today is not over: a today not played yet spends nothing and breaks nothing, so a run lives
  until a whole day is missed with no freeze to cover it.
- The walk starts at the player's first counted day, so nothing before it is ever frozen.

Pure: dates in, a frozen (hashable) value out, so the home page can key its drawings on it.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

ONE_DAY = datetime.timedelta(days=1)
# A freeze is earned by each seven days played in a run, and at most two are saved at once.
FREEZE_EVERY = 7
FREEZES_KEPT = 2


@dataclass(frozen=True)
class Streaks:
    """A player's streaks as of one day: hashable, so a drawing of it can be kept by it."""

    current: int  # days played in the current run (0 once it has ended)
    best: int  # days played in the longest run
    freezes: int = 0  # saved now, 0 to FREEZES_KEPT
    frozen: tuple[datetime.date, ...] = ()  # the days a freeze covered in the current run, oldest first

    @property
    def next_freeze_in(self) -> int | None:
        """How many more days played earn the next freeze; None while the bank is full."""
        if self.freezes >= FREEZES_KEPT:
            return None
        return FREEZE_EVERY - self.current % FREEZE_EVERY

    @property
    def slots(self) -> tuple[bool, ...]:
        """The bank as its figure draws it: one flag a place, True where a freeze is saved."""
        return tuple(n < self.freezes for n in range(FREEZES_KEPT))

    @property
    def last_frozen(self) -> datetime.date | None:
        """The latest day a freeze covered in the current run, if any."""
        return self.frozen[-1] if self.frozen else None


def streaks(days: Iterable[datetime.date], today: datetime.date) -> Streaks:
    """The current run (alive while no whole day has been missed without a freeze to cover it),
    the longest, the freezes saved and the days they covered: the rule in the module's docstring."""
    counted = sorted(day for day in set(days) if day <= today)
    run = best = saved = 0
    frozen: list[datetime.date] = []

    def cover(after: datetime.date, missed: int) -> None:
        """The `missed` days after `after` are over and unplayed: a freeze each, or the run ends."""
        nonlocal run, saved, frozen
        if missed <= 0:
            return
        if missed > saved:
            run, saved, frozen = 0, 0, []
            return
        frozen.extend(after + n * ONE_DAY for n in range(1, missed + 1))
        saved -= missed

    previous: datetime.date | None = None
    for day in counted:
        if previous is not None:
            cover(previous, (day - previous).days - 1)
        run += 1
        if run % FREEZE_EVERY == 0 and saved < FREEZES_KEPT:
            saved += 1
        best = max(best, run)
        previous = day
    if previous is not None:
        # The days since the last one counted, today aside: today is not over.
        cover(previous, (today - previous).days - 1)
    return Streaks(current=run, best=best, freezes=saved, frozen=tuple(frozen))
