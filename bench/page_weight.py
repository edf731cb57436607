"""Page weight: what a browser downloads to show today's puzzle page, compressed as it is served.

    python bench/page_weight.py

The page's HTML (as the server renders it), every stylesheet and script it links, and every ES
module those import, as production serves them (our CSS and JS compacted by collectstatic:
sudokusite/storage.py), each compressed with gzip at level 9 (what WhiteNoise writes beside each
static file). Prints a line per file and the total against the
target of 40 KB (issue 14). tests/test_page_weight.py holds the page to the same target with the
same measure.

It uses its own SQLite database in a temporary folder and needs no service.
"""

from __future__ import annotations

import gzip
import os
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_BYTES = 40 * 1024

LINKED = re.compile(r'<(?:link[^>]+rel="(?:stylesheet|modulepreload)"[^>]*href|script[^>]+src)="([^"]+)"')
IMPORTED = re.compile(r'^\s*import\s+(?:[^"\']*?\s+from\s+)?["\'](\./[^"\']+)["\']', re.MULTILINE)


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
    queue = [url for url in LINKED.findall(html.decode()) if url.startswith(settings.STATIC_URL)]
    seen: set[str] = set()
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
    rows = page_weight(Client(), f"/daily/{daily.date.isoformat()}/{daily.difficulty}/")
    for name, raw, packed in rows:
        print(f"{name:<48}{raw:>9} B{packed:>9} B gzipped")
    total = sum(packed for _, _, packed in rows)
    print(f"{'total':<48}{sum(raw for _, raw, _ in rows):>9} B{total:>9} B gzipped")
    print(f"{total / 1024:.1f} KB of {TARGET_BYTES // 1024} KB ({'met' if total <= TARGET_BYTES else 'MISSED'})")


if __name__ == "__main__":
    main()
