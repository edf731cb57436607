"""What lets the site start without a connection: the service worker at /sw.js, the offline page,
the pages it keeps for their reader, and the log-out that clears what the browser kept
(docs/architecture.md, "Offline").

The worker's code is a static file (static/js/sw.js); /sw.js is a few lines that give it its
configuration and import it, served from the site's root so that the worker's scope is the whole
site. The configuration names the static files the worker keeps, by the names production serves
(hashed), and a version made from those names: a release that changes any of them changes /sw.js,
browsers install the new worker, and its activate deletes the old caches.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from functools import cache, wraps
from pathlib import Path
from typing import Any

from allauth.account.views import logout as allauth_logout
from django.conf import settings
from django.contrib.messages import get_messages
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.crypto import salted_hmac
from django.views.decorators.http import require_safe

from ..context_processors import site_urls

# What the worker keeps at install: every page's files and the board's. The admin's, and the
# worker's own code (imported by /sw.js, which the browser keeps itself), are left out.
PRECACHED_DIRS = ("css/", "js/", "icons/")
NOT_PRECACHED = ("js/admin/", "js/sw.js", "css/admin-")
OFFLINE_TEMPLATE = "puzzles/offline.html"


# The project's own static files, where they are written (settings.STATICFILES_DIRS names it too).
STATIC_SOURCE = Path(settings.BASE_DIR) / "static"


def _static_names() -> list[str]:
    """The static files of this project the worker keeps, by their names in static/."""
    root = STATIC_SOURCE
    names = [path.relative_to(root).as_posix() for path in sorted(root.rglob("*")) if path.is_file()]
    return [
        name
        for name in names
        if (name.startswith(PRECACHED_DIRS) or name == "manifest.webmanifest")
        and not name.startswith(NOT_PRECACHED)
        # What collectstatic leaves out (its default ignore patterns): no URL would serve it.
        and not any(part.startswith(".") or part.endswith("~") for part in name.split("/"))
    ]


def _version(urls: list[str]) -> str:
    """A hash of what the worker keeps: the static URLs (content-hashed in production) and the
    offline page's templates. In development the names carry no hash, so the files' sizes and
    times stand in for their contents: an edited file installs a new worker there too."""
    digest = hashlib.sha256("\n".join(urls).encode())
    root = STATIC_SOURCE
    templates = Path(settings.BASE_DIR) / "templates"
    for path in (templates / OFFLINE_TEMPLATE, templates / "base.html"):
        digest.update(path.read_bytes())
    if settings.DEBUG:
        for name in _static_names():
            stat = (root / name).stat()
            digest.update(f"{name}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    return digest.hexdigest()[:16]


def worker_config() -> dict[str, Any]:
    """What /sw.js tells the worker: {version, precache, offline, static}."""
    urls = [staticfiles_storage.url(name) for name in _static_names()]
    return {
        "version": _version(urls),
        "precache": urls,
        "offline": reverse("puzzles:offline"),
        "static": settings.STATIC_URL if settings.STATIC_URL.startswith("/") else "/" + settings.STATIC_URL,
    }


@cache
def _worker_script_cached() -> bytes:
    return _worker_script()


@receiver(setting_changed)
def _forget_worker_script(setting: str, **kwargs: Any) -> None:
    # Settings change only in tests (a test serving collected, hashed files, say): the next
    # /sw.js names what is served then.
    if setting in ("STORAGES", "STATIC_URL", "STATIC_ROOT", "STATICFILES_DIRS", "DEBUG"):
        _worker_script_cached.cache_clear()


def _worker_script() -> bytes:
    config = json.dumps(worker_config(), separators=(",", ":"))
    code = json.dumps(staticfiles_storage.url("js/sw.js"))
    return f"self.OFFLINE = {config};\nimportScripts({code});\n".encode()


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, at the site's root: its configuration, then its code (static/js/sw.js).

    `no-cache`: the browser asks again each time it checks for a new worker (it would anyway
    after a day), so a release reaches players at their next visit. Worked out once per process
    in production, where nothing it names changes while the process runs; each time in
    development, where a static file may change under it.
    """
    script = _worker_script() if settings.DEBUG else _worker_script_cached()
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    patch_cache_control(response, no_cache=True)
    return response


@require_safe
def offline_page(request: HttpRequest) -> HttpResponse:
    """What the worker shows for a page it cannot fetch: what works offline. The same for everyone
    (it is kept in the browser, whoever is logged in), so nothing in it is about its reader: the
    puzzles opened on this device are listed by the page's script, from the worker's cache."""
    context = {"site_urls": site_urls(request)["site_urls"], "messages": ()}
    response = HttpResponse(render_to_string(OFFLINE_TEMPLATE, context))
    patch_cache_control(response, no_cache=True)
    return response


def logout(request: HttpRequest) -> HttpResponseBase:
    """allauth's log-out, whose answer also asks the browser to forget what it cached over HTTP
    (Clear-Site-Data: "cache"). Not "storage": that would also delete this device's copy of
    unsaved moves (which the board saves first, but only for two seconds) and the service worker.
    The worker forgets the session's positions itself when the log-out form goes through it."""
    response = allauth_logout(request)
    if request.method == "POST":
        response["Clear-Site-Data"] = '"cache"'
    return response


# The header that names, to the worker, whom a page it may keep was drawn for (sw.js, "reader").
READER_HEADER = "Sudoku-Reader"


def reader_mark(request: HttpRequest) -> str:
    """Whom the page was drawn for, as the worker keeps it: 16 hex digits of a keyed hash of the
    session's key, which Django makes anew at every log-in (so another account, or the same one
    logged in again, is another reader); "" when nobody is logged in. The key itself is never sent."""
    user = getattr(request, "user", None)
    key = request.session.session_key if user is not None and user.is_authenticated else None
    return salted_hmac("puzzles.offline.reader", key).hexdigest()[:16] if key else ""


def kept_offline(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """A page the worker keeps for its reader, to show offline (the home page, stats, learn): its
    answer names the reader. One that shows a message (shown once: "signed in", say) is marked
    no-store, so the copy kept is the page without it."""

    @wraps(view)
    def page(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        response = view(request, *args, **kwargs)
        response[READER_HEADER] = reader_mark(request)
        if len(get_messages(request)):
            patch_cache_control(response, no_store=True)
        return response

    return page
