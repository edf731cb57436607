"""The headers every answer carries (sudokusite/settings.py): a Content Security Policy that allows
nothing inline, and a Permissions-Policy that turns off what the site never uses. The pages
themselves are read too, since a strict policy is only as good as markup that needs no exception:
no inline script or style, no event handler attribute, anywhere a player or an admin goes."""

from __future__ import annotations

import datetime
from html.parser import HTMLParser

import pytest
from django.contrib import admin
from django.contrib.auth.models import User
from django.test import Client, RequestFactory
from django.urls import reverse

from puzzles.models import Puzzle, SeedBatch
from puzzles.views import home
from sudokusite.permissions_policy import PermissionsPolicyMiddleware, header_value

from .factories import log_in, make_daily, make_solve, url

pytestmark = pytest.mark.django_db


def policy(response) -> dict[str, list[str]]:
    """The Content-Security-Policy header as {directive: [sources]}."""
    header = response.headers.get("Content-Security-Policy", "")
    directives = (part.split() for part in header.split(";") if part.strip())
    return {name: sources for name, *sources in directives}


def permissions(response) -> dict[str, str]:
    """The Permissions-Policy header as {feature: allowlist}."""
    items = (item.strip().split("=", 1) for item in response.headers.get("Permissions-Policy", "").split(","))
    return {feature: allowlist for feature, allowlist in items}


class InlineFinder(HTMLParser):
    """What a policy without 'unsafe-inline' would block in a page's markup."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "style":
            self.found.append("<style> block")
        if tag == "script" and "src" not in named and named.get("type") != "application/json":
            self.found.append("inline <script>")  # json_script's data block is never run
        for name, value in attrs:
            if name == "style":
                self.found.append(f"style attribute on <{tag}>")
            elif name.startswith("on"):
                self.found.append(f"{name}= on <{tag}>")
            elif name in ("href", "action", "src") and (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f"javascript: URL on <{tag}>")

    handle_startendtag = handle_starttag


def inline_parts(response) -> list[str]:
    finder = InlineFinder()
    finder.feed(response.content.decode())
    return finder.found


def assert_strict(response, address: str) -> None:
    directives = policy(response)
    assert directives, f"{address}: no Content-Security-Policy"
    header = response.headers["Content-Security-Policy"]
    assert "'unsafe-inline'" not in header and "'unsafe-eval'" not in header, address
    assert directives["default-src"] == directives["script-src"] == directives["style-src"] == ["'self'"], address
    assert directives["object-src"] == directives["frame-ancestors"] == ["'none'"], address
    assert directives["base-uri"] == ["'none'"] and directives["form-action"] == ["'self'"], address
    assert permissions(response)["camera"] == "()", f"{address}: no Permissions-Policy"


@pytest.fixture
def today_and_yesterday(todays_easy):
    """Today's easy daily, and yesterday's, which `ada` has solved (her results and chart show)."""
    yesterday = make_daily(todays_easy.date - datetime.timedelta(days=1))
    make_solve(yesterday, "ada", 312)
    return todays_easy, yesterday


def player_pages(today, yesterday) -> list[str]:
    month = reverse("puzzles:archive-month", kwargs={"year": f"{today.date:%Y}", "month": f"{today.date:%m}"})
    return [
        "/",
        url(today),
        url(yesterday),
        reverse("puzzles:results", args=(yesterday.date, yesterday.difficulty)),
        reverse("puzzles:stats"),
        month,
        reverse("account_change_password"),
        reverse("account_email"),
    ]


def visitor_pages(today) -> list[str]:
    month = reverse("puzzles:archive-month", kwargs={"year": f"{today.date:%Y}", "month": f"{today.date:%m}"})
    return [
        "/",
        url(today),
        month,
        reverse("account_signup"),
        reverse("account_login"),
        reverse("account_reset_password"),
        "/no-such-page/",
    ]


def admin_pages(superuser: User) -> list[str]:
    """The admin's index, every model's list and add form, one change form, and our own pages."""
    request = RequestFactory().get("/")
    request.user = superuser
    addresses = [reverse("admin:index"), reverse("admin:app_list", args=("puzzles",))]
    for app in admin.site.get_app_list(request):
        for model in app["models"]:
            addresses += [model["admin_url"], *([model["add_url"]] if model["add_url"] else [])]
    puzzle = Puzzle.objects.first()
    addresses += [
        reverse("admin:puzzles_puzzle_change", args=(puzzle.pk,)),
        reverse("admin:puzzles_pool_dashboard"),
        reverse("admin:puzzles_pool_dashboard_live"),
        reverse("admin:puzzles_puzzle_import"),
    ]
    return addresses


def test_every_page_a_visitor_sees_has_the_strict_policy_and_nothing_inline(client, today_and_yesterday):
    today, _ = today_and_yesterday
    for address in visitor_pages(today):
        response = client.get(address)
        assert response.status_code in (200, 404), address
        assert_strict(response, address)
        assert inline_parts(response) == [], address


def test_every_page_a_player_sees_has_the_strict_policy_and_nothing_inline(client, today_and_yesterday):
    today, yesterday = today_and_yesterday
    log_in(client, "ada")
    for address in player_pages(today, yesterday):
        response = client.get(address)
        assert response.status_code == 200, address
        assert_strict(response, address)
        assert inline_parts(response) == [], address
    # The chart on the stats page is drawn by the server, as SVG: presentation attributes only.
    assert b"<svg" in client.get(reverse("puzzles:stats")).content


def test_every_admin_page_has_the_strict_policy_and_nothing_inline(client, today_and_yesterday, monkeypatch):
    from puzzles.pipeline import broker

    monkeypatch.setattr(broker, "broker_status", lambda: (True, "The task broker (test) is reachable."))
    SeedBatch.objects.create(tier="easy", filler="row-by-row", requested=5)  # the live refresh runs
    root = User.objects.create_superuser("root", password="a long enough password 1")
    client.force_login(root)
    addresses = admin_pages(root)
    assert len(addresses) >= 12
    for address in addresses:
        response = client.get(address)
        assert response.status_code == 200, address
        assert_strict(response, address)
        assert inline_parts(response) == [], address
    dashboard = client.get(reverse("admin:puzzles_pool_dashboard")).content.decode()
    assert '<script type="module" src="/static/js/admin/pool-dashboard.js"></script>' in dashboard


def test_error_answers_carry_the_headers_too(db, monkeypatch):
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    refused = client.post(reverse("account_login"), {"login": "ada", "password": "x"})
    assert refused.status_code == 403
    assert_strict(refused, "a refused CSRF check")
    assert inline_parts(refused) == []

    def broken(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(home, "dailies_of", broken)
    failed = client.get("/")
    assert failed.status_code == 500
    assert_strict(failed, "a server error")
    assert inline_parts(failed) == []


def test_the_locked_out_page_has_the_strict_policy_and_nothing_inline(client, user):
    for _ in range(6):  # allauth refuses the sixth, after five failures
        answer = client.post(reverse("account_login"), {"login": "ada", "password": "wrong"})
    assert answer.status_code == 429
    assert_strict(answer, "the lock-out page")
    assert inline_parts(answer) == []


def test_the_boards_json_answers_carry_the_headers(player, daily):
    answer = player.get(url(daily, "state"))
    assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
    assert_strict(answer, "the state API")


def test_the_inline_finder_finds_what_the_policy_blocks():
    class Page:
        content = (
            b'<p style="color:red" onclick="go()">x</p><script>alert(1)</script><style>p{}</style>'
            b'<a href="javascript:go()">y</a><script type="application/json" id="d">{}</script>'
            b'<script type="module" src="/static/js/board.js"></script>'
        )

    assert inline_parts(Page) == [
        "style attribute on <p>",
        "onclick= on <p>",
        "inline <script>",
        "<style> block",
        "javascript: URL on <a>",
    ]


def test_permissions_policy_turns_off_what_the_site_never_uses_and_keeps_sharing(client):
    features = permissions(client.get(reverse("account_login")))
    for feature in ("camera", "microphone", "geolocation", "payment", "usb", "display-capture", "clipboard-read"):
        assert features[feature] == "()", feature
    # Kept for the planned share button: full screen, copying a result.
    assert features["fullscreen"] == features["clipboard-write"] == "(self)"
    assert "interest-cohort" not in features  # FLoC's, long gone from browsers


def test_the_permissions_policy_header_is_written_as_the_standard_asks():
    policy = {"camera": [], "fullscreen": ["self"], "web-share": ["self", "https://share.example.com"]}
    assert header_value(policy) == 'camera=(), fullscreen=(self), web-share=(self "https://share.example.com")'


def test_a_view_may_set_its_own_permissions_policy(rf, settings):
    from django.http import HttpResponse

    def own(request):
        response = HttpResponse()
        response["Permissions-Policy"] = "camera=(self)"
        return response

    assert PermissionsPolicyMiddleware(own)(rf.get("/"))["Permissions-Policy"] == "camera=(self)"
    plain = PermissionsPolicyMiddleware(lambda request: HttpResponse())(rf.get("/"))
    assert plain["Permissions-Policy"] == header_value(settings.PERMISSIONS_POLICY)
