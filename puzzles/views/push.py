"""The push reminders' devices: this browser subscribes (POST) or unsubscribes (DELETE or POST)
for the logged-in player. JSON in, JSON out; CSRF as for every write (push.js sends the token).

Only the requesting player's own rows are ever touched: the user comes from the session, and
an endpoint that is another player's is answered exactly like one that does not exist.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from ..accounts import push
from ..accounts.guests import is_guest
from ..accounts.ratelimits import HOUR, window_wait
from .errors import json_error

MAX_BODY_BYTES = 4 * 1024  # a subscription is some 300 bytes; an endpoint at most 1,000
JSON_TYPE = "application/json"
CHANGES_PER_HOUR = 30  # a player subscribes a few devices; more than this is not a browser


def _refusal(request: HttpRequest, allowed: tuple[str, ...]) -> JsonResponse | None:
    """The answer to a request these views do not serve, or None."""
    if request.method not in allowed:
        response = json_error(f"This address only answers {' or '.join(allowed)}.", 405)
        response["Allow"] = ", ".join(allowed)
        return response
    if not push.push_offered():
        return json_error("This site does not send notifications.", 404)
    if not request.user.is_authenticated or is_guest(request.user):
        return json_error("Notifications are for players with an account: log in first.", 403)
    wait = window_wait(f"push-devices:{request.user.pk}", CHANGES_PER_HOUR, HOUR)
    if wait is not None:
        response = json_error("Too many changes to your devices: try again later.", 429, retry_after=wait)
        response["Retry-After"] = str(wait)
        return response
    return None


def _payload(request: HttpRequest) -> dict[str, Any] | JsonResponse:
    """The body as a JSON object, or the JSON refusal to send instead."""
    # The content type first: for a form or multipart body the CSRF middleware has already read
    # the stream, and request.body would raise.
    if request.content_type != JSON_TYPE:
        return json_error(f"Send the request as JSON (Content-Type: {JSON_TYPE}).", 415)
    if len(request.body) > MAX_BODY_BYTES:
        return json_error("That request is too large.", 413)
    try:
        payload = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError, RecursionError):
        return json_error("The request is not valid JSON.", 400)
    if not isinstance(payload, dict):
        return json_error("The request must be a JSON object.", 400)
    return payload


@never_cache
def push_subscribe(request: HttpRequest) -> JsonResponse:
    """Store this browser's PushSubscription.toJSON() for the player: 201 with their device count."""
    refused = _refusal(request, ("POST",))
    if refused:
        return refused
    payload = _payload(request)
    if isinstance(payload, JsonResponse):
        return payload
    try:
        fields = push.subscription_fields(payload)
        push.device_subscribe(request.user, fields)  # type: ignore[arg-type]  # authenticated above
    except push.BadSubscription as exc:
        return json_error(str(exc), 400)
    except push.TooManyDevices:
        limit = settings.PUSH_DEVICES_PER_PLAYER
        return json_error(f"Notifications go to at most {limit} devices: turn them off on another first.", 409)
    devices = push.PushSubscription.objects.filter(user=request.user).count()  # type: ignore[misc]
    return JsonResponse({"devices": devices}, status=201)


@never_cache
def push_remove(request: HttpRequest) -> JsonResponse:
    """Forget this browser's subscription ({"endpoint": ...}) if it is the player's: 200 either way."""
    refused = _refusal(request, ("POST", "DELETE"))
    if refused:
        return refused
    payload = _payload(request)
    if isinstance(payload, JsonResponse):
        return payload
    removed = push.device_unsubscribe(request.user, payload.get("endpoint"))  # type: ignore[arg-type]
    return JsonResponse({"removed": removed})
