"""The Permissions-Policy header: the browser features this site lets its pages use.

Django 5.2 has no setting for it, and one header needs no package: the header is written once,
from settings.PERMISSIONS_POLICY, when the middleware is built.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from django.conf import settings
from django.http import HttpRequest, HttpResponse

HEADER = "Permissions-Policy"


def header_value(policy: Mapping[str, Sequence[str]]) -> str:
    """`{"camera": [], "fullscreen": ["self"]}` -> `camera=(), fullscreen=(self)`.

    An empty list turns the feature off for every origin, "self" allows this site's own; any other
    entry is an origin ("https://example.com"), which the header writes as a quoted string.
    """

    def allowlist(allowed: Sequence[str]) -> str:
        return " ".join(origin if origin == "self" else f'"{origin}"' for origin in allowed)

    return ", ".join(f"{feature}=({allowlist(allowed)})" for feature, allowed in policy.items())


class PermissionsPolicyMiddleware:
    """Adds the header to every response that does not carry one already."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.value = header_value(settings.PERMISSIONS_POLICY)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault(HEADER, self.value)
        return response
