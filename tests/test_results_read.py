"""The results page's read in one written-out query (results/fastpath.py), held to the ORM's."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Model
from django.test.utils import CaptureQueriesContext

from puzzles.models import Attempt, PlayerRating, Solve, SolveReview
from puzzles.results.fastpath import solve_read, solve_read_orm

from .coaching_factory import make_review
from .factories import make_daily, make_solve

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 3, 18)


def fields_of(instance: Model | None) -> dict | None:
    """Every concrete field's value as loaded (none of those deferred), or None."""
    if instance is None:
        return None
    deferred = instance.get_deferred_fields()
    return {
        f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields if f.attname not in deferred
    }


@pytest.mark.parametrize("attempt", [False, True])
def test_the_written_out_read_is_the_orms_for_every_player_and_day(attempt):
    """A solve with a review and one without, of today, yesterday and a day of the archive; the
    recent solves of other difficulties and days, someone else's, none at all; dailies with ranked
    solves and without; a player with a rating and players without: the same solve, review,
    attempt and rating, field by field, the same recent ids and the same fingerprint of the day's
    ranked solves; nothing asked afterwards."""
    days = [TODAY, TODAY - datetime.timedelta(days=1), TODAY - datetime.timedelta(days=9)]
    dailies = [make_daily(day, tier) for day in days for tier in ("easy", "hard")]
    ada, bob = User.objects.create_user("ada"), User.objects.create_user("bob")
    reviewed = make_solve(dailies[0], "ada", 245, assisted=True)
    make_review(reviewed)
    for daily in dailies[2:]:
        make_solve(daily, "ada", 300, late=daily.date != TODAY)
    make_solve(dailies[1], "bob", 100)
    make_solve(dailies[1], "dee", 120)
    Attempt.objects.create(user=bob, daily=dailies[0], digits="1" + "0" * 80)
    PlayerRating.objects.create(user=ada, rating=1612.5, deviation=71.25, solves=9, on_day_solves=7, on_days=6)
    counted = set()
    for user in (ada, bob, User.objects.create_user("cy")):
        for daily in dailies:
            orm, read = solve_read_orm(user, daily, TODAY, attempt), solve_read(user, daily, TODAY, attempt)
            theirs, mine = orm.solve, read.solve
            if mine is not None:  # a player with no solve of it is shown nothing
                assert read.recent == orm.recent
                assert read.fingerprint == orm.fingerprint
                assert fields_of(read.rating) == fields_of(orm.rating)
                if read.rating is not None:  # whether it is new: its solves, where and when, and deviation
                    assert fields_of(read.rating) == {
                        "user_id": ada.pk,
                        "deviation": 71.25,
                        "solves": 9,
                        "on_day_solves": 7,
                        "on_days": 6,
                    }
                counted.add(read.fingerprint[0])
            else:
                assert read.recent == [] and read.fingerprint == (0, None, None, None) and read.rating is None
            assert fields_of(mine) == fields_of(theirs)
            if mine is None:
                continue
            with CaptureQueriesContext(connection) as asked:
                assert Solve.annotated.is_cached(mine)
                review, orms = getattr(mine, "annotated", None), getattr(theirs, "annotated", None)
                assert fields_of(review) == fields_of(orms)
                if review is not None:  # its key, not its content: that is drawn once and kept
                    assert set(fields_of(review)) == {"solve_id", "version", "made_at"}
                    assert review.get_deferred_fields() == orms.get_deferred_fields()
                if attempt:  # its digits, for the drawing
                    assert fields_of(mine.attempt) == fields_of(theirs.attempt)
                    assert set(fields_of(mine.attempt)) == {"id", "digits"}
            assert len(asked) == 0
    assert solve_read(ada, dailies[0], TODAY, True).recent == sorted(
        Solve.objects.filter(user=ada, daily__date__gte=days[1]).values_list("pk", flat=True)
    )
    assert SolveReview.objects.count() == 1
    assert counted == {0, 2}  # a board with no ranked solve, and one with two
    assert solve_read(ada, dailies[0], TODAY, False).rating is not None
    assert solve_read(bob, dailies[1], TODAY, False).rating is None
