"""Issue 43's bots that hide time from the clock or copy another's play, each on an established
account with a strong history (STRONG_SKILL), so that its history does not hold it and only the
clock's rule, the wall-time check and the copy check stand between it and rank 1.

- reopened: the review's first clock attack. The bot plays for twice the time it aims at, in
  cycles of CYCLE s: half visible (its digits saved as the board saves them), half after a
  "close", its digits then sent with an "open" at the cycle's end, aged back into the closed
  half. Under the rule before issue 43 an open counted nothing, so only the visible halves counted.
- silent: the second. No heartbeat ever; the digits in bursts at a quick person's pace, separated
  by silences of `gap` s, as many as make the time it expects counted its aim, planned against
  the limit `planned` (the review's 75 s silences planned against the old 30 s limit; or the
  published limit with silences half as long again, the most a silence can hide today).
- copy: the review's replay copy. A throwaway guest solves the day's puzzle (which lets it watch
  every ranked replay), reads the leaderboard's first replay, and the bot replays its digits move
  for move at their times on the player's clock.
"""

from __future__ import annotations

import json
import re

from .board import FASTEST_GAP, Board, Daily, Step, board_writes, logical_order, paced, played, with_ticks
from .bots import Bot, aim, old, recon
from .world import BOT_PREFIX, Actor, World, at, history_of

STRONG_SKILL = 1900.0
CYCLE = 40.0
# A leaderboard row's replay link (templates/puzzles/_replay_link.html), the first being rank 1's.
REPLAY_LINK = re.compile(r'<a href="(/daily/[^"]+/replay/(\d+)/)" class="results-replay">')


class Strong(Bot):
    """A bot on an established account with a strong warm-up history, one solve a measured day at 21:xx."""

    hour = 21.2

    def __init__(self, name: str, account: str) -> None:
        super().__init__(name)
        self.account = f"{BOT_PREFIX}{account}"

    def histories(self, world: World):
        return [history_of(self.account, STRONG_SKILL, world.target, old(world))]

    def steps(self, world: World, daily: Daily) -> list[Step]:
        raise NotImplementedError

    def actors(self, world, day):
        from django.contrib.auth.models import User

        def go() -> Actor:
            yield at(day, self.hour)
            daily = world.daily(day)
            steps = self.steps(world, daily)
            self.players[day] = [self.account]
            board = Board(User.objects.get(username=self.account))
            yield from played(board, daily, steps, at(day, self.hour + 0.05))

        return [(at(day, self.hour), go())]


class Reopener(Strong):
    hour = 21.2

    def steps(self, world: World, daily: Daily) -> list[Step]:
        seconds = aim(recon(daily), daily.tier, provisional=False)
        placed = paced(logical_order(daily.givens, daily.solution), 2 * seconds, world.rng, first=2.0)
        steps, hidden = [Step(0.0, "open")], []
        cycles = int(2 * seconds // CYCLE) + 1
        for k in range(cycles):
            steps += [Step(k * CYCLE + CYCLE / 2, "close"), Step((k + 1) * CYCLE, "open")]
        for cell, made in placed:
            if made % CYCLE < CYCLE / 2:
                steps.append(Step(made + 0.6, "save", [(cell, made)]))
            else:
                hidden.append((cell, made))
        for k in range(cycles):
            sent = [(c, m) for c, m in hidden if k * CYCLE <= m < (k + 1) * CYCLE]
            if sent:
                steps.append(Step((k + 1) * CYCLE + 0.1, "save", sent))
        steps.sort(key=lambda step: step.at)
        writes = [s for s in steps if s.kind == "save"]
        writes[-1].kind = "submit"
        return steps[: steps.index(writes[-1]) + 1]


class Silent(Strong):
    hour = 21.3

    def __init__(self, name: str, account: str, gap: float | None, planned: float | None) -> None:
        super().__init__(name, account)
        self.gap, self.planned = gap, planned

    def steps(self, world: World, daily: Daily) -> list[Step]:
        from django.conf import settings

        limit = self.planned or settings.HEARTBEAT_GAP_SECONDS
        gap = self.gap or 1.5 * limit
        seconds = aim(recon(daily), daily.tier, provisional=False)
        order = logical_order(daily.givens, daily.solution)
        burst = FASTEST_GAP * len(order)
        silences = max(1, round((seconds - burst) / min(gap, limit)))
        per = -(-len(order) // (silences + 1))
        placed, at_ = [], 2.0
        for n, cell in enumerate(order):
            if n and n % per == 0:
                at_ += gap
            at_ += FASTEST_GAP
            placed.append((cell, at_))
        return board_writes(placed, ticks=False)


class Copier(Strong):
    hour = 21.4

    def steps(self, world: World, daily: Daily) -> list[Step]:
        guest = Board()
        guest.visit(daily)
        guest.beat(daily, "open")
        guest.write(daily, "submit", [(cell, 0.0) for cell, given in enumerate(daily.givens) if given == "0"], 0.0)
        link = REPLAY_LINK.search(guest.client.get(f"{daily.path}results/").content.decode())
        if link is None:
            self.note(world.measured[0], "no replay to copy")
            return with_ticks(board_writes(paced(logical_order(daily.givens, daily.solution), 600, world.rng)))
        timeline = json.loads(guest.client.get(f"/api{link.group(1)}").content)
        placed: dict[int, float] = {}  # each cell at its first digit, as the replay shows it going in
        for ms, layer, cells in timeline["moves"]:
            for cell, digit in cells if layer == "d" else []:
                if digit and daily.givens[cell] == "0":
                    placed.setdefault(cell, ms / 1000)
        return board_writes(sorted(placed.items(), key=lambda pair: pair[1]))
