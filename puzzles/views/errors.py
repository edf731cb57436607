"""Error answers: JSON for the board's API (paths under /api/), the site's own pages elsewhere.

Never a traceback: settings point handler400, handler404, handler500 and CSRF_FAILURE_VIEW here.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.defaults import page_not_found
from django.views.defaults import server_error as default_server_error

# Every answer of the board's API is about one player (their position, their refusals): neither a
# shared cache nor the browser's may keep it, or another user of the same proxy or computer could
# be shown it later.
PRIVATE = "private, no-store"


def json_error(message: str, status: int, **extra: Any) -> JsonResponse:
    """The one shape of every API error: {"error": message, ...}, never kept by a cache."""
    response = JsonResponse({"error": message, **extra}, status=status)
    response["Cache-Control"] = PRIVATE
    return response


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def bad_request(
    request: HttpRequest,
    exception: Exception | None = None,
    *,
    status: int = 400,
    message: str = "That request could not be read. Go back and try again.",
    api_message: str = "",
) -> HttpResponse:
    """A request refused as it stands (control characters, a body too large: sudokusite/input_checks.py,
    or any of Django's own 400s): JSON for the board's API and for whatever sent JSON (a push
    subscription), with `api_message` or else `message`; the site's page elsewhere."""
    if _is_api(request) or request.content_type == "application/json":
        return json_error(api_message or message, status)
    return render(request, "400.html", {"message": message}, status=status)


def too_many(request: HttpRequest, retry_after: int, message: str = "") -> HttpResponse:
    """The site's 429 page for a page's own limit (a download, a rename, a deletion): when to try
    again in Retry-After and in words (`message`, or the wait in minutes), kept by no cache."""
    minutes = max(1, -(-retry_after // 60))
    message = message or f"Too many tries from here: try again in {minutes} minute{'s' * (minutes > 1)}."
    response = render(request, "429.html", {"message": message}, status=429)
    response["Retry-After"] = str(retry_after)
    response["Cache-Control"] = PRIVATE
    return response


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """A 404: JSON for the board's API (an address the resolver refuses, such as 2026-02-30),
    the friendly page for everything else."""
    if _is_api(request):
        return json_error("There is no such puzzle.", 404)
    return page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """A 500 (a database that is down, say): a JSON message the board can show for the API,
    the site's plain error page elsewhere; never a traceback."""
    if _is_api(request):
        return json_error("Something went wrong on our side; your moves are kept, try again shortly.", 500)
    return default_server_error(request)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A refused CSRF check: JSON for the board's API, a plain page for forms."""
    message = "Your session has expired or the page is out of date: please reload the page."
    if _is_api(request):
        return json_error(message, 403)
    return render(request, "403_csrf.html", {"message": message}, status=403)
