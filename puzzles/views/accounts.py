"""Accounts: django-allauth's views (sudokusite/urls.py), two of them answering 429 when refused,
the log-in and sign-up leaving their browser known to the account (accounts/backoff.py), and those
that give an account a password or an email address closed to guests."""

from __future__ import annotations

from allauth.account import views
from django.contrib.auth.models import AnonymousUser
from django.forms import Form
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect
from django.views.generic import View
from django.views.generic.edit import FormMixin

from ..accounts.backoff import remember_device
from ..accounts.guests import is_guest, keep_guest
from ..accounts.logins import answer_refused


class RefusedIs429(FormMixin):
    """allauth shows "too many failed log-in attempts" in the form with a 200; answer 429 with it,
    the status its other rate limits answer with, so that a script or a monitor sees the refusal."""

    def form_invalid(self, form: Form) -> HttpResponse:
        response = super().form_invalid(form)
        answer_refused(response, form)
        return response


class RemembersDevice(FormMixin):
    """A browser that logged in to an account is its owner's to the account's ceiling on failed
    log-ins: it is never slowed when the account is guessed from elsewhere."""

    request: HttpRequest

    def form_valid(self, form: Form) -> HttpResponse:
        response = super().form_valid(form)
        if self.request.user.is_authenticated:
            remember_device(self.request, response)
        return response


class GuestsAreVisitors(View):
    """allauth sends a logged-in user away from its sign-up and log-in pages; a guest is logged in
    but has no account yet, so these pages treat them as a visitor, keeping the guest on
    the request for the adapter (accounts/adapter.py): signing up converts it, logging in merges it."""

    def dispatch(self, request: HttpRequest, *args, **kwargs) -> HttpResponseBase:
        user = request.user
        if user.is_authenticated and is_guest(user):
            keep_guest(request, user)
            request.user = AnonymousUser()
        return super().dispatch(request, *args, **kwargs)


class GuestsSignUpFirst(View):
    """A guest has no account to give a password or an email address to (and a password would let
    anyone log in as guest-...): these pages send a guest to the sign-up, which asks for both and
    keeps what they played, and change nothing."""

    def dispatch(self, request: HttpRequest, *args, **kwargs) -> HttpResponseBase:
        if is_guest(request.user):
            return redirect("account_signup")
        return super().dispatch(request, *args, **kwargs)


class LoginView(GuestsAreVisitors, RefusedIs429, RemembersDevice, views.LoginView):
    pass


class SignupView(GuestsAreVisitors, RemembersDevice, views.SignupView):
    pass


class PasswordChangeView(GuestsSignUpFirst, RefusedIs429, views.PasswordChangeView):
    pass


class PasswordSetView(GuestsSignUpFirst, views.PasswordSetView):
    pass


class EmailView(GuestsSignUpFirst, views.EmailView):
    pass


login = LoginView.as_view()
signup = SignupView.as_view()
password_change = PasswordChangeView.as_view()
password_set = PasswordSetView.as_view()
email = EmailView.as_view()
