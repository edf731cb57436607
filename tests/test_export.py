"""Download my data (accounts/export.py, export_play.py, views/export.py): a month of dailies played
through the board's API comes back whole, attempt by attempt and move by move, with nobody
else's data and no device's keys; only the player gets it, a few times an hour, streamed."""

from __future__ import annotations

import datetime
import json

import pytest
import time_machine
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from puzzles.accounts.export import EXPORTS_PER_HOUR, SCHEMA, VERSION, export_chunks, export_filename
from puzzles.coaching.services import review_store
from puzzles.fairplay.ranking import not_ranked_codes
from puzzles.models import (
    DailyPuzzle,
    League,
    Membership,
    PracticeAnswer,
    Preferences,
    PushSubscription,
    Reminder,
    ReminderSent,
    Solve,
    TechniqueUse,
    site_today,
)
from puzzles.ratings.ledger import ratings_catch_up

from .factories import judge_follow_up, make_daily, post, url

pytestmark = pytest.mark.django_db

EXPORT = "/account/export/"
DAYS = 30
LAYER = {"d": "digits", "c": "corner", "n": "centre", "k": "colours"}
SECRET_ENDPOINT = "https://push.example.net/wpush/v2/a-secret-path-of-the-device"
P256DH = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
AUTH = "tBHItJI5svbpez7KI4CCXg"


def noon(day: datetime.date) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time(9)))


def play(client: Client, daily: DailyPuzzle, clock, *, finish: bool = True) -> list[list]:
    """Play a daily as the board does: read the state, open the page, fill the empty cells over
    three saves (a corner note, a colour and a wrong digit put right among them), a digit every two
    seconds, and submit the last of them; the moves sent, as the wire has them, oldest first."""
    givens, solution = daily.puzzle.givens, daily.puzzle.solution
    empty = [cell for cell, given in enumerate(givens) if given == "0"]
    groups = [empty[n::4] for n in range(4)]
    assert client.get(url(daily, "state")).status_code == 200
    assert post(client, url(daily, "beat"), {"phase": "open"}).status_code == 200
    digits, version, sent = ["0"] * 81, 0, []
    for number, group in enumerate(groups):
        last = number == len(groups) - 1
        if last and not finish:
            break
        clock.shift(2 * len(group) + 6)
        first = group[0]
        slip = "9" if solution[first] != "9" else "8"
        moves: list[list] = [[2000 * len(group) + 4000, "c", [[first, "".join(sorted(solution[first] + slip))]]]]
        moves.append([2000 * len(group) + 3000, "d", [[first, int(slip)]]])
        moves += [[2000 * (len(group) - n), "d", [[cell, int(solution[cell])]]] for n, cell in enumerate(group)]
        moves.append([0, "k", [[first, "3"]]])
        for cell in group:
            digits[cell] = solution[cell]
        body = {"version": version, "digits": "".join(digits), "moves": moves}
        answer = post(client, url(daily, "submit" if last else "save"), body)
        assert answer.status_code == 200, answer.content
        version = answer.json().get("version", version)
        sent += moves
    if finish:
        judge_follow_up(daily)
    return sent


@pytest.fixture
def month(db):
    """Ada plays the easy daily of each of the last 30 days on its day, through the API; on the
    last day she also starts the medium one and leaves it, with a hint and a check. Her moves, by
    daily date and tier."""
    first = site_today() - datetime.timedelta(days=DAYS)
    client = Client()
    sent: dict[tuple[str, str], list[list]] = {}
    with time_machine.travel(noon(first) - datetime.timedelta(hours=8), tick=False) as clock:
        ada = User.objects.create_user("ada", "ada@example.com", "a long enough password 1")
        for n in range(DAYS):
            day = first + datetime.timedelta(days=n)
            clock.move_to(noon(day))
            client.force_login(ada)  # a log-in lasts two weeks
            daily = make_daily(day, "easy")
            sent[(day.isoformat(), "easy")] = play(client, daily, clock)
        medium = make_daily(day, "medium")
        board = "0" * 81
        assert post(client, url(medium, "hint"), {"digits": board}).status_code == 200
        assert post(client, url(medium, "check"), {"digits": board}).status_code == 200
        sent[(day.isoformat(), "medium")] = play(client, medium, clock, finish=False)
    ratings_catch_up()
    review_store(Solve.objects.filter(user=ada).latest("solved_at").pk)
    return ada, sent


def exported(client: Client) -> dict:
    response = client.get(EXPORT)
    assert response.status_code == 200
    return json.loads(b"".join(response.streaming_content))


def test_a_month_of_dailies_comes_back_with_every_attempt_and_every_move(client, month):
    ada, sent = month
    client.force_login(ada)
    data = exported(client)
    assert (data["schema"], data["version"]) == (SCHEMA, VERSION)
    attempts = {(a["daily"]["date"], a["daily"]["difficulty"]): a for a in data["attempts"]}
    assert set(attempts) == set(sent) and len(data["attempts"]) == DAYS + 1
    for key, moves in sent.items():
        events = attempts[key]["events"]
        found = [(m["layer"], m["cells"]) for e in events for m in e["moves"]]
        assert found == [(LAYER[layer], cells) for _, layer, cells in moves], key
        assert sum(len(e["moves"]) for e in events) == attempts[key]["moves_logged"]


def test_each_move_has_its_time_its_writes_arrival_less_its_age_and_the_clock_then(client, month):
    ada, _ = month
    client.force_login(ada)
    for attempt in exported(client)["attempts"]:
        before = 0.0
        for event in attempt["events"]:
            arrived = datetime.datetime.fromisoformat(event["arrived_at"])
            for move in event["moves"]:
                at = datetime.datetime.fromisoformat(move["at"])
                assert at == arrived - datetime.timedelta(milliseconds=move["age_ms"])
                assert before <= move["clock"] <= event["clock"] and move["counted"] is True
            before = event["clock"]
        kinds = ["open", "save", "save", "save", "submit"]
        if attempt["daily"]["difficulty"] == "medium":  # left unsolved, after a hint and a check
            kinds = ["hint", "check", "open", "save", "save", "save"]
        assert [e["kind"] for e in attempt["events"]] == kinds


def test_the_solves_their_verdicts_the_ratings_and_the_streak_are_the_players(client, month):
    ada, _ = month
    client.force_login(ada)
    data = exported(client)
    solves = [a["solve"] for a in data["attempts"] if a["solve"]]
    assert len(solves) == DAYS
    stored = {s.solved_at.isoformat(): s for s in Solve.objects.filter(user=ada)}
    for solve in solves:
        mine = stored[solve["solved_at"]]
        assert (solve["seconds"], solve["unranked"], solve["held"]) == (mine.seconds, mine.unranked, mine.held)
        assert solve["not_ranked"] == not_ranked_codes(mine)
        assert solve["placements"] and len(solve["placements"]["digits"]) > 20
    reviewed = [s["annotated_review"] for s in solves if s["annotated_review"]]
    assert len(reviewed) == 1 and "technique_uses" not in solves[0]
    # The skill profile's technique uses are the review's placements found by logic, each once.
    logic = [(p["technique"], p["think_ms"] / 1000) for p in reviewed[0]["placements"] if p["verdict"] == "logic"]
    assert logic == list(TechniqueUse.objects.filter(user=ada).order_by("id").values_list("technique", "think_seconds"))
    assert logic
    changes = data["rating_history"]
    assert changes and len(changes) == Solve.objects.filter(user=ada).rated().count()
    assert set(changes[0]) == {
        "daily",
        "ordered_at",
        "seconds",
        "score",
        "expected_seconds",
        "before",
        "after",
        "applied_at",
    }
    assert data["rating"]["solves"] == len(changes)
    assert data["streaks"] | {"as_of": None} == {
        "as_of": None,
        "current": DAYS,
        "best": DAYS,
        "freezes": 2,
        "frozen_days": [],
        "next_freeze_in": None,
    }
    medium = next(a for a in data["attempts"] if a["daily"]["difficulty"] == "medium")
    assert (len(medium["hints"]), len(medium["checks"]), medium["solve"]) == (1, 1, None)


def test_the_rest_of_what_the_site_keeps_about_the_player_is_in_the_file(client, month):
    ada, _ = month
    EmailAddress.objects.create(user=ada, email="ada@example.com", verified=True, primary=True)
    EmailAddress.objects.create(user=ada, email="ada.work@example.org", verified=False, primary=False)
    Preferences.objects.update_or_create(user=ada, defaults={"values": {"theme": "dark"}})
    Reminder.objects.create(user=ada, email=True, hour=7, time_zone="Europe/Paris")
    ReminderSent.objects.create(user=ada, day=site_today(), failed=True)
    PracticeAnswer.objects.create(user=ada, technique="x-wing", right=True)
    client.force_login(ada)
    data = exported(client)
    assert data["account"]["username"] == "ada" and data["account"]["guest"] is False
    assert data["account"]["email_addresses"] == [
        {"email": "ada@example.com", "verified": True, "primary": True},
        {"email": "ada.work@example.org", "verified": False, "primary": False},
    ]
    assert data["settings"]["chosen"] == {"theme": "dark"}
    assert (data["reminder"]["hour"], data["reminder"]["time_zone"]) == (7, "Europe/Paris")
    assert data["reminders_sent"] == [
        {"day": site_today().isoformat(), "created": data["reminders_sent"][0]["created"], "failed": True}
    ]
    assert [(p["technique"], p["right"]) for p in data["practice_answers"]] == [("x-wing", True)]


def test_nobody_elses_data_and_no_devices_keys_are_in_the_file(client, month):
    ada, _ = month
    day = site_today() - datetime.timedelta(days=1)
    other = Client()
    zeb = User.objects.create_user("zebedee", "zebedee@example.net", "a long enough password 2")
    other.force_login(zeb)
    with time_machine.travel(noon(day), tick=False) as clock:
        play(other, DailyPuzzle.objects.get(date=day, difficulty="easy"), clock)
    theirs = League.objects.create(name="Friday puzzlers", owner=zeb)
    mine = League.objects.create(name="Ada's table", owner=ada)
    for league, user in ((theirs, zeb), (theirs, ada), (mine, ada), (mine, zeb)):
        Membership.objects.create(league=league, user=user)
    PushSubscription.objects.create(user=ada, endpoint=SECRET_ENDPOINT, p256dh=P256DH, auth=AUTH)
    client.force_login(ada)
    body = b"".join(client.get(EXPORT).streaming_content).decode()
    for secret in ("zebedee", theirs.invite_code, SECRET_ENDPOINT, "a-secret-path", P256DH, AUTH):
        assert secret not in body
    data = json.loads(body)
    assert [(g["name"], g["owner"], g.get("invite_code")) for g in data["leagues"]] == [
        ("Friday puzzlers", False, None),
        ("Ada's table", True, mine.invite_code),
    ]
    assert [d["service"] for d in data["push_devices"]] == ["push.example.net"]
    assert len(data["attempts"]) == DAYS + 1  # zebedee's attempt at the same daily is not among them


def test_the_file_is_streamed_as_an_attachment_named_for_the_player_and_never_cached(player, user, todays_easy):
    response = player.get(EXPORT)
    assert response.status_code == 200 and response.streaming
    assert response["Content-Type"] == "application/json"
    name = f"daily-sudoku-ada-{site_today().isoformat()}.json"
    assert response["Content-Disposition"] == f'attachment; filename="{name}"'
    assert "no-store" in response["Cache-Control"]
    chunks = list(response.streaming_content)
    assert len(chunks) > 1
    assert json.loads(b"".join(chunks))["account"]["username"] == "ada"


def test_a_name_from_before_the_rules_is_cut_to_safe_letters_in_the_files_name():
    assert export_filename('bé "x"/y', datetime.date(2026, 3, 1)) == "daily-sudoku-b___x__y-2026-03-01.json"


def test_a_visitor_is_sent_to_log_in_and_a_write_is_refused(client, player):
    assert Client().get(EXPORT).status_code == 302
    assert Client().get(EXPORT)["Location"] == f"/accounts/login/?next={EXPORT}"
    assert player.post(EXPORT).status_code == 405


def test_a_guest_downloads_its_guest_data(client, daily):
    assert post(client, url(daily, "save"), {"version": 0, "digits": "0" * 81}).status_code == 200
    data = exported(client)
    assert data["account"]["guest"] is True and data["account"]["guest_since"]
    assert [a["daily"]["date"] for a in data["attempts"]] == [daily.date.isoformat()]


def test_downloads_are_limited_per_account_and_per_address(db):
    ada = User.objects.create_user("ada")
    bea = User.objects.create_user("bea")
    client = Client(REMOTE_ADDR="203.0.113.5")
    client.force_login(ada)
    for _ in range(EXPORTS_PER_HOUR):
        assert client.get(EXPORT).status_code == 200
    refused = client.get(EXPORT)
    assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= 3600
    assert b"Too many downloads of your data" in refused.content
    elsewhere = Client(REMOTE_ADDR="198.51.100.7")  # the same account from another address
    elsewhere.force_login(ada)
    assert elsewhere.get(EXPORT).status_code == 429
    neighbour = Client(REMOTE_ADDR="203.0.113.5")  # another account from the same address
    neighbour.force_login(bea)
    assert neighbour.get(EXPORT).status_code == 429
    fresh = Client(REMOTE_ADDR="192.0.2.9")
    fresh.force_login(bea)
    assert fresh.get(EXPORT).status_code == 200


def test_the_queries_do_not_grow_with_the_attempts(month):
    ada, _ = month
    zeb = User.objects.create_user("zebedee")
    other = Client()
    other.force_login(zeb)
    day = site_today() - datetime.timedelta(days=1)
    with time_machine.travel(noon(day), tick=False) as clock:
        play(other, DailyPuzzle.objects.get(date=day, difficulty="easy"), clock)
    ratings_catch_up()
    counts = []
    for user in (zeb, ada):
        with CaptureQueriesContext(connection) as queries:
            for _ in export_chunks(user):
                pass
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_the_attempts_are_read_a_batch_at_a_time_as_the_file_is_written(month, monkeypatch):
    ada, _ = month
    monkeypatch.setattr("puzzles.accounts.export_play.BATCH", 8)
    monkeypatch.setattr("puzzles.accounts.export_json.ITEMS_PER_CHUNK", 8)
    reads = []
    with CaptureQueriesContext(connection) as queries:
        for chunk in export_chunks(ada):
            if '"events"' in chunk:  # a chunk of attempts: how many batches of events were read by then
                reads.append(sum("playevent" in q["sql"].lower() for q in queries.captured_queries))
    assert reads == [1, 2, 3, 4]  # 31 attempts, 8 a batch: each chunk written before the next batch is read
