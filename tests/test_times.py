"""One clock format everywhere on the server's side: m:ss, h:mm:ss past an hour, in the templates
(the duration filter) and in the admin, never a raw number of seconds."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.urls import reverse

from .factories import make_solve, url

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [(0, "0:00"), (5.9, "0:05"), (60, "1:00"), (599, "9:59"), (3599, "59:59"), (3600, "1:00:00"), (None, "—")],
)
def test_the_duration_filter_reads_as_the_clock(seconds, shown):
    template = Template("{% load sudoku %}{{ seconds|duration }}")
    assert template.render(Context({"seconds": seconds})) == shown


def test_the_admin_shows_solve_times_as_the_clock_does(admin_client, daily):
    solve = make_solve(daily, "ada", 3725.4)
    listing = admin_client.get(reverse("admin:puzzles_solve_changelist")).content.decode()
    assert ">1:02:05<" in listing and "3725.4" not in listing
    change = admin_client.get(reverse("admin:puzzles_solve_change", args=[solve.pk])).content.decode()
    assert "1:02:05" in change and "3725.4" not in change


def test_the_board_is_told_a_solve_time_that_shows_as_the_pages_show_it(client, daily):
    # The board shows whole seconds of what the API says; the results page formats the stored
    # time. Rounded to a tenth, 242.96 s would be 243.0 on the board (4:03) beside 4:02 below it.
    solve = make_solve(daily, "ada", 242.96)
    client.force_login(solve.user)
    state = client.get(url(daily, "state")).json()
    assert state["solve_seconds"] == 242.9 and state["elapsed"] == 242.9
    results = client.get(url(daily) + "results/").content.decode()
    assert "4:02" in results and "4:03" not in results
