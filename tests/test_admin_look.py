"""The admin's look: a solve is named by its time as the clock reads it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from .factories import make_solve

pytestmark = pytest.mark.django_db


def test_a_solve_is_named_by_its_time_as_the_clock_reads_it(admin_client, daily):
    short, long = make_solve(daily, "ada", 312.7), make_solve(daily, "bob", 3725.4)
    assert str(short) == f"ada solved {daily} in 5:12"
    assert str(long) == f"bob solved {daily} in 1:02:05"
    page = admin_client.get(reverse("admin:puzzles_solve_change", args=[long.pk])).content.decode()
    assert f"<title>bob solved {daily} in 1:02:05 |" in page  # the change page's title
