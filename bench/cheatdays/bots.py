"""The bots of issue 26, each aiming at rank 1 of the target daily every measured day, through the
same views as the honest players. A bot solves with the site's own engine and plays like a person
(the board's write pattern); what it chooses is its account and the time it aims at.

- recon, then aim: a throwaway guest submits the solution to read the day's median and the
  leaderboard (times, "new" marks) from the results page; the bot then aims just under the fastest
  time shown, never under the floor the published rules give, and, on a provisional account, not
  under FIELD_MARGIN of the fastest established time shown. Two accounts: an established one with
  a mediocre history (warm-up), and a fresh account each day with a verified email.
- time hidden in closed stretches: the page open, ticking, with no digit; then "close", and the
  digits typed while closed (a), or after a silence of 20 minutes with moves aged back into it (b).
- sybil floor griefing: 21 accounts post slow solves each morning to raise the day's floor; aged
  accounts with no history, and accounts that farmed establishment with slow clean solves.
- the converted guest: a guest made at 02:00 by a save on another daily, converted by sign-up in
  the evening (with and without a verified email), then recon and aim as the fresh account.
- the patient climber: an established mediocre account playing a little above its own rating
  every day, so that the rating climbs towards the rank-1 times.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field

from bench.players import Player, drawn_seconds

from .board import TICK_EVERY, Board, Daily, Step, board_writes, logical_order, paced, played, with_ticks
from .world import BOT_PREFIX, NOISE, Actor, World, at, history_of

PASSWORD = "a long cheat bench password 7"
SYBILS = 21
SYBIL_SKILL = 1180.0  # slow: 2.5 times an average (1500) player's time
MEDIOCRE_SKILL = 1350.0  # the history an established bot builds
CLIMB = 300.0  # points above its rating the patient climber plays at, under HOLD_MIN_POINTS
MEDIAN = re.compile(r"median time for [^:]+: <strong>([0-9:]+)</strong>")
ROW = re.compile(r'<tr[^>]*><td>\d+</td><th scope="row">.*?</th><td>([0-9:]+)</td>', re.S)
NEW_MARK = 'class="results-new"'


@dataclass(frozen=True)
class Seen:
    """What the results page shows a solver: the day's median and the leaderboard's times, each
    with whether it is marked "new" (provisional)."""

    median: float | None
    times: list[tuple[float, bool]]


def seconds_of(text: str) -> float:
    total = 0
    for part in text.split(":"):
        total = total * 60 + int(part)
    return float(total)


def recon(daily: Daily) -> Seen:
    """A throwaway guest submits the solution at once (a guest is never ranked) and reads the results."""
    guest = Board()
    guest.visit(daily)
    guest.beat(daily, "open")
    empty = [(cell, 0.0) for cell, given in enumerate(daily.givens) if given == "0"]
    guest.write(daily, "submit", empty, 0.0)
    html = guest.client.get(f"{daily.path}results/").content.decode()
    median = MEDIAN.search(html)
    times = [(seconds_of(m.group(1)), NEW_MARK in m.group(0)) for m in ROW.finditer(html)]
    return Seen(seconds_of(median.group(1)) if median else None, times)


def aim(seen: Seen, tier: str, provisional: bool) -> float:
    """The time a bot aims at: 2 s under the fastest time shown (a ranked time is over the day's
    floor, so the bot trusts it), never under the difficulty's floor the rules page states, and on
    a provisional account never under FIELD_MARGIN of the fastest established ("new"-less) time."""
    from django.conf import settings

    lowest = settings.LEADERBOARD_FLOOR_SECONDS[tier] + 3
    established = [t for t, new in seen.times if not new]
    if provisional and established:
        lowest = max(lowest, settings.FIELD_MARGIN * min(established) + 2)
    fastest = min((t for t, _ in seen.times), default=None)
    if fastest is None and seen.median is not None:
        lowest = max(lowest, settings.DAY_FLOOR_FRACTION * seen.median + 3)
    return max(lowest, fastest - 2) if fastest is not None else lowest


def aimed_steps(world: World, daily: Daily, seconds: float, tick_every: float = TICK_EVERY) -> list[Step]:
    """A clean record of `seconds`: the board's writes, the digits paced over the time, a tick
    in every silence of `tick_every` s."""
    order = logical_order(daily.givens, daily.solution)
    return with_ticks(board_writes(paced(order, seconds, world.rng, first=2.0), ticks=False), tick_every)


def signed_up(board: Board, name: str, email: str, verified: bool) -> str:
    """Sign up through the form (a guest's board converts the guest); verify the address as a
    click on its link would. "" or what went wrong."""
    from allauth.account.models import EmailAddress
    from allauth.account.signals import email_confirmed
    from django.contrib.auth.models import User

    fields = {"username": name, "email": email, "password1": PASSWORD, "password2": PASSWORD}
    status = board.form("/accounts/signup/", fields)
    if not User.objects.filter(username=name).exists():
        return f"sign-up refused ({status})"
    if verified:
        address = EmailAddress.objects.get(user__username=name, email=email)
        address.verified = True
        address.save(update_fields=["verified"])
        email_confirmed.send(sender=EmailAddress, request=None, email_address=address)
    return ""


@dataclass
class Bot:
    name: str
    players: dict[datetime.date, list[str]] = field(default_factory=dict)  # the usernames it played with
    notes: dict[datetime.date, list[str]] = field(default_factory=dict)

    def histories(self, world: World) -> list[Player]:
        """The accounts it makes before the warm-up, with their warm-up play (if any)."""
        return []

    def actors(self, world: World, day: datetime.date) -> list[tuple[datetime.datetime, Actor]]:
        raise NotImplementedError

    def note(self, day: datetime.date, text: str) -> None:
        if text:
            self.notes.setdefault(day, []).append(text)


def old(world: World) -> datetime.datetime:
    return at(world.days[0], 0) - datetime.timedelta(days=30)


class AimEstablished(Bot):
    def histories(self, world: World) -> list[Player]:
        return [history_of(f"{BOT_PREFIX}aim", MEDIOCRE_SKILL, world.target, old(world))]

    def actors(self, world, day):
        from django.contrib.auth.models import User

        def go() -> Actor:
            yield at(day, 21.5)
            daily = world.daily(day)
            seconds = aim(recon(daily), daily.tier, provisional=False)
            board = Board(User.objects.get(username=f"{BOT_PREFIX}aim"))
            self.players[day] = [f"{BOT_PREFIX}aim"]
            yield from played(board, daily, aimed_steps(world, daily, seconds), at(day, 21.55))

        return [(at(day, 21.5), go())]


class Climber(Bot):
    """The patient climber: an established mediocre account that each day plays CLIMB points above
    its own rating (under HOLD_MIN_POINTS), or at the rank-1 time if that is slower, so that its
    rating rises by what each solve shows. It is given the ratings' expected time for itself (the
    site shows a player their rating; an attacker would estimate the puzzle's from the day's
    median): a generous oracle."""

    def histories(self, world: World) -> list[Player]:
        return [history_of(f"{BOT_PREFIX}climb", MEDIOCRE_SKILL, world.target, old(world))]

    def actors(self, world, day):
        from django.conf import settings
        from django.contrib.auth.models import User

        from puzzles.models import Puzzle
        from puzzles.ratings import expected_seconds_for

        def go() -> Actor:
            yield at(day, 21.4)
            daily = world.daily(day)
            user = User.objects.get(username=f"{BOT_PREFIX}climb")
            seconds = aim(recon(daily), daily.tier, provisional=False)
            expected = expected_seconds_for(user, Puzzle.objects.get(pk=daily.puzzle))
            if expected is not None:
                seconds = max(seconds, expected * 10 ** (-CLIMB / (400 * settings.RATING_SPREAD)))
            self.players[day] = [user.username]
            yield from played(Board(user), daily, aimed_steps(world, daily, seconds), at(day, 21.45))

        return [(at(day, 21.4), go())]


class AimFresh(Bot):
    """A fresh account each day, signed up with an address it controls and verifies."""

    def actors(self, world, day):
        def go() -> Actor:
            yield at(day, 21.6)
            name = f"{BOT_PREFIX}new{day:%m%d}"
            board = Board()
            self.note(day, signed_up(board, name, f"{name}@example.org", verified=True))
            daily = world.daily(day)
            seconds = aim(recon(daily), daily.tier, provisional=True)
            self.players[day] = [name]
            yield from played(board, daily, aimed_steps(world, daily, seconds), at(day, 21.65))

        return [(at(day, 21.6), go())]


class Hider(Bot):
    """Open and ticking with no digit, then "close"; the digits typed while closed (silence=0), or
    after `silence` seconds of nothing with their moves aged back into it."""

    def __init__(self, name: str, account: str, silence: float) -> None:
        super().__init__(name)
        self.account, self.silence = account, silence

    def histories(self, world: World) -> list[Player]:
        return [history_of(self.account, MEDIOCRE_SKILL, world.target, old(world))]

    def actors(self, world, day):
        from django.contrib.auth.models import User

        def go() -> Actor:
            yield at(day, 21.7)
            daily = world.daily(day)
            seconds = aim(recon(daily), daily.tier, provisional=False)
            order = logical_order(daily.givens, daily.solution)
            open_for = seconds / 2
            steps = with_ticks([Step(0.0, "open"), Step(open_for, "close")])
            if self.silence:
                typed_from = open_for + self.silence
                # Made over the silence by their ages, sent in saves of four, a second apart.
                made = paced(order, typed_from, world.rng, first=open_for + 1)
                for n in range(0, len(made), 4):
                    steps.append(Step(typed_from + n / 4, "submit" if n + 4 >= len(made) else "save", made[n : n + 4]))
            else:
                steps += board_writes(paced(order, seconds, world.rng, first=open_for + 1), ticks=False, opened=False)
            board = Board(User.objects.get(username=self.account))
            self.players[day] = [self.account]
            yield from played(board, daily, steps, at(day, 21.75))

        return [(at(day, 21.7), go())]


class Sybils(Bot):
    """SYBILS accounts posting slow solves each morning: aged with no history, or farmed (warm-up)."""

    def __init__(self, name: str, prefix: str, farmed: bool) -> None:
        super().__init__(name)
        self.prefix, self.farmed = prefix, farmed

    def usernames(self) -> list[str]:
        return [f"{self.prefix}{n}" for n in range(SYBILS)]

    def histories(self, world: World) -> list[Player]:
        from django.contrib.auth.models import User

        if self.farmed:
            return [history_of(name, SYBIL_SKILL, world.target, old(world)) for name in self.usernames()]
        for name in self.usernames():
            User.objects.create_user(name, password=None, date_joined=old(world))
        return []

    def actors(self, world, day):
        from django.contrib.auth.models import User

        daily = world.daily(day)
        self.players[day] = self.usernames()
        actors = []
        for user in User.objects.filter(username__in=self.usernames()):
            seconds = drawn_seconds(SYBIL_SKILL, world.truth[daily.puzzle], NOISE, world.rng)
            start = at(day, world.rng.uniform(6, 9))
            steps = aimed_steps(world, daily, seconds)
            actors.append((start, played(Board(user), daily, steps, start)))
        return actors


class ConvertedGuest(Bot):
    """A guest made at 02:00 (a save on the day's easiest other daily), signed up at 21:48."""

    def __init__(self, name: str, verified: bool) -> None:
        super().__init__(name)
        self.verified = verified

    def actors(self, world, day):
        def go() -> Actor:
            board = Board()
            other = next(d for tier, d in world.dailies[day].items() if tier != world.target)
            board.visit(other)
            cell = other.givens.index("0")
            board.write(other, "save", [(cell, 0.0)], 0.0)
            yield at(day, 21.8)
            name = f"{BOT_PREFIX}cv{'e' if self.verified else 'n'}{day:%m%d}"
            email = f"{name}@example.org" if self.verified else ""
            self.note(day, signed_up(board, name, email, verified=self.verified))
            daily = world.daily(day)
            seconds = aim(recon(daily), daily.tier, provisional=True)
            self.players[day] = [name]
            yield from played(board, daily, aimed_steps(world, daily, seconds), at(day, 21.85))

        return [(at(day, 2), go())]


def every_bot() -> list[Bot]:
    return [
        AimEstablished("a. recon, aim (established, mediocre history)"),
        AimFresh("a. recon, aim (new account, verified email)"),
        Hider("b. typed while closed", f"{BOT_PREFIX}hide", 0.0),
        Hider("b. silence while closed, moves aged into it", f"{BOT_PREFIX}hush", 1200.0),
        Sybils("c. 21 sybils, aged accounts", f"{BOT_PREFIX}aged", farmed=False),
        Sybils("c. 21 sybils, farmed establishment", f"{BOT_PREFIX}farm", farmed=True),
        ConvertedGuest("d. converted guest, no email", verified=False),
        ConvertedGuest("d. converted guest, verified email", verified=True),
        Climber("e. patient climber (established, +300 points a day)"),
    ]
