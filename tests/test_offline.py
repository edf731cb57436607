"""The service worker at /sw.js, the offline page and the log-out that clears the browser's cache
(puzzles/views/offline.py), as the server answers them; the worker's own behaviour is in
tests/js/sw.test.mjs and tests/browser/test_offline.py."""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.urls import reverse

from puzzles.views import offline

from .test_headers import assert_strict, inline_parts, policy
from .test_static_modules import collected, served_hashed  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def worker_worked_out_afresh():
    """/sw.js is worked out once per process in production: each test starts from nothing."""
    offline._worker_script_cached.cache_clear()
    yield
    offline._worker_script_cached.cache_clear()


CONFIG = re.compile(r"^self\.OFFLINE = (\{.*\});\nimportScripts\((\"[^\"]+\")\);\n$", re.S)


def worker(client) -> tuple[dict, str]:
    """/sw.js read as the worker reads it: (its configuration, the URL of the code it imports)."""
    response = client.get("/sw.js")
    match = CONFIG.match(response.content.decode())
    assert match, response.content
    return json.loads(match[1]), json.loads(match[2])


def test_the_worker_is_served_from_the_root_as_javascript_never_kept_stale(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert "no-cache" in response["Cache-Control"]
    # At the root, its default scope is the whole site; no wider scope is asked for.
    assert reverse("puzzles:service-worker") == "/sw.js" and "Service-Worker-Allowed" not in response
    assert_strict(response, "/sw.js")
    assert not response.cookies


def test_the_worker_keeps_every_page_s_files_and_the_offline_page_but_not_the_admin_s(client):
    config, code = worker(client)
    assert code == staticfiles_storage.url("js/sw.js")
    precache = config["precache"]
    for name in ("css/site.css", "css/board.css", "js/board.js", "js/sync.js", "js/offline.js", "icons/icon.svg"):
        assert staticfiles_storage.url(name) in precache, name
    assert staticfiles_storage.url("manifest.webmanifest") in precache
    assert not [url for url in precache if "/admin" in url or url.endswith("/sw.js")]
    assert config["offline"] == "/offline/" and config["static"] == "/static/"
    assert re.fullmatch(r"[0-9a-f]{16}", config["version"])


def test_in_production_the_worker_keeps_the_hashed_files_collectstatic_wrote(client, served_hashed):  # noqa: F811
    config, code = worker(client)
    root = served_hashed.root
    assert code == f"/static/{served_hashed.manifest['js/sw.js']}" and (root / code.removeprefix("/static/")).is_file()
    assert f"/static/{served_hashed.manifest['js/board.js']}" in config["precache"]
    # Every one is there to fetch (one missing would fail the worker's whole install).
    missing = [url for url in config["precache"] if not (root / url.removeprefix("/static/")).is_file()]
    assert missing == [] and len(config["precache"]) > 30


def test_files_collectstatic_leaves_out_are_not_asked_for(tmp_path, monkeypatch):
    for name in ("css/site.css", "css/.DS_Store", "js/board.js~", "js/admin/x.js", "icons/.keep", "robots.txt"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    monkeypatch.setattr(offline, "STATIC_SOURCE", tmp_path)
    assert offline._static_names() == ["css/site.css"]


def test_the_version_follows_what_the_worker_keeps(client, settings, monkeypatch):
    first, _ = worker(client)
    assert worker(client)[0]["version"] == first["version"]  # nothing changed, nothing to install
    # A release whose static files have other (hashed) names installs a new worker.
    monkeypatch.setattr(offline.staticfiles_storage, "url", lambda name: f"/static/{name}?v=2")
    offline._worker_script_cached.cache_clear()  # a new release is a new process
    second, code = worker(client)
    assert second["version"] != first["version"] and code == "/static/js/sw.js?v=2"


def test_the_pages_allow_the_worker_and_the_manifest_from_this_site_alone(client, todays_easy):
    directives = policy(client.get("/"))
    assert directives["worker-src"] == ["'self'"] and directives["manifest-src"] == ["'self'"]
    page = client.get(f"/daily/{todays_easy.date.isoformat()}/easy/").content.decode()
    # Every page's menu.js registers the worker once the page has loaded (not a module of its own).
    assert '<script type="module" src="/static/js/menu.js"></script>' in page
    assert 'import("./service-worker.js")' in (settings.BASE_DIR / "static" / "js" / "menu.js").read_text()


def test_the_offline_page_says_what_works_offline_and_nothing_about_its_reader(client, user):
    client.force_login(user)
    response = client.get("/offline/")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/html")
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    assert "You are offline" in body and "kept on this device" in body
    assert 'id="offline-puzzles"' in body and "/static/js/offline.js" in body
    # Kept by the browser and shown whoever is logged in: no name, no token, no account links.
    assert "ada" not in body and "csrfmiddlewaretoken" not in body and "Log out" not in body
    assert not response.cookies
    assert_strict(response, "/offline/")
    assert inline_parts(response) == []


@pytest.mark.parametrize("path", ["/sw.js", "/offline/"])
def test_a_write_to_the_worker_or_the_offline_page_is_refused_not_an_error(client, path):
    assert client.post(path, data=b"{]", content_type="application/json").status_code == 405
    assert client.put(path).status_code == 405
    assert client.head(path).status_code == 200


def test_the_log_out_clears_the_browser_s_http_cache_and_still_logs_out(client, user):
    client.force_login(user)
    response = client.post(reverse("account_logout"))
    assert response.status_code == 302
    assert response["Clear-Site-Data"] == '"cache"'
    assert "_auth_user_id" not in client.session
    # Its confirmation page, asked for with GET, changes nothing and clears nothing.
    client.force_login(user)
    page = client.get(reverse("account_logout"))
    assert "Clear-Site-Data" not in page and "_auth_user_id" in client.session


def test_a_change_of_the_static_settings_is_followed_by_the_next_worker(client, settings):
    offline._worker_script_cached()
    settings.STATIC_URL = "/assets/"  # what a test serving other files does
    assert offline._worker_script_cached.cache_info().currsize == 0


# The pages the worker keeps for their reader (views/offline.py, kept_offline; sw.js, "reader").
READER_PAGES = ("/", "/stats/", "/learn/", "/learn/x-wing/")


def reader_of(client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    return response[offline.READER_HEADER]


def test_the_home_stats_and_learn_pages_name_their_reader_and_a_new_log_in_is_another(client, todays_easy):
    from django.contrib.auth.models import User

    ada, bob = User.objects.create_user("ada"), User.objects.create_user("bob")
    # Nobody logged in: the worker forgets every reader's pages on hearing it.
    assert reader_of(client, "/") == reader_of(client, "/learn/") == ""
    client.force_login(ada)
    first = reader_of(client, "/")
    assert re.fullmatch(r"[0-9a-f]{16}", first)
    assert {reader_of(client, path) for path in READER_PAGES} == {first}
    assert client.session.session_key not in first  # a keyed hash, not the key
    client.logout()
    client.force_login(ada)  # the same account, a new session: another reader
    again = reader_of(client, "/stats/")
    client.logout()
    client.force_login(bob)
    assert len({first, again, reader_of(client, "/stats/")}) == 3
    # Every other page is the network's alone: it names nobody to the worker.
    for path in ("/archive/", "/account/", "/privacy/", "/offline/", f"/daily/{todays_easy.date.isoformat()}/easy/"):
        assert offline.READER_HEADER not in client.get(path, follow=True), path


def test_a_page_that_shows_a_message_once_is_not_kept(rf, user):
    from django.contrib import messages
    from django.contrib.messages.storage.fallback import FallbackStorage
    from django.contrib.sessions.middleware import SessionMiddleware

    from puzzles.views.learn import learn

    def request_with(message: str = ""):
        request = rf.get("/learn/")
        SessionMiddleware(lambda r: None).process_request(request)
        request.session.save()
        request.user = user
        request._messages = FallbackStorage(request)
        if message:
            messages.success(request, message)
        return request

    shown = learn(request_with("Saved: reminders are off."))
    assert "Saved: reminders are off." in shown.content.decode()
    assert "no-store" in shown["Cache-Control"] and shown[offline.READER_HEADER]  # its reader named all the same
    assert "no-store" not in learn(request_with()).get("Cache-Control", "")
