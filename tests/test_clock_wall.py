"""A solve whose clock is far below its wall time (fairplay/judge.clock_far_below_wall): held for
review when it would rank in the day's top WALL_HOLD_TOP, its clock under CLOCK_WALL_RATIO of the
time from its first move to the solve; said to its player on the results page and to the admin.

paced() makes a person's record, a digit every 2 s into the easy puzzle's 49 empty cells: its
first move 2 s after the start and the solve at 98 s, so 96 s on the wall; the clock is set apart
(as time hidden from it leaves it), and three quarters of the wall is 72 s.
"""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from puzzles.fairplay import judge, ranking, words
from puzzles.models import Attempt, Solve

from .factories import log_in, make_paced_record, make_solve

pytestmark = pytest.mark.django_db

GAP, WALL = 2.0, 96.0  # the record's pace, and the time from its first move to the solve


def paced(daily, name: str, clock: float, *, late: bool = False) -> Solve:
    """A judged solve by an account a few days old, its record a digit every GAP s, its clock `clock`."""
    start = timezone.now() - datetime.timedelta(hours=1)
    joined = start - datetime.timedelta(days=3)
    user = User.objects.get_or_create(username=name, defaults={"date_joined": joined})[0]
    attempt = Attempt.objects.create(user=user, daily=daily, started_at=start)
    end = make_paced_record(attempt, start, GAP)
    solve = Solve.objects.create(attempt=attempt, user=user, daily=daily, seconds=clock, solved_at=end, late=late)
    judge.solve_judge(solve)
    return solve


def faster(daily, count: int) -> None:
    """`count` ranked solves of the day, each faster than any clock tested here."""
    for n in range(count):
        make_solve(daily, f"quick{n}", 21.0 + n)  # over the easy floor (20 s)


def test_the_ratio_is_three_quarters_and_the_top_is_ten_by_default(settings):
    assert settings.CLOCK_WALL_RATIO == 0.75 and settings.WALL_HOLD_TOP == 10


def test_a_clock_just_under_three_quarters_of_its_wall_time_is_held_and_says_why(client, daily):
    solve = paced(daily, "ada", WALL * 0.75 - 0.1)
    assert solve.held == ranking.OFF_CLOCK and solve.flagged and not Solve.objects.ranked().exists()
    log_in(client, "ada")
    body = client.get(reverse("puzzles:results", args=[daily.date, daily.difficulty])).content.decode()
    said = "the clock counted under three quarters of the time from your first move to the solve"
    assert said in words.held_because(solve) and said in body
    assert "a pause counts only up to 3 minutes" in body
    rules = body[body.index('<details class="results-rules">') : body.index("</details>")]
    assert "top 10 whose clock is under three quarters of the time from its first move" in rules
    assert "each silence, a pause too, counting up to 3 minutes" in rules
    assert "in the day's top 10" in words.held_for_admin(ranking.OFF_CLOCK)


def test_a_clock_just_over_three_quarters_of_its_wall_time_is_ranked(daily):
    solve = paced(daily, "ada", WALL * 0.75 + 0.1)
    assert solve.held == "" and not solve.flagged and Solve.objects.ranked().filter(pk=solve.pk).exists()


def test_an_honest_clock_is_ranked(daily):
    solve = paced(daily, "ada", WALL + GAP)  # the clock from the start: the first move's 2 s too
    assert solve.held == "" and Solve.objects.ranked().filter(pk=solve.pk).exists()


def test_tenth_on_the_day_is_held(daily):
    faster(daily, 9)
    solve = paced(daily, "ada", WALL * 0.75 - 0.1)
    assert ranking.rank_among(Solve.objects.ranked(), solve.seconds) == 10
    assert solve.held == ranking.OFF_CLOCK


def test_eleventh_on_the_day_is_not_held(daily):
    faster(daily, 10)
    solve = paced(daily, "ada", WALL * 0.75 - 0.1)
    assert solve.held == "" and Solve.objects.ranked().filter(pk=solve.pk).exists()


def test_a_held_solve_pushed_out_of_the_top_is_released_when_the_day_is_decided_again(daily):
    solve = paced(daily, "ada", WALL * 0.75 - 0.1)
    assert solve.held == ranking.OFF_CLOCK
    faster(daily, 10)
    judge.held_again(daily)
    solve.refresh_from_db()
    assert solve.held == "" and not solve.flagged


def test_the_ratio_and_the_top_are_settings(daily, settings):
    settings.CLOCK_WALL_RATIO, settings.WALL_HOLD_TOP = 0.25, 2
    assert paced(daily, "ada", WALL / 4 + 0.1).held == ""
    assert paced(daily, "bea", WALL / 4 - 0.1).held == ranking.OFF_CLOCK  # 23.9 s: first
    faster(daily, 2)  # 21 and 22 s
    assert paced(daily, "cy", WALL / 4 - 0.1).held == ""  # third


def test_an_archive_solve_is_held_only_when_it_would_have_made_its_days_top(daily):
    """An archive solve moves a rating: judged as if on its day, so a casual player's long pauses
    in the archive wait for no one unless the time is among the day's top ones."""
    solve = paced(daily, "ada", WALL * 0.75 - 0.1, late=True)
    assert judge.clock_far_below_wall(solve)
    faster(daily, 10)
    assert not judge.clock_far_below_wall(solve)
