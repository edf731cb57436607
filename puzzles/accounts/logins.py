"""Every door that checks a password behind the same limits: the admin's log-in counts as the
site's (allauth's ACCOUNT_RATE_LIMITS "login" per address and "login_failed" per address and per
account from an address; the account's ceiling from every address, backoff.py), a refusal for too
many failures answers 429 wherever it is shown, and a log-in at either leaves its browser known."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from http import HTTPStatus
from typing import Any

from allauth.account.adapter import get_adapter
from allauth.decorators import rate_limit
from allauth.usersessions.models import UserSession
from django.contrib.admin.forms import AdminAuthenticationForm
from django.forms import Form
from django.http import HttpRequest, HttpResponse

from .backoff import ACCOUNT_BACKOFF, remember_device

TOO_MANY_FAILURES = "too_many_login_attempts"  # the code of allauth's refusal
REFUSALS = {TOO_MANY_FAILURES, ACCOUNT_BACKOFF}


def refused_for_failures(form: Form) -> bool:
    """Whether the form was refused because its account or address failed too often of late."""
    return any(error.code in REFUSALS for errors in form.errors.as_data().values() for error in errors)


def answer_refused(response: HttpResponse, form: Form) -> None:
    """Answer 429 to a form refused for too many failures, with Retry-After when the wait is known
    (an account's ceiling names it; allauth's limits do not)."""
    if not (form.is_bound and refused_for_failures(form)):
        return
    response.status_code = HTTPStatus.TOO_MANY_REQUESTS
    for errors in form.errors.as_data().values():
        for error in errors:
            if error.code == ACCOUNT_BACKOFF and error.params:
                response["Retry-After"] = str(error.params["seconds"])


class AdminLoginForm(AdminAuthenticationForm):
    """Django's admin log-in form, where the password is checked as the site's log-in checks it
    (allauth's adapter): a wrong one counts toward the same failure limits of the address and the
    account, and once they are reached the form is refused before the password is hashed."""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username is not None and password:
            # Raises the too_many_login_attempts error when a limit is reached.
            self.user_cache = get_adapter(self.request).authenticate(self.request, username=username, password=password)
            if self.user_cache is None:
                raise self.get_invalid_login_error()
            self.confirm_login_allowed(self.user_cache)
        return self.cleaned_data


def admin_login_limited(login: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The admin site's log-in view, where each sent form counts toward the address's "login"
    limit (a 429 past it, as the site's log-in answers), a form refused for too many failures
    answers 429 too, and a log-in leaves its browser known to the account's ceiling."""
    limited = rate_limit(action="login")(login)

    @wraps(login)
    def view(request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        response = limited(request, extra_context)
        form = (getattr(response, "context_data", None) or {}).get("form")
        if isinstance(form, Form):
            answer_refused(response, form)
        elif request.method == "POST" and request.user.is_authenticated:
            remember_device(request, response)
            # allauth records the sessions of its own log-ins; this door's too, so that deleting
            # the account ends them (deletion.py).
            UserSession.objects.create_from_request(request)
        return response

    return view


def user_cache_key(user_id: Any) -> str:
    """Where the auth backend (puzzles/auth.py) keeps a user between requests, for whatever must
    forget it (a deletion)."""
    return f"user:{user_id}"
