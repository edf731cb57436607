"""The staff side: pool dashboard and seeding, puzzle and daily admins, importing from a file."""

from __future__ import annotations

import datetime
import random

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from kombu.exceptions import OperationalError

from puzzles import engine
from puzzles.models import TIER_ORDER, DailyPuzzle, Pool, Puzzle, SeedBatch, site_today
from puzzles.pipeline import broker, pools, publishing, tasks
from puzzles.staff import importing

from .factories import make_daily, make_puzzle

pytestmark = pytest.mark.django_db

DASHBOARD = reverse("admin:puzzles_pool_dashboard")
IMPORT = reverse("admin:puzzles_puzzle_import")
PUZZLES = reverse("admin:puzzles_puzzle_changelist")
ADD_DAILY = reverse("admin:puzzles_dailypuzzle_add")

# A well-known puzzle with exactly one solution, and the same grid less one clue (two solutions).
UNIQUE = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
TWO_SOLUTIONS = "003020000900305001001806400008102900700000008006708200002609500800203009005010300"


@pytest.fixture(autouse=True)
def broker_answers(monkeypatch) -> None:
    # The dashboard asks the broker how it is; these tests should not depend on what runs here.
    monkeypatch.setattr(broker, "broker_status", lambda: (True, "The task broker (test) is reachable."))


def messages_of(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


class FakeTask:
    """Stands in for a Celery task: records delay() calls, or fails like an absent broker."""

    def __init__(self, error: Exception | None = None) -> None:
        self.calls: list[tuple] = []
        self.error = error

    def delay(self, *args: object) -> None:
        if self.error:
            raise self.error
        self.calls.append(args)


def seed_post(**changes: object) -> dict:
    return {"tier": "hard", "count": "12", "filler": "row-by-row", "symmetry": "mirror", **changes}


# --- the dashboard ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reachable", "banner"),
    [(True, "Broker reachable."), (False, "Broker unreachable: seeding and refills will not run.")],
)
def test_the_dashboard_shows_a_row_per_tier_and_whether_the_broker_answers(
    admin_client, monkeypatch, reachable, banner
):
    monkeypatch.setattr(broker, "broker_status", lambda: (reachable, "The sentence from broker_status."))
    response = admin_client.get(DASHBOARD)
    assert response.status_code == 200
    assert [row.tier for row in response.context["rows"]] == list(TIER_ORDER)
    html = response.content.decode()
    for tier in TIER_ORDER:
        assert f'<th scope="row">{tier.capitalize()}</th>' in html
    assert banner in html and "The sentence from broker_status." in html


def test_anonymous_visitors_are_sent_to_the_admin_login(client):
    response = client.get(DASHBOARD)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


def test_staff_without_permission_on_pools_cannot_open_the_dashboard(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("clerk", password="x", is_staff=True))
    assert client.get(DASHBOARD).status_code == 403
    assert client.post(DASHBOARD, seed_post()).status_code == 403
    assert not SeedBatch.objects.exists()


def test_the_admin_index_and_the_pool_list_link_to_the_dashboard(admin_client):
    for page in (reverse("admin:index"), reverse("admin:puzzles_pool_changelist")):
        assert f'href="{DASHBOARD}"' in admin_client.get(page).content.decode()


def test_a_pool_below_target_is_flagged_in_words(admin_client):
    Pool.objects.create(tier="easy", target=0)
    Pool.objects.create(tier="medium", target=5)
    html = admin_client.get(DASHBOARD).content.decode()
    easy_row = html[html.index('<th scope="row">Easy</th>') : html.index('<th scope="row">Medium</th>')]
    medium_row = html[html.index('<th scope="row">Medium</th>') : html.index('<th scope="row">Hard</th>')]
    assert "OK" in easy_row and "Low: below target" not in easy_row
    assert "Low: below target" in medium_row


def test_the_dashboard_calls_out_substitutes_and_empty_slots(admin_client):
    today = site_today()
    make_daily(today, "hard", make_puzzle("medium", seed=1), substitute=True)
    html = admin_client.get(DASHBOARD).content.decode()
    assert "1 substitute daily in the last 14 days" in html
    assert "Empty daily slots between today and" in html
    assert "no easy, medium, expert, extreme puzzle yet" in html  # today's hard slot is filled


def test_the_dashboard_is_quiet_when_every_slot_is_filled_from_its_own_pool(admin_client, settings):
    settings.PUBLISH_DAYS_AHEAD = 0
    for seed, tier in enumerate(TIER_ORDER):
        puzzle = make_puzzle("easy", seed=seed)
        make_daily(site_today(), tier, puzzle)
    html = admin_client.get(DASHBOARD).content.decode()
    assert "No substitutes in the last 14 days" in html
    assert "Every daily slot from today to" in html


# --- seeding ------------------------------------------------------------------------------------


def test_seeding_records_a_batch_and_queues_its_work(admin_client, monkeypatch, settings):
    settings.SEED_BATCH_WORKERS = 3  # three generation workers may share it
    task = FakeTask()
    monkeypatch.setattr(tasks, "work_seed_batch", task)
    response = admin_client.post(DASHBOARD, seed_post())
    assert response.status_code == 302 and response["Location"] == DASHBOARD
    batch = SeedBatch.objects.get()
    assert (batch.tier, batch.requested, batch.filler, batch.symmetry, batch.made) == (
        "hard",
        12,
        "row-by-row",
        "mirror",
        0,
    )
    assert task.calls == [(batch.pk,)] * 3
    assert messages_of(response) == [f"Batch #{batch.pk} is queued: 12 hard puzzles (row-by-row, symmetry mirror)."]


def test_seeding_while_the_broker_is_away_keeps_the_batch_and_says_so(admin_client, monkeypatch):
    monkeypatch.setattr(broker, "enqueue", lambda send: (False, "The task broker is unreachable (test)."))
    response = admin_client.post(DASHBOARD, seed_post(), follow=True)
    assert response.status_code == 200
    batch = SeedBatch.objects.get()
    [message] = list(response.context["messages"])
    assert message.level_tag == "error"
    assert f"Batch #{batch.pk}" in message.message and "The task broker is unreachable (test)." in message.message
    assert "recorded but nobody is working on it" in response.content.decode()


def test_a_task_that_cannot_be_sent_becomes_a_message_not_a_server_error(admin_client, monkeypatch):
    monkeypatch.setattr(tasks, "work_seed_batch", FakeTask(error=OperationalError("connection refused")))
    response = admin_client.post(DASHBOARD, seed_post(), follow=True)
    assert response.status_code == 200
    assert SeedBatch.objects.count() == 1
    assert "connection refused" in response.content.decode()


@pytest.mark.parametrize("count", ["0", "501", "many"])
def test_a_count_outside_1_to_500_is_a_form_error(admin_client, monkeypatch, count):
    task = FakeTask()
    monkeypatch.setattr(tasks, "work_seed_batch", task)
    response = admin_client.post(DASHBOARD, seed_post(count=count))
    assert response.status_code == 200
    assert response.context["form"].errors["count"]
    assert not SeedBatch.objects.exists() and not task.calls


def test_queue_again_hands_an_unfinished_batch_back_to_the_workers(admin_client, monkeypatch, settings):
    settings.SEED_BATCH_WORKERS = 1
    batch = pools.seed_batch_create("easy", 3, filler=engine.DEFAULT_FILLER, symmetry="none")
    task = FakeTask()
    monkeypatch.setattr(tasks, "work_seed_batch", task)
    response = admin_client.post(reverse("admin:puzzles_pool_dashboard_requeue"), {"batch": batch.pk})
    assert response.status_code == 302
    assert task.calls == [(batch.pk,)]


def test_the_live_part_of_the_dashboard_shows_batches_arriving(admin_client):
    batch = pools.seed_batch_create("easy", 2, filler=engine.DEFAULT_FILLER, symmetry="none")
    live = reverse("admin:puzzles_pool_dashboard_live")
    html = admin_client.get(live).content.decode()
    assert 'data-unfinished="1"' in html and "0 / 2" in html
    pools.seed_batch_work(batch.pk, rng=random.Random(3))
    html = admin_client.get(live).content.decode()
    assert 'data-unfinished="0"' in html and "2 / 2" in html


# --- puzzles ------------------------------------------------------------------------------------


def listed(admin_client, query: str) -> set[int]:
    response = admin_client.get(PUZZLES + query)
    assert response.status_code == 200
    return {p.pk for p in response.context["cl"].result_list}


def test_the_puzzle_list_filters_by_tier_filler_symmetry_and_used(admin_client):
    plain = make_puzzle("easy", seed=0)
    rotational = make_puzzle("easy", seed=1, filler="row-by-row", symmetry="rotational")
    medium = make_puzzle("medium", seed=2)
    make_daily(site_today(), "medium", medium)
    Puzzle.objects.filter(pk=medium.pk).update(used=True)
    assert listed(admin_client, "") == {plain.pk, rotational.pk, medium.pk}
    assert listed(admin_client, "?tier__exact=easy") == {plain.pk, rotational.pk}
    assert listed(admin_client, "?filler=row-by-row") == {rotational.pk}
    assert listed(admin_client, "?symmetry=rotational") == {rotational.pk}
    assert listed(admin_client, "?used__exact=1") == {medium.pk}


def test_a_puzzle_is_found_by_its_givens_written_with_dots(admin_client):
    importing.puzzles_import([UNIQUE])
    make_puzzle("easy", seed=0)
    dotted = UNIQUE[:30].replace("0", ".")
    assert listed(admin_client, f"?q={dotted}") == {Puzzle.objects.get(givens=UNIQUE).pk}


def test_the_change_page_shows_the_grids_as_tables(admin_client):
    importing.puzzles_import([UNIQUE])
    puzzle = Puzzle.objects.get()
    response = admin_client.get(reverse("admin:puzzles_puzzle_change", args=[puzzle.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<table class="sudoku-preview" aria-label="Givens of puzzle {puzzle.pk}">' in html
    # The first row of the givens: 0 0 3 | 0 2 0 | 6 0 0
    assert "<tr><td></td><td></td><td>3</td><td></td><td>2</td><td></td><td>6</td><td></td><td></td></tr>" in html
    assert f'aria-label="Solution of puzzle {puzzle.pk}"' in html


def test_the_grid_preview_escapes_whatever_it_is_given():
    from puzzles.staff.admin import grid_table

    html = grid_table("<" + "1" * 80, 'a "label"')
    assert "<td>&lt;</td>" in html and 'aria-label="a &quot;label&quot;"' in html


def test_puzzles_cannot_be_added_through_the_admin(admin_client):
    assert admin_client.get(reverse("admin:puzzles_puzzle_add")).status_code == 403
    assert "Add puzzle" not in admin_client.get(PUZZLES).content.decode()


def test_deleting_a_published_puzzle_shows_the_cannot_delete_page(admin_client):
    puzzle = make_puzzle()
    publishing.daily_schedule(puzzle, site_today(), "easy")
    delete = reverse("admin:puzzles_puzzle_delete", args=[puzzle.pk])
    for response in (admin_client.get(delete), admin_client.post(delete, {"post": "yes"})):
        assert response.status_code == 200
        assert "would require deleting the following protected related objects" in response.content.decode()
    response = admin_client.post(PUZZLES, {"action": "delete_selected", "_selected_action": [puzzle.pk], "post": "yes"})
    assert response.status_code == 200
    assert "Cannot delete puzzle" in response.content.decode()
    assert Puzzle.objects.filter(pk=puzzle.pk).exists()


# --- dailies ------------------------------------------------------------------------------------

DAY = datetime.date(2031, 3, 14)


def schedule(admin_client, puzzle: Puzzle, difficulty: str = "easy", day: datetime.date = DAY):
    return admin_client.post(ADD_DAILY, {"date": day.isoformat(), "difficulty": difficulty, "puzzle": puzzle.pk})


def test_scheduling_a_puzzle_publishes_it_on_that_date(admin_client):
    puzzle = make_puzzle("medium", seed=1)
    response = schedule(admin_client, puzzle, "easy")
    assert response.status_code == 302
    daily = DailyPuzzle.objects.get()
    assert (daily.date, daily.difficulty, daily.puzzle_id, daily.substitute) == (DAY, "easy", puzzle.pk, True)
    puzzle.refresh_from_db()
    assert puzzle.used


def test_scheduling_into_a_taken_slot_is_refused_with_the_reason(admin_client):
    publishing.daily_schedule(make_puzzle(seed=0), DAY, "easy")
    other = make_puzzle(seed=1)
    response = schedule(admin_client, other, "easy")
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["date"] == ["2031-03-14 already has its easy puzzle"]
    other.refresh_from_db()
    assert not other.used and DailyPuzzle.objects.count() == 1


def test_scheduling_an_already_published_puzzle_is_refused_with_the_reason(admin_client):
    puzzle = make_puzzle(seed=0)
    publishing.daily_schedule(puzzle, DAY, "easy")
    response = schedule(admin_client, puzzle, "medium", DAY + datetime.timedelta(days=1))
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["puzzle"] == [f"puzzle #{puzzle.pk} has already been published"]
    assert DailyPuzzle.objects.count() == 1


def test_a_slot_taken_between_checking_and_saving_is_a_message_not_a_server_error(admin_client, monkeypatch):
    ours, theirs = make_puzzle(seed=0), make_puzzle(seed=1)
    real_schedule = publishing.daily_schedule
    calls = []

    def someone_else_first(puzzle: Puzzle, day: datetime.date, difficulty: str) -> DailyPuzzle:
        calls.append(puzzle.pk)
        if len(calls) == 2:  # the real save, after the form's check passed
            real_schedule(theirs, day, difficulty)
        return real_schedule(puzzle, day, difficulty)

    monkeypatch.setattr(publishing, "daily_schedule", someone_else_first)
    response = schedule(admin_client, ours, "easy")
    assert response.status_code == 302 and response["Location"] == ADD_DAILY
    assert messages_of(response) == ["Not scheduled: 2031-03-14 already has its easy puzzle."]
    # The admin's transaction rolled back as a whole, the other scheduler's daily included.
    assert not DailyPuzzle.objects.exists()


def test_a_published_daily_cannot_be_edited(admin_client):
    daily = publishing.daily_schedule(make_puzzle(), DAY, "easy")
    url = reverse("admin:puzzles_dailypuzzle_change", args=[daily.pk])
    assert admin_client.get(url).status_code == 200  # viewable
    response = admin_client.post(url, {"date": "2031-03-15", "difficulty": "easy", "puzzle": daily.puzzle_id})
    assert response.status_code == 403
    daily.refresh_from_db()
    assert daily.date == DAY


# --- importing ----------------------------------------------------------------------------------


def upload(admin_client, content: bytes):
    return admin_client.post(IMPORT, {"file": SimpleUploadedFile("grids.txt", content, content_type="text/plain")})


def test_importing_keeps_the_good_lines_and_reports_each_bad_one_by_number(admin_client):
    made = [pools.puzzle_make("easy", rng=random.Random(seed)) for seed in (5, 6)]
    rotational = pools.puzzle_make("medium", symmetry="rotational", rng=random.Random(7))
    lines = [
        "# puzzles from the club newsletter",  # 1
        UNIQUE + "   # the classic",  # 2
        "",  # 3
        engine.format_grid(made[0].givens).replace("0", "."),  # 4
        UNIQUE[:80],  # 5
        TWO_SOLUTIONS,  # 6
        UNIQUE,  # 7: the same puzzle as line 2
        engine.format_grid(made[1].givens),  # 8
        "3" + UNIQUE[1:],  # 9
        engine.format_grid(rotational.givens),  # 10
    ]
    response = upload(admin_client, "\r\n".join(lines).encode())
    assert response.status_code == 200
    report = response.context["report"]
    assert (report.stored, report.duplicates) == (4, 1)
    assert report.failures == [
        (5, "a grid has 81 cells, this one has 80"),
        (6, "more than one solution"),
        (9, "two 3s in row 1: r1c1 and r1c3"),
    ]
    html = response.content.decode()
    for number, reason in report.failures:
        assert f"line {number}: {reason}" in html
    imported = Puzzle.objects.get(givens=engine.format_grid(rotational.givens))
    assert (imported.filler, imported.symmetry, imported.generation_ms) == ("imported", "rotational", 0)
    assert imported.tier == "medium" and imported.solution == engine.format_grid(rotational.solution)
    assert Puzzle.objects.get(givens=engine.format_grid(made[0].givens)).symmetry == "none"


def test_importing_the_same_file_twice_stores_nothing_new(admin_client):
    upload(admin_client, UNIQUE.encode())
    report = upload(admin_client, UNIQUE.encode()).context["report"]
    assert (report.stored, report.duplicates, report.failures) == (0, 1, [])
    assert Puzzle.objects.count() == 1


def test_a_file_that_is_not_utf8_is_refused_with_a_message(admin_client):
    response = upload(admin_client, UNIQUE.encode() + b"  # caf\xe9\n")
    assert response.status_code == 200
    assert "The file is not UTF-8 text" in response.context["form"].errors["file"][0]
    assert not Puzzle.objects.exists()


def test_a_file_over_2_mb_is_refused_with_a_message(admin_client):
    line = (UNIQUE + "\n").encode()
    content = line * (2 * 1024 * 1024 // len(line) + 1)
    response = upload(admin_client, content)
    assert response.status_code == 200
    assert "the limit is 2 MB" in response.context["form"].errors["file"][0]
    assert not Puzzle.objects.exists()


def test_the_import_page_is_linked_from_the_puzzle_list(admin_client):
    assert f'href="{IMPORT}"' in admin_client.get(PUZZLES).content.decode()


def test_a_grid_with_every_cell_filled_is_not_a_puzzle():
    solution = engine.format_grid(engine.solve(UNIQUE))
    report = importing.puzzles_import([solution])
    assert report.failures == [(1, "every cell is filled in, so there is nothing to solve")]
