"""The admin's look: every admin page loads the site's colours once (templates/admin/base_site.html),
shows the site's mark and name, and names a solve by its time as the clock reads it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from puzzles.pipeline import broker

from .factories import make_puzzle, make_solve

pytestmark = pytest.mark.django_db

THEME = '<link rel="stylesheet" href="/static/css/admin-theme.css">'
EXTRA = "/static/css/admin-extra.css"


@pytest.fixture(autouse=True)
def broker_answers(monkeypatch) -> None:
    # The dashboard asks the broker how it is; these tests should not depend on what runs here.
    monkeypatch.setattr(broker, "broker_status", lambda: (True, "The task broker (test) is reachable."))


@pytest.mark.parametrize(
    "name",
    [
        "admin:index",
        "admin:puzzles_pool_dashboard",
        "admin:puzzles_puzzle_import",
        "admin:puzzles_puzzle_changelist",
        "admin:auth_user_changelist",
        "admin:password_change",
    ],
)
def test_every_admin_page_links_the_sites_colours_once(admin_client, name):
    page = admin_client.get(reverse(name)).content.decode()
    assert page.count(THEME) == 1
    assert page.count(EXTRA) <= 1  # the pipeline's own styles, where a page uses them, once too
    assert page.index("/static/admin/css/dark_mode.css") < page.index(THEME)  # so the theme's variables win


def test_a_puzzles_page_loads_the_pipelines_styles_once(admin_client):
    puzzle = make_puzzle()
    page = admin_client.get(reverse("admin:puzzles_puzzle_change", args=[puzzle.pk])).content.decode()
    assert page.count(THEME) == 1 and page.count(EXTRA) == 1


def test_the_log_in_page_has_the_sites_colours_mark_and_name(client):
    page = client.get(reverse("admin:login")).content.decode()
    assert page.count(THEME) == 1
    assert '<img src="/static/icons/icon.svg" alt=""' in page  # the name beside it says it
    assert "Daily Sudoku administration" in page
    assert "<title>Log in | Daily Sudoku admin</title>" in page and "Django site admin" not in page
    assert 'class="theme-toggle"' in page  # Django's own theme toggle stays, for visitors too


def test_a_solve_is_named_by_its_time_as_the_clock_reads_it(admin_client, daily):
    short, long = make_solve(daily, "ada", 312.7), make_solve(daily, "bob", 3725.4)
    assert str(short) == f"ada solved {daily} in 5:12"
    assert str(long) == f"bob solved {daily} in 1:02:05"
    page = admin_client.get(reverse("admin:puzzles_solve_change", args=[long.pk])).content.decode()
    assert f"<title>bob solved {daily} in 1:02:05 |" in page  # the change page's title
