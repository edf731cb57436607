"""The leagues' pages: the player's leagues with the form to make one, a league's board for a day,
the invite page, and the confirmations to leave, remove a member or delete a league.

A league is only ever shown to its members: to anyone else its address is the site's 404, whether
it exists or not. Every change is a POST (CSRF-checked by the middleware); a GET changes nothing.
The rules and their refusals live in membership.py.
"""

from __future__ import annotations

import datetime

from allauth.account.adapter import get_adapter
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from ..leagues import boards, membership
from ..leagues.forms import LeagueForm
from ..models import DailyPuzzle, League, site_today
from ..results.share import site_url


def _member_league(request: HttpRequest, league_id: int) -> League:
    league = membership.league_of_member(league_id, request.user)
    if league is None:
        raise Http404("There is no such league.")
    return league


def _owned_league(request: HttpRequest, league_id: int) -> League:
    league = _member_league(request, league_id)
    if league.owner_id != request.user.pk:
        raise Http404("There is no such league.")  # a member who does not own it: nothing to see here
    return league


def _for_guests(request: HttpRequest, status: int = 200) -> HttpResponse:
    """The page a guest gets instead: leagues are for players with an account."""
    return render(request, "puzzles/league_signup.html", status=status)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def league_list(request: HttpRequest) -> HttpResponse:
    """The player's leagues, and the form to make one (its POST)."""
    if not membership.can_play_in_leagues(request.user):
        return _for_guests(request, status=403 if request.method == "POST" else 200)
    form = LeagueForm(request.POST or None)
    status, retry_after = 200, 0
    if request.method == "POST":
        if form.is_valid():
            try:
                membership.limit_league_creations(get_adapter().get_client_ip(request))
                league = membership.league_create(request.user, form.cleaned_data["name"])
            except membership.LeaguesTooFast as exc:
                form.add_error(None, str(exc))
                status, retry_after = 429, exc.retry_after
            except membership.LeagueRefused as exc:
                form.add_error(None, str(exc))
                status = 409
            else:
                messages.success(
                    request, f"{league.name} is ready. Send its invite link to the friends you want in it."
                )
                return redirect("puzzles:league", league_id=league.pk)
        else:
            status = 400
    context = {
        "form": form,
        "leagues": membership.leagues_of(request.user),
        "max_leagues": membership.MAX_LEAGUES_PER_PLAYER,
        "max_members": membership.MAX_MEMBERS,
    }
    response = render(request, "puzzles/leagues.html", context, status=status)
    if status == 429:
        response["Retry-After"] = str(retry_after)  # until the hour's window turns
    return response


@never_cache
@login_required
@require_http_methods(["GET"])
def league_board(request: HttpRequest, league_id: int, day: datetime.date | None = None) -> HttpResponse:
    """A league's board for one day (today by default; never a future day), with the week's standing."""
    league = _member_league(request, league_id)
    today = site_today()
    day = day or today
    if day > today:
        raise Http404("There is no board for a day still to come.")
    # Nor one before the site's first daily (the day's own board is shown while it has none yet).
    first = DailyPuzzle.objects.order_by("date").values_list("date", flat=True).first() or today
    if day < first:
        raise Http404("There is no board for a day before the site's first puzzles.")
    monday, sunday = boards.week_of(day)
    members = membership.members_of(league)
    context = {
        "league": league,
        "day": day,
        "today": today,
        "is_today": day == today,
        "previous": day - datetime.timedelta(days=1) if day > first else None,
        "next": day + datetime.timedelta(days=1) if day < today else None,
        "boards": boards.league_day(league, day, request.user.pk),
        "monday": monday,
        "sunday": sunday,
        "standing": boards.league_standing(league, monday, min(sunday, today), request.user.pk),
        "members": members,
        "is_owner": league.owner_id == request.user.pk,
        "invite_url": site_url(reverse("puzzles:league-join", args=[league.invite_code])),
        "max_members": membership.MAX_MEMBERS,
    }
    return render(request, "puzzles/league.html", context)


@never_cache
@require_http_methods(["GET", "POST"])
def league_join(request: HttpRequest, code: str) -> HttpResponse:
    """The invite page: the league's name and a Join button (its POST). A visitor is sent to log in
    or sign up and back; a guest is asked to sign up. A code that opens no league is a friendly 404."""
    league = membership.league_by_code(code)
    if league is None:
        return render(request, "puzzles/league_join.html", {"league": None}, status=404)
    context = {"league": league, "is_member": False, "guest": False, "error": ""}
    if not request.user.is_authenticated:
        if request.method == "POST":
            return redirect(f"{reverse('account_login')}?next={request.path}")
        return render(request, "puzzles/league_join.html", context)
    if not membership.can_play_in_leagues(request.user):
        context["guest"] = True
        return render(request, "puzzles/league_join.html", context, status=403 if request.method == "POST" else 200)
    context["is_member"] = league.memberships.filter(user=request.user).exists()
    if request.method == "POST":
        try:
            joined = membership.league_join(league, request.user)
        except membership.LeagueRefused as exc:
            context["error"] = str(exc)
            return render(request, "puzzles/league_join.html", context, status=409)
        if joined:
            messages.success(request, f"You joined {league.name}.")
        return redirect("puzzles:league", league_id=league.pk)
    return render(request, "puzzles/league_join.html", context)


def _confirm(request: HttpRequest, league: League, action: str, **extra) -> HttpResponse:
    return render(request, "puzzles/league_confirm.html", {"league": league, "action": action, **extra})


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def league_leave(request: HttpRequest, league_id: int) -> HttpResponse:
    """Leaving a league: a confirmation, then its POST. The owner is told to delete it instead."""
    league = _member_league(request, league_id)
    if request.method == "POST":
        try:
            membership.league_leave(league, request.user)
        except membership.LeagueRefused as exc:
            messages.error(request, str(exc))
            return redirect("puzzles:league-leave", league_id=league.pk)
        messages.success(request, f"You left {league.name}.")
        return redirect("puzzles:leagues")
    return _confirm(request, league, "leave", is_owner=league.owner_id == request.user.pk)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def league_remove(request: HttpRequest, league_id: int, user_id: int) -> HttpResponse:
    """The owner removes a member: a confirmation, then its POST."""
    league = _owned_league(request, league_id)
    member = league.memberships.select_related("user").filter(user_id=user_id).first()
    if member is None or user_id == league.owner_id:
        raise Http404("There is no such member.")
    if request.method == "POST":
        membership.league_remove(league, request.user, user_id)
        messages.success(request, f"{member.user.get_username()} is no longer in {league.name}.")
        return redirect("puzzles:league", league_id=league.pk)
    return _confirm(request, league, "remove", member=member.user)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def league_delete(request: HttpRequest, league_id: int) -> HttpResponse:
    """The owner deletes the league, for every member: a confirmation, then its POST."""
    league = _owned_league(request, league_id)
    if request.method == "POST":
        name = league.name
        membership.league_delete(league, request.user)
        messages.success(request, f"{name} is deleted.")
        return redirect("puzzles:leagues")
    return _confirm(request, league, "delete", members=league.memberships.count())


@never_cache
@login_required
@require_http_methods(["POST"])
def league_new_link(request: HttpRequest, league_id: int) -> HttpResponse:
    """The owner replaces the invite link; the old one stops working."""
    league = _owned_league(request, league_id)
    membership.league_new_code(league, request.user)
    messages.success(request, "The league has a new invite link: the old one no longer works.")
    return redirect(f"{reverse('puzzles:league', args=[league.pk])}#invite")
