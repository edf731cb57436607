"""The technique guide: /learn/ lists the techniques by tier with the words the site uses, and
/learn/<name>/ explains one technique with a worked example from the engine. The examples are
read from the committed file (puzzles/learn/examples.json); no request searches for one."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from ..engine import technique_phrase
from ..learn import board, figures, guide
from ..practice.pool import PRACTISED, servable
from .offline import kept_offline


@require_GET
@kept_offline
def learn(request: HttpRequest) -> HttpResponse:
    """Every technique by tier, after the words a player meets on the board and in hints."""
    return render(request, "learn/index.html", {"tiers": guide.by_tier(), "houses_figure": figures.houses_svg()})


def _practise(name: str) -> str:
    """ "ready" when the technique has practice positions to serve; while its pool is empty,
    "starting" on a site that has none for any technique yet (its first minutes: the dailies'
    pools fill first) and "waiting" otherwise (a technique the generator meets rarely); "" when it
    has no practice at all."""
    if name not in PRACTISED:
        return ""
    if servable().filter(technique=name).exists():
        return "ready"
    return "waiting" if servable().exists() else "starting"


@require_GET
@kept_offline
def learn_technique(request: HttpRequest, name: str) -> HttpResponse:
    """One technique: its words, its worked example, its place among the others."""
    found = guide.entry_of(name)
    if found is None:
        raise Http404("There is no technique of that name in the guide.")
    entry, before, after = found
    context = {
        "entry": entry,
        "before": before,
        "after": after,
        "drawing": board.drawing_of(entry.example) if entry.example else None,
        "first_phrase": technique_phrase(entry.example.first) if entry.example and entry.example.first else "",
        "practise": _practise(name),
    }
    return render(request, "learn/technique.html", context)
