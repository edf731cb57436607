"""Accounts: django-allauth's views (sudokusite/urls.py), two of them answering 429 when refused."""

from __future__ import annotations

from http import HTTPStatus

from allauth.account import views
from django.contrib.auth.models import AnonymousUser
from django.forms import Form
from django.http import HttpRequest, HttpResponse

from ..accounts.guests import is_guest


def _too_many_failures(form: Form) -> bool:
    return any(error.code == "too_many_login_attempts" for errors in form.errors.as_data().values() for error in errors)


class RefusedIs429:
    """allauth shows "too many failed log-in attempts" in the form with a 200; answer 429 with it,
    the status its other rate limits answer with, so that a script or a monitor sees the refusal."""

    def form_invalid(self, form: Form) -> HttpResponse:
        response = super().form_invalid(form)
        if _too_many_failures(form):
            response.status_code = HTTPStatus.TOO_MANY_REQUESTS
        return response


class GuestsAreVisitors:
    """allauth sends a logged-in user away from its sign-up and log-in pages; a guest is logged in
    but has no account yet, so these pages treat them as a visitor, keeping the guest on
    request.guest for the adapter (accounts.py): signing up converts it, logging in merges it."""

    def dispatch(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if is_guest(request.user):
            request.guest = request.user
            request.user = AnonymousUser()
        return super().dispatch(request, *args, **kwargs)


class LoginView(GuestsAreVisitors, RefusedIs429, views.LoginView):
    pass


class SignupView(GuestsAreVisitors, views.SignupView):
    pass


class PasswordChangeView(RefusedIs429, views.PasswordChangeView):
    pass


login = LoginView.as_view()
signup = SignupView.as_view()
password_change = PasswordChangeView.as_view()
