"""A streak that forgives (results/streaks.py): freezes earned by each seven days played, at most two
saved, spent by themselves on a missed day; the day's edges in the site's time zone; and the home
page and /stats/ that show them."""

from __future__ import annotations

import datetime
import re
import zoneinfo

import pytest
import time_machine
from django.contrib.auth.models import User
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from puzzles.models import Solve, site_today
from puzzles.results import history
from puzzles.results.streaks import FREEZE_EVERY, FREEZES_KEPT, Streaks, streaks

from .factories import log_in, make_daily, make_solve, solve_through_api

D = datetime.date
ONE_DAY = datetime.timedelta(days=1)
START = D(2026, 11, 2)  # a Monday


def played(first: int, last: int) -> set[datetime.date]:
    """The days START + first to START + last, both included."""
    return {START + n * ONE_DAY for n in range(first, last + 1)}


def day(n: int) -> datetime.date:
    return START + n * ONE_DAY


# --- the rule (pure) --------------------------------------------------------------------------


def test_the_rule_is_seven_days_for_a_freeze_and_two_at_most():
    assert (FREEZE_EVERY, FREEZES_KEPT) == (7, 2)


def test_seven_days_played_earn_a_freeze_and_six_do_not():
    six = streaks(played(0, 5), today=day(5))
    assert (six.current, six.freezes, six.next_freeze_in) == (6, 0, 1)
    seven = streaks(played(0, 6), today=day(6))
    assert (seven.current, seven.freezes, seven.next_freeze_in) == (7, 1, 7)
    assert seven.slots == (True, False)


def test_no_more_than_two_freezes_are_saved():
    fourteen = streaks(played(0, 13), today=day(13))
    assert (fourteen.freezes, fourteen.next_freeze_in, fourteen.slots) == (2, None, (True, True))
    # A third seven days earns nothing while two are saved.
    assert streaks(played(0, 20), today=day(20)) == Streaks(current=21, best=21, freezes=2)


def test_a_missed_day_spends_a_freeze_and_the_streak_goes_on_without_counting_it():
    result = streaks(played(0, 6) | played(8, 9), today=day(9))
    assert result == Streaks(current=9, best=9, freezes=0, frozen=(day(7),))
    assert result.last_frozen == day(7)


def test_a_missed_day_with_no_freeze_ends_the_streak():
    assert streaks(played(0, 5) | played(7, 8), today=day(8)) == Streaks(current=2, best=6)


def test_two_missed_days_in_a_row_spend_both_freezes():
    result = streaks(played(0, 13) | {day(16)}, today=day(16))
    assert result == Streaks(current=15, best=15, freezes=0, frozen=(day(14), day(15)))


def test_three_missed_days_in_a_row_end_a_streak_with_two_freezes():
    result = streaks(played(0, 13) | {day(17)}, today=day(17))
    assert result == Streaks(current=1, best=14, freezes=0, frozen=())


def test_missed_days_apart_spend_a_freeze_each():
    result = streaks(played(0, 13) | played(15, 16) | played(18, 18), today=day(18))
    assert result == Streaks(current=17, best=17, freezes=0, frozen=(day(14), day(17)))


def test_a_freeze_is_earned_again_after_one_is_spent():
    # Seven played, one covered: the next freeze comes with the fourteenth day played, not the
    # fourteenth day of the run, as a covered day does not count towards it.
    thirteen = streaks(played(0, 6) | played(8, 13), today=day(13))
    assert (thirteen.current, thirteen.freezes, thirteen.next_freeze_in) == (13, 0, 1)
    fourteen = streaks(played(0, 6) | played(8, 14), today=day(14))
    assert (fourteen.current, fourteen.freezes, fourteen.frozen) == (14, 1, (day(7),))


def test_the_best_streak_counts_the_days_played_across_covered_ones():
    days = played(0, 6) | played(8, 12) | played(20, 22)
    assert streaks(days, today=day(22)) == Streaks(current=3, best=12)


def test_today_not_played_yet_spends_nothing_and_breaks_nothing():
    assert streaks(played(0, 6), today=day(7)) == Streaks(current=7, best=7, freezes=1)


def test_yesterday_missed_is_covered_while_today_is_still_to_play():
    assert streaks(played(0, 6), today=day(8)) == Streaks(current=7, best=7, freezes=0, frozen=(day(7),))
    # One more day missed, with nothing left to cover it: the streak is over.
    assert streaks(played(0, 6), today=day(9)) == Streaks(current=0, best=7)


def test_no_freeze_is_spent_before_the_first_counted_day():
    assert streaks({day(10)}, today=day(10)) == Streaks(current=1, best=1)
    assert streaks([], today=day(10)) == Streaks(current=0, best=0)


def test_days_after_today_are_not_counted():
    assert streaks(played(0, 6) | {day(9)}, today=day(7)) == Streaks(current=7, best=7, freezes=1)


def test_streaks_are_hashable_values_for_the_home_pages_drawings():
    one, two = (streaks(played(0, 6) | {day(8)}, today=day(8)) for _ in range(2))
    assert one == two and hash(one) == hash(two) and len({one, two}) == 1
    assert len({one, Streaks(8, 8, freezes=1, frozen=(day(7),)), Streaks(8, 8)}) == 3


@given(
    days=st.sets(st.integers(min_value=0, max_value=60), max_size=60),
    today=st.integers(min_value=0, max_value=64),
)
def test_what_any_record_shows_holds_together(days, today):
    counted = {day(n) for n in days}
    result = streaks(counted, today=day(today))
    assert 0 <= result.freezes <= FREEZES_KEPT
    assert 0 <= result.current <= result.best <= len(counted)
    assert not set(result.frozen) & counted
    assert list(result.frozen) == sorted(result.frozen)
    if result.frozen:
        assert result.current > 0
        assert min(counted) < result.frozen[0] and result.frozen[-1] < day(today)
    # Each frozen day was paid for by seven days played.
    assert len(result.frozen) + result.freezes <= result.current // FREEZE_EVERY


def walked_day_by_day(counted: set[datetime.date], today: datetime.date) -> Streaks:
    """The rule as a player would tell it, one day at a time from the first day played to today."""
    if not counted:
        return Streaks(0, 0)
    run = best = saved = 0
    frozen: list[datetime.date] = []
    d = min(counted)
    while d <= today:
        if d in counted:
            run += 1
            if run % 7 == 0 and saved < 2:
                saved += 1
        elif d < today and saved:
            saved -= 1
            frozen.append(d)
        elif d < today:
            run, frozen = 0, []
        best = max(best, run)
        d += ONE_DAY
    return Streaks(run, best, saved, tuple(frozen))


@given(
    days=st.sets(st.integers(min_value=0, max_value=90), max_size=90),
    today=st.integers(min_value=0, max_value=95),
)
def test_the_rule_agrees_with_a_walk_one_day_at_a_time(days, today):
    counted = {day(n) for n in days if n <= today}
    assert streaks({day(n) for n in days}, today=day(today)) == walked_day_by_day(counted, day(today))


# --- the day's edges in the site's time zone --------------------------------------------------

ZONE = "America/New_York"  # UTC-5 in late November


def local(d: datetime.date, hour: int, minute: int, second: int = 0) -> datetime.datetime:
    return datetime.datetime.combine(d, datetime.time(hour, minute, second), zoneinfo.ZoneInfo(ZONE))


def stats_streaks(client: Client) -> Streaks:
    return client.get("/stats/").context["streaks"]


@pytest.mark.django_db
def test_a_solve_at_2359_counts_its_day_and_one_at_0001_is_late(client, settings):
    settings.TIME_ZONE = ZONE
    log_in(client)
    first, second = make_daily(day(0)), make_daily(day(1))
    # 23:58:00 to 23:59:00 in New York on day 0 is 04:58 UTC on day 1: still day 0 here.
    with time_machine.travel(local(day(0), 23, 58), tick=False) as clock:
        solve_through_api(client, first, 60, clock=clock)
        assert Solve.objects.get(daily=first).late is False
        assert site_today() == day(0)
        assert stats_streaks(client) == Streaks(1, 1)
        # Two minutes later it is day 1: day 0's streak lives on while day 1 is still to play.
        clock.move_to(local(day(1), 0, 1))
        assert site_today() == day(1) and stats_streaks(client) == Streaks(1, 1)
        solve_through_api(client, second, 0, clock=clock)
        assert stats_streaks(client) == Streaks(2, 2)


@pytest.mark.django_db
def test_yesterdays_puzzle_solved_at_0001_extends_no_streak(client, settings):
    settings.TIME_ZONE = ZONE
    log_in(client)
    first = make_daily(day(0))
    with time_machine.travel(local(day(1), 0, 0, 30), tick=False) as clock:
        solve_through_api(client, first, 30, clock=clock)  # submitted at 00:01
        assert Solve.objects.get(daily=first).late is True
        assert stats_streaks(client) == Streaks(0, 0)


@pytest.fixture
def a_week(settings):
    """Ada, who solved one puzzle on each of days 0 to 6 in New York's afternoon."""
    settings.TIME_ZONE = ZONE
    for n in range(7):
        make_solve(make_daily(day(n)), "ada", 200, solved_at=local(day(n), 15, 0))
    return User.objects.get(username="ada")


@pytest.mark.django_db
def test_a_freeze_is_spent_at_midnight_in_the_sites_time_zone(client, a_week):
    client.force_login(a_week)
    with time_machine.travel(local(day(7), 23, 59), tick=False) as clock:
        # Day 7 is not over: the freeze is still saved.
        assert stats_streaks(client) == Streaks(current=7, best=7, freezes=1)
        # At 00:01 on day 8 day 7 has ended unplayed: the freeze covers it.
        clock.move_to(local(day(8), 0, 1))
        assert stats_streaks(client) == Streaks(current=7, best=7, freezes=0, frozen=(day(7),))
        # A solve of day 8's puzzle a minute later carries the streak on.
        solve_through_api(client, make_daily(day(8)), 0, clock=clock)
        assert stats_streaks(client) == Streaks(current=8, best=8, freezes=0, frozen=(day(7),))
        # Day 9 missed with nothing saved: at 00:01 on day 10 the streak is over.
        clock.move_to(local(day(9), 23, 59))
        assert stats_streaks(client).current == 8
        clock.move_to(local(day(10), 0, 1))
        assert stats_streaks(client) == Streaks(current=0, best=8)


@pytest.mark.django_db
def test_the_home_page_and_stats_count_the_same_streak(client, a_week):
    client.force_login(a_week)
    with time_machine.travel(local(day(8), 9, 0), tick=False):
        assert history.player_streaks(a_week, site_today()) == stats_streaks(client)


# --- the pages --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_stats_show_the_freezes_saved_as_words_and_a_named_figure(client, a_week):
    client.force_login(a_week)
    with time_machine.travel(local(day(7), 9, 0), tick=False):
        page = client.get("/stats/").content.decode()
    streaks_part = page[page.index('id="streaks-title"') : page.index('id="rating-title"')]
    assert re.search(
        r'<svg class="freeze-figure"[^>]*role="img" aria-label="1 of 2 streak freezes saved"', streaks_part
    )
    assert "1 streak freeze saved: a missed day won't break your streak. Play 7 more days for a second." in page
    assert "covered by a freeze in this streak" not in page
    assert "Every 7 days you play in a streak earn you a streak freeze, and you can save up to 2" in page


@pytest.mark.django_db
def test_stats_list_the_days_a_freeze_covered(client, a_week):
    client.force_login(a_week)
    with time_machine.travel(local(day(8), 9, 0), tick=False) as clock:
        solve_through_api(client, make_daily(day(8)), 0, clock=clock)
        clock.move_to(local(day(9), 9, 0))
        page = client.get("/stats/").content.decode()
    assert "Day covered by a freeze in this streak:" in page
    assert '<time datetime="2026-11-09">Monday 9 November 2026</time>' in page
    assert 'aria-label="0 of 2 streak freezes saved"' in page
    assert "No streak freeze saved: play 6 more days to earn one" in page
    assert re.search(r"<dt>Current streak</dt><dd>8 days</dd>", page)


@pytest.mark.django_db
def test_stats_list_two_days_covered_in_a_row(client, settings):
    settings.TIME_ZONE = ZONE
    for n in [*range(14), 16]:
        make_solve(make_daily(day(n)), "ada", 200, solved_at=local(day(n), 15, 0))
    client.force_login(User.objects.get(username="ada"))
    with time_machine.travel(local(day(16), 18, 0), tick=False):
        page = client.get("/stats/").content.decode()
    assert "Days covered by a freeze in this streak:" in page
    assert "Monday 16 November 2026</time></li><li><time" in page and "Tuesday 17 November 2026" in page
    assert re.search(r"<dt>Current streak</dt><dd>15 days</dd>", page)


@pytest.mark.django_db
def test_a_new_player_is_told_how_a_freeze_is_earned(client):
    log_in(client)
    page = client.get("/stats/").content.decode()
    assert "Play 7 days in a row to earn a streak freeze" in page
    assert 'aria-label="0 of 2 streak freezes saved"' in page


@pytest.mark.django_db
def test_the_home_record_says_what_a_saved_freeze_does(a_week):
    client = Client()
    client.force_login(a_week)
    with time_machine.travel(local(day(7), 9, 0), tick=False):
        page = client.get("/").content.decode()
    line = re.search(r'<p class="home-freezes">(.*?)</p>', page, re.S).group(1)
    assert 'aria-hidden="true"' in line  # the figure beside words that say the same
    assert "1 streak freeze saved: a missed day won't break your streak." in line
    assert re.search(r"<dt>Streak</dt><dd>7 days</dd>", page)


@pytest.mark.django_db
def test_the_home_record_names_the_day_a_freeze_covered(a_week):
    client = Client()
    client.force_login(a_week)
    with time_machine.travel(local(day(8), 9, 0), tick=False):
        page = client.get("/").content.decode()
    assert "A freeze covered Monday 9 November." in page
    assert re.search(r"<dt>Streak</dt><dd>7 days</dd>", page)


@pytest.mark.django_db
def test_a_players_freezes_are_their_own(client, a_week):
    log_in(client, "bob")
    with time_machine.travel(local(day(7), 9, 0), tick=False):
        page = client.get("/stats/").content.decode()
        home = client.get("/").content.decode()
    assert 'aria-label="0 of 2 streak freezes saved"' in page
    assert "Play 7 days in a row" in home and "freeze saved:" not in home
