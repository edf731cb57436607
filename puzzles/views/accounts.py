"""Accounts: django-allauth's views (sudokusite/urls.py), two of them answering 429 when refused."""

from __future__ import annotations

from http import HTTPStatus

from allauth.account import views
from django.forms import Form
from django.http import HttpResponse


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


class LoginView(RefusedIs429, views.LoginView):
    pass


class PasswordChangeView(RefusedIs429, views.PasswordChangeView):
    pass


login = LoginView.as_view()
password_change = PasswordChangeView.as_view()
