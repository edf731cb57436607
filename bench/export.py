"""Export bench: how long "Download my data" (puzzles/accounts/export.py) takes for a year of daily
play, and the most memory it holds while writing it.

    python bench/export.py [--days 365] [--tiers 5] [--runs 3] [--markdown]

Makes one player who played the daily of each of the --tiers easiest tiers on each of --days days
(365 x 5 attempts by default), each attempt with a record of play as the board writes it (an open, a save every 15 s
or so with the moves made since, a close and an open halfway, the submit: about 60 moves in 15
events), and most of them solved, each solve with its placements, an annotated review (a real
one, made once by the coaching code and copied), its technique uses and a rating change; some
with hints and checks; and the rest of an account (addresses, settings, streaks, leagues,
reminders, devices, practice answers). The dailies' puzzles are the known easy puzzle with its
digits renamed, one renaming each.

Then consumes the export's generator end to end, --runs times, and prints the best and the
median wall time, the bytes written and the queries made; and once more under tracemalloc, the
peak of the memory Python allocated while writing it (tracemalloc slows the run, so that run is
not timed). Production settings on the bench's own database (BENCH_EXPORT_DATABASE_URL,
`sudoku_bench_export` on the local PostgreSQL by default) and Redis cache (BENCH_EXPORT_CACHE_URL,
database 11).
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import os
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import TIERS, markdown_header, markdown_row, reset_site, row, setup_site
from bench.harness.services import vacuum

DB_URL = os.environ.get("BENCH_EXPORT_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sudoku_bench_export")
CACHE_URL = os.environ.get("BENCH_EXPORT_CACHE_URL", "redis://127.0.0.1:6379/11")
PREFIX = "export-"
SOLVED_SHARE = 0.9
SAVE_EVERY = 15  # seconds between the board's saves, as a steady player's


def puzzles_for(count: int) -> list:
    """`count` puzzles, each the known easy one with its digits renamed (distinct givens)."""
    from puzzles.models import Puzzle
    from tests.conftest import EASY_GIVENS, EASY_SOLUTION

    made = []
    for names in itertools.islice(itertools.permutations("123456789"), 1, count + 1):
        rename = dict(zip("123456789", names), **{"0": "0"})
        givens = "".join(rename[d] for d in EASY_GIVENS)
        solution = "".join(rename[d] for d in EASY_SOLUTION)
        made.append(
            Puzzle(
                givens=givens,
                solution=solution,
                tier="easy",
                score=1,
                hardest="hidden-single",
                clues=81 - givens.count("0"),
                filler="imported",
                used=True,
            )
        )
    return Puzzle.objects.bulk_create(made)


def record_of_play(puzzle, start: datetime.datetime, rng: random.Random, solved: bool) -> tuple[list, float, list]:
    """An attempt's events as the board writes them: an open, the cells filled in a shuffled
    order a digit every few seconds with a note now and then, a save every SAVE_EVERY seconds
    or so, a close and an open halfway (five minutes away), the submit; (events, clock at the end,
    the digits placed as (cell, digit, clock)). Each event is (kind, arrived_at, moves, placed,
    digits, clock)."""
    from puzzles.record_of_play.moves import Move

    empty = [cell for cell, given in enumerate(puzzle.givens) if given == "0"]
    rng.shuffle(empty)
    if not solved:
        empty = empty[: len(empty) // 2]
    digits = ["0"] * 81
    events = [("open", start, [], 0, "".join(digits), 0.0)]
    now, clock, pending, placed, placements = start, 0.0, [], 0, []
    last_save = start
    halfway = len(empty) // 2
    for number, cell in enumerate(empty):
        gap = rng.uniform(1.5, 5.0)
        now += datetime.timedelta(seconds=gap)
        clock += gap
        if rng.random() < 0.2:
            pending.append((now, Move(0, "c", ((cell, "".join(sorted({puzzle.solution[cell], "5"}))),))))
        pending.append((now, Move(0, "d", ((cell, int(puzzle.solution[cell])),))))
        digits[cell] = puzzle.solution[cell]
        placements.append((cell, int(puzzle.solution[cell]), clock))
        placed += 1
        last = number == len(empty) - 1
        if (now - last_save).total_seconds() >= SAVE_EVERY or last or number == halfway:
            now += datetime.timedelta(seconds=0.6)
            clock += 0.6
            moves = [Move(int((now - made).total_seconds() * 1000), m.layer, m.cells) for made, m in pending]
            kind = "submit" if last and solved else "save"
            events.append((kind, now, moves, placed, "".join(digits), clock))
            pending, placed, last_save = [], 0, now
            if number == halfway:
                events.append(("close", now + datetime.timedelta(seconds=1), [], 0, "".join(digits), clock + 1))
                now += datetime.timedelta(minutes=5)
                clock += 1
                events.append(("open", now, [], 0, "".join(digits), clock))
    return events, clock, placements


def make_year(user, days: int, tiers: int, rng: random.Random) -> None:
    """The player's dailies of `days` days before today, the `tiers` easiest tiers, played as
    record_of_play says."""
    from puzzles.fairplay.copies import order_keys
    from puzzles.fairplay.copies import pack as pack_placements
    from puzzles.models import Attempt, Check, DailyPuzzle, Hint, Placements, PlayEvent, RatingChange, Solve, site_today
    from puzzles.record_of_play.moves import pack

    today = site_today()
    slots = [(today - datetime.timedelta(days=back), tier) for back in range(days, 0, -1) for tier in TIERS[:tiers]]
    puzzles = puzzles_for(len(slots))
    dailies = DailyPuzzle.objects.bulk_create(
        [DailyPuzzle(date=day, difficulty=tier, puzzle=p) for (day, tier), p in zip(slots, puzzles)]
    )
    attempts, events, solves, hints, checks = [], [], [], [], []
    for n, daily in enumerate(dailies):
        start = datetime.datetime.combine(daily.date, datetime.time(7), datetime.UTC) + datetime.timedelta(hours=n % 5)
        solved = rng.random() < SOLVED_SHARE
        record, clock, placements = record_of_play(daily.puzzle, start, rng, solved)
        helped = rng.random() < 0.1
        attempt = Attempt(
            user=user,
            daily=daily,
            digits=record[-1][4],
            started_at=start,
            saved_at=record[-1][1],
            last_beat_at=record[-1][1],
            active_seconds=clock,
            version=sum(1 for e in record if e[0] in ("save", "submit")),
            moves_logged=sum(len(e[2]) for e in record),
            hints_used=int(helped),
            checks_used=int(helped),
        )
        attempts.append((attempt, record, solved, helped, placements))
    Attempt.objects.bulk_create([a for a, *_ in attempts])
    kept = []
    for attempt, record, solved, helped, placements in attempts:
        events += [
            PlayEvent(attempt=attempt, kind=k, arrived_at=at, moves=pack(m), placed=p, digits=d, clock=c)
            for k, at, m, p, d, c in record
        ]
        if helped:
            hints.append(Hint(attempt=attempt, user=user, stage=1, technique="hidden-single", created=record[1][1]))
            checks.append(Check(attempt=attempt, wrong=0, created=record[1][1]))
        if solved:
            solves.append(
                Solve(
                    attempt=attempt,
                    user=user,
                    daily=attempt.daily,
                    seconds=attempt.active_seconds,
                    ranked_seconds=attempt.active_seconds,
                    solved_at=record[-1][1],
                    assisted=helped,
                )
            )
            kept.append(placements)
    PlayEvent.objects.bulk_create(events, batch_size=2000)
    Hint.objects.bulk_create(hints)
    Check.objects.bulk_create(checks)
    Solve.objects.bulk_create(solves)
    rows, changes, rating = [], [], [1500.0, 350.0, 0.06]
    for solve, digits in zip(solves, kept):
        head, tail = order_keys(digits)
        rows.append(
            Placements(solve=solve, daily=solve.daily, head=head, tail=tail, placements=pack_placements(digits))
        )
        if not solve.assisted:
            after = [rating[0] + rng.uniform(-20, 25), max(60.0, rating[1] * 0.97), 0.06]
            changes.append(
                RatingChange(
                    solve=solve,
                    user=user,
                    puzzle=solve.daily.puzzle,
                    solved_at=solve.solved_at,
                    seconds=solve.seconds,
                    score=rng.random(),
                    expected_seconds=solve.seconds * rng.uniform(0.8, 1.2),
                    player_before=rating,
                    player_after=after,
                    puzzle_before=[1500.0, 350.0, 0.06],
                    puzzle_after=[1490.0, 340.0, 0.06],
                )
            )
            rating = after
    Placements.objects.bulk_create(rows)
    RatingChange.objects.bulk_create(changes)
    copy_review(solves)


def copy_review(solves: list) -> None:
    """A real review (coaching's) of the first solve, with its technique uses, given to every solve."""
    from puzzles.coaching.services import review_store
    from puzzles.models import SolveReview, TechniqueUse

    review = review_store(solves[0].pk)
    assert review is not None
    uses = list(TechniqueUse.objects.filter(solve_id=solves[0].pk).values_list("technique", "think_seconds"))
    SolveReview.objects.bulk_create(
        [
            SolveReview(
                solve=s,
                version=review.version,
                placements=review.placements,
                stalls=review.stalls,
                mistakes=review.mistakes,
            )
            for s in solves[1:]
        ],
        batch_size=500,
    )
    TechniqueUse.objects.bulk_create(
        [
            TechniqueUse(user_id=s.user_id, solve=s, technique=t, think_seconds=think, solved_at=s.solved_at)
            for s in solves[1:]
            for t, think in uses
        ],
        batch_size=5000,
    )


def make_player(days: int, tiers: int, seed: int):
    """The player, their year of play and the rest of their account."""
    from allauth.account.models import EmailAddress
    from django.contrib.auth.models import User

    from puzzles.models import (
        League,
        Membership,
        PlayerRating,
        PracticeAnswer,
        Preferences,
        PushSubscription,
        Reminder,
        ReminderSent,
        site_today,
    )

    rng = random.Random(seed)
    user = User.objects.create_user(f"{PREFIX}ada", f"{PREFIX}ada@example.com")
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    EmailAddress.objects.create(user=user, email=f"{PREFIX}ada@example.org", verified=False, primary=False)
    Preferences.objects.create(user=user, values={"theme": "dark", "auto_candidates": "corner"})
    Reminder.objects.create(user=user, email=True, push=True, hour=8, time_zone="Europe/London")
    ReminderSent.objects.bulk_create(
        [ReminderSent(user=user, day=site_today() - datetime.timedelta(days=n)) for n in range(days)]
    )
    for n in range(3):
        PushSubscription.objects.create(
            user=user, endpoint=f"https://push.example.net/{PREFIX}{n}", p256dh="k", auth="a"
        )
    friend = User.objects.create_user(f"{PREFIX}friend")
    for owner in (user, friend):
        league = League.objects.create(name=f"{PREFIX}league of {owner.pk}", owner=owner)
        Membership.objects.create(league=league, user=user)
    PracticeAnswer.objects.bulk_create(
        [PracticeAnswer(user=user, technique="x-wing", right=rng.random() < 0.7) for _ in range(300)]
    )
    make_year(user, days, tiers, rng)
    solves = days * tiers * 4 // 5
    PlayerRating.objects.create(user=user, rating=1700, deviation=60, solves=solves, on_day_solves=solves)
    return user


def export_once(user) -> tuple[float, int, int]:
    """One export consumed end to end: (seconds, bytes, queries)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from puzzles.accounts.export import export_chunks

    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        size = sum(len(chunk.encode()) for chunk in export_chunks(user))
        seconds = time.perf_counter() - started
    return seconds, size, len(queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--tiers", type=int, default=len(TIERS), help="the tiers played each day, easiest first")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--markdown", action="store_true", help="print a table for docs/performance.md")
    args = parser.parse_args()

    setup_site(DB_URL, CACHE_URL)
    reset_site(PREFIX)
    from django.db.models import Sum

    from puzzles.models import Attempt, PlayEvent

    made = time.perf_counter()
    user = make_player(args.days, args.tiers, args.seed)
    vacuum()  # the planner's statistics for the rows just made (autovacuum may be off)
    attempts = Attempt.objects.filter(user=user).count()
    moves = Attempt.objects.filter(user=user).aggregate(moves=Sum("moves_logged"))["moves"]
    events = PlayEvent.objects.filter(attempt__user=user).count()
    print(f"made {attempts} attempts with {events} events and {moves} moves in {time.perf_counter() - made:.0f} s")

    runs = [export_once(user) for _ in range(args.runs)]
    seconds = [s for s, _, _ in runs]
    _, size, queries = runs[-1]
    from puzzles.accounts.export import export_chunks

    tracemalloc.start()
    for _ in export_chunks(user):
        pass
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()

    titles = ("days", "attempts", "events", "moves", "best s", "median s", "MB written", "queries", "peak MB")
    cells = (
        args.days,
        attempts,
        events,
        moves,
        f"{min(seconds):.2f}",
        f"{statistics.median(seconds):.2f}",
        f"{size / 1e6:.1f}",
        queries,
        f"{peak / 1e6:.1f}",
    )
    if args.markdown:
        print(markdown_header(*titles))
        print(markdown_row(*cells))
    else:
        print(row(*titles, widths=(10,)))
        print(row(*cells, widths=(10,)))


if __name__ == "__main__":
    main()
