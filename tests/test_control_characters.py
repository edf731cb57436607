"""Input no layer chokes on (sudokusite/input_checks.py): control characters in an address, a query,
a form or a JSON body answer 400 on every database, a page or the API's JSON error, never a 500; a
body too large is a 413 logged as a warning without a traceback.

A NUL that reached a query was a 500 on PostgreSQL, which takes no NUL in text, and passed on SQLite:
so these run on both (CI's PostgreSQL pass is where main failed with 500s; on SQLite it answered 200
or 404), and the URLconf is walked, each address with a NUL in a segment of its own.
"""

from __future__ import annotations

import io
import json
import logging
import re

import pytest
from django.contrib import admin
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import HttpResponse
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from puzzles.models import PushSubscription
from sudokusite.input_checks import QUERY_CONTROLS, InputChecksMiddleware, json_has_controls

from .factories import log_in, player_digits, post, url

pytestmark = pytest.mark.django_db

CONTROLS_PAGE = "holds characters this site does not take"


def refused_page(response) -> bool:
    """The site's own 400 page, in words a player reads, no traceback."""
    text = response.content.decode()
    return (
        response.status_code == 400
        and response["Content-Type"].startswith("text/html")
        and CONTROLS_PAGE in text
        and "Traceback" not in text
    )


def refused_json(response) -> bool:
    """The API's one shape of error (views/errors.py json_error): private, with a message."""
    return (
        response.status_code == 400
        and response["Cache-Control"] == "private, no-store"
        and "control characters" in response.json()["error"]
    )


@pytest.fixture
def staff(client) -> Client:
    client.force_login(User.objects.create_superuser("root", "root@example.com", "a long enough password 1"))
    return client


@pytest.fixture
def answers(client):
    """Every request's answer, a 500 included, rather than the view's exception raised in the test."""
    client.raise_request_exception = False
    return client


# --- the addresses that were 500s on PostgreSQL ----------------------------------------------


def test_a_nul_in_a_league_invite_is_the_sites_400_page(answers):
    assert refused_page(answers.get("/leagues/join/%00/"))
    log_in(answers)
    assert refused_page(answers.get("/leagues/join/%00/"))
    assert refused_page(answers.get("/leagues/join/ab%00cd/"))


@pytest.mark.parametrize("query", ["username=%00", "q=%00", "q=a%00b", "o=%00", "p=%00"])
def test_a_nul_in_any_admin_changelists_query_is_a_400(staff, query):
    staff.raise_request_exception = False
    for model in admin.site._registry:
        address = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        response = staff.get(f"{address}?{query}")
        assert refused_page(response), (address, query, response.status_code)


def test_a_nul_in_the_log_in_forms_username_is_a_400(answers, user):
    response = answers.post(reverse("account_login"), {"login": "ada\x00", "password": "a long enough password 1"})
    assert refused_page(response)
    assert "_auth_user_id" not in answers.session


def test_a_control_character_in_a_multipart_field_is_a_400_and_a_file_names_is_stripped(answers):
    form = {"login": "a\x01b", "password": "x"}
    assert refused_page(answers.post(reverse("account_login"), form))  # multipart: the test client's default
    # Django keeps only what is printable of an upload's file name, so a NUL there never reaches anything.
    upload = SimpleUploadedFile("grids\x00.txt", b"0" * 81 + b"\n")
    answer = answers.post(reverse("account_login"), {"login": "ada", "password": "x", "file": upload})
    assert answer.status_code == 200


def test_a_json_save_with_a_nul_in_a_string_is_a_json_400_and_saves_nothing(player, daily):
    digits = player_digits()[:40] + "0" * 41
    first = post(player, url(daily, "save"), {"version": 0, "digits": digits})
    assert first.status_code == 200
    for payload in (
        {"version": 1, "digits": "\u0000" * 81},
        {"version": 1, "digits": digits, "note": "left\u0000"},
        {"version": 1, "digits": digits, "moves": [[0, "d", [[0, "\u0000"]]]]},
        {"version": 1, "digits": digits, "\u0000": 1},
    ):
        assert refused_json(post(player, url(daily, "save"), payload)), payload
    assert refused_json(post(player, url(daily, "save"), b'{"version": 1, "digits": "\\u0000"}'))
    assert player.get(url(daily, "state")).json()["version"] == 1


def test_a_nul_in_a_push_endpoint_is_a_json_400_and_stores_nothing(client, settings):
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = "public", "private"
    log_in(client)
    subscription = {
        "endpoint": "https://fcm.googleapis.com/fcm/send/ab\u0000cd",
        "keys": {"p256dh": "B" * 87, "auth": "A" * 22},
    }
    assert refused_json(post(client, reverse("puzzles:push-subscribe"), subscription))
    assert not PushSubscription.objects.exists()


def test_a_session_cookie_holding_nul_is_ignored_not_a_500(answers, user):
    answers.cookies["sessionid"] = "\x00" * 32  # sent quoted, "\000\000...", which Django unquotes
    response = answers.get("/")
    assert response.status_code == 200
    form = {"login": "ada", "password": "a long enough password 1"}
    assert answers.post(reverse("account_login"), form).status_code == 302  # and they can log in
    assert answers.get(reverse("puzzles:stats")).status_code == 200


# --- every address, a NUL in each of its segments ----------------------------------------------

SAMPLES = {"int": "1", "isodate": "2026-01-01", "str": "easy", "slug": "naked-single", "path": "x"}
PARAMETER = re.compile(r"<(?:(\w+):)?\w+>")
GROUP = re.compile(r"\(\?P<\w+>[^)]*\)")


def routes(patterns=None, prefix: str = "") -> list[str]:
    """Every address of the URLconf, each parameter given a sample value of its kind."""
    found = []
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        text = str(entry.pattern)
        if text.startswith("^"):  # a regular expression: each group a sample, the rest as written
            text = GROUP.sub("1", text).strip("^$").replace("\\", "")
        else:
            text = PARAMETER.sub(lambda m: SAMPLES.get(m.group(1) or "str", "x"), text)
        if isinstance(entry, URLResolver):
            found += routes(entry.url_patterns, prefix + text)
        elif isinstance(entry, URLPattern):
            found.append("/" + prefix + text)
    return sorted(set(found))


def with_nul_in_each_segment(address: str) -> list[str]:
    segments = address.split("/")
    return [
        "/".join(segments[:i] + [segments[i] + "%00"] + segments[i + 1 :])
        for i in range(1, len(segments))
        if segments[i]
    ]


def test_the_walk_finds_the_addresses_that_take_text():
    found = routes()
    assert (
        "/leagues/join/easy/" in found
        and "/reminders/stop/easy/" in found
        and "/api/daily/2026-01-01/easy/save/" in found
    )
    assert len(found) > 100  # the admin's and allauth's too


@pytest.mark.parametrize("visitor", ["anonymous", "player", "staff"])
def test_a_nul_in_any_segment_of_any_address_is_a_400(client, visitor):
    client.raise_request_exception = False
    if visitor == "player":
        log_in(client)
    elif visitor == "staff":
        client.force_login(User.objects.create_superuser("root", "root@example.com", "x"))
    for address in routes():
        for refused in with_nul_in_each_segment(address):
            for method in ("get", "post"):
                response = getattr(client, method)(refused)
                if refused.startswith("/api/"):
                    assert refused_json(response), (method, refused, response.status_code)
                else:
                    assert refused_page(response), (method, refused, response.status_code)


@pytest.mark.parametrize("control", ["%01", "%09", "%0A", "%0d", "%1f", "%7F", "%C2%85", "%c2%9f"])
def test_every_control_character_in_an_address_or_a_query_is_a_400(answers, control):
    assert refused_page(answers.get(f"/leagues/join/ab{control}/"))
    assert refused_page(answers.get(f"/archive/?x={control}"))
    assert refused_page(answers.get(f"/?{control}=1"))


def test_text_that_only_looks_like_a_control_character_passes(answers):
    assert answers.get("/how-to-play/?q=%2500&r=%C3%A9%E2%82%AC&s=+").status_code == 200  # "%00" as text, "é€", a space
    assert answers.get("/leagues/join/%E2%82%AC/").status_code != 400  # a euro sign: bytes 0x80-0x9F inside it


# --- the JSON body's bytes, read without parsing them --------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        '"a\\u0000b"',
        '"\\u001F"',
        '"\\u000b"',
        '"\\b"',  # JSON's own short escapes of two controls
        '"a\\f"',
        '"\\u007f"',
        '"\\u0085"',
        '"\\\\\\u0000"',  # an escaped backslash, then a NUL's escape
        '"\\ud800"',  # a high surrogate alone
        '"\\ud83dx"',
        '"\\ude00"',  # a low surrogate alone
        '"\\ude00\\ud83d"',  # the pair the wrong way round
        '"\\ud83d\\ud83d\\ude00"',  # a high one alone, then a pair
        '"\\ud83d\\u00e9"',
        '"\\\\ud83d\\ude00"',  # an escaped backslash, "ud83d" as text, a low surrogate alone
        '"a\x7fb"',
        '"a\u0085b"',
    ],
)
def test_a_json_body_with_a_control_character_or_a_lone_surrogate_is_found(text):
    body = ('{"k": ' + text + "}").encode("utf-8")
    assert json_has_controls(body), text


def test_the_same_bytes_as_utf8_writes_a_surrogate_are_found():
    assert json_has_controls(b'{"k": "\xed\xa0\x80"}')  # json.loads takes these, as "\ud800"


@pytest.mark.parametrize(
    "text",
    [
        '"\\\\u0000"',  # a backslash and the text u0000
        '"\\t\\n\\r\\u0009\\u000a\\u000D"',
        '"\\ud83d\\ude00"',  # an emoji as json.dumps writes it
        '"\\ud83d\\ude00\\udbff\\udfff"',
        '"\\u00e9\\u20ac\\u0100"',
        '"\U0001f600 é €"',
    ],
)
def test_json_that_only_looks_like_a_control_character_passes(text):
    body = ('{"k": ' + text + "}\r\n\t").encode("utf-8")
    assert not json_has_controls(body), text
    json.loads(body)


REFUSED_IN_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
TRICKY = st.sampled_from(
    ["\\", "u", "d", "8", "c", "0", "\x00", "\x1f", "\x7f", "\x85", "\t", "\ud83d", "\ude00", "\U0001f600"]
)


@hypothesis_settings(max_examples=300, deadline=None)
@given(text=st.text(st.one_of(TRICKY, st.characters(exclude_categories=())), max_size=30), ascii=st.booleans())
def test_the_json_check_finds_exactly_what_parsing_would_hand_on(text, ascii):
    body = json.dumps({"k": text}, ensure_ascii=ascii).encode("utf-8", "surrogatepass")
    assert json_has_controls(body) == bool(REFUSED_IN_TEXT.search(json.loads(body)["k"]))


def test_the_query_check_reads_percent_escapes_in_either_case():
    assert QUERY_CONTROLS.search("a=%0a") and QUERY_CONTROLS.search("a=%0A") and QUERY_CONTROLS.search("a=%c2%8A")
    assert not QUERY_CONTROLS.search("a=%20&b=%25%30%30&c=%C3%A9")


# --- bodies refused for their size: warnings, never errors with a traceback ------------------------

THREE_MB = 3 * 1024 * 1024


def refused_quietly(caplog) -> bool:
    """One warning says why, and nothing is logged as an error or with a traceback."""
    return (
        any(r.levelno == logging.WARNING and r.name.startswith("django.") for r in caplog.records)
        and not any(r.levelno >= logging.ERROR for r in caplog.records)
        and not any(r.exc_info for r in caplog.records)
    )


def test_a_3_mb_form_is_a_413_page_logged_as_a_warning_without_a_traceback(answers, caplog):
    with caplog.at_level(logging.INFO):
        response = answers.post(
            reverse("account_login"),
            "login=ada&password=" + "x" * THREE_MB,
            content_type="application/x-www-form-urlencoded",
        )
    assert response.status_code == 413 and "too large" in response.content.decode()
    assert refused_quietly(caplog)
    assert any(r.name == "django.security.RequestDataTooBig" for r in caplog.records)


def test_a_3_mb_json_write_is_a_json_413_logged_as_a_warning_without_a_traceback(player, daily, caplog):
    body = json.dumps({"version": 0, "digits": "0" * 81, "note": "x" * THREE_MB})
    with caplog.at_level(logging.INFO):
        response = post(player, url(daily, "save"), body)
    assert response.status_code == 413 and response.json()["error"]
    assert refused_quietly(caplog)


def test_too_many_fields_is_a_400_logged_as_a_warning_without_a_traceback(answers, caplog):
    with caplog.at_level(logging.INFO):
        response = answers.post(
            reverse("account_login"),
            "&".join(f"f{i}=1" for i in range(1200)),
            content_type="application/x-www-form-urlencoded",
        )
    assert response.status_code == 400
    assert refused_quietly(caplog)
    assert any(r.name == "django.security.TooManyFieldsSent" for r in caplog.records)


def test_a_malformed_multipart_body_is_a_400_logged_as_a_warning_without_a_traceback(answers, caplog):
    with caplog.at_level(logging.INFO):
        response = answers.post(
            reverse("account_login"), b"--x\r\nnot a part", content_type="multipart/form-data"
        )  # no boundary
    assert response.status_code == 400
    assert refused_quietly(caplog)


def test_a_client_gone_before_its_body_arrived_is_a_400_logged_as_a_warning(rf, caplog):
    class Gone(io.BytesIO):
        def read(self, *args):
            raise ConnectionResetError("the client went away")

    request = rf.post(reverse("account_login"), "login=ada", content_type="application/x-www-form-urlencoded")
    request._stream = Gone()
    with caplog.at_level(logging.INFO):
        response = InputChecksMiddleware(lambda request: HttpResponse("never reached"))(request)
    assert response.status_code == 400
    assert refused_quietly(caplog)
