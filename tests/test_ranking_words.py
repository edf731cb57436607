"""What a player is told about ranking where they can act on it: the link that ranks a new account's
solve, what ranking asks at sign-up, the account pages on a phone, and what ranking can promise."""

from __future__ import annotations

import os
from email.utils import parseaddr

import pytest
from django.urls import reverse

from puzzles.fairplay import ranking, words
from puzzles.models import Solve

from .factories import log_in, make_solve

pytestmark = pytest.mark.django_db


def results_url(daily) -> str:
    return reverse("puzzles:results", args=[daily.date, daily.difficulty])


def test_a_new_accounts_unranked_solve_links_to_the_email_page_that_ranks_it(client, daily):
    log_in(client, "ada")
    solve = make_solve(daily, "ada", 200)
    Solve.objects.filter(pk=solve.pk).update(unranked=ranking.NEW_ACCOUNT)
    body = client.get(results_url(daily)).content.decode()
    assert words.reason(ranking.NEW_ACCOUNT) in body
    assert f'<a href="{reverse("account_email")}">Add your email address</a> and open the link we send' in body


def test_a_solve_held_back_for_more_than_the_email_is_not_promised_a_rank(client, daily):
    log_in(client, "ada")
    solve = make_solve(daily, "ada", 200, late=True)
    Solve.objects.filter(pk=solve.pk).update(unranked=ranking.NEW_ACCOUNT)
    body = client.get(results_url(daily)).content.decode()
    assert "and this solve is ranked" not in body and "this solve counts towards your rating" in body


def test_the_sign_up_form_says_what_ranking_asks(client, settings):
    settings.RANKED_ACCOUNT_MIN_HOURS = 8
    body = client.get(reverse("account_signup")).content.decode()
    assert "an account needs a verified email address, or to be 8 hours old" in body


def test_the_phone_menu_holds_the_account_pages_for_an_account(client, daily):
    log_in(client, "ada")
    body = client.get(reverse("puzzles:stats")).content.decode()
    nav = body[body.index('id="site-nav"') : body.index("</nav>")]
    assert f'href="{reverse("account_email")}" class="nav-account-page"' in nav
    assert f'href="{reverse("account_change_password")}" class="nav-account-page"' in nav
    page = client.get(f"/daily/{daily.date.isoformat()}/easy/").content.decode()
    nav = page[page.index('id="site-nav"') : page.index("</nav>")]
    assert 'id="account-pages" hidden' in nav and reverse("account_email") in nav  # board.js shows it to a player


def test_the_rules_say_what_ranking_cannot_promise_and_where_to_report_a_result(client, daily, settings):
    settings.REPORT_EMAIL = "fairplay@sudoku.example"
    log_in(client, "ada")
    make_solve(daily, "ada", 200)
    body = client.get(results_url(daily)).content.decode()
    rules = body[body.index('<details class="results-rules">') : body.index("</details>")]
    assert "The givens are public" in rules and "What the site checks" in rules
    assert '<a href="mailto:fairplay@sudoku.example">fairplay@sudoku.example</a>' in rules


@pytest.mark.skipif("REPORT_EMAIL" in os.environ, reason="REPORT_EMAIL is set")
def test_results_are_reported_by_default_to_the_sites_own_sender(settings):
    assert settings.REPORT_EMAIL == parseaddr(settings.DEFAULT_FROM_EMAIL)[1] != ""
