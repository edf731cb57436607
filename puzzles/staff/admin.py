"""The staff side: the pool dashboard, puzzles, dailies, and importing puzzles from a file.

Views here fetch, call a service, render; the work itself is in pools.py, importing.py and
the Celery tasks.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from ..accounts.logins import AdminLoginForm, admin_login_limited
from ..durations import duration_or_dash
from ..fairplay import review  # noqa: F401
from ..models import TIER_ORDER, DailyPuzzle, Pool, Puzzle, SeedBatch, site_today

# solve_admin registers the solves' admin (their review) as it is imported.
from ..pipeline import broker, pools, publishing, tasks
from ..pipeline.scores import score_text
from . import dashboard, importing, played, players  # noqa: F401  (players registers the user admin)
from .forms import DailyScheduleForm, ImportForm, RequeueForm, SeedForm

SUBSTITUTES_SHOWN_DAYS = 14
RECENT_BATCHES = 10

# The admin index gains links to the pool dashboard and the import page (the template only
# extends Django's own index).
admin.site.index_template = "admin/puzzles/index.html"
# The site's name in the header (templates/admin/base_site.html draws it beside the mark) and in
# the browser's tab, instead of Django's "Django administration" and "Django site admin".
admin.site.site_header = "Daily Sudoku administration"
admin.site.site_title = "Daily Sudoku admin"
# The admin's log-in checks a password as the site's does, behind the same per-address and
# per-account limits (accounts/logins.py): otherwise it would be the one door a guesser could
# knock at without end, for a staff account at that.
admin.site.login_form = AdminLoginForm
admin.site.login = admin_login_limited(admin.site.login)  # type: ignore[method-assign]


# --- small renderers and queries used by the pages below ----------------------------------------


def grid_table(digits: str, label: str) -> SafeString:
    """A 9x9 HTML table of an 81-digit grid, empty cells blank; every value is escaped."""

    def cells(row: int) -> SafeString:
        return format_html_join("", "<td>{}</td>", ((d if d != "0" else "",) for d in digits[row * 9 : row * 9 + 9]))

    rows = format_html_join("", "<tr>{}</tr>", ((cells(row),) for row in range(9)))
    return format_html('<table class="sudoku-preview" aria-label="{}"><tbody>{}</tbody></table>', label, rows)


# --- pools and their dashboard ------------------------------------------------------------------


@admin.register(Pool)
class PoolAdmin(admin.ModelAdmin):
    list_display = ("tier", "target", "available")
    list_editable = ("target",)
    readonly_fields = ("tier",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # one pool per tier, created on first use by pools.pool_get

    def has_delete_permission(self, request: HttpRequest, obj: Pool | None = None) -> bool:
        return False

    def changelist_view(self, request: HttpRequest, extra_context: dict | None = None) -> HttpResponse:
        # Pools are created lazily; make sure every tier's target is there to edit.
        for tier in TIER_ORDER:
            pools.pool_get(tier)
        return super().changelist_view(request, extra_context)

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view
        return [
            path("dashboard/", view(self.dashboard_view), name="puzzles_pool_dashboard"),
            path("dashboard/live/", view(self.dashboard_live_view), name="puzzles_pool_dashboard_live"),
            path("dashboard/requeue/", view(self.requeue_view), name="puzzles_pool_dashboard_requeue"),
        ] + super().get_urls()

    def _live_context(self) -> dict[str, Any]:
        """The parts of the dashboard that change while workers make puzzles."""
        batches = list(SeedBatch.objects.all()[:RECENT_BATCHES])
        return {
            "rows": dashboard.pool_rows(),
            "band_rows": dashboard.band_rows(),
            "batches": batches,
            "unfinished": sum(1 for b in batches if not b.done),
            "requeue_form": RequeueForm(),
        }

    def dashboard_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied
        form = SeedForm(request.POST or None)
        if request.method == "POST":
            if not self.has_change_permission(request):
                raise PermissionDenied
            if form.is_valid():
                data = form.cleaned_data
                try:
                    batch = pools.seed_batch_create(
                        data["tier"], data["count"], filler=data["filler"], symmetry=data["symmetry"]
                    )
                except ValueError as exc:  # the form's choices should make this unreachable
                    form.add_error(None, str(exc))
                else:
                    self._enqueue(request, batch)
                    # Redirect after POST, so a reload cannot record the batch twice.
                    return redirect("admin:puzzles_pool_dashboard")
        today = site_today()
        reachable, broker_sentence = broker.broker_status()
        context = {
            **self.admin_site.each_context(request),
            **self._live_context(),
            "title": "Pool dashboard",
            "opts": self.opts,
            "form": form,
            "can_seed": self.has_change_permission(request),
            "broker_reachable": reachable,
            "broker_sentence": broker_sentence,
            "days_ahead": settings.PUBLISH_DAYS_AHEAD,
            "horizon": today + datetime.timedelta(days=settings.PUBLISH_DAYS_AHEAD),
            "empty_slots": dashboard.empty_slots(today, settings.PUBLISH_DAYS_AHEAD),
            "scheduled": dashboard.scheduled_scores(today),
            "substitute_days": SUBSTITUTES_SHOWN_DAYS,
            "substitutes": dashboard.recent_substitutes(today, SUBSTITUTES_SHOWN_DAYS),
            **self._played_context(today),
        }
        return TemplateResponse(request, "admin/puzzles/pool/dashboard.html", context)

    def _played_context(self, today: datetime.date) -> dict[str, Any]:
        rows, off = played.tiers_against_play(today)
        since, until = played.window(today)
        return {
            "played_rows": rows,
            "played_off": off,
            "played_since": since,
            "played_until": until,
            "played_min_solves": played.FLAG_MIN_SOLVES,
            "played_max_deviation": played.FLAG_MAX_DEVIATION,
        }

    def dashboard_live_view(self, request: HttpRequest) -> HttpResponse:
        """Only the pool table and the batches, fetched by the dashboard while work is under way."""
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied
        context = {**self._live_context(), "can_seed": self.has_change_permission(request)}
        return TemplateResponse(request, "admin/puzzles/pool/_live.html", context)

    def requeue_view(self, request: HttpRequest) -> HttpResponse:
        """Hand an unfinished batch to the workers again, e.g. once the broker is back.

        Harmless when the batch is still being worked on: each store claims one unit of the
        batch, so a second task only shares the work.
        """
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not self.has_change_permission(request):
            raise PermissionDenied
        form = RequeueForm(request.POST)
        batch = None
        if form.is_valid():
            batch = SeedBatch.objects.filter(pk=form.cleaned_data["batch"]).first()
        if batch is None:
            messages.error(request, "There is no such seed batch.")
        elif batch.done:
            messages.info(request, f"Batch #{batch.pk} is already complete.")
        else:
            self._enqueue(request, batch)
        return redirect("admin:puzzles_pool_dashboard")

    def _enqueue(self, request: HttpRequest, batch: SeedBatch) -> None:
        what = f"{batch.requested} {batch.tier} puzzles ({batch.filler}, symmetry {batch.symmetry})"
        queued, reason = broker.enqueue(lambda: tasks.seed_batch_enqueue(batch.pk))
        if queued:
            messages.success(request, f"Batch #{batch.pk} is queued: {what}.")
        else:
            messages.error(
                request,
                f"Batch #{batch.pk}, {what}, is recorded but nobody is working on it. {reason} "
                "Once the broker is back, press “Queue again” next to the batch.",
            )


# --- puzzles ------------------------------------------------------------------------------------


@admin.register(Puzzle)
class PuzzleAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "tier",
        "score_shown",
        "played_in_list",
        "clues",
        "hardest",
        "filler",
        "symmetry",
        "used",
        "created",
    )
    list_select_related = ("played",)
    list_filter = ("tier", "filler", "symmetry", "used")
    search_fields = ("givens",)
    date_hierarchy = "created"
    # The tier stays editable, for the rare puzzle staff judge differently from the rater;
    # everything else is a fact about how the puzzle was made or whether it was published.
    readonly_fields = (
        "givens_grid",
        "solution_grid",
        "givens",
        "solution",
        "published_as",
        "score_shown",
        "hardest",
        "techniques",
        "clues",
        "filler",
        "symmetry",
        "generation_ms",
        "created",
        "used",
        "played_rating",
        "played_deviation",
        "rated_solves",
        "median_time",
    )
    fieldsets = (
        (None, {"fields": (("givens_grid", "solution_grid"), "tier", "published_as")}),
        ("Rating", {"fields": ("score_shown", "hardest", "techniques", "clues")}),
        ("As played (rated solves)", {"fields": ("played_rating", "played_deviation", "rated_solves", "median_time")}),
        ("How it was made", {"fields": ("filler", "symmetry", "generation_ms", "created", "used")}),
        ("As text", {"fields": ("givens", "solution"), "classes": ("collapse",)}),
    )

    class Media:
        css = {"all": ("css/admin-extra.css",)}

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # puzzles come from the pipeline or the import page, never from a blank form

    def get_search_results(self, request: HttpRequest, queryset: QuerySet, search_term: str) -> tuple[QuerySet, bool]:
        # Grids are often pasted with '.' for empty cells; the database stores '0'.
        return super().get_search_results(request, queryset, search_term.replace(".", "0"))

    @admin.display(description="Givens")
    def givens_grid(self, puzzle: Puzzle) -> SafeString:
        return grid_table(puzzle.givens, f"Givens of puzzle {puzzle.pk}")

    @admin.display(description="Solution")
    def solution_grid(self, puzzle: Puzzle) -> SafeString:
        return grid_table(puzzle.solution, f"Solution of puzzle {puzzle.pk}")

    @admin.display(description="score", ordering="score")
    def score_shown(self, puzzle: Puzzle) -> str:
        return score_text(puzzle.score)

    @staticmethod
    def _play(puzzle: Puzzle) -> played.PuzzlePlay:
        # The four fields of "As played" share one reading, kept on the instance for this page.
        if "_play" not in puzzle.__dict__:
            puzzle.__dict__["_play"] = played.puzzle_play(puzzle)
        return puzzle.__dict__["_play"]

    @admin.display(description="Played rating")
    def played_rating(self, puzzle: Puzzle) -> str:
        rating = self._play(puzzle).rating
        return "not rated yet" if rating is None else f"{rating:.0f}"

    @admin.display(description="Its deviation")
    def played_deviation(self, puzzle: Puzzle) -> str:
        deviation = self._play(puzzle).deviation
        return "not rated yet" if deviation is None else f"± {deviation:.0f}"

    @admin.display(description="Rated solves")
    def rated_solves(self, puzzle: Puzzle) -> int:
        return self._play(puzzle).solves

    @admin.display(description="Median solve time")
    def median_time(self, puzzle: Puzzle) -> str:
        return duration_or_dash(self._play(puzzle).median_seconds)

    @admin.display(description="played rating", ordering="played__rating")
    def played_in_list(self, puzzle: Puzzle) -> str:
        played_row = getattr(puzzle, "played", None)  # no row until its first rated solve
        return f"{played_row.rating:.0f}" if played_row and played_row.solves else "not rated"

    @admin.display(description="Published as")
    def published_as(self, puzzle: Puzzle) -> str:
        daily = DailyPuzzle.objects.filter(puzzle=puzzle).first()
        if daily is None:
            return "not published"
        url = reverse("admin:puzzles_dailypuzzle_change", args=[daily.pk])
        return format_html('<a href="{}">the {} daily of {}</a>', url, daily.difficulty, daily.date)

    def get_urls(self) -> list[URLPattern]:
        return [
            path("import/", self.admin_site.admin_view(self.import_view), name="puzzles_puzzle_import"),
        ] + super().get_urls()

    def import_view(self, request: HttpRequest) -> HttpResponse:
        # has_add_permission() is False only to hide the blank add form; importing is adding.
        if not request.user.has_perm("puzzles.add_puzzle"):
            raise PermissionDenied
        form = ImportForm(request.POST or None, request.FILES or None)
        report = None
        if request.method == "POST" and form.is_valid():
            # The report is rendered in reply to the POST rather than after a redirect: it can
            # be long, and importing the same file again is harmless (duplicates are skipped).
            report = importing.puzzles_import(form.cleaned_data["file"])
            form = ImportForm()
        context = {
            **self.admin_site.each_context(request),
            "title": "Import puzzles from a text file",
            "opts": self.opts,
            "form": form,
            "report": report,
        }
        return TemplateResponse(request, "admin/puzzles/puzzle/import.html", context)


# --- dailies ------------------------------------------------------------------------------------


@admin.register(DailyPuzzle)
class DailyPuzzleAdmin(admin.ModelAdmin):
    form = DailyScheduleForm
    list_display = ("date", "difficulty", "puzzle", "puzzle_tier", "substitute")
    list_filter = ("difficulty", "substitute")
    list_select_related = ("puzzle",)
    date_hierarchy = "date"
    raw_id_fields = ("puzzle",)

    def has_change_permission(self, request: HttpRequest, obj: DailyPuzzle | None = None) -> bool:
        # Editing a published daily would leave its old puzzle marked used and skip the rules
        # of scheduling; a daily is scheduled (added) or deleted, and otherwise only viewed.
        return False

    @admin.display(description="puzzle's tier", ordering="puzzle__tier")
    def puzzle_tier(self, daily: DailyPuzzle) -> str:
        return daily.puzzle.get_tier_display()

    def save_model(self, request: HttpRequest, obj: DailyPuzzle, form: DailyScheduleForm, change: bool) -> None:
        # The service is the one place that marks the puzzle used along with publishing it.
        scheduled = publishing.daily_schedule(obj.puzzle, obj.date, obj.difficulty)
        obj.pk = scheduled.pk
        obj.refresh_from_db()

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context: dict | None = None) -> HttpResponse:
        try:
            return super().add_view(request, form_url, extra_context)
        except publishing.SlotTaken as exc:
            # Reached only when someone else took the slot or the puzzle between the form's
            # check and the save; the admin's transaction has rolled back.
            self.message_user(request, f"Not scheduled: {exc}.", messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())
