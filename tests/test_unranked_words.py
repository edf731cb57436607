"""What a player is told of a solve not ranked, for each reason it can be, where they read it: the
results under the board (the fragment board.js inserts) and the stats page's rating card. Each
says the true reason and the true next step, and none gives advice meant for another reason."""

from __future__ import annotations

import datetime
import html
import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from puzzles.accounts.guests import guest_create
from puzzles.fairplay import ranking, words
from puzzles.leagues import membership
from puzzles.models import PlayerRating, Solve, site_today

from .factories import make_daily, make_solve
from .test_fairplay import person

pytestmark = pytest.mark.django_db

# Advice given to one kind of solve, which no other may hear.
HINTS_ADVICE = "without hints or checks to get"
VERIFY = ("Add your email address", "Open the link we sent to", "send it again")
RANKS_THIS = "and this solve is ranked"
COUNTS = "counts towards your rating"
NOT_RATED = "is not rated: "
NO_RATING = "You have no rating yet: solve a puzzle without hints or checks to get one."
ON_ITS_WAY = "Your first rated solve is in: your rating shows here within a few minutes."


def text(response) -> str:
    """A page's words as the player reads them: tags out, entities read, spaces as one."""
    said = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())
    return re.sub(r" ([,.;:])", r"\1", said)


def results_of(client: Client, solve: Solve) -> str:
    return text(client.get(reverse("puzzles:results", args=[solve.daily.date, solve.daily.difficulty])))


def stats_of(client: Client) -> str:
    page = text(client.get(reverse("puzzles:stats")))
    return page[page.index("Your rating") : page.index("Your techniques")]


def reader(solve: Solve) -> Client:
    client = Client()
    client.force_login(solve.user)
    return client


def ranked_first(daily, **fields) -> Solve:
    """A solve with a person's record, by an account two days old, judged ranked; then given `fields`."""
    solve = person(daily, "ada")
    assert solve.unranked == "" and not solve.flagged
    Solve.objects.filter(pk=solve.pk).update(**fields)
    return Solve.objects.select_related("daily", "user").get(pk=solve.pk)


def the_solve(daily, code: str) -> Solve:
    """A solve not ranked for `code` alone (a HELD code is a solve held for it)."""
    if code == ranking.NEW_ACCOUNT:
        solve = person(daily, "ada", hours_old=0)  # judged: a new account, no address
        assert solve.unranked == ranking.NEW_ACCOUNT
        return solve
    if code == ranking.TOO_FAST:
        solve = person(daily, "ada", gap=0.3)
        assert solve.unranked == ranking.TOO_FAST
        return solve
    if code == ranking.LATE:
        return ranked_first(make_daily(site_today() - datetime.timedelta(days=3)), late=True)
    if code == ranking.HELPED:
        return ranked_first(daily, assisted=True)
    if code == ranking.DISQUALIFIED:
        return ranked_first(daily, review=Solve.Review.DISQUALIFIED)
    if code in ranking.HOLD_CODES:
        return ranked_first(daily, flagged=True, held=code)
    return ranked_first(daily, unranked=code)


def said_for(solve: Solve) -> str:
    """The reason as words.py says it to the player: one code of theirs."""
    codes = ranking.not_ranked_codes(solve)
    [code] = [c for c in codes if c != ranking.LATE] or codes
    return words.held_because(solve) if code == ranking.HELD else words.reason(code)


EVERY_REASON = [
    *ranking.REASON_CODES,
    ranking.CHECKING,
    ranking.LATE,
    ranking.HELPED,
    ranking.DISQUALIFIED,
    *ranking.HOLD_CODES,
]


@pytest.mark.parametrize("code", EVERY_REASON)
def test_the_results_say_the_reason_and_only_its_own_step(daily, code):
    solve = the_solve(daily, code)
    said = results_of(reader(solve), solve)
    if code == ranking.CHECKING:
        assert "Checking your time for the leaderboard" in said
    else:
        assert f"Not on the leaderboard: {said_for(solve)}." in said
    assert "Add and verify" not in said and HINTS_ADVICE not in said
    if code == ranking.NEW_ACCOUNT:
        assert "Add your email address and open the link we send to it, and this solve is ranked." in said
    else:
        assert not any(step in said for step in VERIFY) and RANKS_THIS not in said
    assert (COUNTS in said) == (code == ranking.LATE)  # a late solve is rated all the same


@pytest.mark.parametrize("code", EVERY_REASON)
def test_the_rating_card_says_why_there_is_no_rating_and_only_its_own_step(daily, code):
    solve = the_solve(daily, code)
    card = stats_of(reader(solve))
    assert "You have no rating yet: solve a puzzle" not in card
    if code == ranking.LATE:
        assert ON_ITS_WAY in card  # rated: the sweep applies it in a few minutes
        return
    assert f"Your last solve, the easy puzzle of {solve.daily.date.day} " in card
    if code == ranking.CHECKING:
        assert "is still being checked" in card and NOT_RATED not in card
    else:
        assert f"{NOT_RATED}{said_for(solve)}." in card
    assert ("Solve one without hints or checks to get a rating." in card) == (code == ranking.HELPED)
    if code == ranking.NEW_ACCOUNT:
        assert "Add your email address and open the link we send to it, to have your solves ranked and rated." in card
    else:
        assert not any(step in card for step in VERIFY)


def test_an_address_added_and_waiting_for_its_link_is_sent_again_not_added(daily):
    solve = the_solve(daily, ranking.NEW_ACCOUNT)
    EmailAddress.objects.create(user=solve.user, email="ada@example.com", primary=True, verified=False)
    client = reader(solve)
    for said, then in (
        (results_of(client, solve), "and this solve is ranked."),
        (stats_of(client), "to have your solves ranked and rated."),
    ):
        assert f"Open the link we sent to ada@example.com, or send it again, {then}" in said
        assert "Add your email address" not in said and "Add and verify" not in said
    page = client.get(reverse("puzzles:results", args=[daily.date, daily.difficulty])).content.decode()
    assert f'or <a href="{reverse("account_email")}">send it again</a>' in page
    # The page the link opens says the same: the address waits for its link, and sends it again.
    email = client.get(reverse("account_email")).content.decode()
    assert "Not verified yet: open the link we sent to it." in email and "Send the link again" in email


@pytest.mark.parametrize(
    ("fields", "then"),
    [
        ({"late": True}, "and this solve counts towards your rating."),
        ({"assisted": True}, "to have your solves ranked and rated."),
    ],
)
def test_a_new_accounts_step_says_what_verifying_does_for_this_solve(daily, fields, then):
    solve = the_solve(daily, ranking.NEW_ACCOUNT)
    Solve.objects.filter(pk=solve.pk).update(**fields)
    said = results_of(reader(solve), solve)
    assert f"Add your email address and open the link we send to it, {then}" in said
    assert RANKS_THIS not in said and "verify your email address and it is ranked" not in said


def test_a_new_accounts_helped_solve_has_no_step_once_the_account_is_old_enough(daily):
    # Verifying would gain nothing: this solve had hints, and the next ones are ranked anyway.
    solve = the_solve(daily, ranking.NEW_ACCOUNT)
    Solve.objects.filter(pk=solve.pk).update(assisted=True)
    User.objects.filter(pk=solve.user_id).update(date_joined=solve.user.date_joined - datetime.timedelta(days=2))
    client = reader(solve)
    for said in (results_of(client, solve), stats_of(client)):
        assert words.reason(ranking.NEW_ACCOUNT) in said and not any(step in said for step in VERIFY)


def test_an_unverified_new_account_that_solved_without_hints_is_told_to_verify_not_to_solve_without_hints(
    client, daily
):
    # The player: a new account, no hints, its solve judged a new account's.
    solve = the_solve(daily, ranking.NEW_ACCOUNT)
    assert not solve.assisted
    card = stats_of(reader(solve))
    assert "hints" not in card.split("Each rated solve")[0]
    assert f'href="{reverse("account_email")}"' in reader(solve).get(reverse("puzzles:stats")).content.decode()


def test_a_player_with_no_solves_is_told_to_solve_one_and_a_new_account_to_verify_too(client):
    old = User.objects.create(username="old", date_joined=datetime.datetime(2025, 1, 1, tzinfo=datetime.UTC))
    client.force_login(old)
    card = stats_of(client)
    assert NO_RATING in card and not any(step in card for step in VERIFY)
    new = User.objects.create(username="new")
    client.force_login(new)
    card = stats_of(client)
    assert NO_RATING in card
    assert "Add your email address and open the link we send to it, to have your solves ranked and rated." in card
    EmailAddress.objects.create(user=new, email="new@example.com", verified=True, primary=True)
    assert not any(step in stats_of(client) for step in VERIFY)


def test_a_player_with_a_rating_sees_it_and_no_reason(client, daily):
    solve = ranked_first(daily, assisted=True)
    PlayerRating.objects.create(user=solve.user, rating=1500, deviation=200)
    card = stats_of(reader(solve))
    assert "1500 ± 200" in card and "no rating yet" not in card and NOT_RATED not in card


def test_a_guest_is_told_to_sign_up_for_a_rating(client, daily):
    guest = guest_create()
    make_solve(daily, guest.username, 300)
    client.force_login(guest)
    card = stats_of(client)
    assert "You play as a guest, and a guest has no rating. Sign up to get one." in card
    assert HINTS_ADVICE not in card and not any(step in card for step in VERIFY)


@pytest.mark.parametrize("code", EVERY_REASON)
def test_a_leagues_board_says_each_reason_in_its_few_words_and_its_key_names_it(daily, code):
    solve = the_solve(daily, code)
    league = membership.league_create(solve.user, "Friends")
    said = text(reader(solve).get(reverse("puzzles:league-day", args=[league.pk, solve.daily.date])))
    assert f"ada (you): {words.THEY[ranking.not_ranked_codes(solve)[0]]}" in said
    key = said[said.index("Other solves show") : said.index("How the week is counted")]
    named = {
        ranking.LATE: "late (played after its day)",
        ranking.HELPED: "with hints or checks",
        ranking.NEW_ACCOUNT: "a new account's whose email address is not verified",
        ranking.CHECKING: "still being checked",
        ranking.DISQUALIFIED: "or disqualified",
        **dict.fromkeys(ranking.HOLD_CODES, "held for review"),
    }
    assert named.get(code, "a record of play that earns no rank") in key
