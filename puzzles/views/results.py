"""The results of a solve, under the board (a fragment board.js inserts) or as a page of their own.

Views fetch, call a domain module, render; the rules live in leaderboard.py, receipt.py, share.py
and review.py. Every player who solves reads them at once, so they are drawn the cheap way
(frames.py): the fragment once per daily and shape of standing, its page once per daily and kind
of reader, each filled with the player's own values; the parts the same for every player of a
day's board (its top rows, the receipt, how ranking works) drawn once per board and kept in this
process's memory; the player's review, drawn once when it was made, read from the shared cache.
"""

from __future__ import annotations

import datetime
import hashlib
from dataclasses import dataclass
from functools import lru_cache
from types import SimpleNamespace
from typing import Any

from django.contrib.messages import get_messages
from django.core.cache import cache, caches
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from ..accounts.guests import is_guest
from ..context_processors import site_urls
from ..fairplay import ranking, words
from ..links import link
from ..models import DailyPuzzle, Solve, site_today
from ..results import history
from ..results.drawing import grid_svg
from ..results.fastpath import Read, solve_read
from ..results.leaderboard import BOARD_SECONDS, Leaderboard, board_key, day_board, leaderboard_for, standing_of
from ..results.played import puzzle_played
from ..results.receipt import receipt_for
from ..results.review import review_expected
from ..results.review_part import review_part, review_part_key, review_waiting
from ..results.share import daily_url, share_for
from .frames import cut, filled, mark, marks
from .home import account_part
from .pages import served_or_404

local_cache = caches["local"]


def _navigated(request: HttpRequest) -> bool:
    """Whether the browser opened this address as a page, rather than a script fetching it.

    Browsers say so in Sec-Fetch-Mode; one too old to send it still asks for XHTML when it
    navigates, which a script's fetch (board.js asks for text/html alone) never does.
    """
    mode = request.META.get("HTTP_SEC_FETCH_MODE")
    if mode is not None:
        return mode == "navigate"
    return "application/xhtml+xml" in request.META.get("HTTP_ACCEPT", "")


@require_GET
@never_cache  # the leaderboard moves as others solve, and the fragment is one player's own
@vary_on_headers("Accept", "Sec-Fetch-Mode")
def results(request: HttpRequest, day: datetime.date, difficulty: str) -> HttpResponse:
    """The results of a solve: an HTML fragment for board.js to insert under the board, or, opened
    in the browser (a link, a bookmark), a page of the site around it. 404 until the player solved it.

    The same 404 for a logged-out visitor and a player who has not solved it: the receipt
    tells how the puzzle is solved, so it is never shown before the player's own solve.
    """
    daily = served_or_404(day, difficulty)
    page = _navigated(request)
    template = "puzzles/results.html" if page else "puzzles/_results.html"
    today, solve, read = site_today(), None, None
    if request.user.is_authenticated:
        # With its review, the player's recent solves (the share's streak is kept under them) and
        # the fingerprint of the day's board, in one query; the page draws the player's grid from
        # the attempt too.
        read = solve_read(request.user, daily, today, attempt=page)
        solve = read.solve
        if solve is not None:
            solve.daily, solve.user = daily, request.user  # already loaded, the daily with its puzzle
    if solve is None or read is None:
        return render(request, template, {"daily": daily, "solve": None}, status=404)
    shown = results_shown(solve, read, today)
    if not page:
        return HttpResponse(shown.html())
    title = f"Your solved {daily.difficulty} puzzle"
    drawing = grid_svg(daily.puzzle.givens, title, solve.attempt.digits)
    context = shown.context
    scripts: dict[str, bool] = {
        "review_script": not context["review_part"] and bool(context["review_expected"]),  # review.js asks again
        "verdict_script": context["standing"].checking,  # verdict.js asks again
    }
    if get_messages(request):  # shown once, so the page is drawn whole
        return render(request, template, {**context, **scripts, "drawing": drawing})
    frame = PageFrame(request.path, daily, "guest" if is_guest(request.user) else "player", **scripts)
    values = {"account": account_part(request, frame.reader), "drawing": drawing, "results": shown.html()}
    return HttpResponse(filled(_page_frame(frame), values))


# --- the results: what a solve shows, and its fragment --------------------------------------------


@dataclass(frozen=True)
class Shape:
    """What the fragment's template tests of a solve's results (the key its frame is kept under):
    the same daily and the same shape draw the same text around the player's own values."""

    daily: DailyPuzzle  # its date and difficulty: the same daily is the same key
    day_word: str  # "today's" or "that day's"
    checking: bool
    ranked: bool
    rank_shown: bool
    step: bool  # a step with its link after the verdict (the email page's, for a new account)
    ranked_time: bool
    rows: bool  # the board has ranked solves
    player_row: bool  # the player's own row below the top
    provisional: bool  # that row marked "new"
    one_solver: bool  # "1 ranked solve", no plural


@dataclass
class Shown:
    """A solve's results: the template's context, and the fragment's shape and values."""

    context: dict[str, Any]
    shape: Shape
    values: dict[str, Any]

    def html(self) -> SafeString:
        """The fragment (_results.html), filled in from its kept frame."""
        return mark_safe(filled(_fragment_frame(self.shape), self.values))


def results_shown(solve: Solve, read: Read, today: datetime.date) -> Shown:
    """Everything a solve's results show (the solve with its daily, user and review, as read)."""
    daily = solve.daily
    # The day's board, the same for every player (kept in this process too: its key names its
    # ranked solves), the player's streaks and their review drawn as HTML (review_part.py): all
    # kept, read at once.
    board_at = board_key(daily, read.fingerprint)
    everyones = local_cache.get(board_at)
    streaks_at, part_key = history.streaks_key(solve.user.pk, today, read.recent), review_part_key(solve)
    kept = cache.get_many([streaks_at, *([part_key] if part_key else []), *([board_at] if everyones is None else [])])
    if everyones is None:
        everyones = day_board(daily, fingerprint=read.fingerprint, found=kept.get(board_at))
        local_cache.set(board_at, everyones, BOARD_SECONDS)
    streak = history.kept_streaks(solve.user, today, read.recent, kept.get(streaks_at)).current
    standing = standing_of(solve, everyones, guest=is_guest(solve.user), today=today)
    provisional = ranking.is_provisional(read.rating)
    board = leaderboard_for(
        daily, user_id=solve.user.pk, board=everyones, standing=standing, solve=solve, provisional=provisional
    )
    day_word = "today's" if daily.date == today else "that day's"
    receipt_part, rules_part = _board_parts(board, day_word, today)
    share = share_for(solve, daily_url(daily), streak)
    context = {
        "board_rows": _board_rows(board),
        "receipt_part": receipt_part,
        "rules_part": rules_part,
        "daily": daily,
        "solve": solve,
        "share": share,
        "standing": standing,
        "board": board,
        "day_word": day_word,
        "replay_url": link("puzzles:replay", daily.date, daily.difficulty, solve.pk),
        "review_part": review_part(solve, kept.get(part_key)) if part_key else None,
        "review_expected": review_expected(solve),
    }
    row = board.player_row
    shape = Shape(
        daily,
        day_word,
        standing.checking,
        standing.ranked,
        standing.rank_shown,
        standing.step is not None,
        bool(standing.ranked_time),
        bool(board.rows),
        row is not None,
        row is not None and row.provisional,
        board.solvers == 1,
    )
    values = {
        "time": standing.time,
        "sentence": standing.sentence,
        "rank": standing.rank,
        "solvers": standing.solvers,
        **_step_values(standing.step),
        "ranked_time": standing.ranked_time,
        "replay_url": context["replay_url"],
        "share_title": share.title,
        "share_text": share.text,
        # While the review is being prepared (or there is none), the section says so.
        "review_part": context["review_part"] or review_waiting(solve),
        "receipt_part": receipt_part,
        "board_rows": context["board_rows"],
        "rules_part": rules_part,
        "board_solvers": board.solvers,
    }
    if row is not None:
        values.update(row_rank=row.rank, row_username=row.username, row_time=row.time)
    return Shown(context, shape, values)


# The parts of a step (words.Step), each a value of the fragment.
STEP_PARTS = ("before", "link", "after", "href")


def _step_values(step: words.Step | None) -> dict[str, str]:
    return {f"step_{part}": getattr(step, part) for part in STEP_PARTS} if step is not None else {}


@lru_cache(maxsize=512)
def _fragment_frame(shape: Shape) -> tuple[str, ...]:
    """_results.html drawn for a shape, a mark in place of each of the player's values, and cut
    there (frames.py). The player's row is the solve shown (one solve per player and daily): its
    replay link is the page's own."""
    standing = SimpleNamespace(
        checking=shape.checking,
        ranked=shape.ranked,
        rank_shown=shape.rank_shown,
        step=SimpleNamespace(**{part: mark(f"step_{part}") for part in STEP_PARTS}) if shape.step else None,
        ranked_time=mark("ranked_time") if shape.ranked_time else "",
        **marks("time", "sentence", "rank", "solvers"),
    )
    row = SimpleNamespace(
        rank=mark("row_rank"),
        username=mark("row_username"),
        time=mark("row_time"),
        provisional=shape.provisional,
        is_player=True,
        solve_id=True,
    )
    board = SimpleNamespace(
        rows=shape.rows,
        player_row=row if shape.player_row else None,
        solvers=1 if shape.one_solver else mark("board_solvers"),  # "1 ranked solve", else "n ... solves"
    )
    context = {
        "daily": shape.daily,
        "solve": True,
        "standing": standing,
        "board": board,
        "share": SimpleNamespace(title=mark("share_title"), text=mark("share_text")),
        "day_word": shape.day_word,
        **marks("replay_url", "review_part", "receipt_part", "board_rows", "rules_part"),
    }
    return cut(render_to_string("puzzles/_results.html", context))


# --- the parts the same for every player of a day's board -------------------------------------------


def _board_rows(board: Leaderboard) -> SafeString:
    """The board's top rows as HTML, drawn once per board and highlighted player (most players are
    below the top, and share one drawing) and kept in this process's memory: the key names the
    day's ranked solves, so a drawing is never of an older board."""
    highlighted = next((row.solve_id for row in board.rows if row.is_player), None)
    key = f"board-rows:{board.key}:{highlighted}"
    rows = local_cache.get(key)
    if rows is None:
        rows = mark_safe(render_to_string("puzzles/_board_rows.html", {"board": board, "daily": board.daily}))
        local_cache.set(key, rows, BOARD_SECONDS)
    return rows


def _board_parts(board: Leaderboard, day_word: str, today: datetime.date) -> tuple[SafeString, SafeString]:
    """The receipt (what the puzzle took, its median) and how ranking works, as HTML: the same for
    every player of the day's board, so drawn once per board and kept in this process's memory.
    How the puzzle played (once its day is over) joins the key, as a task moves it."""
    played = puzzle_played(board.daily.puzzle, today)  # None until the puzzle's day is over
    # A digest of the day's word and how it played, as their text ("that day's", a dataclass's
    # repr) holds spaces a cache key should not.
    words = hashlib.blake2b(f"{day_word}|{played!r}".encode(), digest_size=8).hexdigest()
    key = f"results-parts:{board.key}:{words}"
    parts = local_cache.get(key)
    if parts is None:
        context = {"receipt": receipt_for(board.daily, board), "day_word": day_word, "played": played, "board": board}
        parts = tuple(
            mark_safe(render_to_string("puzzles/_results_shared.html", {**context, "part": part}).strip())
            for part in ("receipt", "rules")
        )
        local_cache.set(key, parts, BOARD_SECONDS)
    return parts


# --- the results page -------------------------------------------------------------------------------


@dataclass(frozen=True)
class PageFrame:
    """Everything a solved player's results page shows around its parts: the key it is kept under."""

    path: str
    daily: DailyPuzzle  # its date and difficulty: the same daily is the same key
    reader: str  # "player" or "guest": the header's links differ
    review_script: bool
    verdict_script: bool


@lru_cache(maxsize=256)
def _page_frame(frame: PageFrame) -> tuple[str, ...]:
    """The page drawn without a request, a mark in each of the reader's parts, and cut there (as
    the home page's frame, views/home.py)."""
    context = {
        "daily": frame.daily,
        "solve": True,
        "review_script": frame.review_script,
        "verdict_script": frame.verdict_script,
        "user": {"is_authenticated": True},
        "is_guest": frame.reader == "guest",
        "request": {"path": frame.path},
        "site_urls": site_urls(HttpRequest())["site_urls"],
        **marks("account", "drawing", "results"),
    }
    return cut(render_to_string("puzzles/results.html", context))
