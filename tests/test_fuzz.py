"""Fuzzing the board's JSON API: whatever arrives, never a 500, a JSON error for every refusal,
and nothing changed unless the request was a valid save or submit.

The generators here describe a request (endpoint, address, CSRF, body) with markers for what
depends on the live position (the current version, the givens); `render` turns a case into
bytes. bench/fuzz.py sends the same cases by the thousand to a live gunicorn.
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from .factories import EASY_GIVENS, EASY_SOLUTION, player_digits

ENDPOINTS = ("save", "beat", "submit", "hint", "state")
TIERS = ("easy", "medium", "hard", "expert", "extreme")
MAX_BODY_BYTES = 16 * 1024


@dataclass(frozen=True)
class Marker:
    """A value that depends on the live position, resolved by `render`."""

    name: str


# --- generators ----------------------------------------------------------------------------

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=20)
    | st.integers(min_value=-(2**80), max_value=2**80)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)

versions = st.one_of(
    st.sampled_from([Marker("version"), Marker("version+1"), Marker("version-1")]),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([-1, 0, 2**31, 2**63 - 1, 2**63, 2**64, True, False, None, "0", "1", 0.0, 1.5, -0.0]),
    json_values,
)
digit_strings = st.one_of(
    st.sampled_from(
        [
            Marker("progress"),  # a valid partial position: some of the solution's digits
            Marker("solution"),  # the player's digits of the solved grid
            Marker("wrong-solution"),  # full but with two digits swapped
            Marker("given-overwritten"),
            Marker("givens-repeated"),  # the givens echoed back in place (allowed, stored as 0)
            Marker("empty"),
        ]
    ),
    st.text(alphabet="0123456789", min_size=0, max_size=100),  # wrong lengths
    st.text(alphabet="0123456789 x-٣１\u0000\ud800é", min_size=81, max_size=81),  # non-digits
    st.sampled_from(["9" * 81, "0" * 80 + "x", "٣" * 81, "１" * 81, "0" * 20000]),  # noqa: RUF001 (look-alike digits on purpose)
    json_values,
)
note_lists = st.one_of(
    st.sampled_from([Marker("notes"), Marker("no-notes")]),
    st.lists(st.text(alphabet="0123456789a ", max_size=10), min_size=81, max_size=81),
    st.lists(st.sampled_from(["", "1", "12", "11", "123456789", "1234567890", "0", "x"]), min_size=0, max_size=90),
    json_values,
)
payloads = st.fixed_dictionaries(
    {},
    optional={
        "version": versions,
        "digits": digit_strings,
        "corner": note_lists,
        "centre": note_lists,
        "extra": json_values,
        "__proto__": json_values,
    },
)
GOOD_DIGITS = [
    Marker(name)
    for name in ("progress", "progress", "solution", "wrong-solution", "given-overwritten", "givens-repeated", "empty")
]
FIELD_STRATEGIES = {"version": versions, "digits": digit_strings, "corner": note_lists, "centre": note_lists}


@st.composite
def plausible_payloads(draw: st.DrawFn) -> dict:
    """What the board sends, with up to two fields tampered with, dropped or added."""
    payload: dict[str, Any] = {
        "version": draw(st.sampled_from([Marker("version")] * 4 + [Marker("version+1"), Marker("version-1")])),
        "digits": draw(st.sampled_from(GOOD_DIGITS)),
        "corner": Marker("no-notes"),
        "centre": draw(st.sampled_from([Marker("notes"), Marker("no-notes")])),
    }
    for change in draw(st.sets(st.sampled_from([*FIELD_STRATEGIES, "drop", "add"]), max_size=2)):
        if change == "drop":
            payload.pop(draw(st.sampled_from(sorted(payload))), None)
        elif change == "add":
            payload[draw(st.text(max_size=10))] = draw(json_values)
        else:
            payload[change] = draw(FIELD_STRATEGIES[change])
    return payload


# Nesting deeper than Python's recursion limit makes json.loads raise RecursionError (a 500
# until api_view caught it too), well under the 16 KB cap.
deep_bodies = st.one_of(
    st.integers(min_value=900, max_value=8000).map(lambda n: b"[" * n + b"]" * n),
    st.integers(min_value=900, max_value=3000).map(lambda n: b'{"a":' * n + b"1" + b"}" * n),
)
# Bodies that are not a JSON object, or not JSON at all.
raw_bodies = st.one_of(
    st.binary(max_size=200),  # any bytes
    st.sampled_from(
        [
            b"",
            b"{",
            b"null",
            b"[]",
            b'"x"',
            b"1e999",
            b'{"version": NaN}',
            b'\xff\xfe{"version": 0}',
            b'{"digits": "\xc3\x28"}',
            b'{"version": 0, "digits": "' + b"\xed\xa0\x80" * 27 + b'"}',
        ]
    ),
    st.integers(min_value=2, max_value=400).map(lambda n: b"[" * n + b"]" * n),  # nesting
    st.integers(min_value=2, max_value=400).map(lambda n: b'{"a":' * n + b"1" + b"}" * n),
    st.integers(min_value=MAX_BODY_BYTES - 20, max_value=MAX_BODY_BYTES * 4).map(
        lambda n: b'{"digits": "' + b"1" * n + b'"}'
    ),  # oversized
    st.integers(min_value=4300, max_value=5000).map(lambda n: b'{"version": ' + b"9" * n + b"}"),
    json_values.map(lambda v: json.dumps(v).encode()),  # JSON, not an object
)
IMPOSSIBLE_DATE = "2026-02-30"  # matches the URL's pattern, fails its converter
addresses = st.one_of(
    st.sampled_from(
        [
            *[("today", "easy")] * 16,
            ("today", "medium"),  # another difficulty, published: the player's other attempt
            ("yesterday", "easy"),  # another day, published
            ("yesterday", "hard"),  # another day, not published
            ("tomorrow", "easy"),  # the future is never served
            ("today", "nightmare"),
            ("today", "EASY"),
            ("today", "easy%00"),
            ("today", "e" * 300),
            (IMPOSSIBLE_DATE, "easy"),
            ("0001-01-01", "easy"),
            ("9999-12-31", "easy"),
        ]
    ),
)


JSON_TYPE = "application/json"
BOUNDARY = "fuzzboundary"
# What a write says its body is: mostly what the board sends; then what forms, other pages and
# tools send, which the API refuses with 415 whatever the body (a form body once made it a 500).
content_types = st.sampled_from(
    [JSON_TYPE] * 12
    + [
        "application/json; charset=utf-8",
        "Application/JSON",
        "text/plain",
        "text/plain; charset=utf-8",
        "application/x-www-form-urlencoded",
        f"multipart/form-data; boundary={BOUNDARY}",  # the body goes in a form field (see render)
        "application/jsonp",
        "application/octet-stream",
        "",  # none at all
    ]
)


def sent_as_json(content_type: str) -> bool:
    """Whether a request's Content-Type says JSON (media types ignore case and parameters)."""
    return content_type.split(";")[0].strip().lower() == JSON_TYPE


@dataclass(frozen=True)
class Case:
    endpoint: str
    address: tuple[str, str]
    csrf: str  # "ok", "missing", "wrong"
    payload: Any  # a dict of (possibly Marker) values, or raw bytes
    text: str = "json"  # for dict payloads: "json" or "latin-1" (non-UTF-8 encoding of the text)
    content_type: str = JSON_TYPE  # the Content-Type header of a write ("" for none)


def case_strategy() -> st.SearchStrategy[Case]:
    """Requests to fuzz with."""
    bodies = st.one_of(plausible_payloads(), plausible_payloads(), payloads, raw_bodies, deep_bodies)
    return st.builds(
        Case,
        endpoint=st.sampled_from(ENDPOINTS),
        address=addresses,
        csrf=st.sampled_from(["ok"] * 8 + ["missing", "wrong"]),
        payload=bodies,
        text=st.sampled_from(["json"] * 6 + ["latin-1"]),
        content_type=content_types,
    )


@dataclass
class Live:
    """What a case is rendered against: the dates and the target puzzle's position."""

    today: datetime.date
    givens: str
    solution: str
    version: int


def _resolve(value: Any, live: Live) -> Any:
    if not isinstance(value, Marker):
        return value
    givens, solution = live.givens, live.solution
    name = value.name
    if name.startswith("version"):
        return live.version + {"version": 0, "version+1": 1, "version-1": -1}[name]
    if name == "progress":
        return "".join(s if g == "0" and i % 3 == 0 else "0" for i, (g, s) in enumerate(zip(givens, solution)))
    if name == "solution":
        return player_digits(solution, givens)
    if name == "wrong-solution":
        open_cells = [i for i, g in enumerate(givens) if g == "0"]
        board = list(player_digits(solution, givens))
        a, b = open_cells[0], next(i for i in open_cells if solution[i] != solution[open_cells[0]])
        board[a], board[b] = board[b], board[a]
        return "".join(board)
    if name == "given-overwritten":
        cell = givens.index(next(g for g in givens if g != "0"))
        board = list(player_digits(solution, givens))
        board[cell] = str(int(givens[cell]) % 9 + 1)
        return "".join(board)
    if name == "givens-repeated":
        return givens
    if name == "empty":
        return "0" * 81
    if name == "notes":
        return ["" if g != "0" else "13" for g in givens]
    if name == "no-notes":
        return [""] * 81
    raise ValueError(name)


def render(case: Case, live: Live) -> tuple[str, str, bytes]:
    """The method, path and body of a case against the live position."""
    day, difficulty = case.address
    named = {
        "today": live.today,
        "yesterday": live.today - datetime.timedelta(days=1),
        "tomorrow": live.today + datetime.timedelta(days=1),
    }
    day_text = named[day].isoformat() if day in named else day
    path = f"/api/daily/{day_text}/{difficulty}/{case.endpoint}/"
    if case.endpoint == "state":
        return "GET", path, b""
    if isinstance(case.payload, bytes):
        body = case.payload
    else:
        resolved = {key: _resolve(value, live) for key, value in case.payload.items()}
        text = json.dumps(resolved, ensure_ascii=case.text == "json")
        try:
            body = text.encode("latin-1") if case.text == "latin-1" else text.encode("utf-8", "surrogatepass")
        except UnicodeEncodeError:
            body = text.encode("utf-8", "surrogatepass")
    if case.content_type.startswith("multipart/"):
        # A form as a browser sends it, with the body as a field. Bytes that are no multipart form
        # at all are refused by Django's parser as sudokusite/input_checks.py reads them, before
        # the API: the API's JSON 400 all the same (test_api.py has that case).
        head = f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="payload"\r\n\r\n'.encode()
        body = head + body + f"\r\n--{BOUNDARY}--\r\n".encode()
    return "POST", path, body


# --- the oracle ----------------------------------------------------------------------------


def snapshot(user_id: int) -> tuple[dict, dict]:
    """The player's attempts (digits, notes, version) and the solve table, for comparison."""
    from puzzles.models import Attempt, Solve

    attempts = {
        a["daily_id"]: (a["digits"], a["corner"], a["centre"], a["version"])
        for a in Attempt.objects.filter(user_id=user_id).values("daily_id", "digits", "corner", "centre", "version")
    }
    solves = {s["id"]: (s["attempt_id"], s["seconds"]) for s in Solve.objects.values("id", "attempt_id", "seconds")}
    return attempts, solves


def check(
    endpoint: str,
    sent: bytes,
    status: int,
    content_type: str,
    body: bytes,
    before: tuple[dict, dict],
    after: tuple[dict, dict],
    target_daily: int | None,
    givens: str,
    sent_type: str = JSON_TYPE,
) -> list[str]:
    """What is wrong with an answer (an empty list when nothing is).

    `before` and `after` are snapshots; `target_daily` is the daily the address names (None when
    it names none) and `givens` its puzzle's givens; `sent_type` the Content-Type of a write.
    """
    if status >= 500:
        return [f"{status} answer"]
    problems = []
    if endpoint != "state" and not sent_as_json(sent_type) and status < 400:
        problems.append(f"a write sent as {sent_type!r} was accepted")
    answer: Any = None
    if content_type.startswith("application/json"):
        try:
            answer = json.loads(body)
        except ValueError:
            problems.append("a JSON content type with a body that is not JSON")
    if 400 <= status < 500 and not (
        isinstance(answer, dict) and isinstance(answer.get("error"), str) and answer["error"]
    ):
        problems.append(f"{status} without a JSON error message: {content_type} {body[:80]!r}")
    (attempts_before, solves_before), (attempts_after, solves_after) = before, after
    changed = {d for d in attempts_after if d in attempts_before and attempts_before[d] != attempts_after[d]}
    new_solves = set(solves_after) - set(solves_before)
    if any(solves_after.get(s) != row for s, row in solves_before.items()):
        problems.append("a recorded solve changed or vanished")
    for daily, row in attempts_after.items():
        if daily not in attempts_before and row != ("0" * 81, [""] * 81, [""] * 81, 0) and daily != target_daily:
            problems.append("an attempt was started with a position")
        if daily not in attempts_before and endpoint == "state":
            problems.append("reading the state started an attempt")
    if not (status == 200 and endpoint in ("save", "submit")):
        if changed:
            problems.append(f"a refused or read-only request changed the attempt at dailies {sorted(changed)}")
        if new_solves:
            problems.append("a solve was recorded without a successful submit")
        return problems
    # A successful save or submit: only the addressed attempt changes, exactly as sent.
    if changed - {target_daily}:
        problems.append(f"a write to one daily changed another: {sorted(changed - {target_daily})}")
    if not isinstance(answer, dict):
        return problems + ["a successful answer that is not a JSON object"]
    old = attempts_before.get(target_daily, ("0" * 81, [""] * 81, [""] * 81, 0))
    new = attempts_after.get(target_daily)
    if new is None:
        return problems + ["a successful write left no attempt"]
    if endpoint == "submit" and answer.get("solved") and not new_solves:
        # Submitting to a solved attempt answers with the solve already recorded and changes nothing.
        if old != new:
            problems.append("a submit to a solved attempt changed it")
        return problems
    if new[3] != old[3] + 1:
        problems.append(f"a successful {endpoint} moved the version from {old[3]} to {new[3]}")
    digits = json.loads(sent).get("digits")
    if new[0] != "".join("0" if g != "0" else d for g, d in zip(givens, digits)):
        problems.append(f"a successful {endpoint} stored {new[0]}, not what was sent")
    if endpoint == "save" and (new_solves or answer.get("version") != new[3]):
        problems.append("a save recorded a solve or answered another version than it stored")
    if endpoint == "submit" and len(new_solves) != (1 if answer.get("solved") else 0):
        problems.append(f"a submit answering solved={answer.get('solved')} recorded {len(new_solves)} solves")
    return problems


# --- the test ------------------------------------------------------------------------------

pytestmark = pytest.mark.django_db

MEDIUM_GIVENS = "200080300060070084030500209000105408000000000402706000301007040720040060004010003"
MEDIUM_SOLUTION = "245981376169273584837564219976125438513498627482736951391657842728349165654812793"


@pytest.fixture
def world(db, todays_easy):
    """A player with an open attempt at today's easy daily, and two other published dailies."""
    from django.contrib.auth.models import User
    from django.middleware.csrf import _get_new_csrf_string
    from django.test import Client

    from puzzles.models import DailyPuzzle
    from puzzles.play import attempts

    from .factories import make_daily, make_known_puzzle

    def publish(givens: str, solution: str, day: datetime.date, difficulty: str) -> DailyPuzzle:
        puzzle = make_known_puzzle(givens, solution, tier=difficulty, techniques={}, symmetry="none")
        return make_daily(day, difficulty, puzzle)

    today = todays_easy.date
    medium = publish(MEDIUM_GIVENS, MEDIUM_SOLUTION, today, "medium")
    # Yesterday's easy daily: the same puzzle transposed, so it is another valid puzzle.
    transpose = lambda grid: "".join(grid[c * 9 + r] for r in range(9) for c in range(9))  # noqa: E731
    yesterday = publish(transpose(EASY_GIVENS), transpose(EASY_SOLUTION), today - datetime.timedelta(days=1), "easy")
    user = User.objects.create_user("fuzz", password="a long enough password 1")
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    token = _get_new_csrf_string()
    client.cookies["csrftoken"] = token
    attempts.attempt_open(user, todays_easy)
    return {
        "client": client,
        "user": user,
        "token": token,
        "today": today,
        "dailies": {d.pk: d for d in (todays_easy, medium, yesterday)},
        "target": todays_easy,
    }


def _reset(user, start_version: int) -> None:
    """Each example starts from the same position: no solves, no hints, a known version."""
    from puzzles.models import Attempt, Hint, Solve

    Solve.objects.filter(user=user).delete()
    Hint.objects.filter(user=user).delete()
    Attempt.objects.filter(user=user).update(
        digits="0" * 81,
        corner=[""] * 81,
        centre=[""] * 81,
        version=start_version,
        hints_used=0,
        hint_stage=0,
        hint_position="",
    )


def _target_daily(case: Case, live: Live, dailies: dict) -> int | None:
    named = {"today": live.today, "yesterday": live.today - datetime.timedelta(days=1)}
    day, difficulty = case.address
    for pk, daily in dailies.items():
        if named.get(day) == daily.date and daily.difficulty == difficulty:
            return pk
    return None


# Function-scoped fixtures are shared by all examples of one test run: that is safe here because
# every example resets the player's attempts, solves and hints first (_reset) and compares
# against a snapshot taken after that reset, never against the fixture's starting state.
@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(case=case_strategy(), start_version=st.sampled_from([0, 0, 3, 1000]))
def test_the_json_api_never_fails_and_changes_nothing_it_refuses(world, case, start_version):
    client, user, dailies = world["client"], world["user"], world["dailies"]
    _reset(user, start_version)
    target = world["target"]
    live = Live(world["today"], target.puzzle.givens, target.puzzle.solution, start_version)
    target_daily = _target_daily(case, live, dailies)
    if target_daily is not None and target_daily != target.pk:
        other = dailies[target_daily].puzzle
        from puzzles.models import Attempt

        current = Attempt.objects.filter(user=user, daily_id=target_daily).values_list("version", flat=True).first()
        live = Live(live.today, other.givens, other.solution, current or 0)
    method, path, body = render(case, live)
    headers = {}
    if case.csrf == "ok":
        headers["HTTP_X_CSRFTOKEN"] = world["token"]
    elif case.csrf == "wrong":
        headers["HTTP_X_CSRFTOKEN"] = "x" * 32
    before = snapshot(user.pk)
    if method == "GET":
        response = client.get(path, **headers)
    elif case.content_type:
        response = client.post(path, body, content_type=case.content_type, **headers)
    else:
        response = client.generic("POST", path, body, content_type="", **headers)
    after = snapshot(user.pk)
    event(f"{case.endpoint} {response.status_code}")
    givens = dailies[target_daily].puzzle.givens if target_daily else ""
    problems = check(
        case.endpoint,
        body,
        response.status_code,
        response.get("Content-Type", ""),
        response.content,
        before,
        after,
        target_daily,
        givens,
        case.content_type,
    )
    assert not problems, (method, path, body[:200], response.status_code, response.content[:300], problems)


def test_a_deeply_nested_body_is_refused_as_bad_json(world):
    client = world["client"]
    before = snapshot(world["user"].pk)
    for endpoint in ("save", "beat", "submit", "hint"):
        response = client.post(
            f"/api/daily/{world['today'].isoformat()}/easy/{endpoint}/",
            b"[" * 1000 + b"]" * 1000,
            content_type="application/json",
            HTTP_X_CSRFTOKEN=world["token"],
        )
        assert response.status_code == 400 and response.json()["error"]
    assert snapshot(world["user"].pk) == before


def test_an_impossible_date_in_an_api_address_is_a_json_404(world):
    response = world["client"].post(
        f"/api/daily/{IMPOSSIBLE_DATE}/easy/save/",
        b"{}",
        content_type="application/json",
        HTTP_X_CSRFTOKEN=world["token"],
    )
    assert response.status_code == 404
    assert response.json()["error"]
