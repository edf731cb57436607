"""A solve is judged just after the submit's answer, not on it (puzzles/fairplay/judge.py): the
submit records it as being checked, the beat's sweep (every second) gives the verdict and the rest
of its follow-up, and meanwhile the results say the time is being checked and ask again
(static/js/verdict.js)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from puzzles.fairplay import judge, ranking, words
from puzzles.models import Attempt, Solve, SolveReview
from puzzles.pipeline import tasks
from puzzles.results.leaderboard import leaderboard_for, standing_of

from .factories import make_paced_record, make_solve

FRAGMENT = {"HTTP_ACCEPT": "text/html", "HTTP_SEC_FETCH_MODE": "cors"}
NAVIGATION = {"HTTP_ACCEPT": "text/html", "HTTP_SEC_FETCH_MODE": "navigate"}


def results_url(daily) -> str:
    return reverse("puzzles:results", args=[daily.date, daily.difficulty])


def paced_solve(daily, username: str, gap: float = 2.0) -> Solve:
    """A person's solve as its submit records it: a paced record of play by a settled account, not
    judged yet."""
    user = User.objects.create(username=username, date_joined=timezone.now() - datetime.timedelta(days=3))
    attempt = Attempt.objects.create(user=user, daily=daily, started_at=timezone.now())
    end = make_paced_record(attempt, attempt.started_at, gap)
    seconds = (end - attempt.started_at).total_seconds()
    return Solve.objects.create(
        attempt=attempt, user=user, daily=daily, seconds=seconds, solved_at=end, unranked=ranking.CHECKING
    )


def test_the_results_say_the_time_is_being_checked_until_the_follow_up_ranks_it(client, daily):
    solve = paced_solve(daily, "ada")
    client.force_login(solve.user)
    fragment = client.get(results_url(daily), **FRAGMENT).content.decode()
    assert 'data-verdict="checking"' in fragment and f'data-results-url="{results_url(daily)}"' in fragment
    assert "Checking your time for the leaderboard…" in fragment and "No ranked solves yet" in fragment
    assert "js/verdict.js" in client.get(results_url(daily), **NAVIGATION).content.decode()
    # Reading the results judges nothing: GET changes nothing.
    solve.refresh_from_db()
    assert solve.unranked == ranking.CHECKING and not Solve.objects.ranked().exists()

    assert tasks.follow_up_solve(solve.pk) is True
    solve.refresh_from_db()
    assert solve.unranked == "" and not solve.flagged and solve.ranked_seconds == solve.seconds
    fragment = client.get(results_url(daily), **FRAGMENT).content.decode()
    assert 'data-verdict="final"' in fragment and "data-results-url" not in fragment
    assert "only ranked solver so far." in fragment and "(you)" in fragment
    assert "js/verdict.js" not in client.get(results_url(daily), **NAVIGATION).content.decode()


def test_a_late_or_helped_solve_says_why_at_once_not_that_it_is_being_checked(daily):
    solve = make_solve(daily, "ada", 300, assisted=True)
    Solve.objects.filter(pk=solve.pk).update(unranked=ranking.CHECKING)
    solve.refresh_from_db()
    standing = standing_of(solve)
    assert not standing.checking and standing.sentence == "Not on the leaderboard: you used hints or checks."
    assert ranking.not_ranked_codes(solve) == [ranking.HELPED]


def test_a_solve_being_checked_is_neither_ranked_rated_held_nor_decided_again(daily, settings):
    settings.LEADERBOARD_FLOOR_SECONDS = {**settings.LEADERBOARD_FLOOR_SECONDS, "easy": 600}
    solve = paced_solve(daily, "speedy", gap=1.0)  # 49 s: under the floor, once judged
    assert not Solve.objects.ranked().exists() and not Solve.objects.rated().exists()
    assert judge.held_again(daily) == 0 and not Solve.objects.get().flagged
    assert leaderboard_for(daily).rows == []
    assert words.reasons_for_them(solve) == ["being checked"]  # as a league's board says it
    assert judge.judge_waiting_one(solve.pk) is True
    solve.refresh_from_db()
    assert solve.flagged and solve.held == ranking.UNDER_FLOOR  # judged in full: held for review


def test_the_sweep_follows_up_every_solve_being_checked_oldest_first_and_each_once(daily, monkeypatch):
    old, new = paced_solve(daily, "ada"), paced_solve(daily, "bob")
    Solve.objects.filter(pk=old.pk).update(solved_at=timezone.now() - datetime.timedelta(seconds=30))
    assert judge.waiting() == [old.pk, new.pk]
    reviewed: list[int] = []
    review_store = tasks.coaching.review_store
    monkeypatch.setattr(tasks.coaching, "review_store", lambda pk: reviewed.append(pk) or review_store(pk))
    assert tasks.judge_waiting() == 2
    assert not Solve.objects.filter(unranked=ranking.CHECKING).exists() and judge.waiting() == []
    assert reviewed == [old.pk, new.pk] and SolveReview.objects.count() == 2
    # A sweep that overlapped this one found the same solves: judged already, it does nothing more.
    assert tasks.follow_ups([old.pk, new.pk]) == 0 and reviewed == [old.pk, new.pk]
    assert tasks.judge_waiting() == 0


def test_one_solves_failed_follow_up_stops_no_other_and_is_raised(daily, monkeypatch):
    first, second = paced_solve(daily, "ada"), paced_solve(daily, "bob")
    review_store = tasks.coaching.review_store

    def failing(pk: int):
        if pk == first.pk:
            raise RuntimeError("the review failed")
        return review_store(pk)

    monkeypatch.setattr(tasks.coaching, "review_store", failing)
    with pytest.raises(RuntimeError, match="the review failed"):
        tasks.judge_waiting()
    assert not Solve.objects.filter(unranked=ranking.CHECKING).exists()  # both judged all the same
    assert SolveReview.objects.filter(solve=second).exists()


def test_the_partial_index_holds_the_solves_being_checked():
    (index,) = [index for index in Solve._meta.indexes if index.name == "solve_checking"]
    assert index.condition.children == [("unranked", ranking.CHECKING)]


def test_the_sweep_is_on_the_beat_schedule_every_second_and_a_late_one_is_dropped(settings):
    (entry,) = [e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "puzzles.tasks.judge_waiting"]
    assert tasks.judge_waiting.name == "puzzles.tasks.judge_waiting"
    assert entry["schedule"] == settings.JUDGE_SWEEP_SECONDS == 1.0 and entry["options"]["expires"] == 5.0


def test_a_guests_time_is_checked_too_then_placed_with_the_invitation_to_sign_up(client, daily):
    from puzzles.accounts.guests import guest_create

    guest = guest_create()
    attempt = Attempt.objects.create(user=guest, daily=daily, started_at=timezone.now())
    end = make_paced_record(attempt, attempt.started_at, 2.0)
    seconds = (end - attempt.started_at).total_seconds()
    solve = Solve.objects.create(attempt=attempt, user=guest, daily=daily, seconds=seconds, unranked=ranking.CHECKING)
    assert standing_of(solve).checking
    assert judge.judge_waiting_one(solve.pk) is True
    solve.refresh_from_db()
    standing = standing_of(solve)
    assert not standing.checking and standing.guest and standing.rank == 1
    assert standing.sentence.startswith("Your time would be 1st of 1 today")


def test_celerys_routine_lines_about_the_sweep_are_dropped_and_its_errors_kept():
    import logging

    from sudokusite.logfilters import QuietSweeps

    def record(name: str, level: int, message: str, *args: object) -> logging.LogRecord:
        return logging.LogRecord(name, level, __file__, 1, message, args, None)

    quiet = QuietSweeps()
    sent = record(
        "celery.beat", logging.INFO, "Scheduler: Sending due task %s (%s)", "judge-waiting", tasks.judge_waiting.name
    )
    received = record("celery.worker.strategy", logging.INFO, "Task puzzles.tasks.judge_waiting[1] received")
    assert not quiet.filter(sent) and not quiet.filter(received)
    assert quiet.filter(record("celery.app.trace", logging.ERROR, "Task puzzles.tasks.judge_waiting[1] raised"))
    assert quiet.filter(record("celery.beat", logging.INFO, "Scheduler: Sending due task refill-pools (x)"))
    assert quiet.filter(record("puzzles.pipeline.tasks", logging.INFO, "followed up 3 solves"))
