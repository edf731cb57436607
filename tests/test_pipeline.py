import datetime
import itertools
import random

import pytest
from django.utils import timezone

from puzzles.models import TIER_ORDER, DailyPuzzle, Pool, Puzzle
from puzzles.pipeline import pools, publishing

from .factories import make_pools_filled, make_puzzle

pytestmark = pytest.mark.django_db


def test_a_stored_puzzle_keeps_its_rating_and_how_it_was_made():
    puzzle = make_puzzle("medium", seed=1)
    assert puzzle.tier == "medium" and not puzzle.used
    assert len(puzzle.givens) == 81 and len(puzzle.solution) == 81
    assert puzzle.clues == sum(1 for ch in puzzle.givens if ch != "0")
    assert puzzle.techniques and puzzle.hardest
    assert puzzle.filler == "diagonal-boxes" and puzzle.symmetry == "none"


def test_storing_the_same_puzzle_twice_keeps_one_row():
    made = pools.puzzle_make("easy", rng=random.Random(4))
    assert pools.puzzle_store(made) is not None
    assert pools.puzzle_store(made) is None
    assert Puzzle.objects.count() == 1


def test_the_database_refuses_a_grid_that_is_not_81_digits():
    from django.db import IntegrityError, transaction

    puzzle = make_puzzle()
    with pytest.raises(IntegrityError), transaction.atomic():
        Puzzle.objects.filter(pk=puzzle.pk).update(givens="12x" + "0" * 78)


def test_filling_a_pool_stops_at_its_target():
    Pool.objects.create(tier="easy", target=3)
    report = pools.pool_fill("easy", budget_seconds=30, rng=random.Random(2))
    assert report.stored == 3 and report.level == 3
    assert pools.pool_fill("easy", budget_seconds=30).stored == 0


def test_a_seed_batch_never_makes_more_than_it_asked_for_even_when_run_twice():
    batch = pools.seed_batch_create("easy", 2, filler="row-by-row", symmetry="rotational")
    pools.seed_batch_work(batch.pk, rng=random.Random(1))
    pools.seed_batch_work(batch.pk, rng=random.Random(2))
    batch.refresh_from_db()
    assert batch.made == 2
    assert Puzzle.objects.filter(filler="row-by-row", symmetry="rotational").count() == 2


def test_publishing_fills_each_difficulty_once_and_marks_puzzles_used():
    for i, tier in enumerate(["easy", "medium", "hard", "expert", "extreme"]):
        make_puzzle(tier, seed=i)
    day = datetime.date(2026, 11, 22)
    report = publishing.daily_publish(day)
    assert set(report.published) == {"easy", "medium", "hard", "expert", "extreme"}
    assert not report.substitutes and not report.missing
    assert DailyPuzzle.objects.filter(date=day).count() == 5
    assert not Puzzle.objects.available().exists()
    again = publishing.daily_publish(day)
    assert not again.published and len(again.existing) == 5


def test_an_empty_pool_gets_the_nearest_tier_as_a_recorded_substitute(caplog):
    make_pools_filled()  # the pools were filled before and ran dry (see the first-fill tests below)
    make_puzzle("easy", seed=1)
    make_puzzle("easy", seed=5)
    make_puzzle("hard", seed=2)
    make_puzzle("extreme", seed=3)
    day = datetime.date(2026, 11, 23)
    report = publishing.daily_publish(day)
    # Own tiers first: easy, hard and extreme keep theirs; medium borrows the spare easy one.
    assert report.published.keys() == {"easy", "medium", "hard", "extreme"}
    assert report.substitutes == {"medium": "easy"}
    assert report.missing == ["expert"]
    medium = DailyPuzzle.objects.get(date=day, difficulty="medium")
    assert medium.substitute and medium.puzzle.tier == "easy"
    assert "the medium pool was empty: published an easy puzzle as the medium daily" in caplog.text


def test_a_pool_being_filled_for_the_first_time_gets_no_substitute_its_slot_waits(caplog):
    # A site's first minutes: the easy pool is full, the medium one has nothing yet.
    Pool.objects.create(tier="easy", target=2)
    pools.pool_fill("easy", budget_seconds=30, rng=random.Random(1))
    day = timezone.localdate()
    report = publishing.daily_publish(day)
    assert report.published.keys() == {"easy"} and not report.substitutes
    assert report.missing == ["medium", "hard", "expert", "extreme"]
    assert not DailyPuzzle.objects.filter(substitute=True).exists()
    assert Puzzle.objects.available("easy").count() == 1  # the spare easy puzzle stays easy
    assert "pool was empty" not in caplog.text and "no puzzle at all" not in caplog.text
    make_puzzle("medium", seed=2)  # the medium pool's first puzzle arrives
    assert publishing.daily_publish(day).published.keys() == {"medium"}
    assert not DailyPuzzle.objects.get(date=day, difficulty="medium").substitute


def test_a_pool_counts_as_filled_once_it_has_been_seen_at_its_target():
    Pool.objects.create(tier="easy", target=2)
    Pool.objects.create(tier="hard", target=1)
    make_puzzle("easy", seed=1)
    assert Pool.objects.first_filling() == set(TIER_ORDER)  # one easy puzzle of two
    pools.pool_fill("easy", budget_seconds=30, rng=random.Random(3))  # a refill reaches the target
    make_puzzle("hard", seed=2)  # an admin's seed batch or import fills the hard pool
    publishing.daily_publish(datetime.date(2026, 11, 24), substitutes=False)  # as a fill task publishes
    assert Pool.objects.first_filling() == {"medium", "expert", "extreme"}
    publishing.daily_publish(datetime.date(2026, 11, 25))  # the pools ran dry: still filled once
    assert Pool.objects.first_filling() == {"medium", "expert", "extreme"}
    assert Puzzle.objects.available("hard").count() == 0


def test_asking_which_pools_are_still_filling_writes_nothing():
    # The home page and the daily page ask on GET; only the publisher remembers a full pool.
    Pool.objects.create(tier="easy", target=1)
    make_puzzle("easy", seed=1)
    assert "easy" not in Pool.objects.first_filling()
    assert Pool.objects.get(tier="easy").filled_at is None
    Pool.objects.mark_first_fills()
    assert Pool.objects.get(tier="easy").filled_at is not None


def test_scheduling_a_taken_slot_or_a_used_puzzle_is_refused_with_a_reason():
    first, second = make_puzzle("easy", 1), make_puzzle("easy", 2)
    day = datetime.date(2026, 12, 1)
    publishing.daily_schedule(first, day, "easy")
    with pytest.raises(publishing.SlotTaken, match="already has its easy puzzle"):
        publishing.daily_schedule(second, day, "easy")
    with pytest.raises(publishing.SlotTaken, match="already been published"):
        publishing.daily_schedule(first, day + datetime.timedelta(days=1), "easy")
    second.refresh_from_db()
    assert not second.used


def test_the_scheduler_queues_one_fill_per_tier_until_that_fill_has_run(monkeypatch):
    from puzzles.pipeline import tasks

    queued = []
    monkeypatch.setattr(tasks.fill_pool, "delay", lambda tier: queued.append(tier))
    Pool.objects.create(tier="easy", target=2)
    tasks.refill_pools()
    tasks.refill_pools()
    assert queued.count("easy") == 1  # the second refill found a fill already queued
    tasks.fill_pool("easy")  # runs the fill here, which releases the claim
    assert Puzzle.objects.filter(tier="easy").count() == 2
    tasks.refill_pools()  # its fresh puzzles went to empty daily slots, so the pool is low again
    assert queued.count("easy") == 2


def test_a_stale_fill_claim_is_taken_over(settings):
    from django.utils import timezone

    pool = Pool.objects.create(tier="hard", target=1)
    assert pools.pool_claim_fill("hard") is True
    assert pools.pool_claim_fill("hard") is False
    long_ago = timezone.now() - datetime.timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 120)
    Pool.objects.filter(pk=pool.pk).update(fill_queued_at=long_ago)
    assert pools.pool_claim_fill("hard") is True


def test_a_duplicate_puzzle_does_not_use_up_a_unit_of_its_batch():
    batch = pools.seed_batch_create("easy", 3, filler="diagonal-boxes", symmetry="none")
    made = pools.puzzle_make("easy", rng=random.Random(21))
    assert pools.puzzle_store(made, batch_id=batch.pk) is not None
    assert pools.puzzle_store(made, batch_id=batch.pk) is None
    batch.refresh_from_db()
    assert batch.made == 1 and Puzzle.objects.count() == 1


@pytest.mark.postgres
def test_the_one_statement_batch_store_keeps_the_rules_and_the_row_of_the_orm_path(postgres):
    # _store_for_batch_in_one_statement writes out, for PostgreSQL, what _store_with_orm does.
    from puzzles.models import SeedBatch

    by_hand_batch = pools.seed_batch_create("easy", 2, filler="diagonal-boxes", symmetry="none")
    orm_batch = pools.seed_batch_create("easy", 2, filler="diagonal-boxes", symmetry="none")
    made = [pools.puzzle_make("easy", rng=random.Random(seed)) for seed in (31, 32, 33, 34, 35)]

    def stored(row):
        return {
            f.attname: getattr(row, f.attname)
            for f in Puzzle._meta.concrete_fields
            if f.attname not in ("id", "created")
        }

    by_hand = pools._store_for_batch_in_one_statement(pools._puzzle_row(made[0]), by_hand_batch.pk)
    orm = pools._store_with_orm(pools._puzzle_row(made[1]), batch_id=orm_batch.pk, fill_pool=False)
    assert stored(Puzzle.objects.get(pk=by_hand.pk)) == stored(pools._puzzle_row(made[0]))
    assert stored(Puzzle.objects.get(pk=orm.pk)) == stored(pools._puzzle_row(made[1]))
    # A duplicate is skipped and uses up no unit of its batch, on both paths.
    assert pools._store_for_batch_in_one_statement(pools._puzzle_row(made[1]), by_hand_batch.pk) is None
    assert pools._store_with_orm(pools._puzzle_row(made[0]), batch_id=orm_batch.pk, fill_pool=False) is None
    for batch in (by_hand_batch, orm_batch):
        batch.refresh_from_db()
        assert batch.made == 1
    # The last unit is claimed once; a complete batch takes nothing more.
    assert pools._store_for_batch_in_one_statement(pools._puzzle_row(made[2]), by_hand_batch.pk) is not None
    assert pools._store_with_orm(pools._puzzle_row(made[3]), batch_id=orm_batch.pk, fill_pool=False) is not None
    assert pools._store_for_batch_in_one_statement(pools._puzzle_row(made[4]), by_hand_batch.pk) is None
    assert pools._store_with_orm(pools._puzzle_row(made[4]), batch_id=orm_batch.pk, fill_pool=False) is None
    assert Puzzle.objects.count() == 4
    assert SeedBatch.objects.filter(made=2).count() == 2


def _hold_hard(*hardest: str) -> None:
    """Available hard puzzles in the pool whose hardest techniques are `hardest`."""
    for seed, name in enumerate(hardest):
        puzzle = make_puzzle("hard", seed=100 + seed)
        Puzzle.objects.filter(pk=puzzle.pk).update(hardest=name)


class Rated:
    """Records every hard puzzle the engine rates while a refill runs, kept or not."""

    def __init__(self, monkeypatch) -> None:
        self.givens: list[str] = []
        rate = pools.engine.generator.rate

        def spy(givens, **options):
            rating = rate(givens, **options)
            if rating.tier == "hard":
                self.givens.append(pools.engine.format_grid(givens))
            return rating

        monkeypatch.setattr(pools.engine.generator, "rate", spy)


def test_a_hard_refill_keeps_every_puzzle_it_makes_while_the_family_has_room(monkeypatch, settings):
    settings.PUZZLE_SCORE_BANDS = {tier: (0, 2000) for tier in settings.PUZZLE_SCORE_BANDS}  # all inside
    # Uniqueness is held least: a refill used to aim at it and throw the other puzzles away.
    _hold_hard(*["x-wing", "naked-triple", "xy-wing", "skyscraper"] * 3, "unique-rectangle-1")
    Pool.objects.create(tier="hard", target=17)  # room for four more of any family
    rated = Rated(monkeypatch)
    report = pools.pool_fill("hard", budget_seconds=600, rng=random.Random(1))
    stored = set(Puzzle.objects.filter(tier="hard").values_list("givens", flat=True))
    assert (report.stored, report.discarded, report.level) == (4, 0, 17)
    assert len(rated.givens) == 4 and set(rated.givens) <= stored  # no hard puzzle made was thrown away


def test_a_hard_refill_from_empty_ends_with_every_family_the_rare_ones_too(settings):
    settings.PUZZLE_SCORE_BANDS = {**settings.PUZZLE_SCORE_BANDS, "hard": (300, 500)}  # X-wings count
    Pool.objects.create(tier="hard", target=10)
    report = pools.pool_fill("hard", budget_seconds=600, rng=random.Random(3))
    held = Puzzle.objects.available("hard").in_band((300, 500)).values_list("hardest", flat=True)
    stock = pools.engine.family_stock("hard", held)
    assert report.level == 10 and min(stock.values()) >= 1, stock
    assert max(stock.values()) <= 4, stock  # two fifths of the pool at most


def test_a_hard_refill_holds_the_last_place_for_the_family_the_pool_lacks(settings):
    settings.PUZZLE_SCORE_BANDS = {tier: (0, 2000) for tier in settings.PUZZLE_SCORE_BANDS}
    _hold_hard("skyscraper", "x-wing", "naked-triple", "unique-rectangle-1")
    Pool.objects.create(tier="hard", target=5)
    report = pools.pool_fill("hard", budget_seconds=600, rng=random.Random(1))
    made = Puzzle.objects.filter(tier="hard").order_by("-pk").first()
    assert made.hardest in ("xy-wing", "xyz-wing") and report.stored == 1


def test_a_hard_refill_takes_any_puzzle_inside_the_band_once_half_its_budget_is_spent(monkeypatch, settings):
    settings.PUZZLE_SCORE_BANDS = {tier: (0, 2000) for tier in settings.PUZZLE_SCORE_BANDS}
    _hold_hard("xy-wing")
    Pool.objects.create(tier="hard", target=2)  # while aiming, the last place waits for another family
    clock = itertools.count(step=60)  # each look at the clock is a minute on: past half at once
    monkeypatch.setattr(pools.time, "monotonic", lambda: next(clock))
    report = pools.pool_fill("hard", budget_seconds=100, rng=random.Random(1))
    made = Puzzle.objects.filter(tier="hard").order_by("-pk").first()
    assert (report.stored, report.discarded, report.level) == (1, 0, 2)
    assert pools.engine.family_stock("hard", [made.hardest])["wings"] == 1  # a second wing


def test_other_tiers_refill_without_aiming(monkeypatch, settings):
    settings.PUZZLE_SCORE_BANDS = {tier: (0, 2000) for tier in settings.PUZZLE_SCORE_BANDS}  # one puzzle fills it
    monkeypatch.setattr(pools.engine, "generate_stream", None)  # would fail if called
    Pool.objects.create(tier="medium", target=1)
    assert pools.pool_fill("medium", budget_seconds=30, rng=random.Random(2)).stored == 1
