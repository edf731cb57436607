"""The archive farm of issue 43's review: a fresh account with a verified address solves archive
puzzles of the target tier to build a rating, then aims at rank 1 of the day as if established.

- fast: the review's farm. On the first measured day it solves FIRST_EVENING archive puzzles at
  about 48 s each (36 to 60 s, about half under the hard floor), FARM_A_DAY more every later
  evening, then aims 2 s under the fastest time shown as an established account would.
- patient: a farmer that reads the rules. Each archive puzzle is solved 2 s slower than its day's
  fastest established time (the field a new rating is judged by), so that none is held; and the
  day's own puzzle, while its rating is provisional (the results page marks the player "new"; read
  here from the database), 2 s slower than the fastest established time
  shown (so that it is rated and counts towards establishment), then 2 s under the fastest once it
  is no longer new.
- the patient newcomer: the patient farmer without the archive. Its days of play, each 2 s behind
  the day's best established time, are what a strong newcomer's are.
"""

from __future__ import annotations

import datetime
import math

from .board import Board, Daily, played
from .bots import Bot, aim, aimed_steps, recon, signed_up
from .world import BOT_PREFIX, Actor, World, at

FIRST_EVENING = 22
FARM_A_DAY = 3


def fastest_established(seen) -> float | None:
    """The fastest time the results page showed without the "new" mark."""
    return min((t for t, new in seen.times if not new), default=None)


class ArchiveFarm(Bot):
    def __init__(self, name: str, prefix: str, patient: bool, farms: bool = True) -> None:
        super().__init__(name)
        self.account, self.patient, self.farms = f"{BOT_PREFIX}{prefix}", patient, farms
        self.farmed: list[Daily] = []

    def archive(self, world: World) -> list[Daily]:
        """The target tier's archive puzzles not farmed yet, oldest first (the warm-up days)."""
        warm_up = world.days[: len(world.days) - len(world.measured)]
        return [world.daily(day) for day in warm_up if world.daily(day) not in self.farmed]

    def farm_seconds(self, daily: Daily, n: int) -> float:
        from django.conf import settings

        if not self.patient:
            return 48 + 12 * math.sin(n)
        seen = recon(daily)
        fastest = fastest_established(seen)
        floor = settings.LEADERBOARD_FLOOR_SECONDS[daily.tier] + 3
        return max(floor, fastest + 2) if fastest is not None else max(floor, 2 * (seen.median or 300))

    def actors(self, world, day):
        from django.contrib.auth.models import User

        from puzzles.fairplay.ranking import is_provisional
        from puzzles.models import PlayerRating

        def go() -> Actor:
            yield at(day, 19.0)
            if not User.objects.filter(username=self.account).exists():
                self.note(day, signed_up(Board(), self.account, f"{self.account}@example.org", verified=True))
            user = User.objects.get(username=self.account)
            count = (FIRST_EVENING if day == world.measured[0] else FARM_A_DAY) if self.farms else 0
            moment = at(day, 19.0)
            for daily in self.archive(world)[:count]:
                seconds = self.farm_seconds(daily, len(self.farmed))
                self.farmed.append(daily)
                yield from played(Board(user), daily, aimed_steps(world, daily, seconds), moment)
                moment += datetime.timedelta(seconds=seconds + 30)
            yield at(day, 21.9)
            daily = world.daily(day)
            seen = recon(daily)
            seconds = aim(seen, daily.tier, provisional=False)
            if self.patient and is_provisional(PlayerRating.objects.filter(user=user).first()):
                fastest = fastest_established(seen)
                seconds = max(seconds, fastest + 2) if fastest is not None else seconds
            self.players[day] = [self.account]
            yield from played(Board(user), daily, aimed_steps(world, daily, seconds), at(day, 21.95))

        return [(at(day, 19.0), go())]
