"""The site's own limits per client (puzzles/accounts/ratelimits.py): guests and leagues an hour,
practice checks a minute, each counting an IPv6 client by its /64 as allauth's limits do."""

from __future__ import annotations

import pytest

from puzzles.accounts.ratelimits import address_group, hourly_refund, hourly_wait
from puzzles.leagues.membership import CREATIONS_PER_HOUR, LeaguesTooFast, limit_league_creations
from puzzles.practice.answers import ChecksTooFast, practice_limit

NOON = 1_764_158_400.0  # a moment on the hour, so that each test stays inside one window


def test_an_ipv4_address_is_its_own_client_and_an_ipv6_one_is_its_64():
    assert address_group("203.0.113.7") == "203.0.113.7"
    assert address_group("2001:db8:1:2::1") == address_group("2001:db8:1:2:ffff:ffff:ffff:ffff") == "2001:db8:1:2::/64"
    assert address_group("2001:db8:1:3::1") != address_group("2001:db8:1:2::1")
    assert address_group("::ffff:203.0.113.7") == "203.0.113.7"  # an IPv4 client over IPv6
    assert address_group("not an address") == "not an address"


def test_leagues_made_from_one_ipv6_64_count_against_one_client():
    for n in range(CREATIONS_PER_HOUR):
        limit_league_creations(f"2001:db8:1:2::{n + 1:x}", now=NOON)
    with pytest.raises(LeaguesTooFast):
        limit_league_creations("2001:db8:1:2:abcd::1", now=NOON)
    limit_league_creations("2001:db8:1:3::1", now=NOON)  # the next /64 is another client


def test_practice_checks_from_one_ipv6_64_count_against_one_network(settings):
    settings.PRACTICE_CHECKS_PER_MINUTE = 2
    practice_limit(1, "2001:db8:1:2::1", now=NOON)
    practice_limit(2, "2001:db8:1:2::2", now=NOON)
    with pytest.raises(ChecksTooFast, match="your network"):
        practice_limit(3, "2001:db8:1:2::3", now=NOON)
    practice_limit(3, "2001:db8:9:9::3", now=NOON)


def test_a_refund_gives_back_one_count_of_its_own_window():
    assert hourly_wait("things", "203.0.113.7", 1, now=NOON) is None
    hourly_refund("things", "203.0.113.7", NOON)
    hourly_refund("things", "203.0.113.7", NOON + 3600)  # a window with no count: nothing to give back
    assert hourly_wait("things", "203.0.113.7", 1, now=NOON + 1) is None
    assert hourly_wait("things", "203.0.113.7", 1, now=NOON + 2) == 3598
