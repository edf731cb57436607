"""The simulation's days and what it prints: per bot per day its outcome, the days a bot held
rank 1 unheld, and the honest solves held for review, each with its reason and its player's skill.
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import time
from collections import Counter

from bench.harness import markdown_header, markdown_row

from . import world as sim
from .board import REFUSED
from .bots import Bot, Sybils, every_bot
from .farm import ArchiveFarm
from .hidden import Copier, Reopener, Silent


def outcome(solve) -> str:
    """What the site made of a solve: its rank, or why it is held or not ranked."""
    from puzzles.durations import format_duration
    from puzzles.fairplay.ranking import not_ranked_codes
    from puzzles.results.leaderboard import standing_of

    if solve is None:
        return "no solve recorded"
    shown = format_duration(solve.rank_seconds)
    standing = standing_of(solve)
    if standing.ranked:
        return f"rank {standing.rank} of {standing.solvers} at {shown}"
    if solve.flagged:
        return f"held ({solve.held}) at {shown}"
    return f"not ranked ({', '.join(not_ranked_codes(solve))}) at {shown}"


def fastest_honest(daily_pk: int, honest_ids) -> float | None:
    """The fastest ranked time of an honest player on the daily; None if none."""
    from puzzles.fairplay.ranking import RANK_TIME
    from puzzles.models import Solve

    ranked = Solve.objects.ranked().filter(daily_id=daily_pk, user_id__in=honest_ids).annotate(t=RANK_TIME)
    return ranked.order_by("t").values_list("t", flat=True).first()


def ahead(solve, fastest: float | None) -> bool:
    """A ranked solve (its whole seconds, as pages compare) at or ahead of every honest ranked time:
    rank 1 had it played alone."""
    from puzzles.models import Solve

    ranked = Solve.objects.ranked().filter(pk=solve.pk).exists()
    return ranked and (fastest is None or int(solve.rank_seconds) <= int(fastest))


def bot_rows(bots: list[Bot], day: datetime.date, daily_pk: int, fastest: float | None, firsts: list) -> list[str]:
    from puzzles.models import Solve

    rows = []
    for bot in bots:
        names = bot.players.get(day, [])
        solves = {
            s.user.username: s
            for s in Solve.objects.filter(daily_id=daily_pk, user__username__in=names).select_related("user", "daily")
        }
        if isinstance(bot, Sybils):
            said = Counter(
                outcome(solves.get(n)).split(" at ")[0].split(" of ")[0].rstrip("0123456789 ") for n in names
            )
            text = ", ".join(f"{k}: {v}" for k, v in said.most_common())
        else:
            text = "; ".join(outcome(solves.get(n)) for n in names) or "did not play"
            if any(ahead(s, fastest) for s in solves.values()):
                text += ", ahead of every honest player"
                firsts.append((day, bot.name))
        notes = bot.notes.get(day, [])
        rows.append(markdown_row(day.isoformat(), bot.name, text + (f" ({'; '.join(notes)})" if notes else "")))
    return rows


def rank_one(daily_pk: int):
    """The day's rank-1 solve of a daily (None: nobody ranked)."""
    from puzzles.models import DailyPuzzle
    from puzzles.results.leaderboard import leaderboard_for

    board = leaderboard_for(DailyPuzzle.objects.select_related("puzzle").get(pk=daily_pk))
    return board.rows[0] if board.rows else None


def floor_without(solve, sybil_ids: list[int]) -> float:
    """The floor the solve would have had without the sybils' solves."""
    from puzzles.fairplay.ranking import by_established, day_floor
    from puzzles.models import Solve

    others = Solve.objects.ranked().filter(daily_id=solve.daily_id).exclude(pk=solve.pk).exclude(user_id__in=sybil_ids)
    return day_floor(solve.daily, by_established(others))[0]


def all_bots() -> list[Bot]:
    """Issue 26's bots, then issue 43's: the archive farm, time hidden from the clock, the replay copy."""
    return [
        *every_bot(),
        ArchiveFarm("f. archive farm (new verified account, 22 at about 48 s, then aim)", "archive", patient=False),
        ArchiveFarm("f. archive farm, patient (each 2 s behind its day's field)", "patient", patient=True),
        Reopener("g. reopened after closed halves, moves aged into them (strong history)", "reopen"),
        Silent("g. no heartbeats, 75 s silences planned for the old 30 s limit (strong)", "silent", 75.0, 30.0),
        Silent("g. no heartbeats, silences 1.5 times the published limit (strong)", "longsilent", None, None),
        Copier("h. replay copy of the day's rank 1 (strong history)", "copy"),
        ArchiveFarm("i. patient newcomer (2 s behind the field while new, then aim)", "newcomer", True, farms=False),
    ]


def main(args: argparse.Namespace) -> None:
    started = time.perf_counter()
    sim.setup(args.warm_up + args.days)
    from django.contrib.auth.models import User

    from puzzles.fairplay.ranking import is_provisional
    from puzzles.models import PlayerRating, Solve
    from puzzles.ratings.ledger import ratings_catch_up

    world = sim.make(args.honest, args.warm_up, args.days, args.seed)
    bots = all_bots()
    sim.warm(world, [p for bot in bots for p in bot.histories(world)])
    ratings = {r.user_id: r for r in PlayerRating.objects.all()}
    there = [p for p in world.honest if p.user_id not in world.joins]
    established = sum(not is_provisional(ratings.get(p.user_id)) for p in there)
    print(
        f"{len(world.honest) - len(world.joins)} honest players (skill N(1500, 250)) and {len(world.joins)} newcomers; "
        f"after {args.warm_up} warm-up days {established} of the first are established; the bots attack the "
        f"{world.target} daily; set up in {time.perf_counter() - started:.0f} s"
    )
    honest_ids = {p.user_id: p for p in world.honest}
    sybil_ids = list(
        User.objects.filter(username__in=[n for b in bots if isinstance(b, Sybils) for n in b.usernames()]).values_list(
            "pk", flat=True
        )
    )
    bot_ids = set(User.objects.filter(username__startswith=sim.BOT_PREFIX).values_list("pk", flat=True))
    print("\n" + markdown_header("day", "bot", "outcome"))
    bot_firsts, bot_aheads, day_seconds = [], [], []
    for day in world.measured:
        began = time.perf_counter()
        actors = sim.honest_actors(world, day) + [a for bot in bots for a in bot.actors(world, day)]
        sim.run(actors + [(sim.at(day, 0.5), sim.catch_up_hourly(day))])
        ratings_catch_up(sim.at(day, 23.99))
        daily = world.daily(day)
        fastest = fastest_honest(daily.pk, honest_ids)
        for line in bot_rows(bots, day, daily.pk, fastest, bot_aheads):
            print(line)
        first = rank_one(daily.pk)
        bot_ids |= set(User.objects.filter(username__startswith=sim.BOT_PREFIX).values_list("pk", flat=True))
        if first is not None and User.objects.filter(username=first.username, pk__in=bot_ids).exists():
            bot_firsts.append((day, first.username))
        day_seconds.append(time.perf_counter() - began)

    honest = Solve.objects.filter(daily__date__in=world.measured, user_id__in=honest_ids).select_related("daily")
    held = [s for s in honest if s.flagged]
    total = honest.count()
    print(f"\ndays a bot held rank 1 unheld: {len(bot_firsts)} of {len(world.measured)}")
    for day, name in bot_firsts:
        print(f"- {day}: {name}")
    print(f"bot-days ranked at or ahead of every honest player, unheld (rank 1 had it played alone): {len(bot_aheads)}")
    for day, name in bot_aheads:
        print(f"- {day}: {name}")
    share = 100 * len(held) / total if total else 0.0
    print(f"honest solves held: {len(held)} of {total} ({share:.1f}%)")
    per_player = Counter(s.user_id for s in honest)
    worst = max(
        ((Counter(s.user_id for s in held)[uid] / n, uid) for uid, n in per_player.items()), default=(0.0, None)
    )
    print(
        f"most held of one honest player's solves: {100 * worst[0]:.0f}% ({sum(1 for s in held if s.user_id == worst[1])} of {per_player.get(worst[1], 0)})"
    )
    by_sybils = 0
    for solve in held:
        player = honest_ids[solve.user_id]
        without = floor_without(solve, sybil_ids)
        because = solve.held == "day" and solve.rank_seconds >= without
        by_sybils += because
        print(
            f"- {solve.daily.date} {solve.daily.difficulty}: held ({solve.held}) at {solve.rank_seconds:.0f} s, "
            f"true skill {player.skill:.0f}{', newcomer' if solve.user_id in world.joins else ''}; "
            f"floor without the sybils {without:.0f} s{' (held because of them)' if because else ''}"
        )
    print(f"honest solves held because of the sybils: {by_sybils}")
    print(f"requests the site refused: {dict(REFUSED) or 'none'}")
    unranked = Counter(c for s in honest for c in ([s.unranked] if s.unranked else []))
    if unranked:
        print(f"honest solves not ranked by their record: {dict(unranked)}")
    print(
        f"\n{len(world.measured)} measured days in {sum(day_seconds):.0f} s "
        f"(a day: median {statistics.median(day_seconds):.0f} s); all in {time.perf_counter() - started:.0f} s"
    )
