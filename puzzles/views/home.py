"""Today's puzzles: a card per difficulty with the player's status on each, their streak,
yesterday's results and their leagues.

Most of the page is the same for everyone, and what is a player's own takes few shapes: a card
is drawn from its puzzle and what the player did on it, the record from a few numbers, and the
page around them (its frame) differs only by the kind of reader. So each is drawn once for what
it shows and kept in this process's memory (a player's position is one more thing a card shows);
a request reads the player's attempts and leagues, draws the header's account part, and puts
the parts in the frame.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.defaultfilters import pluralize
from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from ..accounts.guests import is_guest
from ..context_processors import site_urls
from ..engine import TECHNIQUES, technique_phrase
from ..fairplay.ranking import day_medians
from ..leagues import boards
from ..models import TIER_ORDER, Attempt, DailyPuzzle, Membership, Pool, site_today
from ..pipeline.dailies import dailies_of
from ..results import history
from ..results.drawing import entries_of, grid_svg
from ..results.fastpath import attempts_written_out
from .frames import cut, filled, marks
from .offline import kept_offline

# What each difficulty asks of a player, on its card: the techniques it names, easiest first,
# from the engine's catalogue; the rest of the tier's techniques are counted ("and 3 more").
CARD_TECHNIQUES = {
    "easy": ("hidden-single", "naked-single"),
    "medium": ("pointing", "claiming", "naked-pair", "hidden-pair"),
    "hard": ("x-wing", "swordfish", "skyscraper", "xy-wing"),
    "expert": ("x-chain", "simple-colouring", "xy-chain", "als-xz"),
    "extreme": ("nishio", "cell-forcing-chain", "unit-forcing-chain"),
}
# A day's median time shows on a card from this many ranked solves: one solve is not a median.
CARD_MEDIAN_MIN_SOLVES = 3
# The cards' medians are worked out at most this often (one query for the five), then cached.
CARD_MEDIANS_SECONDS = 300
# Whether a player is in any league is kept this long (dropped whenever one of their memberships
# changes, models/leagues.py), so the home page of a player in none asks nothing about leagues.
IN_A_LEAGUE_SECONDS = 3600
# How many drawn cards and records this process keeps: a card not started is one for everyone,
# a solved one differs by its time, one in progress by the player's position.
DRAWN_KEPT = 4096


def card_techniques(tier: str) -> str:
    """card_techniques("medium") -> "Adds pointing, claiming, naked pair, hidden pair and 3 more.":
    the first tier "asks for" its techniques, each other one "adds" its own to those before it."""
    named = [technique_phrase(name).split(" ", 1)[1] for name in CARD_TECHNIQUES[tier]]
    more = sum(t.tier == tier for t in TECHNIQUES) - len(named)
    if more:
        named.append(f"{more} more")
    listed = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
    return f"{'Asks for' if tier == TIER_ORDER[0] else 'Adds'} {listed}."


CARD_ASKS = {tier: card_techniques(tier) for tier in TIER_ORDER}


@dataclass(frozen=True)
class Card:
    """Everything one card shows, and nothing else: the key its drawing is kept under."""

    tier: str
    day: datetime.date | None  # the daily's date; None while it is not published
    givens: str
    preparing: bool  # not published because its pool is being filled for the first time
    median: float | None
    status: str  # "", "started" or "solved"
    seconds: float | None  # the solve's time, or the time so far
    digits: str  # the player's position, "" before they start


def _medians_key(today: datetime.date, dailies: dict[str, DailyPuzzle]) -> str:
    return f"home-medians:{today}:{','.join(str(d.pk) for d in dailies.values())}"


def _card_medians(today: datetime.date, dailies: dict[str, DailyPuzzle], kept: dict[str, Any]) -> dict[str, float]:
    """Today's median ranked time by difficulty, for those with enough ranked solves to have one;
    cached a few minutes, so the home page costs one query for them now and then, not one a card.
    `kept`: what the page read from the cache in one go (home_context)."""
    key = _medians_key(today, dailies)
    medians = kept.get(key)
    if medians is None:
        found = day_medians(list(dailies.values()))
        medians = {
            tier: found[daily.pk][0]
            for tier, daily in dailies.items()
            if daily.pk in found and found[daily.pk][1] >= CARD_MEDIAN_MIN_SOLVES
        }
        cache.set(key, medians, CARD_MEDIANS_SECONDS)
    return medians


def _card_drawing(card: Card) -> str:
    """The card's small drawing: the givens, with the player's own digits once they have any."""
    clues = sum(d != "0" for d in card.givens)
    if not card.status:
        return grid_svg(card.givens, f"The {card.tier} puzzle: {clues} givens")
    if card.status == "solved":
        title = f"Your solved {card.tier} puzzle"
    else:
        entries = sum(d != "0" for d in entries_of(card.givens, card.digits))
        title = f"Your {card.tier} puzzle: {clues} givens and {entries} of your digit{pluralize(entries)}"
    return grid_svg(card.givens, title, card.digits)


@lru_cache(maxsize=DRAWN_KEPT)
def _card_html(card: Card) -> SafeString:
    """The card drawn: the same for every player it shows the same to, so drawn once for them."""
    drawing = _card_drawing(card) if card.day else None
    context = {"card": card, "drawing": drawing, "asks": CARD_ASKS[card.tier]}
    return mark_safe(render_to_string("puzzles/_home_card.html", context))


def _card(tier: str, daily: DailyPuzzle | None, attempt: Attempt | None, preparing: bool, median: float | None) -> Card:
    """What one card shows: its puzzle, and the player's attempt at it if any."""
    if daily is None:
        return Card(tier, None, "", preparing, median, "", None, "")
    givens = daily.puzzle.givens
    if attempt is None:
        return Card(tier, daily.date, givens, False, median, "", None, "")
    if attempt.is_solved:
        return Card(tier, daily.date, givens, False, median, "solved", attempt.solve.seconds, attempt.digits)
    return Card(tier, daily.date, givens, False, median, "started", attempt.active_seconds, attempt.digits)


@lru_cache(maxsize=DRAWN_KEPT)
def _record_html(
    streaks: history.Streaks, yesterday: tuple[history.DayResult, ...], guest: bool, leagues: bool
) -> SafeString:
    """The streaks, yesterday's results and the links under them drawn: a function of these alone."""
    context = {
        "streaks": streaks,
        "yesterday": yesterday,
        "is_guest": guest,
        "leagues": leagues,
    }
    return mark_safe(render_to_string("puzzles/_home_record.html", context))


def _solved(attempts: dict[int, Attempt]) -> list[int]:
    """The ids of the solves among the player's attempts at today's and yesterday's dailies."""
    return [a.solve.pk for a in attempts.values() if a.is_solved]


def _streaks(user, today: datetime.date, attempts: dict[int, Attempt], kept: dict[str, Any]) -> history.Streaks:
    """The player's streaks, kept while their solves of today's and yesterday's dailies stay the
    same (history.kept_streaks; the results page's share reads the same copy)."""
    solved = _solved(attempts)
    return history.kept_streaks(user, today, solved, kept.get(history.streaks_key(user.pk, today, solved)))


def _in_a_league(user, kept: dict[str, Any]) -> bool:
    """Whether the player is in any league: asked of the database once, then kept until one of
    their memberships changes."""
    key = Membership.cache_key(user.pk)
    found = kept.get(key)
    if found is None:
        found = Membership.objects.filter(user=user).exists()
        cache.set(key, found, IN_A_LEAGUE_SECONDS)
    return found


def home_context(request: HttpRequest) -> dict[str, Any]:
    """Today's cards, one per difficulty, with the player's status on each; for a player, their
    streak, yesterday's results and their leagues too: each part drawn, for render_home.

    The dailies come through the caches (dailies.py), so a player's part is what costs: their
    attempts at today's and yesterday's dailies in one query, and what is kept for them in one
    read of the cache (the cards' medians, their streaks while their solves stay the same, whether
    they are in a league); a player in leagues pays the leagues' standings too."""
    today = site_today()
    yesterday = today - datetime.timedelta(days=1)
    dailies = dailies_of(today)
    attempts: dict[int, Attempt] = {}
    user = request.user
    if user.is_authenticated:
        before = dailies_of(yesterday)
        played = [d.pk for d in (*dailies.values(), *before.values())]
        # Only what the cards and yesterday's results show, in one written-out query.
        attempts = attempts_written_out(user.pk, played)
    guest = is_guest(user)
    keys = [_medians_key(today, dailies)]
    if user.is_authenticated:
        keys.append(history.streaks_key(user.pk, today, _solved(attempts)))
        if not guest:
            keys.append(Membership.cache_key(user.pk))
    kept = cache.get_many(keys)
    # A slot still empty because its pool is being filled for the first time (a site's first
    # minutes) says so, rather than "not published".
    preparing = Pool.objects.first_filling() if len(dailies) < len(TIER_ORDER) else set()
    medians = _card_medians(today, dailies, kept) if dailies else {}
    cards = []
    for tier in TIER_ORDER:
        daily = dailies.get(tier)
        attempt = attempts.get(daily.pk) if daily else None
        cards.append(_card_html(_card(tier, daily, attempt, tier in preparing, medians.get(tier))))
    context: dict[str, Any] = {
        "today": today,
        "cards": SafeString("\n    ".join(cards)),
        "waiting": len(dailies) < len(TIER_ORDER),
        "reader": "visitor",
        "record": "",
        "league_cards": "",
    }
    if user.is_authenticated:
        leagues = [] if guest or not _in_a_league(user, kept) else boards.home_cards(user, today)
        results = tuple(history.results_of(before.values(), attempts))
        context["reader"] = "guest" if guest else "player"
        context["record"] = _record_html(_streaks(user, today, attempts, kept), results, guest, bool(leagues))
        if leagues:
            context["leagues"] = True
            context["league_cards"] = render_to_string("puzzles/_league_cards.html", {"leagues": leagues})
    return context


# The parts of the page that are the reader's own, put in the frame as drawn.
READERS_PARTS = ("account", "cards", "record", "league_cards")


@dataclass(frozen=True)
class Frame:
    """Everything the page around the reader's parts shows: the key it is kept under."""

    path: str
    today: datetime.date
    reader: str  # "visitor", "guest" or "player": the header's links and the invitation differ
    leagues: bool  # their stylesheet
    waiting: bool  # for a puzzle not published yet
    preparing: str  # the difficulty a 503 is for (pages.daily_page), or ""


@lru_cache(maxsize=64)
def _frame(frame: Frame) -> tuple[str, ...]:
    """The page drawn without a request, a mark in each of the reader's parts, and cut there:
    text, a part's name, text, ... (so it can hold nothing of whoever asked first)."""
    # No request, and no user: the header and the invitation are told only the reader's kind.
    context = {
        "today": frame.today,
        "waiting": frame.waiting,
        "preparing": frame.preparing,
        "leagues": frame.leagues,
        "user": {"is_authenticated": frame.reader != "visitor"},
        "is_guest": frame.reader == "guest",
        "request": {"path": frame.path},
        "site_urls": site_urls(HttpRequest())["site_urls"],  # the same links for every request
        **marks(*READERS_PARTS),
    }
    return cut(render_to_string("puzzles/home.html", context))


# Where the log-out form's token goes in a kept account part: the token is the request's own.
TOKEN_MARK = "\x00csrf_token\x00"


@lru_cache(maxsize=DRAWN_KEPT)
def _account_drawn(name: str, reader: str, path: str) -> tuple[str, ...]:
    """The header's account part for a reader of that name and kind on that page, drawn without a
    request and cut where the log-out form's token goes (a visitor's and a guest's have no form)."""
    context = {
        "user": {"is_authenticated": reader != "visitor", "get_username": name},
        "is_guest": reader == "guest",
        "request": {"path": path},
        "site_urls": site_urls(HttpRequest())["site_urls"],
        "csrf_token": TOKEN_MARK,
    }
    return tuple(render_to_string("_account.html", context).split(TOKEN_MARK))


def account_part(request: HttpRequest, reader: str) -> SafeString:
    """The header's account part for this request: the kept drawing, with this request's token."""
    user = request.user
    parts = _account_drawn(user.get_username() if reader == "player" else "", reader, request.path)
    if len(parts) == 1:
        return mark_safe(parts[0])
    return mark_safe(escape(get_token(request)).join(parts))


def render_home(request: HttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    """The home page from home_context's parts: its frame kept for every reader of a kind, the
    header's account drawn for this one (kept by name and kind, less the request's token). A page
    with a message for its reader (rare: after logging out, say) is drawn whole, as the message
    is shown once."""
    context["account"] = account_part(request, context["reader"])
    if get_messages(request):
        return render(request, "puzzles/home.html", context, status=status)
    frame = Frame(
        request.path,
        context["today"],
        context["reader"],
        context.get("leagues", False),
        context["waiting"],
        context.get("preparing", ""),
    )
    return HttpResponse(filled(_frame(frame), context), status=status)


@kept_offline
def home(request: HttpRequest) -> HttpResponse:
    """Today's puzzles, one card per difficulty, with the player's status on each."""
    return render_home(request, home_context(request))
