"""The simulated site: its database, the honest players of bench/players.py's model, the warm-up
days that give everyone a rating history, and the scheduler that plays a day's requests in the
order of their simulated moments.
"""

from __future__ import annotations

import argparse
import datetime
import heapq
import itertools
import os
import random
from collections.abc import Generator, Iterable
from dataclasses import dataclass, field

from bench.harness import TIERS, daily_path, reset_site, setup_site
from bench.players import PREFIX, Player, drawn_seconds, make_world, play_day

from .board import Board, Daily, honest_steps, played

DB_URL = os.environ.get("BENCH_CHEAT_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/cheatbench")
BROKER_URL = os.environ.get("BENCH_CHEAT_BROKER_URL", "redis://127.0.0.1:6379/14")
CACHE_URL = os.environ.get("BENCH_CHEAT_CACHE_URL", "redis://127.0.0.1:6379/15")
BOT_PREFIX = "cheat"
NOISE = 0.35  # sigma of a solve time's log (bench/players.py's default)
NEWCOMERS = 3  # honest players who sign up during the measured days, with a verified email

Actor = Generator[datetime.datetime, None, None]


def setup(days: int) -> None:
    """Django on the bench's own database and Redis, emptied; every simulated day inside the
    ratings' rewind window (as bench/players.py); sign-ups unlimited (the bots sign up daily)."""
    setup_site(
        DB_URL,
        CACHE_URL,
        broker=BROKER_URL,
        RATING_REWIND_HOURS=str(24 * (days + 2)),
        RATE_LIMIT_SIGNUP="",
    )
    from django.conf import settings

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"  # sign-ups send mail
    reset_site(PREFIX, BOT_PREFIX, "guest-")


def at(day: datetime.date, hours: float) -> datetime.datetime:
    """A moment of a simulated day, in the site's time zone."""
    from django.utils import timezone

    midnight = datetime.datetime.combine(day, datetime.time(0), timezone.get_current_timezone())
    return midnight + datetime.timedelta(hours=hours)


@dataclass
class World:
    honest: list[Player]  # the first ones there from the start, the last NEWCOMERS joining later
    joins: dict[int, datetime.date]  # user id of a newcomer: the day they sign up
    truth: dict[int, float]  # puzzle id: true difficulty
    days: list[datetime.date]  # the warm-up days, then the measured ones
    measured: list[datetime.date]
    dailies: dict[datetime.date, dict[str, Daily]]
    target: str  # the tier the bots attack
    rng: random.Random
    seen: dict = field(default_factory=dict)  # what the bots' reconnaissance read, per day

    def daily(self, day: datetime.date, tier: str | None = None) -> Daily:
        return self.dailies[day][tier or self.target]


def make(honest: int, warm_up: int, measured: int, seed: int) -> World:
    """The honest players and every day's dailies (bench/players.make_world), newcomers joining
    on evenly spaced measured days with a verified email."""
    from allauth.account.models import EmailAddress
    from django.contrib.auth.models import User

    rng = random.Random(seed)
    args = argparse.Namespace(players=honest + NEWCOMERS, days=warm_up + measured, seed=seed)
    players, truth, rows = make_world(args, rng)
    days = sorted({d.date for d in rows})
    dailies: dict[datetime.date, dict[str, Daily]] = {}
    for row in rows:
        dailies.setdefault(row.date, {})[row.difficulty] = Daily(
            row.pk,
            daily_path(row.date, row.difficulty),
            row.difficulty,
            row.puzzle.givens,
            row.puzzle.solution,
            row.puzzle_id,
        )
    old = at(days[0], 0) - datetime.timedelta(days=60)
    User.objects.filter(username__startswith=PREFIX).update(date_joined=old)
    measured_days = days[warm_up:]
    joins = {}
    for n, player in enumerate(players[honest:], start=1):
        joins[player.user_id] = day = measured_days[n * len(measured_days) // (NEWCOMERS + 1)]
        User.objects.filter(pk=player.user_id).update(date_joined=at(day, 5))
        user = User.objects.get(pk=player.user_id)
        EmailAddress.objects.create(user=user, email=f"{user.username}@example.org", verified=True, primary=True)
    counts = {tier: sum(tier in p.tiers for p in players) for tier in TIERS}
    target = max(TIERS, key=lambda tier: counts[tier])
    return World(players, joins, truth, days, measured_days, dailies, target, rng)


def history_of(name: str, skill: float, target: str, joined: datetime.datetime) -> Player:
    """An account that plays the target tier every warm-up day at the given skill (a bot's history)."""
    from django.contrib.auth.models import User

    user = User.objects.create_user(name, password=None, date_joined=joined)
    return Player(user.pk, skill, 1.0, [target])


def warm(world: World, others: Iterable[Player]) -> None:
    """The warm-up days as bulk rows (bench/players.play_day: clean solves without a record of play)
    for the honest players there from the start and the bots' histories, the ratings caught up
    after each day."""
    from puzzles.models import DailyPuzzle
    from puzzles.ratings.ledger import ratings_catch_up

    playing = [p for p in world.honest if p.user_id not in world.joins] + list(others)
    for day in world.days[: len(world.days) - len(world.measured)]:
        rows = {d.difficulty: d for d in DailyPuzzle.objects.filter(date=day).select_related("puzzle")}
        play_day(day, rows, playing, world.truth, NOISE, world.rng)
        ratings_catch_up(at(day, 23.9))


def honest_actors(world: World, day: datetime.date) -> list[tuple[datetime.datetime, Actor]]:
    """Each honest player's plays of the day (their tiers, each with their own chance, as
    bench/players.py), through the real views, started between 06:00 and 20:00."""
    from django.contrib.auth.models import User

    actors = []
    for player in world.honest:
        joined = world.joins.get(player.user_id)
        if joined is not None and joined > day:
            continue
        if world.rng.random() >= player.keen:
            continue
        user = User.objects.get(pk=player.user_id)
        for tier in player.tiers:
            if world.rng.random() < player.keen:
                daily = world.daily(day, tier)
                seconds = drawn_seconds(player.skill, world.truth[daily.puzzle], NOISE, world.rng)
                steps, _ = honest_steps(daily, seconds, world.rng)
                start = at(day, world.rng.uniform(6, 20))
                actors.append((start, played(Board(user), daily, steps, start)))
    return actors


def catch_up_hourly(day: datetime.date) -> Actor:
    """The beat's ratings sweep (tasks.rate_solves: the ratings caught up, then today's holds
    decided again), every simulated hour (every 5 minutes in production)."""
    from puzzles.pipeline.tasks import rate_solves

    for hour in range(24):
        yield at(day, hour + 0.5)
        rate_solves()


def run(actors: list[tuple[datetime.datetime, Actor]]) -> None:
    """Play every actor's requests in the order of their moments, each at its moment (the clock
    travelled there, standing still): an actor yields when it next acts, and acts when resumed."""
    import time_machine

    order = itertools.count()
    queue = [(moment, next(order), actor) for moment, actor in actors]
    heapq.heapify(queue)
    while queue:
        moment, _, actor = heapq.heappop(queue)
        with time_machine.travel(moment, tick=False):
            upcoming = next(actor, None)
        if upcoming is not None:
            heapq.heappush(queue, (max(upcoming, moment), next(order), actor))
