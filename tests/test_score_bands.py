"""Steady dailies: each tier's score band, publishing from inside it, refills that keep it full,
and the dashboard that shows it."""

from __future__ import annotations

import datetime
import random
import subprocess
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.urls import reverse

from puzzles.models import DailyPuzzle, Pool, Puzzle, site_today
from puzzles.pipeline import broker, pools, publishing
from puzzles.pipeline.scores import score_text
from puzzles.staff import dashboard
from sudokusite.settings import SCORE_BAND_DEFAULTS, env_band

from .factories import make_daily, make_pools_filled, make_puzzle

DASHBOARD = reverse("admin:puzzles_pool_dashboard")


def scored(tier: str, score: int, seed: int) -> Puzzle:
    """A real puzzle of `tier` from the pipeline, its score set to `score`."""
    puzzle = make_puzzle(tier, seed=seed)
    Puzzle.objects.filter(pk=puzzle.pk).update(score=score)
    puzzle.score = score
    return puzzle


# --- the bands in settings ----------------------------------------------------------------------


def test_a_band_comes_from_the_environment_as_low_dash_high(monkeypatch):
    monkeypatch.setenv("SCORE_BAND_HARD", " 320-480 ")
    assert env_band("SCORE_BAND_HARD", (1, 2)) == (320, 480)
    monkeypatch.delenv("SCORE_BAND_HARD")
    assert env_band("SCORE_BAND_HARD", (1, 2)) == (1, 2)


@pytest.mark.parametrize("text", ["3.2-4.8", "480-320", "320", "320-", "-480", "a-b", "320-480-500"])
def test_a_malformed_band_is_refused_with_a_message_naming_the_variable(monkeypatch, text):
    monkeypatch.setenv("SCORE_BAND_HARD", text)
    with pytest.raises(ImproperlyConfigured, match="SCORE_BAND_HARD must be low-high in hundredths"):
        env_band("SCORE_BAND_HARD", (1, 2))


def test_the_defaults_are_one_band_per_tier_and_a_bad_one_stops_the_site_at_start_up():
    from django.conf import settings

    assert len(SCORE_BAND_DEFAULTS) == 5 and all(low <= high for low, high in SCORE_BAND_DEFAULTS)
    assert set(settings.PUZZLE_SCORE_BANDS) == {"easy", "medium", "hard", "expert", "extreme"}
    run = subprocess.run(
        [sys.executable, "manage.py", "check"],
        env={**__import__("os").environ, "SCORE_BAND_EXPERT": "7.2"},
        capture_output=True,
        text=True,
    )
    assert run.returncode != 0 and "SCORE_BAND_EXPERT must be low-high in hundredths" in run.stderr


def test_scores_read_as_decimals_and_an_unrated_one_says_so():
    assert score_text(427) == "4.27" and score_text(1000) == "10.00" and score_text(5) == "0.05"
    assert score_text(0) == "unrated" and score_text(None) == "unrated"


# --- publishing ---------------------------------------------------------------------------------


@pytest.fixture
def hard_band(settings):
    settings.PUZZLE_SCORE_BANDS = {**settings.PUZZLE_SCORE_BANDS, "hard": (300, 400)}


@pytest.mark.django_db
def test_publishing_takes_the_oldest_puzzle_inside_the_band(hard_band):
    scored("hard", 450, seed=1)  # oldest, but above the band
    inside = scored("hard", 350, seed=2)
    scored("hard", 380, seed=3)
    report = publishing.daily_publish(datetime.date(2026, 11, 22))
    assert report.published["hard"] == inside.pk and "hard" not in report.outside_band


@pytest.mark.django_db
def test_with_none_inside_it_takes_the_nearest_and_says_the_daily_is_outside(hard_band, caplog):
    make_pools_filled()
    scored("hard", 520, seed=1)
    nearest = scored("hard", 250, seed=2)  # 0.50 below, against 1.20 above
    scored("easy", 350, seed=3)  # inside hard's band, but easy: a tier is never crossed for the band
    day = datetime.date(2026, 11, 22)
    report = publishing.daily_publish(day)
    daily = DailyPuzzle.objects.get(date=day, difficulty="hard")
    assert daily.puzzle_id == nearest.pk and not daily.substitute
    assert report.outside_band["hard"] == 250
    assert "no hard puzzle inside the band 3.00 to 4.00 was left" in caplog.text
    assert "scores 2.50, outside it" in caplog.text


@pytest.mark.django_db
def test_the_nearest_outside_the_band_is_measured_to_its_nearer_end(hard_band):
    scored("hard", 180, seed=1)
    above = scored("hard", 430, seed=2)  # 0.30 above, against 1.20 below
    assert publishing.daily_publish(datetime.date(2026, 11, 22)).published["hard"] == above.pk


@pytest.mark.django_db
def test_substitution_between_tiers_is_unchanged_by_the_bands(hard_band):
    make_pools_filled("hard")  # the other pools are still filling for the first time: they wait
    scored("expert", 900, seed=1)
    scored("expert", 650, seed=2)  # inside expert's band: the expert slot's own
    report = publishing.daily_publish(datetime.date(2026, 11, 22))
    assert report.substitutes.get("hard") == "expert" and "expert" not in report.outside_band
    assert report.outside_band["hard"] == 900  # recorded; logged as a substitute already


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_publishers_on_postgresql_each_take_a_puzzle_inside_the_band(postgres, hard_band):
    from .integration.test_locking import run_together

    puzzles = [scored("hard", 320 + seed, seed=seed) for seed in range(3)]
    scored("hard", 600, seed=9)
    days = [datetime.date(2027, 1, 1), datetime.date(2027, 1, 2)]
    run_together(*(lambda d=day: publishing.daily_publish(d) for day in days))
    taken = set(DailyPuzzle.objects.filter(difficulty="hard").values_list("puzzle_id", flat=True))
    assert len(taken) == 2 and taken <= {p.pk for p in puzzles}


# --- refills ------------------------------------------------------------------------------------


class FakeEngine:
    """Stands in for puzzle_make: real puzzles of the tier, with the scores given, in turn."""

    def __init__(self, scores: list[int]) -> None:
        self.scores = iter(scores)
        self.rng = random.Random(7)

    def __call__(self, tier, **options):
        made = pools.engine.generate(tier, self.rng)
        made.rating.score = next(self.scores)
        return made


@pytest.mark.django_db
def test_a_refill_stops_once_the_target_is_inside_the_band_keeping_spares_up_to_the_target(hard_band, monkeypatch):
    Pool.objects.create(tier="easy", target=2)
    monkeypatch.setitem(pools.settings.PUZZLE_SCORE_BANDS, "easy", (100, 200))
    # Outside, inside, outside, outside (past the cap of two spares: discarded), inside: full.
    fake = FakeEngine([250, 150, 90, 300, 120, 110])
    monkeypatch.setattr(pools, "puzzle_make", fake)
    report = pools.pool_fill("easy", budget_seconds=60)
    assert (report.stored, report.discarded, report.level, report.spares) == (4, 1, 2, 2)
    assert sorted(Puzzle.objects.values_list("score", flat=True)) == [90, 120, 150, 250]
    assert next(fake.scores) == 110  # it stopped as soon as the band held the target
    assert pools.pools_needing_puzzles().count("easy") == 0


@pytest.mark.django_db
def test_a_pool_full_of_puzzles_outside_the_band_still_needs_puzzles(settings):
    settings.PUZZLE_SCORE_BANDS = {**settings.PUZZLE_SCORE_BANDS, "medium": (200, 300)}
    Pool.objects.create(tier="medium", target=1)
    scored("medium", 500, seed=1)
    scored("medium", 510, seed=2)
    assert "medium" in pools.pools_needing_puzzles()
    assert Pool.objects.first_filling() >= {"medium"}


# --- the dashboard ------------------------------------------------------------------------------


def test_the_histogram_counts_scores_in_fixed_buckets_around_the_band():
    buckets = dashboard.histogram([0, 310, 320, 349, 350, 470, 471, 900], (320, 470))
    labels = [b.label for b in buckets]
    assert labels[0] == "under 2.00" and labels[1] == "2.00 to 2.24" and labels[-1] == "5.75 and above"
    counts = {b.label: b.count for b in buckets}
    assert counts["under 2.00"] == 1 and counts["3.00 to 3.24"] == 2 and counts["3.25 to 3.49"] == 1
    assert counts["4.50 to 4.74"] == 2 and counts["5.75 and above"] == 1
    place = {b.label: b.place for b in buckets}
    assert place["3.25 to 3.49"] == "inside" and place["3.00 to 3.24"] == "edge" and place["under 2.00"] == "outside"
    assert max(b.height for b in buckets) == 10 and {b.height for b in buckets if b.count == 0} == {0}


@pytest.mark.django_db
def test_the_dashboard_shows_each_band_its_counts_histogram_and_the_scheduled_scores(
    admin_client, monkeypatch, hard_band
):
    monkeypatch.setattr(broker, "broker_status", lambda: (True, "The task broker (test) is reachable."))
    for seed, score in enumerate((250, 330, 340, 399, 401)):
        scored("hard", score, seed=seed)
    today = site_today()
    outside = scored("expert", 1200, seed=11)
    make_daily(today, "expert", outside)
    Puzzle.objects.filter(pk=outside.pk).update(used=True)
    inside = scored("easy", 150, seed=12)
    make_daily(today + datetime.timedelta(days=1), "easy", inside)
    Puzzle.objects.filter(pk=inside.pk).update(used=True)
    before = list(Puzzle.objects.order_by("pk").values_list("pk", "score", "tier", "used"))

    response = admin_client.get(DASHBOARD)
    assert response.status_code == 200
    html = response.content.decode()
    hard = next(row for row in response.context["band_rows"] if row.tier == "hard")
    assert (hard.inside, hard.below, hard.above) == (3, 1, 1)
    row = html[html.index('<th scope="row">Hard</th>', html.index("bands-heading")) :]
    row = row[: row.index("</tr>")]
    assert "3.00 to 4.00" in row and '<td class="num">3</td>' in row
    assert 'aria-label="Scores of the 5 available hard puzzles"' in row
    assert "3.25 to 3.49: 2, inside the band</span>" in row  # read out, not only drawn
    assert "2.50 to 2.74: 1</span>" in row
    # The scheduled dailies: today's expert above its band, flagged in words; tomorrow's easy inside.
    scheduled = html[html.index("scheduled-heading") : html.index("pools-heading")]
    assert "12.00" in scheduled and "above its band" in scheduled
    assert "1.50" in scheduled and scheduled.count("its band</strong>") == 1
    assert list(Puzzle.objects.order_by("pk").values_list("pk", "score", "tier", "used")) == before


@pytest.mark.django_db
def test_the_puzzle_list_shows_scores_as_decimals(admin_client):
    scored("hard", 427, seed=1)
    scored("easy", 0, seed=2)
    html = admin_client.get(reverse("admin:puzzles_puzzle_changelist")).content.decode()
    assert "4.27" in html and "unrated" in html
