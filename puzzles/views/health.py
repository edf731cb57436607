"""`/ping/` and `/health/`: whether this process answers, and what a load balancer and an admin
need to know, with no secrets.

Anyone may ask `/health/`, so anyone gets the status alone (200 or 503), which costs one
`SELECT 1`. The details (database, broker, cache, each pool's level) are for staff and for a
monitor that sends settings.HEALTH_TOKEN as `Authorization: Bearer <token>` (a header, never the
query string, which ends up in logs). The cache is asked each time (one PING on this process's
own connection to Redis, within the cache's socket timeout), so an outage shows in the next
answer; the broker's probe opens a connection of its own, so its answer is kept for a few
seconds and a flood of checks cannot turn into a flood of broker connections.
"""

from __future__ import annotations

import hmac

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import DatabaseError, connection
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache

from ..models import TIER_ORDER, Pool, Puzzle
from ..pipeline import broker

PROBE_SECONDS = 10  # how long this process reuses the broker probe's answer
PROBE_KEY = "health:broker"


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
    """Whether Redis answers a PING now.

    Asked of Redis itself, not through the site's cache: that one never raises and, after a
    failure, stops asking Redis for a few seconds (sudokusite/cache.py), so it can tell neither
    an outage (its fallbacks look like answers) nor a recovery (it is still resting).
    """
    shared = caches["default"]
    if not isinstance(shared, RedisCache):
        return True  # this process's memory, which is always there
    # A second try, since a connection that Redis dropped when it restarted fails once before
    # redis-py opens a new one; a Redis that is still away refuses both.
    for _ in range(2):
        try:
            # Django's client for the cache (private, so the stubs leave it out) hands out this
            # process's redis-py client, which connects as it is made: either step can fail.
            client = shared._cache.get_client(write=True)  # type: ignore[attr-defined]
            return bool(client.ping())
        except Exception:  # redis-py's errors and the OS's: whatever it is, Redis did not answer
            continue
    return False


def _probes() -> dict[str, str]:
    """The broker's reachability, probed at most every PROBE_SECONDS, and the cache's, now."""
    local = caches["local"]  # this process's memory: it answers even when Redis does not
    broker_state = local.get(PROBE_KEY)
    if broker_state is None:
        reachable, _ = broker.broker_status(timeout=1.0)
        broker_state = "ok" if reachable else "unreachable"
        local.set(PROBE_KEY, broker_state, PROBE_SECONDS)
    return {"broker": broker_state, "cache": "ok" if _cache_answers() else "unreachable"}


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
