"""Download my data (/account/export/): the logged-in player's data as a JSON file, a guest's too
(accounts/export.py writes it; docs/accounts.md has its schema).

A GET, and a read: it changes nothing but the download counts of its rate limit, per account and
per client address, past which it answers 429 with Retry-After. The file is streamed as it is
written, never kept by a cache.
"""

from __future__ import annotations

from allauth.account.adapter import get_adapter
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.views.decorators.http import require_GET

from ..accounts.export import ExportsTooFast, export_download, export_limit
from .errors import too_many


@login_required
@require_GET
def account_export(request: HttpRequest) -> HttpResponse | StreamingHttpResponse:
    """The player's data as daily-sudoku-<username>-<date>.json, streamed."""
    user = request.user
    try:
        export_limit(int(user.pk or 0), get_adapter().get_client_ip(request))
    except ExportsTooFast as exc:
        return too_many(request, exc.retry_after, str(exc))
    return export_download(user)
