"""The player's own data: the account page, a new username, deleting the account (or a guest's
data), and the privacy page that says what the site keeps. Every page reads and changes only the
requesting player: no id is in any address. GETs show and change nothing; each POST carries the
CSRF token and is limited per client address."""

from __future__ import annotations

from allauth.account.adapter import get_adapter
from allauth.account.forms import ReauthenticateForm
from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from ..accounts import deletion, renaming
from ..accounts.guests import is_guest
from ..accounts.logins import answer_refused
from ..accounts.ratelimits import hourly_wait
from ..models import League
from .errors import too_many


def _too_many(request: HttpRequest, what: str, limit: int) -> HttpResponse | None:
    """The 429 page when this client has sent `limit` of `what` this hour (counting this one), else None."""
    wait = hourly_wait(what, get_adapter().get_client_ip(request), limit)
    return None if wait is None else too_many(request, wait)


@never_cache
@login_required
@require_GET
def account_page(request: HttpRequest) -> HttpResponse:
    """What the site holds for the player, and the ways to change, take or delete it."""
    user = request.user
    guest = is_guest(user)
    context = {
        "guest": guest,
        "addresses": [] if guest else list(EmailAddress.objects.filter(user_id=user.pk).order_by("-primary", "email")),
        "next_change_at": None if guest else renaming.next_change_at(user),  # type: ignore[arg-type]
    }
    return render(request, "puzzles/account/page.html", context)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def account_username(request: HttpRequest) -> HttpResponse:
    """The form for a new username, and its POST."""
    user = request.user
    if is_guest(user):
        # A guest's name is made for it; signing up is where a player names themselves.
        return redirect("account_signup")
    form = renaming.UsernameForm(request.POST or None, user=user)  # type: ignore[arg-type]
    status = 200
    if request.method == "POST":
        if (refused := _too_many(request, renaming.USERNAME_TRIES, settings.USERNAME_TRIES_PER_HOUR)) is not None:
            return refused
        if form.is_valid():
            try:
                form.save()
            except ValidationError as exc:
                form.add_error(None, exc)
            else:
                messages.success(request, f"Your username is now {user.get_username()}.")
                return redirect("puzzles:account")
        status = 400
    context = {
        "form": form,
        "next_change_at": renaming.next_change_at(user),  # type: ignore[arg-type]
        "username_days": settings.USERNAME_CHANGE_DAYS,
    }
    return render(request, "puzzles/account/username.html", context, status=status)


DELETE_TRIES = "delete-tries"  # what the hourly limit per client counts


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def account_delete(request: HttpRequest) -> HttpResponse:
    """The page that says what deleting does, and its POST: with the current password for an
    account (checked as a log-in is, behind the same failure limits), with nothing more for a guest."""
    user = request.user
    guest = is_guest(user)
    form = None if guest else ReauthenticateForm(request.POST or None, user=user)
    status = 200
    if request.method == "POST":
        if (refused := _too_many(request, DELETE_TRIES, settings.DELETE_TRIES_PER_HOUR)) is not None:
            return refused
        if form is None or form.is_valid():
            deletion.player_delete(user)  # type: ignore[arg-type]
            logout(request)
            response = render(request, "puzzles/account/deleted.html", {"guest": guest})
            # This browser's copies too: the pages it cached and the moves it kept for offline play.
            response["Clear-Site-Data"] = '"cache", "storage"'
            return response
        status = 400
    context = {
        "form": form,
        "guest": guest,
        "leagues_owned": [] if guest else list(League.objects.filter(owner_id=user.pk).order_by("name")),
    }
    response = render(request, "puzzles/account/delete.html", context, status=status)
    if form is not None:
        answer_refused(response, form)  # too many wrong passwords: 429, as the log-in answers
    return response


@require_GET
def privacy(request: HttpRequest) -> HttpResponse:
    """What the site collects, why, for how long, who sees it, and how to take it or delete it."""
    context = {
        "guest_days": settings.GUEST_TTL_DAYS,
        "session_days": settings.SESSION_COOKIE_AGE // 86400,
        "username_days": settings.USERNAME_CHANGE_DAYS,
        "periods": [
            f"The record of each day a reminder was due, and whether it went: {settings.MAIL_LOG_DAYS} days.",
            "The moves of a puzzle you started and never solved: deleted after "
            f"{settings.ABANDONED_RECORD_DAYS} days untouched (the position on the board stays); a puzzle you "
            "brought (Play any puzzle) and never solved goes whole then.",
            "Counters against abuse: an hour, or a day.",
        ],
        "contact": settings.REPORT_EMAIL,
    }
    return render(request, "puzzles/privacy.html", context)
