"""The site's icon, web app manifest and theme colour (templates/base.html, static/): every page
links them, the manifest names icons that exist at the sizes it says, and its colours are the
pages' own, so the site added to a phone's home screen looks like the site."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from .factories import log_in, url

pytestmark = pytest.mark.django_db

SITE_BG = {"light": "#fbfbfd", "dark": "#16161a"}  # site.css's --bg on each side


def static_file(name: str) -> Path:
    found = finders.find(name)
    assert found, f"static/{name} is missing"
    return Path(found)


def png_size(path: Path) -> tuple[int, int]:
    """A PNG's width and height, from its header."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is not a PNG"
    return struct.unpack(">II", data[16:24])


def head_links(page: str) -> dict[str, str]:
    """<link rel=... href=...> of a page as {rel: href}."""
    return dict(re.findall(r'<link rel="([^"]+)" href="([^"]+)"', page))


def test_every_page_links_the_icons_the_manifest_and_both_theme_colours(client, daily):
    player = Client()
    log_in(player)
    visitors = ["/", url(daily), "/archive/", "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"]
    players = ["/", "/stats/", "/accounts/password/change/", "/accounts/email/"]
    pages = [(client, p) for p in [*visitors, "/no-such-page/"]] + [(player, p) for p in players]
    for who, address in pages:
        page = who.get(address, follow=True).content.decode()
        links = head_links(page)
        assert links.get("icon") == "/static/icons/icon.svg", address
        assert links.get("apple-touch-icon") == "/static/icons/apple-touch-icon.png", address
        assert links.get("manifest") == "/static/manifest.webmanifest", address
        for side, colour in SITE_BG.items():
            meta = f'<meta name="theme-color" media="(prefers-color-scheme: {side})" content="{colour}">'
            assert meta in page, address


def test_the_manifest_names_the_site_and_icons_that_exist_at_their_sizes():
    manifest = json.loads(static_file("manifest.webmanifest").read_text())
    assert manifest["name"] == "Daily Sudoku" and manifest["short_name"]
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["background_color"] == manifest["theme_color"] == SITE_BG["light"]
    sizes = set()
    for icon in manifest["icons"]:
        path = static_file(icon["src"])  # relative to the manifest, which is at the root of static/
        if icon["type"] == "image/png":
            width, height = png_size(path)
            assert icon["sizes"] == f"{width}x{height}", icon["src"]
            sizes.add((width, icon.get("purpose", "any")))
        else:
            assert icon["type"] == "image/svg+xml" and path.read_text().startswith("<svg")
    # What Android asks of an installable site: 192 and 512 pixels, and one to crop as it likes.
    assert {(192, "any"), (512, "any"), (512, "maskable")} <= sizes


def test_the_apple_touch_icon_is_square_and_180_pixels():
    assert png_size(static_file("icons/apple-touch-icon.png")) == (180, 180)


def test_production_serves_the_manifest_as_a_manifest(settings):
    # WhiteNoise, which serves static files in production, would send .webmanifest as octet-stream.
    from whitenoise.middleware import WhiteNoiseMiddleware

    served = WhiteNoiseMiddleware(get_response=lambda request: None, settings=settings)
    assert served.media_types.get_type("static/manifest.webmanifest") == "application/manifest+json"
