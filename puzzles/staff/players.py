"""Players in the admin: Django's user admin, where a player's data is exported and deleted as the
player would from their account page (accounts/export.py, accounts/deletion.py), for a request
that came by mail; a download is logged against the player. Django's own deletion is closed: it would leave the player's name in the admin's
log, their sessions and their leagues' ownership behind. The deletion is logged as "a deleted
player", never by name or address."""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.template.response import TemplateResponse

from ..accounts import deletion
from ..accounts.export import export_download

User = get_user_model()
CONFIRMED = "confirmed"  # the confirmation page's field: the staff member has read what goes


class PlayerAdmin(UserAdmin):
    actions = ["export_player", "delete_players"]

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # through delete_players only

    def get_actions(self, request: HttpRequest) -> dict:
        actions = super().get_actions(request)
        if not request.user.has_perm("auth.delete_user"):
            actions.pop("delete_players", None)
        return actions

    @admin.action(description="Download the selected player's data (one player)")
    def export_player(self, request: HttpRequest, queryset: QuerySet) -> HttpResponseBase | None:
        players = list(queryset[:2])
        if len(players) != 1:
            self.message_user(request, "Select one player to download their data.", messages.WARNING)
            return None
        # Staff reading a player's whole history is logged against the player (an entry that goes
        # if the player is deleted, with the rest of the log about them).
        self.log_change(request, players[0], "Downloaded the player's data.")
        return export_download(players[0])

    @admin.action(description="Delete the selected players and all their data")
    def delete_players(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        players = list(queryset.order_by("pk"))
        if request.POST.get(CONFIRMED) != "yes":
            context = {
                **self.admin_site.each_context(request),
                "title": "Delete players and all their data?",
                "players": players,
                "opts": self.model._meta,
                "action_checkbox_name": ACTION_CHECKBOX_NAME,
            }
            return TemplateResponse(request, "admin/puzzles/players/delete_confirm.html", context)
        for player in players:
            deletion.player_delete(player, by_staff=request.user)  # type: ignore[arg-type]
        self.message_user(request, f"Deleted {len(players)} player(s) and all their data.", messages.SUCCESS)
        return None


admin.site.unregister(User)
admin.site.register(User, PlayerAdmin)
