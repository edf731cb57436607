"""Ratings only honest play can move (issue 43): archive solves judged by the day's rules, a rating
resting on the archive or on a few days kept provisional, and the one hold rule at its edges.

The puzzles are made by make_daily: 49 empty cells; person() places a digit every seconds / 49.
An easy puzzle's rating before anyone solves it is its tier's prior, 1100, so a settled player of
1500 is expected in 3:10 on a fresh easy daily (ratings/contest.py).
"""

import datetime
import math

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import override_settings
from django.utils import timezone

from puzzles.fairplay import against, judge, ranking, words
from puzzles.models import Attempt, DailyPuzzle, PlayerRating, PuzzleRating, Solve
from puzzles.ratings import contest, expected_seconds
from puzzles.ratings.ledger import ratings_catch_up
from puzzles.results.leaderboard import leaderboard_for

from .factories import make_daily, make_established, make_paced_record, make_solve

pytestmark = pytest.mark.django_db

EMPTY_CELLS = 49


def player(name: str, verified: bool = True) -> User:
    """An account two days old, with a verified email address unless told."""
    user = User.objects.get_or_create(
        username=name, defaults={"date_joined": timezone.now() - datetime.timedelta(days=2)}
    )[0]
    if verified:
        EmailAddress.objects.get_or_create(user=user, email=f"{name}@example.org", verified=True, primary=True)
    return user


def person(daily, user: User, seconds: float, solved_at: datetime.datetime | None = None) -> Solve:
    """A judged solve of `seconds` with a person's record of play (a digit every seconds / 49), from
    the archive when the daily's day is over; the day's holds decided again after it, as its follow-up does."""
    solved_at = solved_at or timezone.now()
    start = solved_at - datetime.timedelta(seconds=seconds)
    attempt = Attempt.objects.create(user=user, daily=daily, started_at=start)
    end = make_paced_record(attempt, start, seconds / EMPTY_CELLS)
    solve = Solve.objects.create(
        attempt=attempt,
        user=user,
        daily=daily,
        seconds=(end - start).total_seconds(),
        solved_at=solved_at,
        late=daily.date < timezone.localdate(solved_at),
    )
    judge.solve_judge(solve)
    judge.held_again_after(solve.pk)
    solve.refresh_from_db()
    return solve


def seconds_at(points: float, expected: float) -> float:
    """The time that implies a performance `points` above the player's rating, where `expected` was expected."""
    return expected * 10 ** (-points / (400 * settings.RATING_SPREAD))


# --- the one hold rule, at its edges ------------------------------------------------------------


def test_a_solve_on_a_puzzle_nobody_has_solved_is_judged_against_its_tiers_expected_rating(daily):
    """The review's case: an established player 365 points above their rating on a fresh daily was
    not held, the puzzle's wide prior deviation counted as doubt."""
    make_established(player("ada"))
    expected = expected_seconds(1500, settings.RATING_TIER_PRIORS["easy"])
    solve = person(daily, User.objects.get(username="ada"), seconds_at(365, expected))
    assert solve.held == ranking.PAST_HISTORY


def played_easy_puzzles(count: int, rating_at_score_one: float, first: int = 0) -> None:
    """`count` easy dailies of past days, played: scores first + 1, first + 2, ..., each rated 10
    points above the one before from `rating_at_score_one` at score 1, with 5 rated solves each."""
    for n in range(first, first + count):
        puzzle = make_daily(timezone.localdate() - datetime.timedelta(days=n + 1)).puzzle
        puzzle.score = n + 1
        puzzle.save(update_fields=["score"])
        PuzzleRating.objects.create(puzzle=puzzle, rating=rating_at_score_one + 10 * n, deviation=80, solves=5)


def test_a_fresh_puzzle_is_expected_where_its_tiers_played_puzzles_put_its_score(daily):
    played_easy_puzzles(contest.FRESH_FIT_PUZZLES - 1, 850)
    assert contest.fresh_rating(daily.puzzle) == settings.RATING_TIER_PRIORS["easy"]  # too few played
    cache.clear()  # the fit is kept for an hour
    played_easy_puzzles(3, 850, first=contest.FRESH_FIT_PUZZLES - 1)
    assert daily.puzzle.score == 1
    assert contest.fresh_rating(daily.puzzle) == pytest.approx(850)
    daily.puzzle.score = 500  # far past every played one: no further than the ratings they reached
    assert contest.fresh_rating(daily.puzzle) == pytest.approx(850 + 10 * (contest.FRESH_FIT_PUZZLES + 1))


def test_a_good_day_on_a_fresh_puzzle_easy_for_its_tier_is_judged_against_what_it_is_expected_to_rate(daily):
    """365 points above the 1500 player's rating if the puzzle were at its tier's 1100, but its
    tier's played puzzles put its score at 850: 115 points, a good day, ranked."""
    played_easy_puzzles(contest.FRESH_FIT_PUZZLES + 2, 850)
    ada = player("ada")
    make_established(ada)
    solve = person(daily, ada, seconds_at(365, expected_seconds(1500, settings.RATING_TIER_PRIORS["easy"])))
    assert solve.held == "" and against.points_above(solve, None) == pytest.approx(115, abs=0.5)
    ratings_catch_up()  # rated now: the rating change's expectation took the puzzle at its prior
    change = solve.rating_change
    assert change.puzzle_before[1] == settings.RATING_PRIOR_DEVIATION
    assert against.points_above(solve, change) == pytest.approx(115, abs=0.5)


@pytest.mark.parametrize(
    ("deviation", "points", "held"),
    [
        (60, settings.HOLD_MIN_POINTS - 2, False),  # 2 x 60 = 120: the points bound rules
        (60, settings.HOLD_MIN_POINTS + 2, True),
        (200, 2 * 200 - 2, False),  # 2 x 200 = 400 over 350: the deviations rule
        (200, 2 * 200 + 2, True),
    ],
)
@override_settings(PROVISIONAL_DEVIATION=250)  # established up to 250, so the deviations' part can rule
def test_the_hold_rule_is_two_deviations_and_at_least_the_points_bound(daily, deviation, points, held):
    user = player("ada")
    rating = make_established(user, deviation=deviation)
    expected = expected_seconds(1500, settings.RATING_TIER_PRIORS["easy"])
    solve = make_solve(daily, "ada", seconds_at(points, expected))
    assert against.hold_points(rating) == max(2 * deviation, settings.HOLD_MIN_POINTS)
    assert against.points_above(solve, None) == pytest.approx(points, abs=0.01)
    assert against.held_against_player(solve, []) == (ranking.PAST_HISTORY if held else "")


def test_the_rules_page_states_the_hold_rule_with_its_numbers():
    said = " ".join(words.rules("easy"))
    assert (
        f"more than {settings.HOLD_DEVIATIONS:g} of the player's rating deviations, and at least "
        f"{settings.HOLD_MIN_POINTS:g} points, above their rating" in said
    )
    assert "a puzzle nobody has solved yet counts at its difficulty's expected rating" in said
    assert f"{settings.ESTABLISHED_SOLVES} solves of dailies made on their day" in said
    assert "Archive solves are never ranked, but they move a rating, so they pass the same floors" in said


# --- archive solves under the day's rules --------------------------------------------------------


def test_an_archive_solve_under_the_floor_is_held_and_moves_no_rating():
    past = make_daily(timezone.localdate() - datetime.timedelta(days=3), "hard")
    solve = person(past, player("ada"), settings.LEADERBOARD_FLOOR_SECONDS["hard"] - 12)
    assert solve.late and solve.flagged and solve.held == ranking.UNDER_FLOOR
    assert words.reasons_for_you(solve)[0] == "you played it after its day"
    ratings_catch_up()
    assert not PlayerRating.objects.filter(user__username="ada").exists()
    Solve.objects.filter(pk=solve.pk).update(review=Solve.Review.APPROVED)
    ratings_catch_up()
    assert PlayerRating.objects.get(user__username="ada").solves == 1  # an admin's approval rates it


def test_an_archive_solve_far_past_its_players_history_is_held():
    make_established(player("ada"))
    past = make_daily(timezone.localdate() - datetime.timedelta(days=3), "easy")
    expected = expected_seconds(1500, settings.RATING_TIER_PRIORS["easy"])
    assert person(past, User.objects.get(username="ada"), seconds_at(500, expected)).held == ranking.PAST_HISTORY


# --- what a rating rests on ------------------------------------------------------------------------


TIERS = ("easy", "medium", "hard", "expert", "extreme")


def rated(user: User, days_back: list[int], late: bool) -> None:
    """Clean rated solves of `user`, 5 minutes each, of dailies `days_back` days old (a tier of its
    own for each of a day's): on their day (solved then) or from the archive (solved now)."""
    for n, back in enumerate(days_back):
        day = timezone.localdate() - datetime.timedelta(days=back)
        tier = TIERS[days_back[:n].count(back)]
        made = timezone.now() - (datetime.timedelta(minutes=back) if late else datetime.timedelta(days=back))
        daily = DailyPuzzle.objects.filter(date=day, difficulty=tier).first() or make_daily(day, tier)
        solve = make_solve(daily, user.username, 300, late=late, solved_at=made)
        Solve.objects.filter(pk=solve.pk).update(unranked="")
    ratings_catch_up()


@override_settings(PROVISIONAL_DEVIATION=350)  # a few solves settle no rating: the rule alone here
def test_a_rating_resting_mostly_on_the_archive_stays_provisional():
    user = player("ada")
    rated(user, [10, 9, 8, 7, 6], late=False)
    rated(user, list(range(20, 26)), late=True)
    rating = PlayerRating.objects.get(user=user)
    assert (rating.solves, rating.on_day_solves, rating.on_days) == (11, 5, 5)
    assert ranking.is_provisional(rating)  # 6 archive solves to 5 of the day
    rated(user, [5], late=False)
    assert not ranking.is_provisional(PlayerRating.objects.get(user=user))


@override_settings(ESTABLISHED_DAYS=3, PROVISIONAL_DEVIATION=350)
def test_a_rating_from_solves_of_a_few_days_stays_provisional():
    user = player("ada")
    rated(user, [2, 2, 2, 1, 1, 1], late=False)  # six dailies (one a tier) over two days
    rating = PlayerRating.objects.get(user=user)
    assert (rating.on_day_solves, rating.on_days) == (6, 2)
    assert ranking.is_provisional(rating)
    assert not ranking.by_established(Solve.objects.filter(user=user)).exists()
    rated(user, [3], late=False)
    assert not ranking.is_provisional(PlayerRating.objects.get(user=user))
    assert ranking.by_established(Solve.objects.filter(user=user)).exists()


def test_the_counts_follow_the_ledger_when_a_solve_stops_counting():
    user = player("ada")
    rated(user, [3, 2, 1], late=False)
    last = Solve.objects.filter(user=user).order_by("-solved_at").first()
    Solve.objects.filter(pk=last.pk).update(review=Solve.Review.DISQUALIFIED)
    ratings_catch_up()
    rating = PlayerRating.objects.get(user=user)
    assert (rating.solves, rating.on_day_solves, rating.on_days) == (2, 2, 2)


def test_the_query_and_the_rule_agree_on_who_is_established():
    """by_established is is_provisional's rule as a query, for every way a rating can fall short."""
    cases = {
        "settled": dict(solves=10),
        "archive": dict(solves=11, on_day=5),
        "few_days": dict(solves=6),
        "unsure": dict(solves=10, deviation=settings.PROVISIONAL_DEVIATION + 1),
    }
    daily = make_daily(timezone.localdate(), "medium")
    for name, fields in cases.items():
        rating = make_established(player(name), **fields)
        if name == "few_days":
            PlayerRating.objects.filter(pk=rating.pk).update(on_days=settings.ESTABLISHED_DAYS - 1)
        make_solve(daily, name, 300)
    established = set(ranking.by_established(Solve.objects.all()).values_list("user__username", flat=True))
    by_rule = {r.user.username for r in PlayerRating.objects.select_related("user") if not ranking.is_provisional(r)}
    assert established == by_rule == {"settled"}


# --- the archive farm, end to end ------------------------------------------------------------------


def test_a_rating_farmed_on_the_archive_does_not_take_rank_one():
    """The review's farm: a fresh verified account solves 22 archive hard puzzles at about 48 s
    each (some under the hard floor), then today's hard in 1:03, against an established player's
    4:00. It was established at about 2030 and ranked first unheld; now the farm's fast solves are
    held, its rating stays provisional, and today's solve waits for review."""
    today = make_daily(timezone.localdate(), "hard")
    honest = player("steady")
    pasts = [make_daily(timezone.localdate() - datetime.timedelta(days=back), "hard") for back in range(1, 23)]
    for back, past in enumerate(pasts, start=1):
        person(past, honest, 240, solved_at=timezone.now() - datetime.timedelta(days=back))
    ratings_catch_up()
    assert not ranking.is_provisional(PlayerRating.objects.get(user=honest))
    person(today, honest, 240)
    farmer = player("farmer")
    for n, past in enumerate(pasts):
        seconds = 48 + 12 * math.sin(n)  # 36 to 60 s: about half under the hard floor
        person(past, farmer, seconds, solved_at=timezone.now() - datetime.timedelta(minutes=2 * (22 - n)))
        ratings_catch_up()
    assert ranking.is_provisional(PlayerRating.objects.filter(user=farmer).first())
    solve = person(today, farmer, 63)
    assert solve.flagged and solve.held in ranking.HOLD_CODES
    ratings_catch_up()
    judge.held_again_today()
    assert [row.username for row in leaderboard_for(today).rows][:1] == ["steady"]


# --- rank 1 in a player's first month --------------------------------------------------------------


def first_rated(user: User, days_ago: int) -> None:
    """An established rating whose first rated solve of a daily on its day was `days_ago` days back."""
    rating = make_established(user)
    PlayerRating.objects.filter(pk=rating.pk).update(on_day_since=timezone.now() - datetime.timedelta(days=days_ago))


@pytest.mark.parametrize(("days_ago", "held"), [(29, True), (31, False)])
def test_the_days_fastest_time_in_a_players_first_month_waits_for_review(daily, days_ago, held):
    make_established(player("veteran"))
    person(daily, User.objects.get(username="veteran"), 240)
    newcomer = player("newcomer")
    first_rated(newcomer, days_ago)
    solve = person(daily, newcomer, 200)  # +64 points on 240 s: within any history
    assert solve.held == (ranking.FIRST_MONTH if held else "")
    if held:
        assert words.reasons_for_you(solve) == [
            "it was the day's fastest time in your first 30 days of rated play, so it is held until an admin checks it"
        ]
        assert [row.username for row in leaderboard_for(daily).rows] == ["veteran"]


def test_second_place_in_a_players_first_month_is_ranked(daily):
    make_established(player("veteran"))
    person(daily, User.objects.get(username="veteran"), 200)
    newcomer = player("newcomer")
    first_rated(newcomer, 3)
    assert person(daily, newcomer, 240).held == ""


def test_a_held_first_month_solve_is_released_when_a_faster_one_comes(daily):
    make_established(player("veteran"))
    person(daily, User.objects.get(username="veteran"), 300)
    newcomer = player("newcomer")
    first_rated(newcomer, 3)
    solve = person(daily, newcomer, 240)
    assert solve.held == ranking.FIRST_MONTH
    make_established(player("quick"))
    person(daily, User.objects.get(username="quick"), 200)  # its follow-up decides the day again
    solve.refresh_from_db()
    assert solve.held == "" and not solve.flagged


def test_on_a_new_site_without_established_players_a_first_months_rank_one_is_not_held(daily):
    assert person(daily, player("first"), 240).held == ""


def test_the_ledger_keeps_the_moment_of_a_players_first_rated_solve_of_the_day():
    user = player("ada")
    rated(user, [20], late=True)  # the archive does not start the month
    assert PlayerRating.objects.get(user=user).on_day_since is None
    rated(user, [9, 4], late=False)
    first = Solve.objects.filter(user=user, late=False).order_by("solved_at").first()
    assert PlayerRating.objects.get(user=user).on_day_since == first.solved_at


@pytest.mark.parametrize(
    ("days_ago", "review", "held"),
    [(3, Solve.Review.NONE, True), (3, Solve.Review.DISQUALIFIED, True), (3, Solve.Review.APPROVED, False)]
    + [(settings.HOLD_HISTORY_DAYS + 1, Solve.Review.NONE, False)],
)
def test_the_days_fastest_time_waits_while_another_recent_solve_of_the_player_is_held(daily, days_ago, review, held):
    """The aiming account: held by its history most days, it took rank 1 on a day whose field was
    slow, its aim then within its history."""
    make_established(player("veteran"))
    person(daily, User.objects.get(username="veteran"), 240)
    user = player("aimer")
    make_established(user)
    earlier = make_daily(timezone.localdate() - datetime.timedelta(days=days_ago), "medium")
    made = timezone.now() - datetime.timedelta(days=days_ago)
    make_solve(earlier, "aimer", 30, flagged=True, solved_at=made)
    Solve.objects.filter(user=user, daily=earlier).update(held=ranking.PAST_HISTORY, review=review)
    solve = person(daily, user, 200)
    assert solve.held == (ranking.UNDER_REVIEW if held else "")
    if held:
        assert "while another of your recent solves waits for an admin" in words.reasons_for_you(solve)[0]
