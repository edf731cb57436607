"""`/ping/` and `/health/`: whether this process answers, and what a load balancer and an admin
need to know, with no secrets.

Anyone may ask `/health/`, so anyone gets the status alone (200 or 503), which costs one
`SELECT 1`. The details (database, broker, cache, each pool's level) are for staff and for a
monitor that sends settings.HEALTH_TOKEN as `Authorization: Bearer <token>` (a header, never the
query string, which ends up in logs). The broker and cache probes behind the details are kept
for a few seconds, so a flood of checks cannot turn into a flood of broker connections.
"""

from __future__ import annotations

import hmac

from django.conf import settings
from django.core.cache import cache, caches
from django.db import DatabaseError, connection
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache

from ..models import TIER_ORDER, Pool, Puzzle
from ..pipeline import broker

PROBE_SECONDS = 10  # how long this process reuses the broker and cache probes' answers
PROBE_KEY = "health:probes"


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


def _probes() -> dict[str, str]:
    """The broker's and the shared cache's reachability, probed at most every PROBE_SECONDS."""
    local = caches["local"]  # this process's memory: it answers even when Redis does not
    probes = local.get(PROBE_KEY)
    if probes is None:
        reachable, _ = broker.broker_status(timeout=1.0)
        probes = {"broker": "ok" if reachable else "unreachable", "cache": "ok" if _cache_answers() else "unreachable"}
        local.set(PROBE_KEY, probes, PROBE_SECONDS)
    return probes


def _may_see_details(request: HttpRequest) -> bool:
    """Staff, or a caller with the configured token (compared in constant time)."""
    token = settings.HEALTH_TOKEN
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    if token and scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode()):
        return True
    try:
        return request.user.is_authenticated and request.user.is_staff
    except DatabaseError:
        return False  # the session or the user could not be read: the check below says why


@never_cache
def health(request: HttpRequest) -> JsonResponse:
    """200 while the database answers (the site can serve), 503 when it does not.

    The broker and the cache are reported (to those who may see details) but do not fail the
    check: without them pages still serve (puzzles already made and published), and a load
    balancer should keep sending traffic.
    """
    details = _may_see_details(request)
    report: dict[str, object] = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        report["database"] = "ok"
        if details:
            report["pools"] = _pools()
    except DatabaseError:
        report["database"] = "unreachable"
    healthy = report["database"] == "ok"
    status = 200 if healthy else 503
    if not details:
        return JsonResponse({"status": "ok" if healthy else "failing"}, status=status)
    report.update(_probes())
    report["status"] = "ok" if healthy else "failing"
    return JsonResponse(report, status=status)
