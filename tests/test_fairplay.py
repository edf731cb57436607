"""The fair-play rules (puzzles/fairplay.py), case by case: the ranked time from the record of play,
why a record does not earn a rank, new accounts, and the floors that hold a solve for review."""

import datetime

import pytest
from allauth.account.models import EmailAddress
from allauth.account.signals import email_confirmed
from django.contrib.auth.models import User
from django.utils import timezone

from puzzles.accounts.guests import guest_create
from puzzles.fairplay import judge, ranking, words
from puzzles.models import Attempt, Solve
from puzzles.record_of_play.moves import unpack
from puzzles.results.leaderboard import leaderboard_for, standing_of

from .factories import make_established, make_event, make_paced_record, make_solve

pytestmark = pytest.mark.django_db

T0 = datetime.datetime(2026, 11, 22, 12, 0, tzinfo=datetime.UTC)


def at(seconds: float) -> datetime.datetime:
    return T0 + datetime.timedelta(seconds=seconds)


def player(name: str = "ada", hours_old: float = 48) -> User:
    return User.objects.create(username=name, date_joined=timezone.now() - datetime.timedelta(hours=hours_old))


def attempt_of(daily, user: User | None = None, started: float = 0) -> Attempt:
    return Attempt.objects.create(user=user or player(), daily=daily, started_at=at(started))


def solve_of(attempt: Attempt, seconds: float, solved: float | None = None) -> Solve:
    """The attempt's solve with `seconds` on its clock, judged from the record made so far."""
    solve = Solve.objects.create(
        attempt=attempt,
        user=attempt.user,
        daily=attempt.daily,
        seconds=seconds,
        solved_at=timezone.now() if solved is None else at(solved),
    )
    judge.solve_judge(solve)
    return solve


def empty_cells(daily) -> list[int]:
    return [cell for cell, given in enumerate(daily.puzzle.givens) if given == "0"]


def person(daily, name: str = "ada", gap: float = 2.0, hours_old: float = 48, established: bool = False) -> Solve:
    """A solve with a person's record: a digit every `gap` seconds, saved in threes; by an
    established player (a settled rating of 1500, expecting 3:10 of them here) if asked."""
    user = player(name, hours_old)
    if established:
        make_established(user)
    attempt = attempt_of(daily, user)
    end = make_paced_record(attempt, T0, gap)
    return solve_of(attempt, (end - T0).total_seconds())


# --- the ranked time ----------------------------------------------------------------------------


def test_a_solve_is_ranked_by_its_clock_the_one_time_it_has(daily):
    # tests/test_one_clock.py plays the clock's cases through the API.
    solve = person(daily, gap=2.0)
    assert solve.ranked_seconds == solve.seconds == pytest.approx(2.0 * len(empty_cells(daily)))
    assert solve.unranked == "" and not solve.flagged


def test_a_solve_judged_again_keeps_the_ranked_time_it_was_given(daily):
    solve = person(daily, gap=2.0)
    Solve.objects.filter(pk=solve.pk).update(ranked_seconds=400.0)  # ranked by the open spans, before
    solve.refresh_from_db()
    judge.solve_judge(solve)
    assert Solve.objects.get(pk=solve.pk).ranked_seconds == 400.0


# --- records that earn no rank ------------------------------------------------------------------


def test_a_solve_without_a_record_is_not_ranked(daily):
    solve = solve_of(attempt_of(daily), seconds=300)
    assert solve.unranked == ranking.NO_RECORD and solve.ranked_seconds == 300
    assert not Solve.objects.ranked().exists()


def test_a_record_without_moves_is_not_ranked(daily):
    # An old board, or a script posting whole grids: writes and a submit, but no move among them.
    attempt = attempt_of(daily)
    make_event(attempt, "open", at(0))
    make_event(attempt, "save", at(100), placed=20)
    make_event(attempt, "submit", at(300), placed=25)
    assert solve_of(attempt, seconds=300).unranked == ranking.NO_RECORD


def test_a_record_holding_fewer_moves_than_its_attempt_logged_is_not_ranked(daily):
    # What is left when the record of an attempt left unsolved for a year was deleted
    # (accounts/retention.py) and play went on: a person's pace, but not the whole grid's.
    solves = []
    for name, missing in (("whole", 0), ("cut", 30)):
        attempt = attempt_of(daily, player(name))
        end = make_paced_record(attempt, T0, gap=4.0)
        logged = sum(len(unpack(event.moves)) for event in attempt.events.all())
        Attempt.objects.filter(pk=attempt.pk).update(moves_logged=logged + missing)  # as the writes counted
        attempt.refresh_from_db()
        solves.append(solve_of(attempt, (end - T0).total_seconds()))
    assert [solve.unranked for solve in solves] == ["", ranking.NO_RECORD]


def test_a_person_at_an_ordinary_pace_is_ranked(daily):
    solve = person(daily, gap=4.0)
    assert solve.unranked == "" and list(Solve.objects.ranked()) == [solve]


def test_a_fast_person_whose_board_saves_every_ten_seconds_is_ranked(daily, settings):
    # A digit every 0.85 s, and a save every 10 s as the board sends them while a player keeps
    # entering (BOARD_SAVE_EVERY_SECONDS): 12 digits a save, live play, not digits sent in bulk.
    settings.BOARD_SAVE_EVERY_SECONDS = 10
    attempt = attempt_of(daily, player())
    end = make_paced_record(attempt, T0, gap=0.85, per_save=12)
    solve = solve_of(attempt, (end - T0).total_seconds())
    assert solve.unranked == "" and list(Solve.objects.ranked()) == [solve]


def test_most_digits_in_the_final_submit_are_not_ranked(daily):
    # One heartbeat, a wait past the floor, and the whole grid in the submit.
    attempt = attempt_of(daily)
    cells = empty_cells(daily)
    make_event(attempt, "open", at(0))
    make_event(attempt, "save", at(5), [(0, [(cells[0], 1)])])
    make_event(attempt, "submit", at(60), [(0, [(c, 1) for c in cells[1:]])])
    assert solve_of(attempt, seconds=60).unranked == ranking.IN_SUBMIT


def test_exactly_half_in_the_submit_is_not_most(daily):
    cells = empty_cells(daily)
    half = len(cells) // 2
    assert judge.mostly_in_submit([_write("submit", half)], len(cells)) is False
    assert judge.mostly_in_submit([_write("submit", half + 1)], len(cells)) is True


def _write(kind: str, placed: int):
    from puzzles.models import PlayEvent

    return PlayEvent(kind=kind, placed=placed, arrived_at=T0, moves=b"")


def test_most_digits_in_a_few_large_saves_are_not_ranked(daily, settings):
    settings.BOARD_SAVE_EVERY_SECONDS = 10  # a save of over 20 digits is large
    attempt = attempt_of(daily)
    cells = empty_cells(daily)
    make_event(attempt, "open", at(0))
    # Two saves of 22 digits, their moves' ages spread over the minute and a half before each.
    for n, chunk in enumerate([cells[0:22], cells[22:44]]):
        make_event(attempt, "save", at(90 * (n + 1)), [(4000 * (21 - i), [(c, 1)]) for i, c in enumerate(chunk)])
    make_event(attempt, "submit", at(200), [(1000 * (len(cells) - 45 - i), [(c, 1)]) for i, c in enumerate(cells[44:])])
    assert solve_of(attempt, seconds=200).unranked == ranking.LARGE_WRITES


def test_a_save_is_large_past_twice_a_save_windows_digits_and_never_under_a_unit(daily, settings):
    settings.BOARD_SAVE_EVERY_SECONDS = 10
    assert ranking.large_write_digits() == 20
    assert judge.mostly_in_large_writes([_write("save", 20)] * 3, 45) is False
    assert judge.mostly_in_large_writes([_write("save", 21)] * 2, 45) is True
    assert judge.mostly_in_large_writes([_write("save", 21)], 45) is False  # 21 of 45: not most
    settings.BOARD_SAVE_EVERY_SECONDS = 1  # as the browser tests play: a unit is the least
    assert ranking.large_write_digits() == 9
    assert judge.mostly_in_large_writes([_write("save", 9)] * 10, 45) is False
    assert judge.mostly_in_large_writes([_write("save", 10)] * 3, 45) is True


def test_a_bot_entering_a_digit_every_third_of_a_second_is_not_ranked(daily):
    attempt = attempt_of(daily, player())
    end = make_paced_record(attempt, T0, gap=0.3, per_save=1)
    assert solve_of(attempt, (end - T0).total_seconds()).unranked == ranking.TOO_FAST


def test_the_entry_rate_is_judged_by_the_median_gap_between_digits(daily):
    assert person(daily, "quick", gap=0.8).unranked == ""
    assert person(daily, "quicker", gap=0.7).unranked == ranking.TOO_FAST


def test_moves_ages_cannot_spread_digits_over_time_that_did_not_pass(daily):
    # A bot sends ten digits a second apart each, claiming ages of 2 s between them: each write's
    # moves are held to the second since the write before, so they are still 0.1 s apart.
    attempt = attempt_of(daily)
    cells = empty_cells(daily)
    make_event(attempt, "open", at(0))
    for n in range(len(cells) // 10):
        chunk = cells[n * 10 : n * 10 + 10]
        make_event(attempt, "save", at(n + 1), [(2000 * (9 - i), [(c, 1)]) for i, c in enumerate(chunk)], placed=5)
    make_event(attempt, "submit", at(60), [(0, [(c, 1)]) for c in cells[len(cells) // 10 * 10 :]])
    times = judge.digit_times(judge.record_of(Solve(attempt=attempt)), attempt.started_at)
    assert times[0] == at(0) and times[9] == at(1)
    assert solve_of(attempt, 60).unranked == ranking.TOO_FAST


def test_a_digit_typed_in_several_cells_counts_each_cell_with_no_gap(daily):
    attempt = attempt_of(daily)
    make_event(attempt, "open", at(0))
    make_event(attempt, "save", at(10), [(0, [(2, 4), (3, 4), (4, 4)])])
    assert judge.digit_times(judge.record_of(Solve(attempt=attempt)), at(0)) == [at(10)] * 3


def test_digits_the_moves_do_not_account_for_count_at_their_writes_arrival(daily):
    attempt = attempt_of(daily)
    make_event(attempt, "open", at(0))
    make_event(attempt, "save", at(10), [(5000, [(2, 4)])], placed=3)
    make_event(attempt, "save", at(20), [(3000, [(3, 4)])], placed=0)  # moved a digit: filled nothing new
    assert judge.digit_times(judge.record_of(Solve(attempt=attempt)), at(0)) == [at(5), at(10), at(10), at(17)]


# --- new accounts -------------------------------------------------------------------------------


def test_a_new_account_without_a_verified_email_is_not_ranked(daily, settings):
    settings.RANKED_ACCOUNT_MIN_HOURS = 6
    assert person(daily, "fresh", hours_old=1).unranked == ranking.NEW_ACCOUNT
    assert person(daily, "settled", hours_old=7).unranked == ""


def test_a_new_account_with_a_verified_email_is_ranked(daily):
    user = player("verified", hours_old=0)
    EmailAddress.objects.create(user=user, email="v@example.com", verified=True, primary=True)
    unverified = player("unverified", hours_old=0)
    EmailAddress.objects.create(user=unverified, email="u@example.com", verified=False, primary=True)
    for who in (user, unverified):
        attempt = attempt_of(daily, who)
        end = make_paced_record(attempt, T0, 2.0)
        solve_of(attempt, (end - T0).total_seconds())
    assert {s.user.username: s.unranked for s in Solve.objects.all()} == {
        "verified": "",
        "unverified": ranking.NEW_ACCOUNT,
    }


def test_the_accounts_age_is_judged_when_the_solve_is_made(daily, settings):
    # Five accounts made at once do not rank later on, when they have grown old enough.
    settings.RANKED_ACCOUNT_MIN_HOURS = 6
    solve = person(daily, "fresh", hours_old=1)
    User.objects.filter(pk=solve.user_id).update(date_joined=timezone.now() - datetime.timedelta(days=2))
    assert standing_of(Solve.objects.get(pk=solve.pk)).ranked is False


def test_verifying_the_email_ranks_a_new_accounts_solve_judged_again_by_its_record(daily):
    fair, hasty = person(daily, "fair", hours_old=0), person(daily, "hasty", gap=0.3, hours_old=0)
    assert fair.unranked == hasty.unranked == ranking.NEW_ACCOUNT
    for solve in (fair, hasty):
        address = EmailAddress.objects.create(user=solve.user, email=f"{solve.user}@example.com", primary=True)
        address.verified = True
        address.save()
        email_confirmed.send(sender=EmailAddress, request=None, email_address=address)
    assert Solve.objects.get(pk=fair.pk).unranked == ""
    assert Solve.objects.get(pk=hasty.pk).unranked == ranking.TOO_FAST
    assert [r.username for r in leaderboard_for(daily).rows] == ["fair"]


def test_a_new_guest_is_told_where_the_time_would_place_and_to_verify_an_email(daily):
    make_solve(daily, "ada", 60)
    guest = guest_create()
    attempt = Attempt.objects.create(user=guest, daily=daily, started_at=T0)
    end = make_paced_record(attempt, T0, 2.0)
    solve = solve_of(attempt, (end - T0).total_seconds())
    assert solve.unranked == ranking.NEW_ACCOUNT
    assert (
        standing_of(solve).sentence == "Your time would be 2nd of 2 today — sign up and verify your email to be ranked."
    )


# --- held for review ----------------------------------------------------------------------------


def test_a_solve_under_the_difficultys_floor_is_held(daily, settings):
    settings.LEADERBOARD_FLOOR_SECONDS = {"easy": 200}
    quick = person(daily, "quick", gap=1.0)
    assert quick.flagged and "held until an admin checks it" in standing_of(quick).sentence
    assert leaderboard_for(daily).rows == []


def test_a_solve_not_ranked_anyway_is_not_held(daily, settings):
    settings.LEADERBOARD_FLOOR_SECONDS = {"easy": 20}
    solve = solve_of(attempt_of(daily), seconds=0)  # the direct submit: no record, 0 s
    assert solve.unranked == ranking.NO_RECORD and not solve.flagged


def test_a_solve_under_the_days_own_floor_is_held_once_the_day_has_enough_solves(daily, settings):
    settings.LEADERBOARD_FLOOR_SECONDS = {"easy": 20}
    settings.DAY_FLOOR_FRACTION, settings.DAY_FLOOR_MIN_SOLVES = 0.35, 20
    for n in range(19):
        make_established(make_solve(daily, f"p{n}", 600).user)
    # 19 ranked solves: the day's floor (0.35 x 600 = 210 s) does not apply yet.
    assert not person(daily, "early", gap=2.0, established=True).flagged  # 98 s
    for n in range(19, 25):
        make_established(make_solve(daily, f"p{n}", 600).user)
    late_comer = person(daily, "later", gap=2.0, established=True)
    assert late_comer.flagged
    assert "under 35% of the day's third-fastest time" in standing_of(late_comer).sentence
    assert not person(daily, "steady", gap=5.0, established=True).flagged  # 245 s: over the day's floor


def test_the_days_median_is_of_ranked_times_falling_back_to_the_clock(daily):
    make_solve(daily, "old", 100)  # judged before the record of play: no ranked time
    newer = make_solve(daily, "new", 100)
    Solve.objects.filter(pk=newer.pk).update(ranked_seconds=300)
    make_solve(daily, "helped", 10, assisted=True)
    assert ranking.day_median(daily) == (200, 2)


def test_an_approved_solve_is_ranked_and_a_disqualified_one_is_not(daily, settings):
    settings.LEADERBOARD_FLOOR_SECONDS = {"easy": 200}
    held = person(daily, "quick", gap=1.0)
    Solve.objects.filter(pk=held.pk).update(review=Solve.Review.APPROVED)
    assert [r.username for r in leaderboard_for(daily).rows] == ["quick"]
    Solve.objects.filter(pk=held.pk).update(review=Solve.Review.DISQUALIFIED)
    assert leaderboard_for(daily).rows == []
    standing = standing_of(Solve.objects.get(pk=held.pk))
    assert standing.sentence == "Not on the leaderboard: it was disqualified after review."


# --- the rules as written -----------------------------------------------------------------------


def test_the_rules_are_written_with_the_numbers_in_force(settings):
    settings.LEADERBOARD_FLOOR_SECONDS = {"medium": 40}
    settings.RANKED_ACCOUNT_MIN_HOURS = 12
    settings.DAY_FLOOR_FRACTION, settings.DAY_FLOOR_MIN_SOLVES, settings.DAY_FLOOR_RANK = 0.4, 30, 2
    settings.FIELD_MARGIN = 0.9
    settings.BOARD_SAVE_EVERY_SECONDS = 8
    text = " ".join(words.rules("medium"))
    for number in ("0:40", "12 hours", "40%", "30 ranked solves", "second-fastest", "over 16 digits", "0.75 s"):
        assert number in text
    assert "under 90% of the day's fastest time by an established player" in text
