"""The API's decorators one by one (puzzles/views/decorators.py), each around a bare view; the
endpoints that stack them are tested whole in test_api.py, test_guests.py and test_fuzz.py."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.sessions.middleware import SessionMiddleware
from django.http import JsonResponse
from django.test import RequestFactory

from puzzles.accounts.guests import GuestsTooFast, is_guest
from puzzles.models import Guest
from puzzles.play.attempts import AlreadySolved
from puzzles.play.hints import HintsTooFast
from puzzles.play.positions import BadPosition
from puzzles.record_of_play.events import RecordFull
from puzzles.views import decorators
from puzzles.views.errors import PRIVATE

rf = RequestFactory()


def ok(request, **arguments):
    return JsonResponse({"arguments": sorted(arguments)})


def raising(exc):
    def view(request, **arguments):
        raise exc

    return view


def body(response) -> dict:
    return json.loads(response.content)


def with_session(request, user=None):
    SessionMiddleware(lambda r: None).process_request(request)
    request.user = user or AnonymousUser()
    return request


def test_every_answer_is_private_and_refusals_are_json():
    assert decorators.json_refusals(ok)(rf.get("/"))["Cache-Control"] == PRIVATE
    slow = decorators.json_refusals(raising(HintsTooFast(7)))(rf.post("/"))
    assert (slow.status_code, slow["Retry-After"], body(slow)["retry_after"]) == (429, "7", 7)
    assert slow["Cache-Control"] == PRIVATE
    assert decorators.json_refusals(raising(GuestsTooFast(30)))(rf.post("/")).status_code == 429
    bad = decorators.json_refusals(raising(BadPosition("digits must be 81 characters")))(rf.post("/"))
    assert bad.status_code == 400 and "81" in body(bad)["error"]


def test_another_method_is_a_405_naming_those_allowed():
    view = decorators.methods("GET", "POST")(ok)
    assert view(rf.get("/")).status_code == 200
    refused = view(rf.put("/"))
    assert refused.status_code == 405 and refused["Allow"] == "GET, POST"


def test_an_address_without_a_served_daily_is_a_404_and_a_served_one_is_bound(todays_easy):
    view = decorators.served_daily(ok)
    assert view(rf.get("/"), day=todays_easy.date, difficulty="easy").status_code == 200
    assert body(view(rf.get("/"), day=todays_easy.date, difficulty="easy")) == {"arguments": ["daily"]}
    assert view(rf.get("/"), day=todays_easy.date, difficulty="hard").status_code == 404


@pytest.mark.parametrize(
    ("data", "content_type", "status"),
    [
        ("digits=1", "application/x-www-form-urlencoded", 415),
        ("{" + '"a": 1,' * 4000 + '"b": 2}', "application/json", 413),
        ("{not json", "application/json", 400),
        ("[1, 2]", "application/json", 400),
        ('{"version": 3}', "application/json", 200),
    ],
)
def test_a_writes_body_is_a_json_object_of_bounded_size(data, content_type, status):
    view = decorators.json_body(max_bytes=16 * 1024)(lambda request, payload: JsonResponse(payload))
    response = view(rf.post("/", data=data, content_type=content_type))
    assert response.status_code == status
    if status == 415:
        assert response["Accept"] == "application/json"
    if status == 200:
        assert body(response) == {"version": 3}


def test_a_reads_payload_is_empty():
    view = decorators.json_body()(lambda request, payload: JsonResponse({"payload": payload}))
    assert body(view(rf.get("/"))) == {"payload": {}}


@pytest.mark.django_db
def test_a_visitors_first_write_makes_a_guest_and_logs_them_in():
    request = with_session(rf.post("/"))
    response = decorators.new_guest_on_first_write(lambda request: JsonResponse({"who": request.user.pk}))(request)
    assert response.status_code == 200 and is_guest(request.user)
    assert request.session["_auth_user_id"] == str(body(response)["who"])


@pytest.mark.django_db
def test_a_refused_first_write_leaves_no_guest_behind():
    request = with_session(rf.post("/"))
    refused = decorators.new_guest_on_first_write(lambda request: JsonResponse({}, status=400))(request)
    assert refused.status_code == 400 and not request.user.is_authenticated
    with pytest.raises(BadPosition):
        decorators.new_guest_on_first_write(raising(BadPosition("no")))(with_session(rf.post("/")))
    assert not Guest.objects.exists() and not User.objects.exists()


@pytest.mark.django_db
def test_a_visitors_read_reaches_the_view_as_a_visitor():
    request = with_session(rf.get("/"))
    decorators.new_guest_on_first_write(ok)(request)
    assert not request.user.is_authenticated and not User.objects.exists()


@pytest.mark.django_db
def test_a_guests_write_and_a_players_keep_their_session_once_a_day(user):
    # A player's too: their log-in would otherwise end two weeks after it, however often they play
    # (tests/test_account_pages.py plays the twenty days).
    first = with_session(rf.post("/"))
    decorators.new_guest_on_first_write(ok)(first)
    guest = first.user
    kept = with_session(rf.post("/"), guest)
    decorators.session_kept(ok)(kept)
    assert "played_on" in kept.session and kept.session.modified
    player = with_session(rf.post("/"), user)
    decorators.session_kept(ok)(player)
    assert "played_on" in player.session and player.session.modified
    again = with_session(rf.post("/"), user)
    again.session["played_on"] = player.session["played_on"]
    again.session.modified = False
    decorators.session_kept(ok)(again)
    assert not again.session.modified  # once a day, not once a write


def test_a_full_record_is_a_413_the_board_can_tell():
    refused = decorators.attempt_refusals(raising(RecordFull()))(rf.post("/"), daily=None)
    assert refused.status_code == 413 and body(refused)["record_full"] is True


def test_a_solved_puzzle_is_a_409_with_the_newest_state(player, user, daily):
    request = rf.post("/")
    request.user = user
    refused = decorators.attempt_refusals(raising(AlreadySolved()))(request, daily=daily)
    assert refused.status_code == 409 and body(refused)["state"]["givens"] == daily.puzzle.givens
