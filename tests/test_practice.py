"""Practice: the pool, the page, the check and the counts on /stats/."""

from __future__ import annotations

import json
import random

import pytest
import time_machine
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from puzzles import engine
from puzzles.models import PracticeAnswer, PracticePosition, Puzzle, site_today
from puzzles.pipeline.tasks import fill_practice
from puzzles.practice.pool import PRACTISED, practice_fill, practice_wanted

from .engine.practice_positions import WHERE, practice_position
from .factories import log_in, make_daily, make_known_puzzle, post
from .practice_factory import make_practice_position, right_answer, wrong_answer

pytestmark = pytest.mark.django_db

TECHNIQUES = sorted(WHERE)


def page(name: str) -> str:
    return f"/learn/{name}/practice/"


def check_url(position: PracticePosition) -> str:
    return f"/api/practice/check/{position.pk}/"


def data_of(response) -> dict:
    html = response.content.decode()
    start = html.index('<script id="practice-data" type="application/json">') + len(
        '<script id="practice-data" type="application/json">'
    )
    return json.loads(html[start : html.index("</script>", start)])


def test_the_practised_techniques_are_the_catalogues_less_trial_and_error():
    assert set(PRACTISED) == {t.name for t in engine.TECHNIQUES} - {"trial-and-error"}


# --- the page -----------------------------------------------------------------------------------


def test_the_page_draws_the_position_names_the_technique_and_sends_no_answer(client):
    position = make_practice_position("x-wing")
    response = client.get(page("x-wing"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Practise: X-wing" in html and engine.technique_about("x-wing") in html
    assert "mark every candidate it removes" in html
    data = data_of(response)
    assert set(data) == {"id", "technique", "places", "digits", "candidates"}
    assert data["digits"] == [int(d) for d in position.digits]
    assert data["candidates"][0] == [d for d in range(1, 10) if position.cands[0] >> (d - 1) & 1]
    assert position.solution not in html
    assert "eliminations" not in html and "explanation" not in html


def test_a_placing_technique_asks_for_a_placement(client):
    make_practice_position("hidden-single")
    response = client.get(page("hidden-single"))
    assert data_of(response)["places"] is True
    assert "choose the digit it places" in response.content.decode()


def test_an_unknown_technique_is_a_404(client):
    assert client.get(page("no-such-thing")).status_code == 404
    assert client.get(page("trial-and-error")).status_code == 404


def test_an_empty_pool_says_it_is_being_prepared_and_the_page_can_ask_when_it_is_ready(client):
    response = client.get(page("swordfish"))
    assert response.status_code == 200
    assert "being prepared" in response.content.decode()
    assert 'data-ready-url="/api/practice/swordfish/ready/"' in response.content.decode()
    assert client.get("/api/practice/swordfish/ready/").json() == {"ready": False}
    make_practice_position("swordfish")
    assert client.get("/api/practice/swordfish/ready/").json() == {"ready": True}


def test_the_next_position_is_not_the_one_just_shown(client):
    first = make_practice_position("pointing")
    second = make_practice_position("pointing", second=True)
    for _ in range(5):
        assert data_of(client.get(page("pointing") + f"?after={first.pk}"))["id"] == second.pk
        assert data_of(client.get(page("pointing") + f"?after={second.pk}"))["id"] == first.pk
    assert client.get(page("pointing") + "?after=nonsense").status_code == 200


def test_showing_a_position_changes_nothing(client):
    make_practice_position("x-wing")
    client.get(page("x-wing"))
    assert User.objects.count() == 0 and PracticeAnswer.objects.count() == 0


def test_a_position_from_todays_daily_is_never_served_nor_checked(client):
    puzzle = make_known_puzzle()
    make_daily(site_today(), "easy", puzzle)
    position = make_practice_position("x-wing", puzzle=puzzle)
    assert "being prepared" in client.get(page("x-wing")).content.decode()
    assert post(client, check_url(position), right_answer("x-wing")).status_code == 404


# --- the check ----------------------------------------------------------------------------------


@pytest.mark.parametrize("technique", TECHNIQUES)
def test_every_technique_takes_a_right_answer_explains_a_wrong_one_and_serves_the_next(client, technique):
    position = make_practice_position(technique)
    log_in(client)
    served = data_of(client.get(page(technique)))
    assert served["id"] == position.pk

    body, mark = wrong_answer(technique)
    response = post(client, check_url(position), body)
    assert response.status_code == 200
    wrong = response.json()
    assert wrong["outcome"] == "wrong" and wrong["message"]
    assert "instance" not in wrong
    if "eliminations" in body:
        assert [(w["cell"], w["digit"]) for w in wrong["wrong"]] == [mark]
        assert "is the answer in" in wrong["wrong"][0]["why"]

    right = post(client, check_url(position), right_answer(technique)).json()
    assert right["outcome"] == "right", right
    assert right["instance"]["technique"] == technique and right["instance"]["explanation"]

    make_practice_position(technique, second=True)
    following = data_of(client.get(page(technique) + f"?after={position.pk}"))
    assert following["id"] != position.pk and following["technique"] == technique


def test_part_of_an_instance_is_partly_right_and_says_how_many_are_left(client):
    position = make_practice_position("pointing")
    moment, _, _ = practice_position("pointing")
    eliminations = moment.step.eliminations
    assert len(eliminations) >= 2
    answer = post(client, check_url(position), {"eliminations": [list(eliminations[0])]}).json()
    assert answer["outcome"] == "partly" and answer["left"] >= 1
    assert "instance" not in answer


def test_a_visitors_first_check_makes_a_guest_whose_answers_count(client):
    position = make_practice_position("naked-pair")
    response = post(client, check_url(position), right_answer("naked-pair"))
    assert response.status_code == 200
    answer = PracticeAnswer.objects.get()
    assert answer.user.username.startswith("guest-") and answer.right
    assert answer.technique == "naked-pair"


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"eliminations": []},
        {"eliminations": "1,2"},
        {"eliminations": [[81, 1]]},
        {"eliminations": [[0, 0]]},
        {"eliminations": [[0, 10]]},
        {"eliminations": [["0", 1]]},
        {"eliminations": [[0, True]]},
        {"eliminations": [[0, 1, 2]]},
        {"eliminations": [[0, 1]], "placement": [0, 1]},
        {"placement": 5},
        {"eliminations": [[0, 1]] * 1000},
    ],
)
def test_a_tampered_answer_is_a_clear_400_and_records_nothing(client, body):
    position = make_practice_position("x-wing")
    log_in(client)
    response = post(client, check_url(position), body)
    assert response.status_code == 400
    assert response.json()["error"]
    assert PracticeAnswer.objects.count() == 0


def test_a_check_that_is_not_json_or_not_a_post_is_refused(client):
    position = make_practice_position("x-wing")
    log_in(client)
    assert post(client, check_url(position), b"{not json").status_code == 400
    assert client.post(check_url(position), {"eliminations": "x"}).status_code == 415
    assert client.get(check_url(position)).status_code == 405
    assert post(client, "/api/practice/check/999999/", right_answer("x-wing")).status_code == 404
    assert post(client, "/api/practice/check/99999999999999999999/", right_answer("x-wing")).status_code == 404


def test_a_check_needs_the_csrf_token():
    position = make_practice_position("x-wing")
    client = Client(enforce_csrf_checks=True)
    log_in(client)
    assert post(client, check_url(position), right_answer("x-wing")).status_code == 403
    client.get(page("x-wing"))
    token = client.cookies["csrftoken"].value
    assert post(client, check_url(position), right_answer("x-wing"), HTTP_X_CSRFTOKEN=token).status_code == 200


def test_checks_are_limited_per_player_and_per_address(client, settings):
    settings.PRACTICE_CHECKS_PER_MINUTE = 2
    position = make_practice_position("x-wing")
    # All inside one minute's window (the limit counts by the clock's minute): a run that crossed
    # a minute's turn would start a new count (it did, once, in CI).
    with time_machine.travel(timezone.now().replace(second=5, microsecond=0), tick=False):
        log_in(client, "ada")
        for _ in range(2):
            assert post(client, check_url(position), right_answer("x-wing")).status_code == 200
        refused = post(client, check_url(position), right_answer("x-wing"))
        assert refused.status_code == 429 and "practice checks from you" in refused.json()["error"]
        assert int(refused["Retry-After"]) >= 1
        # Another player on another address is not held up by Ada, but one on the same address is.
        other = Client(REMOTE_ADDR="10.0.0.9")
        log_in(other, "bea")
        assert post(other, check_url(position), right_answer("x-wing")).status_code == 200
        third = Client()
        log_in(third, "cy")
        refused = post(third, check_url(position), right_answer("x-wing"))
        assert refused.status_code == 429 and "your network" in refused.json()["error"]


# --- the counts on /stats/ ----------------------------------------------------------------------


def test_stats_shows_the_players_own_practice_counts_per_technique(client):
    position = make_practice_position("x-wing")
    log_in(client, "bea")
    post(client, check_url(position), {"eliminations": [list(wrong_answer("x-wing")[1])]})
    log_in(client, "ada")
    post(client, check_url(position), {"eliminations": [list(wrong_answer("x-wing")[1])]})
    post(client, check_url(position), right_answer("x-wing"))
    html = client.get("/stats/").content.decode()
    assert "Practice" in html
    row = html[html.index('id="practice-x-wing"') :]
    row = row[: row.index("</tr>")]
    assert "X-wing" in row and "1 of 1" in row


# --- the pool -----------------------------------------------------------------------------------


def test_filling_walks_unpublished_pool_puzzles_and_never_a_daily(settings):
    settings.PRACTICE_POOL_SIZE = 1
    _, solution, givens = practice_position("x-wing")
    pool_puzzle = make_known_puzzle(givens, "".join(map(str, solution)), tier="expert")
    daily_puzzle = make_known_puzzle()
    make_daily(site_today(), "easy", daily_puzzle)
    report = practice_fill(budget_seconds=30, generate=False)
    assert report.walked == 1 and report.generated == 0
    stored = PracticePosition.objects.all()
    assert stored and all(p.puzzle_id == pool_puzzle.pk for p in stored)
    assert {p.technique for p in stored} >= {"x-wing", "hidden-single", "pointing"}
    assert "x-wing" not in practice_wanted()
    assert report.stored == {t: 1 for t in report.stored}


def test_filling_twice_keeps_each_position_once(settings):
    settings.PRACTICE_POOL_SIZE = 3
    _, solution, givens = practice_position("x-wing")
    make_known_puzzle(givens, "".join(map(str, solution)), tier="expert")
    practice_fill(budget_seconds=30, generate=False)
    count = PracticePosition.objects.count()
    practice_fill(budget_seconds=30, generate=False)
    assert PracticePosition.objects.count() == count


def test_filling_generates_puzzles_when_the_pool_has_none(settings):
    settings.PRACTICE_POOL_SIZE = 1
    report = practice_fill(budget_seconds=3, rng=random.Random(4))
    assert report.generated >= 1
    assert PracticePosition.objects.filter(source="generated", puzzle=None).exists()
    assert not Puzzle.objects.exists()  # a generated puzzle stays out of the daily pools


def test_the_fill_task_keeps_its_name_and_is_on_the_beat_schedule(settings):
    assert fill_practice.name == "puzzles.tasks.fill_practice"
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "puzzles.tasks.fill_practice" in scheduled
    assert settings.CELERY_TASK_ROUTES["puzzles.tasks.fill_practice"] == {"queue": "generation"}


def test_a_guests_practice_counts_move_to_the_account_they_log_in_to():
    from puzzles.accounts.guests import guest_create, guest_merge

    position = make_practice_position("x-wing")
    guest = guest_create()
    PracticeAnswer.objects.create(user=guest, position=position, technique="x-wing", right=True)
    account = User.objects.create_user("dora")
    guest_merge(guest, account)
    assert list(PracticeAnswer.objects.values_list("user__username", "right")) == [("dora", True)]


def test_a_fill_queued_while_another_runs_returns_at_once(settings):
    from puzzles.practice.pool import practice_claim_fill, practice_release_fill

    settings.PRACTICE_BUDGET_SECONDS = 1
    assert practice_claim_fill()
    assert fill_practice() == {"skipped": True}
    practice_release_fill()
    assert "skipped" not in fill_practice()
    assert practice_claim_fill()  # the finished run let its claim go


def test_a_fill_waits_while_a_daily_pool_fill_is_queued(settings):
    from puzzles.pipeline.pools import pool_claim_fill, pool_release_fill

    settings.PRACTICE_BUDGET_SECONDS = 1
    assert pool_claim_fill("hard")
    assert fill_practice() == {"skipped": True}
    assert not PracticePosition.objects.exists()
    pool_release_fill("hard")
    assert "skipped" not in fill_practice()


def test_a_fill_stops_between_puzzles_when_a_daily_pool_fill_is_queued_behind_it(settings):
    settings.PRACTICE_POOL_SIZE = 1
    asked = []

    def give_way() -> bool:
        asked.append(1)
        return len(asked) > 1  # a fill arrives after the first generated puzzle

    report = practice_fill(budget_seconds=30, rng=random.Random(4), give_way=give_way)
    assert report.gave_way and report.generated == 1


def test_the_practice_page_has_the_strict_policy_and_nothing_inline(client):
    from .test_headers import assert_strict, inline_parts

    make_practice_position("x-wing")
    for address in (page("x-wing"), page("swordfish")):  # a position, and the waiting page
        response = client.get(address)
        assert_strict(response, address)
        assert inline_parts(response) == [], address


def test_a_fill_that_waits_for_the_daily_pools_asks_again_soon_once(settings, monkeypatch):
    # A site's first minutes: practice waits behind the pools' first fills, then comes at once,
    # not at beat's next tick five minutes on. One retry is queued however often it is asked.
    from django.core.cache import cache

    from puzzles.pipeline import tasks
    from puzzles.pipeline.pools import pool_claim_fill, pool_release_fill

    cache.delete(tasks.PRACTICE_RETRY)
    queued = []
    monkeypatch.setattr(tasks.fill_practice, "apply_async", lambda **options: queued.append(options))
    assert pool_claim_fill("easy")
    for _ in range(3):
        assert fill_practice() == {"skipped": True}
    assert queued == [{"countdown": tasks.PRACTICE_RETRY_SECONDS}]
    pool_release_fill("easy")


def test_a_technique_page_of_a_site_just_started_says_so(client):
    page = client.get("/learn/hidden-single/").content.decode()
    assert "the site has just started" in page and "meets it rarely" not in page
    make_practice_position("x-wing")
    page = client.get("/learn/hidden-single/").content.decode()
    assert "meets it rarely" in page
