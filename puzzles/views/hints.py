"""The board's hint endpoint: the next stage of a hint for the position the player sends."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_POST

from .. import hints
from ..models import Attempt
from .play import api_view


@require_POST
@api_view
def api_hint(request: HttpRequest, attempt: Attempt, payload: dict) -> JsonResponse:
    """POST {"digits", "corner", "centre"}: the hint's next stage for that position (not saved)."""
    try:
        result = hints.hint_request(
            attempt.pk, payload.get("digits"), payload.get("corner"), payload.get("centre")
        )
    except hints.HintsTooFast as exc:
        response = JsonResponse({"error": str(exc), "retry_after": exc.retry_after}, status=429)
        response["Retry-After"] = str(exc.retry_after)
        return response
    return JsonResponse(result.to_dict())
