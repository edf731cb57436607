"""gunicorn's settings for the web process: `gunicorn -c python:sudokusite.gunicorn sudokusite.wsgi`.

Sync workers, as many as gunicorn's documentation suggests to start from, (2 x cores) + 1, so a
worker waiting on PostgreSQL or Redis leaves the cores to the others ("How Many Workers?" in
gunicorn's design notes). WEB_CONCURRENCY, which platforms such as Heroku set, overrides it.

It listens on loopback unless told otherwise (BIND, e.g. 10.0.0.7:8000 where the proxy is another
machine): a web process the world can reach directly lets a client skip the proxy and write its
own X-Forwarded-For. Only the proxies' addresses (TRUSTED_PROXIES, the variable settings.py reads
for the same purpose) are trusted for the forwarded headers.
"""

import gc
import os

workers = int(os.environ.get("WEB_CONCURRENCY") or 2 * (os.cpu_count() or 1) + 1)
bind = os.environ.get("BIND") or f"127.0.0.1:{os.environ.get('PORT', '8000')}"
forwarded_allow_ips = os.environ.get("TRUSTED_PROXIES") or "127.0.0.1,::1"


def post_worker_init(worker) -> None:
    """Once a worker has loaded the site, keep what it loaded out of the garbage collector's scans.

    A loaded worker holds a great many objects (Django, the apps, the URLs and views) that live as
    long as it does, and a full collection walked all of them, stalling whichever request was
    running (measured while tuning bench/web.py; docs/performance.md has the figures). gc.freeze()
    moves them to a generation that is never scanned (Python's gc documentation), and a full
    collection then walks only what came after. The URLs and views are imported here, not on the
    first request, so they are frozen too.
    """
    from django.urls import get_resolver

    _ = get_resolver().url_patterns  # imports every view
    gc.freeze()
