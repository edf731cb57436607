"""The reminder pages: the player's settings (login required; a guest is asked to sign up) and
the one-click unsubscribe page a reminder links to.

The settings only ever read and change the requesting player's own row: no id is in the address.
The unsubscribe page's GET shows a button and changes nothing; its POST turns the reminders off.
That POST is CSRF-exempt, as RFC 8058 needs (the mail provider posts it, with no cookie or
token); the signed token in the address, naming the user and the list, is what protects it.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from ..accounts import push, reminder_mail, reminders
from ..accounts.guests import is_guest
from ..accounts.reminder_form import ReminderForm


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def reminder_settings(request: HttpRequest) -> HttpResponse:
    """The player's reminder settings, and their POST."""
    if is_guest(request.user):
        return render(request, "puzzles/reminders/signup.html", status=403 if request.method == "POST" else 200)
    user = request.user
    assert user.is_authenticated  # login_required
    reminder = reminders.reminder_of(user)
    can_email = reminders.can_email(user)
    can_push = push.push_offered()
    initial = {"email": reminder.email, "push": reminder.push, "hour": reminder.hour, "time_zone": reminder.time_zone}
    form = ReminderForm(request.POST or None, initial=initial, can_email=can_email, can_push=can_push)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = {"push": reminder.push, **form.cleaned_data}  # without keys, push is left as it was
            reminders.reminder_save(user, **data)
            if data["email"] or data["push"]:
                messages.success(request, f"Saved: a reminder each day at {data['hour']:02d}:00, {data['time_zone']}.")
            else:
                messages.success(request, "Saved: reminders are off.")
            return redirect("puzzles:reminders")
        status = 400
    context = {
        "form": form,
        "can_email": can_email,
        # A player who never saved a choice is offered their browser's zone (static/js/reminders.js).
        # Not on a form sent back with its errors: that keeps the zone the player chose.
        "guess_zone": reminder.pk is None and not form.is_bound,
        # An address added and waiting for its link: the notice names it.
        "unverified": None if can_email else reminders.unverified_address(user),
        # push.js asks the browser for a subscription with this key, and sends it to these addresses.
        "push_key": settings.VAPID_PUBLIC_KEY if can_push else "",
        "push_devices": push.PushSubscription.objects.filter(user=user).count() if can_push else 0,
    }
    return render(request, "puzzles/reminders/settings.html", context, status=status)


@never_cache
@csrf_exempt
@require_http_methods(["GET", "POST"])
def reminders_stop(request: HttpRequest, token: str) -> HttpResponse:
    """One-click unsubscribe: GET shows the button, POST (the player's or the mail provider's)
    turns reminders off. A tampered or stale token gets a 400 page that says what to do instead."""
    try:
        user_id = reminder_mail.user_of_token(token)
    except reminder_mail.BadToken as exc:
        return render(request, "puzzles/reminders/bad_link.html", {"reason": str(exc)}, status=400)
    if request.method == "POST":
        reminders.reminders_stop(user_id)
        return render(request, "puzzles/reminders/stopped.html")
    return render(request, "puzzles/reminders/stop.html")
