"""`/ping/` and `/health/`: whether this process answers, and what a load balancer and an admin
need to know, with no secrets."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connection
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache

from .. import broker
from ..models import TIER_ORDER, Pool, Puzzle


def ping(request: HttpRequest) -> HttpResponse:
    """Liveness: the process answers, without touching the database (the load bench's ceiling)."""
    return HttpResponse("ok", content_type="text/plain")


def _pools() -> dict[str, dict[str, int]]:
    """Unpublished puzzles per tier against the pool's target, in two queries."""
    available = dict(Puzzle.objects.available().values_list("tier").annotate(n=Count("id")))
    targets = dict(Pool.objects.values_list("tier", "target"))
    return {
        tier: {
            "available": available.get(tier, 0),
            "target": targets.get(tier, settings.PUZZLE_POOL_TARGETS.get(tier, 0)),
        }
        for tier in TIER_ORDER
    }


def _cache_answers() -> bool:
    probe = "health:probe"
    cache.set(probe, 1, 10)
    return cache.get(probe) == 1


@never_cache
def health(request: HttpRequest) -> JsonResponse:
    """200 while the database answers (the site can serve), 503 when it does not.

    The broker and the cache are reported but do not fail the check: without them pages still
    serve (puzzles already made and published), and a load balancer should keep sending traffic.
    """
    report: dict[str, object] = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        report["database"] = "ok"
        report["pools"] = _pools()
    except DatabaseError:
        report["database"] = "unreachable"
    reachable, _ = broker.broker_status(timeout=1.0)
    report["broker"] = "ok" if reachable else "unreachable"
    report["cache"] = "ok" if _cache_answers() else "unreachable"
    healthy = report["database"] == "ok"
    report["status"] = "ok" if healthy else "failing"
    return JsonResponse(report, status=200 if healthy else 503)
