"""The results fragment is drawn once per daily and shape of standing and filled in with the
player's values (views/results.py, views/frames.py): in every shape it reads exactly as the
template drawn whole with the player's own context, escaping included."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.test import Client

from puzzles.accounts.guests import guest_create
from puzzles.fairplay.ranking import CHECKING, NEW_ACCOUNT
from puzzles.models import Solve, site_today
from puzzles.results.fastpath import solve_read
from puzzles.views import results as results_view

from .factories import log_in, make_established, make_solve
from .test_results_page import BOARDS_FETCH, results_url

pytestmark = pytest.mark.django_db


def shown_of(solve: Solve) -> results_view.Shown:
    """The results of `solve` as the view works them out."""
    today = site_today()
    read = solve_read(solve.user, solve.daily, today, attempt=False)
    assert read.solve is not None
    read.solve.daily, read.solve.user = solve.daily, solve.user
    return results_view.results_shown(read.solve, read, today)


def assert_framed_is_whole(solve: Solve) -> str:
    shown = shown_of(solve)
    framed = str(shown.html())
    assert framed == render_to_string("puzzles/_results.html", shown.context)
    assert "\x00" not in framed
    return framed


def test_the_only_ranked_solver(daily):
    framed = assert_framed_is_whole(make_solve(daily, "ada", 312))
    assert "You&#x27;re the only ranked solver so far." in framed and "1 ranked solve in all." in framed
    assert "Rank " not in framed


def test_a_ranked_solver_among_others_and_below_the_top(daily):
    for n in range(22):
        make_solve(daily, f"fast{n}", 100 + n)
    ada = make_solve(daily, "ada", 312)  # 23rd: a row of her own below the top 20, marked new
    framed = assert_framed_is_whole(ada)
    assert "Rank 23 of 23." in framed and "23 ranked solves in all." in framed
    assert 'class="is-player" aria-current="true"><td>23</td><th scope="row">ada' in framed
    assert "results-new" in framed.split('class="is-player"')[1]
    make_established(ada.user)  # no longer new: another shape, drawn apart
    assert "results-new" not in assert_framed_is_whole(ada).split('class="is-player"')[1]


def test_a_ranked_solver_in_the_top_rows(daily):
    make_solve(daily, "bob", 400)
    framed = assert_framed_is_whole(make_solve(daily, "ada", 312))
    assert "Rank 1 of 2." in framed and "Faster than 50% of today&#x27;s solvers." in framed


def test_a_solve_being_checked_and_one_not_ranked(daily):
    ada = make_solve(daily, "ada", 312)
    Solve.objects.filter(pk=ada.pk).update(unranked=CHECKING)
    framed = assert_framed_is_whole(Solve.objects.get(pk=ada.pk))
    assert 'data-verdict="checking"' in framed and "No ranked solves yet." in framed
    bob = make_solve(daily, "bob", 400, assisted=True)
    framed = assert_framed_is_whole(bob)
    assert "Not on the leaderboard" in framed and "is-unranked" in framed


def test_a_new_account_is_shown_its_verify_step(daily):
    ada = make_solve(daily, "ada", 312)
    Solve.objects.filter(pk=ada.pk).update(unranked=NEW_ACCOUNT)
    framed = assert_framed_is_whole(Solve.objects.get(pk=ada.pk))
    assert 'class="results-verify"' in framed


def test_a_guest_is_told_where_they_would_place(daily):
    make_solve(daily, "bob", 200)
    guest = guest_create()
    solve = make_solve(daily, guest.username, 312)
    framed = assert_framed_is_whole(solve)
    assert "Your time would be 2nd of 2 today" in framed


def test_the_fragment_served_is_the_frame_filled(daily):
    make_solve(daily, "bob", 200)
    ada = make_solve(daily, "ada", 312)
    client = Client()
    log_in(client, "ada")
    served = client.get(results_url(daily), **BOARDS_FETCH).content.decode()
    assert served == render_to_string("puzzles/_results.html", shown_of(ada).context)
    # A second player of the same shape is drawn from the same frame, with nothing of the first.
    carl = make_solve(daily, "carl", 500)
    before = results_view._fragment_frame.cache_info().hits
    log_in(client, "carl")
    served = client.get(results_url(daily), **BOARDS_FETCH).content.decode()
    assert results_view._fragment_frame.cache_info().hits > before
    assert 'Solved in <span class="results-time">8:20</span>' in served and "5:12" in served  # ada's row
    assert served == render_to_string("puzzles/_results.html", shown_of(carl).context)
