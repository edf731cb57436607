"""The icon and the web app manifest as Chromium takes them from the live server: served with their
types, the manifest read without an error, the site installable, under the site's CSP."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_chromium_reads_the_manifest_without_an_error_and_fetches_its_icons(chromium, live_server, todays_easy):
    context = chromium.new_context()
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    page.goto(live_server.url + "/")

    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/static/manifest.webmanifest")
    assert manifest["errors"] == [], manifest["errors"]
    assert '"name": "Daily Sudoku"' in manifest["data"]
    # Chromium would offer to install the site: its one objection is Playwright's private window.
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [error["errorId"] for error in errors if error["errorId"] != "in-incognito"] == []

    types = {
        "/static/manifest.webmanifest": "application/manifest+json",
        "/static/icons/icon.svg": "image/svg+xml",
        "/static/icons/icon-192.png": "image/png",
        "/static/icons/icon-512.png": "image/png",
        "/static/icons/icon-maskable-512.png": "image/png",
        "/static/icons/apple-touch-icon.png": "image/png",
    }
    for path, kind in types.items():
        response = page.request.get(live_server.url + path)
        assert response.status == 200 and response.headers["content-type"].startswith(kind), path
    # The brand's mark in the header is the same icon, drawn.
    assert page.locator(".brand img").evaluate("img => img.complete && img.naturalWidth > 0")
    assert not [text for text in console if "Content Security Policy" in text], console
    context.close()
