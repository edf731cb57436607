"""The board's ES modules as production serves them: collected under hashed names, each module
names the others by their hashed names, and the board plays from those files in Chromium."""

from __future__ import annotations

import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command
from django.test import override_settings
from django.utils.module_loading import import_string

from sudokusite.storage import HASH_DIGITS
from tests.browser.conftest import CHROMIUM_ARGS
from tests.browser.pages import cell, digit_in, sign_up, wait_saved
from tests.conftest import _missing

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(path.name for path in (ROOT / "static" / "js").glob("*.js"))
# A static import or re-export (`import { a } from "./a.js";`), or a bare `import "./a.js";`.
SPECIFIER = re.compile(r"""^(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']|^import\s*["']([^"']+)["']""", re.M)


@dataclass
class Collected:
    root: Path
    backend: str
    manifest: dict[str, str]  # original name -> hashed name


# A module loaded when it is needed: `import("./a.js")`.
DYNAMIC = re.compile(r"""\bimport\(\s*["']([^"']+)["']\s*\)""")


def imports(source: str) -> list[str]:
    return [a or b for a, b in SPECIFIER.findall(source)]


def loaded_by(entry: str) -> set[str]:
    """The modules `entry` brings in: itself and everything it imports, all the way down."""
    found, queue = set(), [entry]
    while queue:
        name = queue.pop()
        if name not in found:
            found.add(name)
            queue += [posixpath.basename(spec) for spec in imports((ROOT / "static" / "js" / name).read_text())]
    return found


# What the puzzle page loads: the board's entry point and its imports, and every page's theme.js
# (the replay page's replay.js is not among them).
# Every page's menu.js and service-worker.js; howto.js, the page's second entry point, and the
# dialog it loads when how to play first opens (howto-dialog.js, by a dynamic import, which production hashes too). What
# loads only with a solve (results.js, share.js) is not among them.
BOARD_PAGE_MODULES = sorted(
    loaded_by("board.js") | {"theme.js", "menu.js", "service-worker.js", "howto.js", "howto-dialog.js"}
)


def production_backend() -> str:
    """The static files storage settings.py picks with DEBUG off, read in a process of its own."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SECRET_KEY"))}
    env.update(DJANGO_DEBUG="0", SECRET_KEY="test-only-" + "k" * 50, DJANGO_SETTINGS_MODULE="sudokusite.settings")
    code = "from django.conf import settings; print(settings.STORAGES['staticfiles']['BACKEND'])"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.split()[-1]


def production_storages(backend: str) -> dict:
    return {**django_settings.STORAGES, "staticfiles": {"BACKEND": backend}}


@pytest.fixture(scope="module")
def collected(tmp_path_factory) -> Collected:
    """`collectstatic` with the production storage into a fresh STATIC_ROOT, once for this module."""
    backend = production_backend()
    root = tmp_path_factory.mktemp("static")
    with override_settings(STATIC_ROOT=root, STORAGES=production_storages(backend)):
        call_command("collectstatic", interactive=False, verbosity=0)
    manifest = json.loads((root / "staticfiles.json").read_text())["paths"]
    return Collected(root, backend, manifest)


@pytest.fixture
def served_hashed(settings, collected) -> Collected:
    """Templates name the collected, hashed files; the live server serves them from there."""
    settings.STATIC_ROOT = collected.root
    settings.STORAGES = production_storages(collected.backend)
    # The live server's static handler looks files up with the finders, so they look here.
    settings.STATICFILES_DIRS = [collected.root]
    return collected


def in_chromium(play):
    """`play(browser)` in a Chromium of its own, on a thread of its own: Playwright's sync API runs one
    instance per thread, and the browser tests' session-wide one may already be running on this one."""
    executable = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not executable:
        _missing("Chromium is not installed (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    def run():
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            try:
                return play(browser)
            finally:
                browser.close()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


def test_production_rewrites_module_imports_to_hashed_names(collected):
    assert collected.backend == "sudokusite.storage.HashedStaticStorage"
    assert import_string(collected.backend).support_js_module_import_aggregation


def test_every_module_is_collected_under_a_hashed_name(collected):
    assert {"board.js", "sudoku.js", "sync.js"} <= set(MODULES)
    for name in MODULES:
        hashed = collected.manifest[f"js/{name}"]
        assert re.fullmatch(rf"js/{re.escape(name.removesuffix('.js'))}\.[0-9a-f]{{{HASH_DIGITS}}}\.js", hashed)
        assert (collected.root / hashed).is_file()


def test_every_import_in_a_collected_module_names_the_hashed_file_of_that_module(collected):
    checked = 0
    for name in MODULES:
        hashed = collected.manifest[f"js/{name}"]
        written = imports((ROOT / "static" / "js" / name).read_text())
        served = imports((collected.root / hashed).read_text())
        assert len(served) == len(written), name
        for original, rewritten in zip(written, served):
            assert original.startswith(("./", "../")), f"{name} imports {original}: not a relative path"
            target = posixpath.normpath(posixpath.join("js", original))
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(hashed), rewritten))
            assert resolved == collected.manifest[target], f"{hashed} imports {rewritten}, not the hashed {target}"
            assert (collected.root / resolved).is_file()
            checked += 1
    # The entry point alone imports every other module.
    assert checked >= len(MODULES) - 1


def test_every_module_loaded_when_needed_is_named_by_its_hashed_file(collected):
    checked = 0
    for name in MODULES:
        hashed = collected.manifest[f"js/{name}"]
        written = DYNAMIC.findall((ROOT / "static" / "js" / name).read_text())
        served = DYNAMIC.findall((collected.root / hashed).read_text())
        assert len(served) == len(written), name
        for original, rewritten in zip(written, served):
            target = posixpath.normpath(posixpath.join("js", original))
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(hashed), rewritten))
            assert resolved == collected.manifest[target], f"{hashed} loads {rewritten}, not the hashed {target}"
            checked += 1
    # How to play's dialog and the results at least (howto.js, play.js).
    assert checked >= 2


def test_the_puzzle_page_loads_the_hashed_entry_point(client, todays_easy, served_hashed):
    page = client.get(f"/daily/{todays_easy.date.isoformat()}/easy/").content.decode()
    board = served_hashed.manifest["js/board.js"]
    assert f'<script type="module" src="/static/{board}"></script>' in page


@pytest.mark.integration
@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_board_plays_from_the_hashed_modules_in_chromium(live_server, todays_easy, served_hashed):
    path = f"/daily/{todays_easy.date.isoformat()}/easy/"
    modules, broken, errors = set(), [], []

    def on_response(response) -> None:
        url = urlparse(response.url).path
        if url.startswith("/static/js/"):
            modules.add(url.removeprefix("/static/"))
        if url.startswith("/static/") and response.status >= 400:
            broken.append(url)

    def play(browser) -> None:
        page = browser.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("response", on_response)
        sign_up(page, live_server.url, path, "hashed")  # waits until board.js has put the position on the board
        # A first board opens how to play, by a module loaded when it opens (howto.js): it closes.
        page.wait_for_selector("#howto[open] #howto-body[data-filled=yes]", timeout=10_000)
        page.keyboard.press("Escape")
        cell(page, 0).click()
        page.keyboard.press("4")
        assert digit_in(page, 0) == "4"
        wait_saved(page)

    in_chromium(play)
    assert modules == {served_hashed.manifest[f"js/{name}"] for name in BOARD_PAGE_MODULES}
    assert not broken and not errors


def test_the_puzzle_page_preloads_every_module_the_entry_point_imports(client, todays_easy):
    # Without the preload a first visit waits for board.js before it asks for the rest.
    wanted, queue = set(), ["board.js"]
    while queue:
        for spec in imports((ROOT / "static" / "js" / queue.pop()).read_text()):
            name = posixpath.basename(spec)
            if name not in wanted:
                wanted.add(name)
                queue.append(name)
    page = client.get(f"/daily/{todays_easy.date.isoformat()}/easy/").content.decode()
    preloaded = set(re.findall(r'<link rel="modulepreload" href="/static/js/([^"]+)">', page))
    assert preloaded == wanted


def test_production_serves_our_css_and_js_without_comments_and_the_admins_as_they_come(collected):
    source = Path(django_settings.BASE_DIR) / "static"
    for name in ("js/sync.js", "js/board.js", "css/board.css"):
        served = (collected.root / collected.manifest[name]).read_text()
        original = (source / name).read_text()
        assert len(served) < 0.8 * len(original), name
        lines = served.splitlines()
        assert not any(line.startswith(("//", "/*", " ", "\t")) for line in lines), name
        if name.endswith(".css"):
            assert "/*" not in served
    # Code is untouched: every line of code in the source is in what is served (the imports name
    # the hashed files instead).
    code = [line.strip() for line in (source / "js/sync.js").read_text().splitlines()]
    kept = set((collected.root / collected.manifest["js/sync.js"]).read_text().splitlines())
    missing = [line for line in code if line and not line.startswith(("//", "/*", "*", "import ")) and line not in kept]
    assert missing == []
    # Other apps' files (the admin's) are served as they come, comments and all.
    assert "/*" in (collected.root / collected.manifest["admin/css/base.css"]).read_text()
