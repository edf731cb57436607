"""Leagues in a real browser: a player makes a league and copies its invite link, a friend in a
browser of their own opens it and joins, and the league's board shows both players' times, the
friend's marked as helped in words. The league pages pass axe in light and dark, on a desktop and
on a phone, and the board is the README's screenshot (docs/screenshots/league*.png)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from puzzles.leagues import membership
from puzzles.models import TIER_ORDER, League, site_today
from tests.browser.axe import assert_accessible
from tests.browser.pages import LOOKS, PHONE, clipboard_text, log_in, screenshot
from tests.factories import make_daily, make_solve

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The README's looks: a desktop in light (1280x800), a phone in dark.
SHOT_LOOKS = {
    "league.png": {"color_scheme": "light", "viewport": {"width": 1280, "height": 800}},
    "league-dark-phone.png": {**PHONE, "color_scheme": "dark"},
}


def fits(page) -> bool:
    """Nothing of the page's content reaches past its column (main), so nothing scrolls sideways."""
    return not wide(page)


def wide(page) -> list[str]:
    """The elements of the page's content reaching past its column's right edge."""
    return page.evaluate(
        """() => {
          const edge = document.querySelector('main').getBoundingClientRect().right;
          return [...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > edge + 0.5)
            .slice(0, 8).map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right));
        }"""
    )


@pytest.fixture
def today_dailies(todays_easy):
    """Today's five dailies (the easy one the known puzzle)."""
    today = site_today()
    return {"easy": todays_easy, **{tier: make_daily(today, tier) for tier in TIER_ORDER if tier != "easy"}}


@pytest.mark.screenshots
def test_a_league_is_made_shared_joined_and_shows_both_players(chromium, live_server, today_dailies, settings):
    base = live_server.url
    settings.SITE_URL = base  # the invite link is built on the site's configured address, here the live server's
    ada = User.objects.create_user("ada", password="correct horse battery staple")
    bob = User.objects.create_user("bob", password="correct horse battery staple")

    mine = chromium.new_context(**SHOT_LOOKS["league.png"])
    mine.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    log_in(mine, base, ada)
    page = mine.new_page()
    page.goto(f"{base}/leagues/")
    assert_accessible(page, "leagues, none yet, light")
    page.get_by_label("League name").fill("Lunch club")
    page.get_by_role("button", name="Make the league").click()
    page.wait_for_url(f"{base}/leagues/*/")
    assert page.get_by_role("heading", level=1).inner_text().startswith("Lunch club")
    invite = page.get_by_label("Invite link").input_value()
    assert invite.startswith(f"{base}/leagues/join/")
    # Copy puts the link on the clipboard and says so.
    page.get_by_role("button", name="Copy").click()
    page.wait_for_function("() => document.querySelector('#invite-status').textContent.startsWith('Copied')")
    assert clipboard_text(mine, base) == invite  # read on a page of its own: the site's policy allows no reading

    theirs = chromium.new_context(**SHOT_LOOKS["league-dark-phone.png"])
    log_in(theirs, base, bob)
    friend = theirs.new_page()
    friend.goto(invite)
    assert_accessible(friend, "league invite, dark phone")
    friend.get_by_role("button", name="Join Lunch club").click()
    friend.wait_for_url(page.url)
    assert "You joined Lunch club." in friend.locator(".messages").inner_text()

    # Both solve today's easy puzzle (bob with a hint); more friends make the board a real one.
    make_solve(today_dailies["easy"], "ada", 245)
    make_solve(today_dailies["easy"], "bob", 301, assisted=True)
    yesterday = make_daily(site_today() - datetime.timedelta(days=1), "easy")
    noon = timezone.now() - datetime.timedelta(days=1)
    league = League.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
    for name, easy, medium in (("cyd", 212, 540), ("dana", 288, None), ("eli", None, 610)):
        User.objects.create_user(name)
        membership.league_join(league, User.objects.get(username=name))
        if easy:
            make_solve(today_dailies["easy"], name, easy)
        if medium:
            make_solve(today_dailies["medium"], name, medium)
    make_solve(today_dailies["hard"], "ada", 1385)
    make_solve(yesterday, "dana", 275, solved_at=noon)

    for look, shown in (("league.png", page), ("league-dark-phone.png", friend)):
        shown.reload()
        easy = shown.locator(".league-day", has=shown.get_by_role("heading", name="Easy"))
        rows = easy.locator("tbody tr").all_inner_texts()
        assert any("ada" in row and "4:05" in row for row in rows), rows
        assert any("bob" in row and "with hints or checks" in row and "5:01" in row for row in rows), rows
        assert fits(shown), (look, wide(shown))
        assert_accessible(shown, f"league board, {look}")
        screenshot(shown, look, full_page=True)
    mine.close()
    theirs.close()


@pytest.mark.parametrize("look", LOOKS)
def test_the_league_pages_pass_axe_in_every_look(chromium, live_server, today_dailies, look):
    ada = User.objects.create_user("ada")
    bob = User.objects.create_user("bob")
    league = membership.league_create(ada, "Puzzlers")
    membership.league_join(league, bob)
    make_solve(today_dailies["easy"], "bob", 200, flagged=True)
    context = chromium.new_context(**LOOKS[look])
    log_in(context, live_server.url, ada)
    page = context.new_page()
    for path in (
        f"/leagues/{league.pk}/",
        "/leagues/",
        f"/leagues/{league.pk}/members/{bob.pk}/remove/",
        f"/leagues/{league.pk}/delete/",
        "/",
    ):
        page.goto(live_server.url + path)
        assert fits(page), f"{path}, {look}"
        assert_accessible(page, f"{path}, {look}")
    context.close()
