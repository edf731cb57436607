"""Production settings, as a deployment runs them: each check in a fresh Python process, since
settings are read from the environment once, at start."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def production_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SECRET_KEY"))}
    env.update(
        DJANGO_DEBUG="0",
        SECRET_KEY="test-only-" + "k" * 50,
        ALLOWED_HOSTS="sudoku.example.com",
        DATABASE_URL=f"sqlite:///{tmp_path / 'deploy.db'}",
        STATIC_ROOT=str(tmp_path / "static"),
        DJANGO_SETTINGS_MODULE="sudokusite.settings",
        CACHE_URL="",
    )
    env.update(extra)
    return env


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_the_deployment_checks_pass_on_production_settings(tmp_path):
    result = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], production_env(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_refuses_to_start_without_a_secret_key(tmp_path):
    result = run(["manage.py", "check"], production_env(tmp_path, SECRET_KEY=""))
    assert result.returncode != 0 and "Set SECRET_KEY" in result.stderr


SERVE = """
import django, json, sys
django.setup()
from django.templatetags.static import static
from django.test import Client
url = static("css/site.css")
client = Client(HTTP_HOST="sudoku.example.com")
plain = client.get(url, secure=True)
zipped = client.get(url, secure=True, HTTP_ACCEPT_ENCODING="gzip")
insecure = client.get("/ping/")
print(json.dumps({"url": url, "status": plain.status_code, "cache": plain.get("Cache-Control", ""),
                  "encoding": zipped.get("Content-Encoding", ""), "insecure": insecure.status_code,
                  "hsts": client.get("/ping/", secure=True).get("Strict-Transport-Security", "")}))
"""


def test_static_files_are_served_hashed_compressed_and_cached_for_good_over_https(tmp_path):
    import json

    env = production_env(tmp_path)
    collected = run(["manage.py", "collectstatic", "--noinput", "-v", "0"], env)
    assert collected.returncode == 0, collected.stderr
    assert list((tmp_path / "static" / "css").glob("site.*.css.gz")), "no compressed, hashed copy"
    result = run(["-c", SERVE], env)
    assert result.returncode == 0, result.stderr
    served = json.loads(result.stdout.strip().splitlines()[-1])
    assert served["url"].startswith("/static/css/site.") and served["url"] != "/static/css/site.css"
    assert served["status"] == 200 and "immutable" in served["cache"]
    assert served["encoding"] == "gzip"
    assert served["insecure"] == 301  # plain HTTP is sent to HTTPS
    assert served["hsts"] == "max-age=31536000; includeSubDomains"  # no preload unless asked for


HEADERS = """
import django, json
django.setup()
from django.conf import settings
from django.test import Client, override_settings
client = Client(HTTP_HOST="sudoku.example.com")
# The pages name their static files; with nothing collected here, by their plain names.
plain = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
with override_settings(STORAGES={**settings.STORAGES, "staticfiles": plain}):
    page, missing = client.get("/accounts/login/", secure=True), client.get("/no-such-page/", secure=True)
assert (page.status_code, missing.status_code) == (200, 404), (page.status_code, missing.status_code)
print(json.dumps({"hsts": page.get("Strict-Transport-Security", ""), "silenced": settings.SILENCED_SYSTEM_CHECKS,
                  "csp": [page.get("Content-Security-Policy", ""), missing.get("Content-Security-Policy", "")],
                  "permissions": [page.get("Permissions-Policy", ""), missing.get("Permissions-Policy", "")]}))
"""


def production_headers(tmp_path: Path, **extra: str) -> dict:
    import json

    result = run(["-c", HEADERS], production_env(tmp_path, **extra))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    ("variables", "hsts"),
    [
        ({}, "max-age=31536000; includeSubDomains"),
        ({"HSTS_INCLUDE_SUBDOMAINS": "0"}, "max-age=31536000"),
        ({"HSTS_PRELOAD": "1"}, "max-age=31536000; includeSubDomains; preload"),
        # The preload list takes only domains whose subdomains are covered too.
        ({"HSTS_PRELOAD": "true", "HSTS_INCLUDE_SUBDOMAINS": "0"}, "max-age=31536000; includeSubDomains; preload"),
    ],
)
def test_hsts_preloads_only_when_asked_for(tmp_path, variables, hsts):
    headers = production_headers(tmp_path, **variables)
    assert headers["hsts"] == hsts
    # check --deploy's warning about preload is silenced only while preload is off by choice.
    assert headers["silenced"] == ([] if "preload" in hsts else ["security.W021"])


def test_the_deployment_checks_pass_with_preload_asked_for(tmp_path):
    env = production_env(tmp_path, HSTS_PRELOAD="1")
    result = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 silenced" in result.stdout


def test_production_sends_the_content_security_policy_and_permissions_policy_on_every_page(tmp_path):
    headers = production_headers(tmp_path)
    for csp in headers["csp"]:  # a page, and the 404 page (DEBUG's own 404 alone goes without)
        assert "default-src 'self'" in csp and "script-src 'self'" in csp and "style-src 'self'" in csp
        assert "'unsafe-inline'" not in csp
    for permissions in headers["permissions"]:
        assert "camera=()" in permissions and "fullscreen=(self)" in permissions


@pytest.mark.parametrize(("concurrency", "workers"), [(None, 2 * (os.cpu_count() or 1) + 1), ("3", 3)])
def test_gunicorn_loads_the_sites_settings_with_the_platforms_worker_count(tmp_path, concurrency, workers):
    # What the Procfile's web process starts: gunicorn's own check of the configuration and the
    # application, then the settings as gunicorn reads them.
    env = production_env(tmp_path, PORT="8123")
    env.pop("WEB_CONCURRENCY", None)
    if concurrency:
        env["WEB_CONCURRENCY"] = concurrency
    checked = run(["-m", "gunicorn", "--check-config", "-c", "python:sudokusite.gunicorn", "sudokusite.wsgi"], env)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    read = run(["-c", "from sudokusite import gunicorn as g; print(g.workers, g.bind, g.forwarded_allow_ips)"], env)
    assert read.stdout.split() == [str(workers), "127.0.0.1:8123", "127.0.0.1,::1"]


def test_gunicorn_binds_where_the_proxy_reaches_it_and_trusts_only_the_proxies_forwarded_headers(tmp_path):
    env = production_env(tmp_path, BIND="10.0.0.7:8000", TRUSTED_PROXIES="10.0.0.2,10.0.1.0/24")
    checked = run(["-m", "gunicorn", "--check-config", "-c", "python:sudokusite.gunicorn", "sudokusite.wsgi"], env)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    read = run(["-c", "from sudokusite import gunicorn as g; print(g.bind, g.forwarded_allow_ips)"], env)
    assert read.stdout.split() == ["10.0.0.7:8000", "10.0.0.2,10.0.1.0/24"]


def test_a_gunicorn_worker_keeps_the_loaded_site_out_of_the_garbage_collectors_scans(tmp_path):
    # What gunicorn runs in each worker once the application is loaded.
    script = (
        "import gc, sys; from sudokusite.wsgi import application; from sudokusite import gunicorn as g; "
        "g.post_worker_init(None); print(gc.get_freeze_count(), 'puzzles.views.pages' in sys.modules)"
    )
    result = run(["-c", script], production_env(tmp_path))
    assert result.returncode == 0, result.stderr
    frozen, views_loaded = result.stdout.split()
    assert int(frozen) > 50_000 and views_loaded == "True"  # Django, the apps, and the views the URLs import


def test_a_server_error_in_production_logs_its_traceback_and_shows_none(tmp_path):
    # Django's own default logs nothing when DEBUG is off; LOGGING sends the traceback to the console.
    script = (
        "import django; django.setup()\n"
        "from django.core.management import call_command; call_command('migrate', verbosity=0)\n"
        "from django.test import Client\n"
        "from puzzles.views import home\n"
        "def broken(*a, **k): raise RuntimeError('the database went away')\n"
        "home.dailies_of = broken\n"
        "r = Client(raise_request_exception=False).get('/', secure=True, HTTP_HOST='sudoku.example.com')\n"
        "print(r.status_code, b'went away' in r.content)\n"
    )
    result = run(["-c", script], production_env(tmp_path))
    assert result.stdout.split() == ["500", "False"], result.stdout + result.stderr
    assert "Traceback" in result.stderr and "RuntimeError: the database went away" in result.stderr
    assert "ERROR django.request" in result.stderr
