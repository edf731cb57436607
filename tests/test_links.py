"""Addresses kept once reversed (puzzles/links.py, {% link %}): the same as reverse() and {% url %}."""

from __future__ import annotations

import datetime

from django.template import Context, Template
from django.test import override_settings
from django.urls import path, reverse

from puzzles import links


def test_a_kept_address_is_what_reverse_gives_and_is_reversed_once():
    day = datetime.date(2026, 11, 26)
    links._reversed.cache_clear()
    assert links.link("puzzles:daily", day, "easy") == reverse("puzzles:daily", args=[day, "easy"])
    assert links.link("puzzles:replay", day, "hard", 17) == reverse("puzzles:replay", args=[day, "hard", 17])
    assert links.link("puzzles:daily", day, "easy") == reverse("puzzles:daily", args=[day, "easy"])
    assert links._reversed.cache_info().hits == 1 and links._reversed.cache_info().misses == 2


def test_the_tag_draws_what_url_draws_and_keeps_it_under_a_name():
    context = Context({"day": datetime.date(2026, 1, 2), "tier": "expert"})
    drawn = Template("{% load sudoku %}{% link 'puzzles:daily' day tier %}").render(context)
    assert drawn == Template("{% url 'puzzles:daily' day tier %}").render(context) == "/daily/2026-01-02/expert/"
    named = Template("{% load sudoku %}{% link 'puzzles:learn' as guide %}[{{ guide }}]").render(context)
    assert named == f"[{reverse('puzzles:learn')}]"


def elsewhere(request):  # pragma: no cover - never called, only reversed
    raise AssertionError


urlpatterns = [path("somewhere/else/", elsewhere, name="account_login")]


def test_another_url_configuration_is_not_answered_from_the_kept_addresses():
    real = links.link("account_login")
    assert real != "/somewhere/else/"
    with override_settings(ROOT_URLCONF=__name__):
        assert links.link("account_login") == "/somewhere/else/"
    assert links.link("account_login") == real == reverse("account_login")
