"""Players bench: players of known skill solve puzzles of known difficulty for 30 days, and the
ratings (puzzles/ratings/) are asked how well they recover the true order.

    python bench/players.py [--players 200] [--days 30] [--seed 1] [--noise 0.35] [--worker] [--reviews N]

On a database of its own (`sudoku_bench_players` on the local PostgreSQL,
BENCH_PLAYERS_DATABASE_URL) and Redis databases 12 (broker) and 13 (cache), migrated and emptied: the
engine makes a puzzle per tier for each of the last --days days, published as that day's
dailies; the players are accounts; their solves are real Attempt and Solve rows. After each
day the real ratings_catch_up() brings the ratings up to that day's solves, in a shuffled
arrival order (its wind-back puts them in solve order): called here, or with --worker sent as
the task puzzles.tasks.rate_solves to a real Celery worker, waiting until the ledger holds
every rated solve.

The truth the solves are drawn from (docs/ratings.md has the model the ratings assume):
- a player's skill is drawn from N(1500, 250); each plays a day with their own chance, drawn
  from U(0.3, 0.9), and then each of their tiers with that chance again: the tier nearest their
  skill, the one below it half the time, the one above it a third of the time;
- a puzzle's difficulty is its tier's centre (TRUE_CENTRES, not the ratings' priors) plus
  SCORE_WEIGHT points per point of the rater's score above the middle of the tier's band, plus
  N(0, 100) of its own;
- a solve's time: ln t = ln T0 - (skill - difficulty) ln 10 / (400 k) + N(0, --noise), with the
  site's T0 and k; one solve in twenty has a hint, so it is not rated.

Printed: Spearman's rank correlation between the true and the rated order, for players and for
puzzles (target 0.9 or more for both), within each tier too; how far the ratings' expected
times were from the drawn ones; and per tier the rater's score against the played rating. With
--reviews N, the review task's time on N of the solves, each given a record of play first (the
simulated solve of bench/reviews.py, through the real models).
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import (
    TIERS,
    celery_worker,
    make_puzzles,
    markdown_header,
    markdown_row,
    percentile,
    purge_queues,
    reset_site,
    setup_site,
    spearman,
    stop,
    wait_until,
)
from bench.reviews import played as simulated_solve

DB_URL = os.environ.get("BENCH_PLAYERS_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sudoku_bench_players")
BROKER_URL = os.environ.get("BENCH_PLAYERS_BROKER_URL", "redis://127.0.0.1:6379/12")
CACHE_URL = os.environ.get("BENCH_PLAYERS_CACHE_URL", "redis://127.0.0.1:6379/13")
TASK = "puzzles.tasks.rate_solves"
PREFIX = "benchplayer"
TRUE_CENTRES = dict(zip(TIERS, (1000.0, 1250.0, 1550.0, 1800.0, 2050.0), strict=True))
SCORE_WEIGHT = 80.0  # true points per point (100 hundredths) of the rater's score
PUZZLE_SPREAD = 100.0
SKILL_MEAN, SKILL_SPREAD = 1500.0, 250.0
HINTED = 0.05


# --- figures ------------------------------------------------------------------------------------


def rho(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation (bench/harness), NaN where it is undefined."""
    value = spearman(xs, ys)
    return math.nan if value is None else value


# --- the simulated world ------------------------------------------------------------------------


@dataclass
class Player:
    user_id: int
    skill: float
    keen: float  # the chance of playing a day, and each of their tiers on it
    tiers: list[str]


def tiers_for(skill: float, rng: random.Random) -> list[str]:
    """The tier nearest the skill, the one below half the time, the one above a third of it."""
    nearest = min(range(len(TIERS)), key=lambda i: abs(TRUE_CENTRES[TIERS[i]] - skill))
    chosen = [TIERS[nearest]]
    if nearest > 0 and rng.random() < 0.5:
        chosen.append(TIERS[nearest - 1])
    if nearest + 1 < len(TIERS) and rng.random() < 1 / 3:
        chosen.append(TIERS[nearest + 1])
    return chosen


def true_difficulty(tier: str, score: int, rng: random.Random) -> float:
    from puzzles.models import score_band

    low, high = score_band(tier)
    return TRUE_CENTRES[tier] + SCORE_WEIGHT * (score - (low + high) / 2) / 100 + rng.gauss(0, PUZZLE_SPREAD)


def drawn_seconds(skill: float, difficulty: float, noise: float, rng: random.Random) -> float:
    from django.conf import settings

    k, t0 = settings.RATING_SPREAD, settings.RATING_REFERENCE_SECONDS
    return math.exp(math.log(t0) - (skill - difficulty) * math.log(10) / (400 * k) + rng.gauss(0, noise))


def make_world(args: argparse.Namespace, rng: random.Random) -> tuple[list[Player], dict, list]:
    """The players (accounts), and the dailies of the last --days days with their true difficulty."""
    from django.contrib.auth.models import User

    from puzzles.models import DailyPuzzle, site_today

    users = User.objects.bulk_create([User(username=f"{PREFIX}{i}") for i in range(args.players)])
    players = []
    for user in users:
        skill = rng.gauss(SKILL_MEAN, SKILL_SPREAD)
        players.append(Player(user.pk, skill, rng.uniform(0.3, 0.9), tiers_for(skill, rng)))
    today = site_today()
    days = [today - datetime.timedelta(days=n) for n in range(args.days - 1, -1, -1)]
    for n, day in enumerate(days):
        make_puzzles(seed=args.seed * 1000 + n, day=day)
    truth = {}
    dailies = list(DailyPuzzle.objects.filter(date__in=days).select_related("puzzle"))
    for daily in sorted(dailies, key=lambda d: (d.date, TIERS.index(d.difficulty))):
        truth[daily.puzzle_id] = true_difficulty(daily.puzzle.tier, daily.puzzle.score, rng)
    return players, truth, dailies


def play_day(day: datetime.date, dailies: dict, players: list[Player], truth: dict, noise: float, rng) -> list:
    """One day's solves, stored in a shuffled arrival order; the solves."""
    from django.utils import timezone

    from puzzles.models import Attempt, Solve

    plays = []
    for player in players:
        if rng.random() >= player.keen:
            continue
        for tier in player.tiers:
            if rng.random() < player.keen:
                daily = dailies[tier]
                seconds = drawn_seconds(player.skill, truth[daily.puzzle_id], noise, rng)
                start = datetime.datetime.combine(day, datetime.time(6), timezone.get_current_timezone())
                solved_at = start + datetime.timedelta(seconds=rng.uniform(0, 14 * 3600) + seconds)
                plays.append((player, daily, seconds, solved_at, rng.random() < HINTED))
    rng.shuffle(plays)
    attempts = Attempt.objects.bulk_create(
        [
            Attempt(user_id=p.user_id, daily=d, active_seconds=s, hints_used=int(h), started_at=at)
            for p, d, s, at, h in plays
        ]
    )
    return Solve.objects.bulk_create(
        [
            Solve(attempt=a, user_id=p.user_id, daily=d, seconds=s, ranked_seconds=s, solved_at=at, assisted=h)
            for a, (p, d, s, at, h) in zip(attempts, plays, strict=True)
        ]
    )


def start_worker(env: dict[str, str], log: Path):
    """A Celery worker on the default queue that knows TASK; exits with a reason when it does not."""
    from sudokusite.celery import app

    purge_queues()
    worker = celery_worker(f"players-{os.getpid()}", env, log, queues="default")
    if not wait_until(lambda: bool(app.control.ping(timeout=1.0)), 60, 0):
        stop(worker)
        raise SystemExit(f"the worker did not start; see {log}")
    registered = [name for names in (app.control.inspect(timeout=2.0).registered() or {}).values() for name in names]
    if TASK not in registered:
        stop(worker)
        raise SystemExit(f"the worker has no task {TASK}: run without --worker")
    return worker


def caught_up_by_worker() -> None:
    """Send TASK and wait until the ledger holds every rated solve (at most two minutes)."""
    from puzzles.models import RatingChange, Solve
    from sudokusite.celery import app

    app.send_task(TASK)
    rated = Solve.objects.rated().count()
    if not wait_until(lambda: RatingChange.objects.count() == rated, 120, 0.05):
        raise SystemExit("the worker did not catch the ratings up within two minutes")


def record_play(solve, rng) -> None:
    """Give a simulated solve a record of play through the real models: an open, a save per move
    of bench/reviews.py's simulated solve of its puzzle (the walk's order, some digits early, some
    wrong), spread over the solve's time, and the solving submit."""
    from puzzles.models import PlayEvent
    from puzzles.record_of_play.moves import pack

    givens = solve.daily.puzzle.givens
    timeline, _ = simulated_solve(givens, rng, shuffle=0.1, wrong=0.05)
    scale = solve.seconds * 1000 / max(timeline.end_ms, 1)
    started = solve.solved_at - datetime.timedelta(seconds=solve.seconds)
    digits = ["0"] * 81
    events = [PlayEvent(attempt_id=solve.attempt_id, kind=PlayEvent.Kind.OPEN, arrived_at=started)]
    for timed in timeline.moves:
        for cell, digit in timed.move.cells:
            digits[cell] = str(digit)
        at = started + datetime.timedelta(milliseconds=timed.ms * scale)
        events.append(
            PlayEvent(
                attempt_id=solve.attempt_id,
                kind=PlayEvent.Kind.SAVE,
                arrived_at=at,
                moves=pack([timed.move]),
                placed=1,
                digits="".join(digits),
            )
        )
    events.append(
        PlayEvent(
            attempt_id=solve.attempt_id,
            kind=PlayEvent.Kind.SUBMIT,
            arrived_at=solve.solved_at,
            digits=timeline.writes[-1].digits,
        )
    )
    PlayEvent.objects.bulk_create(events)


def time_reviews(solves: list, count: int, rng) -> None:
    """The review task's time per solve (coaching/services.review_store: reading the record of
    play, making the review, storing it), on `count` solves given a record of play first."""
    from puzzles.coaching.services import review_store
    from puzzles.models import SolveReview

    chosen = rng.sample(solves, min(count, len(solves)))
    times = []
    for solve in chosen:
        record_play(solve, rng)
        started = time.perf_counter()
        review_store(solve.pk)
        times.append((time.perf_counter() - started) * 1000)
    worker = list(SolveReview.objects.filter(solve__in=chosen).values_list("worker_ms", flat=True))
    print(
        f"\nreviews: {len(times)} solves through review_store, median {statistics.median(times):.0f} ms, "
        f"p95 {percentile(times, 0.95):.0f} ms, most {max(times):.0f} ms "
        f"(of which making the review: median {statistics.median(worker):.0f} ms)"
    )


# --- the report ---------------------------------------------------------------------------------


def report(players: list[Player], truth: dict, dailies: list, catch_up_seconds: list[float]) -> bool:
    from puzzles.models import PlayerRating, PuzzleRating, RatingChange, Solve

    rated = {r.user_id: r for r in PlayerRating.objects.filter(solves__gt=0)}
    played = {r.puzzle_id: r for r in PuzzleRating.objects.filter(solves__gt=0)}
    solves = Solve.objects.filter(user_id__in=[p.user_id for p in players])
    print(
        f"\n{len(players)} players, {len(dailies)} dailies, {solves.count()} solves "
        f"({solves.filter(assisted=True).count()} with a hint, not rated), {RatingChange.objects.count()} rated"
    )
    print(
        f"catch-up after each day: median {statistics.median(catch_up_seconds) * 1000:.0f} ms, "
        f"most {max(catch_up_seconds) * 1000:.0f} ms"
    )
    both = [p for p in players if p.user_id in rated]
    player_rho = rho([p.skill for p in both], [rated[p.user_id].rating for p in both])
    keen = [p for p in both if rated[p.user_id].solves >= 10]
    keen_rho = rho([p.skill for p in keen], [rated[p.user_id].rating for p in keen])
    ids = [pid for pid in truth if pid in played]
    puzzle_rho = rho([truth[i] for i in ids], [played[i].rating for i in ids])
    print("\n" + markdown_header("order recovered", "pairs", "Spearman"))
    print(markdown_row("players (any rated solve)", len(both), f"{player_rho:.3f}"))
    print(markdown_row("players with 10 rated solves or more", len(keen), f"{keen_rho:.3f}"))
    print(markdown_row("puzzles", len(ids), f"{puzzle_rho:.3f}"))
    player_fit = statistics.linear_regression([p.skill for p in both], [rated[p.user_id].rating for p in both])
    puzzle_fit = statistics.linear_regression([truth[i] for i in ids], [played[i].rating for i in ids])
    print(
        f"\nscale: a true point is {player_fit.slope:.2f} rated points for players, {puzzle_fit.slope:.2f} for "
        f"puzzles (least squares); at a true 1500, rated {player_fit.intercept + 1500 * player_fit.slope:.0f} and "
        f"{puzzle_fit.intercept + 1500 * puzzle_fit.slope:.0f}"
    )

    changes = list(
        RatingChange.objects.filter(solved_at__date__gte=dailies[-1].date).values_list("seconds", "expected_seconds")
    )
    misses = sorted(abs(math.log(s / e)) for s, e in changes)
    if misses:
        print(
            f"\nexpected times on the last day: the drawn time within a factor {math.exp(statistics.median(misses)):.2f} "
            f"of it for half the solves, {math.exp(misses[int(0.9 * (len(misses) - 1))]):.2f} for nine in ten"
        )

    print(
        "\n"
        + markdown_header(
            "tier",
            "puzzles",
            "score (median)",
            "played rating (median, range)",
            "true (median)",
            "score vs played",
            "true vs played",
        )
    )
    by_tier: dict[str, list] = {}
    for daily in dailies:
        if daily.puzzle_id in played:
            by_tier.setdefault(daily.puzzle.tier, []).append(daily.puzzle)
    for tier in TIERS:
        puzzles = by_tier.get(tier, [])
        if not puzzles:
            continue
        ratings = [played[p.pk].rating for p in puzzles]
        scores = [p.score for p in puzzles]
        print(
            markdown_row(
                tier,
                len(puzzles),
                f"{statistics.median(scores) / 100:.2f}",
                f"{statistics.median(ratings):.0f} ({min(ratings):.0f} to {max(ratings):.0f})",
                f"{statistics.median(truth[p.pk] for p in puzzles):.0f}",
                f"{rho(scores, ratings):.2f}",
                f"{rho([truth[p.pk] for p in puzzles], ratings):.2f}",
            )
        )
    everything = [p for tier in TIERS for p in by_tier.get(tier, [])]
    overall = rho([p.score for p in everything], [played[p.pk].rating for p in everything])
    print(f"\nthe rater's score against the played rating, all tiers: Spearman {overall:.3f}")
    dashboard_check(truth, dailies)
    ok = player_rho >= 0.9 and puzzle_rho >= 0.9
    print(f"verdict: {'both at 0.9 or more' if ok else 'BELOW TARGET'}")
    return ok


def dashboard_check(truth: dict, dailies: list) -> None:
    """The dashboard's days played as another tier (staff/played.py) against the truth: a day truly
    is when its puzzle's true difficulty is nearer another tier's true median than its own tier's
    (without it), the dashboard's rule on the true figures."""
    from puzzles.models import site_today
    from puzzles.staff.played import tiers_against_play

    def truly_off(daily) -> bool:
        centres = {}
        for tier in TIERS:
            others = [truth[d.puzzle_id] for d in dailies if d.difficulty == tier and d != daily]
            centres[tier] = statistics.median(others)
        own = abs(centres[daily.difficulty] - truth[daily.puzzle_id])
        return any(abs(centres[t] - truth[daily.puzzle_id]) < own for t in TIERS)

    _, off = tiers_against_play(site_today(), days=len({d.date for d in dailies}))
    called = {o.daily.pk for o in off}
    really = {d.pk for d in dailies if truly_off(d)}
    print(
        f"the dashboard's days played as another tier: {len(called)} called out, {len(called & really)} of them "
        f"truly so; {len(really - called)} truly so but not called out"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--noise", type=float, default=0.35, help="sigma of a solve time's log")
    parser.add_argument("--worker", action="store_true", help=f"catch up through a Celery worker ({TASK})")
    parser.add_argument("--reviews", type=int, default=0, help="time the review task on this many solves")
    args = parser.parse_args()
    # Every simulated day is inside the rewind window, so the days' solves are put in solve order.
    env = setup_site(DB_URL, CACHE_URL, broker=BROKER_URL, RATING_REWIND_HOURS=str(24 * (args.days + 2)))
    reset_site(PREFIX)
    from puzzles.ratings.ledger import ratings_catch_up

    log = Path(tempfile.mkdtemp(prefix="players-")) / "worker.log"
    worker = start_worker(env, log) if args.worker else None
    catch_up = caught_up_by_worker if worker else ratings_catch_up

    rng = random.Random(args.seed)
    started = time.perf_counter()
    players, truth, dailies = make_world(args, rng)
    print(f"made {len(players)} players and {len(dailies)} dailies in {time.perf_counter() - started:.1f} s")
    by_day: dict[datetime.date, dict] = {}
    for daily in dailies:
        by_day.setdefault(daily.date, {})[daily.difficulty] = daily
    catch_ups, everything = [], []
    try:
        for day in sorted(by_day):
            everything += play_day(day, by_day[day], players, truth, args.noise, rng)
            started = time.perf_counter()
            catch_up()
            catch_ups.append(time.perf_counter() - started)
    finally:
        stop(worker)
    print(f"caught up {'by a Celery worker' if worker else 'in this process'}")
    dailies.sort(key=lambda d: (d.date, TIERS.index(d.difficulty)))
    ok = report(players, truth, dailies, catch_ups)
    if args.reviews:
        time_reviews(everything, args.reviews, random.Random(args.seed))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
