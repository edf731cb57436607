"""Page weight: what a browser downloads to show today's puzzle page, compressed as it is served.

    python bench/page_weight.py [--production]

The page's HTML (as the server renders it), every stylesheet and script it links, and every ES
module those import, as production serves them (our CSS and JS compacted by collectstatic:
sudokusite/storage.py), each compressed with gzip at level 9 (what WhiteNoise writes beside each
static file). That is a returning player's page, against the target of 40 KB (issue 14). A first
visit loads more: the how-to dialog opens by itself on a first board (static/js/howto.js), with
its module, its stylesheet and its words (the how-to page, fetched); against 46 KB (issue 45).
Prints a line per file and each total against its target. tests/test_page_weight.py holds the page
to the same targets with the same measure.

Without --production the files are read by their names in static/ (DEBUG's), unhashed; with it,
collectstatic writes them with production's storage into a temporary folder, and the page names
them by their hashed names, as production serves it: the hashes add bytes that gzip cannot shrink.

It uses its own SQLite database in a temporary folder and needs no service.
"""

from __future__ import annotations

import gzip
import os
import re
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_BYTES = 40 * 1024  # a returning player's page
FIRST_VISIT_TARGET_BYTES = 46 * 1024  # with the how-to, which opens by itself on a first board

LINKED = re.compile(r'<(?:link[^>]+rel="(?:stylesheet|modulepreload)"[^>]*href|script[^>]+src)="([^"]+)"')
IMPORTED = re.compile(r'^\s*import\s+(?:[^"\']*?\s+from\s+)?["\'](\./[^"\']+)["\']', re.MULTILINE)
# The how-to dialog on the board (templates/puzzles/daily.html): its words' address and stylesheet.
HOWTO_DIALOG = re.compile(r'<dialog[^>]*\bid="howto"[^>]*>')
HOWTO_DATA = re.compile(r'\bdata-(url|css)="([^"]+)"')
# howto.js loads the dialog's module by a dynamic import when it opens.
DYNAMIC_IMPORT = re.compile(r'\bimport\(\s*["\'](\./[^"\']+)["\']\s*\)')


def gzipped(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=9, mtime=0))


def static_file(url: str) -> bytes:
    """A static file's bytes by its URL, as collectstatic makes them for production (the names
    are not hashed here: DEBUG's, which this reads, are not; the hashes add a few bytes)."""
    from django.conf import settings
    from django.contrib.staticfiles import finders

    from sudokusite.storage import OURS, compact

    name = url.split("?", 1)[0].removeprefix(settings.STATIC_URL)
    found = finders.find(name)
    if not found:
        raise FileNotFoundError(f"{url} is linked from the page but is not a static file")
    data = Path(found).read_bytes()
    return compact(name, data.decode()).encode() if name.startswith(OURS) else data


def page_weight(client, path: str) -> list[tuple[str, int, int]]:
    """(name, bytes, gzipped bytes) for the page at `path` and everything it loads that is ours."""
    from django.conf import settings

    html = client.get(path).content
    rows = [(path, len(html), gzipped(html))]
    urls = [url for url in LINKED.findall(html.decode()) if url.startswith(settings.STATIC_URL)]
    return rows + static_rows(urls)


def first_visit_weight(client, path: str) -> list[tuple[str, int, int]]:
    """page_weight's rows for the puzzle page at `path`, then what its how-to dialog loads when it
    opens by itself on a first board: the module howto.js imports for it (and what that imports),
    the dialog's stylesheet, and its words, the how-to page as served."""
    from django.conf import settings

    rows = page_weight(client, path)
    dialog = HOWTO_DIALOG.search(client.get(path).content.decode())
    if dialog is None:
        raise ValueError(f"{path} has no how-to dialog")
    data = dict(HOWTO_DATA.findall(dialog.group(0)))
    howto = next(name for name, _, _ in rows if re.search(r"/howto(\.[0-9a-f]+)?\.js$", name))
    base = howto.rsplit("/", 1)[0]
    modules = [f"{base}/{name.removeprefix('./')}" for name in DYNAMIC_IMPORT.findall(static_file(howto).decode())]
    loaded = {name for name, _, _ in rows}
    extra = static_rows([*modules, data["css"]], seen=loaded)
    words = client.get(data["url"], HTTP_ACCEPT="text/html").content
    assert data["css"].startswith(settings.STATIC_URL)
    return rows + extra + [(data["url"], len(words), gzipped(words))]


def static_rows(queue: list[str], seen: set[str] | None = None) -> list[tuple[str, int, int]]:
    """(url, bytes, gzipped bytes) for each static file in `queue` and every module those import,
    once each, leaving out those in `seen`."""
    seen = set(seen or ())
    rows = []
    queue = list(queue)
    while queue:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        data = static_file(url)
        rows.append((url, len(data), gzipped(data)))
        if url.endswith(".js"):
            base = url.rsplit("/", 1)[0]
            queue.extend(f"{base}/{name.removeprefix('./')}" for name in IMPORTED.findall(data.decode()))
    return rows


def print_rows(rows: list[tuple[str, int, int]], target: int, what: str) -> None:
    for name, raw, packed in rows:
        print(f"{name:<48}{raw:>9} B{packed:>9} B gzipped")
    total = sum(packed for _, _, packed in rows)
    print(f"{what:<48}{sum(raw for _, raw, _ in rows):>9} B{total:>9} B gzipped")
    print(f"{total / 1024:.1f} KB of {target // 1024} KB ({'met' if total <= target else 'MISSED'})")


@contextmanager
def production_files(folder: str) -> Iterator[None]:
    """Within: the static files collected by production's storage into `folder`, named by their
    hashes in the page, and found there by the finders this bench reads them with."""
    from django.conf import settings
    from django.core.management import call_command
    from django.test.utils import override_settings

    root = Path(folder) / "static"
    storages = {**settings.STORAGES, "staticfiles": {"BACKEND": "sudokusite.storage.HashedStaticStorage"}}
    with override_settings(STATIC_ROOT=root, STORAGES=storages, DEBUG=False, ALLOWED_HOSTS=["testserver"]):
        call_command("collectstatic", interactive=False, verbosity=0)
        with override_settings(STATICFILES_DIRS=[root]):
            yield


def main() -> None:
    sys.path.insert(0, str(ROOT))
    folder = tempfile.mkdtemp(prefix="sudoku-weight-")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sudokusite.settings")
    os.environ["DATABASE_URL"] = f"sqlite:///{folder}/weight.db"
    os.environ.pop("REDIS_URL", None)
    os.environ.pop("CACHE_URL", None)
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    call_command("migrate", verbosity=0)
    from puzzles.models import site_today
    from tests.factories import make_daily

    daily = make_daily(site_today())
    path = f"/daily/{daily.date.isoformat()}/{daily.difficulty}/"
    client = Client()
    with production_files(folder) if "--production" in sys.argv[1:] else nullcontext():
        returning = page_weight(client, path)
        first = first_visit_weight(client, path)
    print_rows(returning, TARGET_BYTES, "a returning player's page")
    print()
    for name, raw, packed in first[len(returning) :]:
        print(f"{name:<48}{raw:>9} B{packed:>9} B gzipped")
    total = sum(packed for _, _, packed in first)
    print(f"{'a first visit (with the how-to)':<48}{sum(raw for _, raw, _ in first):>9} B{total:>9} B gzipped")
    met = "met" if total <= FIRST_VISIT_TARGET_BYTES else "MISSED"
    print(f"{total / 1024:.1f} KB of {FIRST_VISIT_TARGET_BYTES // 1024} KB ({met})")


if __name__ == "__main__":
    main()
