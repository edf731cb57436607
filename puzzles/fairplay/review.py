"""The admin's solves: where held solves wait for their review (ranking.py holds the rule, judge.py applies it).

Imported by admin.py, which Django's admin discovers; the @admin.register below does the rest.
"""

from __future__ import annotations

from collections import Counter

from django.contrib import admin, messages
from django.db.models import Case, IntegerField, Q, QuerySet, When
from django.http import HttpRequest, HttpResponse
from django.template.defaultfilters import pluralize
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from ..durations import format_duration
from ..models import Solve
from ..record_of_play.moves import unpack
from . import copies, history, judge, ranking, words


class ReviewFilter(admin.SimpleListFilter):
    """Held solves by where their review stands."""

    title = "review"
    parameter_name = "review"
    WAITING = "waiting"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [
            (self.WAITING, "held, waiting for review"),
            (Solve.Review.APPROVED, "approved"),
            (Solve.Review.DISQUALIFIED, "disqualified"),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() == self.WAITING:
            return queryset.filter(WAITING)
        if self.value() in (Solve.Review.APPROVED, Solve.Review.DISQUALIFIED):
            return queryset.filter(review=self.value())
        return queryset


class UnrankedFilter(admin.SimpleListFilter):
    """Solves by why their record of play earns no rank (ranking.REASON_CODES), or that it is not
    judged yet (ranking.CHECKING)."""

    title = "not ranked because"
    parameter_name = "unranked"
    EARNS = "none"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        codes = (*ranking.REASON_CODES, ranking.CHECKING)
        return [(self.EARNS, "the record earns a rank"), *((code, code) for code in codes)]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() == self.EARNS:
            return queryset.filter(unranked="")
        if self.value() in (*ranking.REASON_CODES, ranking.CHECKING):
            return queryset.filter(unranked=self.value())
        return queryset


def _replay_address(solve: Solve) -> str:
    return reverse("puzzles:replay", args=[solve.daily.date, solve.daily.difficulty, solve.pk])


def _placement(placements: list[copies.Placement], index: int) -> tuple[str, str]:
    """One placement as the side by side shows it: its cell (r1c1 at the top left) and digit, and
    its time since the first; blanks past the end."""
    if index >= len(placements):
        return "", ""
    cell, digit, seconds = placements[index]
    return f"r{cell // 9 + 1}c{cell % 9 + 1} = {digit}", f"{seconds - placements[0][2]:.1f} s"


HISTORY_HEADINGS = ("puzzle", "ranked time", "expected", "rating after", "review")

# Held for review and not yet reviewed: what an admin has to look at.
WAITING = Q(flagged=True, review=Solve.Review.NONE)


@admin.register(Solve)
class SolveAdmin(admin.ModelAdmin):
    """Recorded solves. Held ones (faster than a floor, ranking.py) wait here for a review.

    Times and the fair-play verdict are the server's and stay read-only; the one decision an
    admin makes is the review: approve a held solve (it then joins the leaderboard) or
    disqualify any solve (it leaves the board, and its player is told on their results).
    """

    # Short columns, so the list with its filters fits a 1280 px screen.
    list_display = (
        *("user", "daily", "time", "ranked_time", "was_late", "was_helped"),
        *("review_state", "why_unranked"),
    )
    list_filter = (ReviewFilter, UnrankedFilter, "late", "assisted", "daily__difficulty")
    list_select_related = ("user", "daily")
    search_fields = ("user__username",)
    date_hierarchy = "solved_at"
    # Solves waiting for review first, so they are the first thing an admin sees.
    ordering = (Case(When(WAITING, then=1), default=0, output_field=IntegerField()).desc(), "-solved_at")  # type: ignore[assignment]  # the admin orders by expressions too; the stubs allow only names
    fieldsets = (
        (None, {"fields": ("user", "daily", "attempt", "solved_at", ("late", "assisted"))}),
        ("Fair play", {"fields": (("time", "ranked_time"), "unranked_reason", "flagged", "held_reason", "review")}),
        ("Record of play", {"fields": ("record_summary", "move_timing", "replay", "copy_of")}),
        ("The player's history", {"fields": ("player_rating", "player_history")}),
    )
    readonly_fields = (
        *("user", "daily", "attempt", "time", "ranked_time", "solved_at", "late", "assisted"),
        *("unranked_reason", "flagged", "held_reason", "record_summary", "move_timing", "replay", "copy_of"),
        *("player_rating", "player_history"),
    )
    actions = ("approve", "disqualify")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a solve is recorded by submitting the grid, never typed in

    @admin.display(description="time", ordering="seconds")
    def time(self, solve: Solve) -> str:
        """The player's clock as every clock of the site shows it (4:05, 1:02:03), not the stored float."""
        return format_duration(solve.seconds)

    @admin.display(description="ranked", ordering=ranking.RANK_TIME)
    def ranked_time(self, solve: Solve) -> str:
        """The time the leaderboard ranks by: the solve's clock (older solves: the time they were ranked by)."""
        return format_duration(ranking.rank_time(solve))

    # The flags under one-word headings: the fields' own names ("with hints or checks") make
    # columns wider than their ticks.
    @admin.display(description="late", boolean=True, ordering="late")
    def was_late(self, solve: Solve) -> bool:
        return solve.late

    @admin.display(description="help", boolean=True, ordering="assisted")
    def was_helped(self, solve: Solve) -> bool:
        return solve.assisted

    @admin.display(description="unranked", ordering="unranked")
    def why_unranked(self, solve: Solve) -> str:
        """The record's reason code (no-record, too-fast ...), under a one-word heading."""
        return solve.unranked

    @admin.display(description="review", ordering="review")
    def review_state(self, solve: Solve) -> str:
        """One word: held (waiting for review), approved or disqualified; nothing for the rest."""
        if solve.review:
            return solve.get_review_display()
        return "held" if solve.flagged else ""

    @admin.display(description="solved", ordering="solved_at")
    def solved(self, solve: Solve) -> str:
        """When, in the site's time zone, in a few characters: 22 Nov 2026 18:55."""
        moment = timezone.localtime(solve.solved_at)
        return f"{moment.day} {moment:%b %Y %H:%M}"

    @admin.display(description="not ranked because")
    def unranked_reason(self, solve: Solve) -> str:
        if not solve.unranked:
            return "the record earns a rank"
        return f"{solve.unranked}: {words.reason(solve.unranked)}"

    @admin.display(description="record")
    def record_summary(self, solve: Solve) -> SafeString:
        """What the record of play holds: its events by kind, its moves, the digits each write placed."""
        events = judge.record_of(solve)
        if not events:
            return format_html("{}", "No record of play.")
        kinds = Counter(event.get_kind_display() for event in events)
        moves = sum(len(unpack(event.moves)) for event in events)
        writes = [event for event in events if event.kind in judge.WRITES]
        placed = ", ".join(str(event.placed) for event in writes) or "none"
        return format_html(
            "{} event{}: {}.<br>{} move{}.<br>Digits placed by each save, the submit last: {}.",
            len(events),
            pluralize(len(events)),
            ", ".join(f"{count} {kind}" for kind, count in kinds.items()),
            moves,
            pluralize(moves),
            placed,
        )

    @admin.display(description="held because")
    def held_reason(self, solve: Solve) -> str:
        """Which hold rule caught it (Solve.held), in words with the numbers in force."""
        if not solve.flagged:
            return "not held"
        return f"{solve.held}: {words.held_for_admin(solve.held)}" if solve.held else "held (before reasons were kept)"

    @admin.display(description="timing")
    def move_timing(self, solve: Solve) -> str:
        """The digits' pace in brief: the median gap between them and the longest pauses."""
        timing = history.timing_of(solve)
        if timing.median_gap is None:
            return f"{timing.digits} digit{pluralize(timing.digits)} with a time."
        longest = ", ".join(f"{gap:.1f} s" for gap in timing.longest)
        return f"{timing.digits} digits; median gap {timing.median_gap:.2f} s; longest gaps {longest}."

    @admin.display(description="rating")
    def player_rating(self, solve: Solve) -> str:
        """The player's rating as it stands, and whether it is still provisional."""
        return history.rating_line(solve.user_id)

    @admin.display(description="recent solves")
    def player_history(self, solve: Solve) -> SafeString:
        """The player's latest solves before this one: time, expected time, rating after, held or not."""
        rows = history.recent_solves(solve)
        if not rows:
            return format_html("{}", "No earlier solve.")
        head = format_html("<tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>", *HISTORY_HEADINGS)
        body = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    past.daily,
                    format_duration(past.seconds),
                    format_duration(past.expected) if past.expected is not None else "not rated",
                    f"{past.rating[0]:.0f} ± {past.rating[1]:.0f}" if past.rating else "",
                    "held" if past.held else "",
                )
                for past in rows
            ),
        )
        return format_html("<table>{}{}</table>", head, body)

    @admin.display(description="replay")
    def replay(self, solve: Solve) -> SafeString:
        """A link to the solve's replay (staff may watch any, held ones above all)."""
        return format_html('<a href="{}">Watch the replay</a>', _replay_address(solve))

    @admin.display(description="a copy of")
    def copy_of(self, solve: Solve) -> SafeString:
        """For a solve held as a copy (copies.py), the solve it repeats, its player, and the two
        placement sequences side by side, each digit with its time since the first."""
        if solve.held != ranking.COPY:
            return format_html("{}", "Not held as a copy.")
        other = copies.copied_from(solve)
        if other is None:
            return format_html("{}", "Held as a copy, but no earlier solve it repeats is left (deleted?).")
        mine, theirs = (copies.unpack(getattr(copies.placements_of(s), "placements", b"")) for s in (solve, other))
        head = format_html(
            '<tr><th>#</th><th colspan="2">this solve, {} (<a href="{}">replay</a>)</th>'
            '<th colspan="2"><a href="{}">solve {}</a>, {} (<a href="{}">replay</a>)</th></tr>',
            solve.user,
            _replay_address(solve),
            reverse("admin:puzzles_solve_change", args=[other.pk]),
            other.pk,
            other.user,
            _replay_address(other),
        )
        body = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            ((n + 1, *_placement(mine, n), *_placement(theirs, n)) for n in range(max(len(mine), len(theirs)))),
        )
        return format_html("<table>{}{}</table>", head, body)

    def changelist_view(self, request: HttpRequest, extra_context: dict | None = None) -> HttpResponse:
        waiting = Solve.objects.filter(WAITING).count()
        if waiting and ReviewFilter.parameter_name not in request.GET:
            self.message_user(
                request,
                format_html(
                    '{} solve{} held for review: <a href="?{}={}">see the held solves</a>.',
                    waiting,
                    "s are" if waiting > 1 else " is",
                    ReviewFilter.parameter_name,
                    ReviewFilter.WAITING,
                ),
                messages.WARNING,
            )
        return super().changelist_view(request, extra_context)

    @admin.action(description="Approve (a held solve joins the leaderboard)", permissions=["change"])
    def approve(self, request: HttpRequest, queryset: QuerySet) -> None:
        count = queryset.update(review=Solve.Review.APPROVED)
        self.message_user(request, f"Approved {count} solve{pluralize(count)}.")

    @admin.action(description="Disqualify (off the leaderboard; the player is told)", permissions=["change"])
    def disqualify(self, request: HttpRequest, queryset: QuerySet) -> None:
        count = queryset.update(review=Solve.Review.DISQUALIFIED)
        self.message_user(request, f"Disqualified {count} solve{pluralize(count)}.")
