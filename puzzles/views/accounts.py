"""Accounts: sign-up (log-in, log-out and password change are Django's own views)."""

from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme


def signup(request: HttpRequest) -> HttpResponse:
    """Create an account (Django's own form and password validators) and log straight in."""
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = ""
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="puzzles.auth.CachedModelBackend")
        return redirect(next_url or "puzzles:home")
    return render(request, "registration/signup.html", {"form": form, "next": next_url})
