import datetime
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from puzzles.models import DailyPuzzle, Puzzle, SeedBatch

from .factories import make_daily

pytestmark = pytest.mark.django_db


def run(*args):
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_seed_pool_now_makes_the_puzzles_here_with_a_closing_summary():
    out = run("seed_pool", "--difficulty", "easy", "--count", "3", "--now", "--symmetry", "mirror")
    assert "3/3" in out and "Made 3 easy puzzles" in out
    assert Puzzle.objects.filter(tier="easy", symmetry="mirror").count() == 3
    assert SeedBatch.objects.get().made == 3


def test_seed_pool_rejects_a_bad_count_with_a_message():
    with pytest.raises(CommandError, match="count must be at least 1"):
        run("seed_pool", "--difficulty", "easy", "--count", "0", "--now")


def test_publish_daily_publishes_a_given_date_and_says_what_is_missing():
    run("seed_pool", "--difficulty", "easy", "--count", "1", "--now")
    with pytest.raises(CommandError, match="4 slot"):
        run("publish_daily", "--date", "2026-12-24")
    assert DailyPuzzle.objects.get(date=datetime.date(2026, 12, 24), difficulty="easy").puzzle.tier == "easy"
    # The four empty slots borrowed nothing: the only puzzle went to its own tier.
    assert DailyPuzzle.objects.count() == 1


def test_publish_daily_rejects_a_malformed_date():
    with pytest.raises(CommandError, match="--date must look like"):
        run("publish_daily", "--date", "24/12/2026")


def test_pool_status_prints_a_row_per_tier():
    run("seed_pool", "--difficulty", "medium", "--count", "2", "--now")
    out = run("pool_status")
    lines = out.strip().splitlines()
    assert lines[0].split()[:3] == ["tier", "available", "target"]
    rows = {line.split()[0]: line.split() for line in lines[1:]}
    assert set(rows) == {"easy", "medium", "hard", "expert", "extreme"}
    assert rows["medium"][1] == "2" and rows["medium"][3] == "2"


def test_rerate_puzzles_rates_every_puzzle_again_and_moves_only_pool_puzzles_between_tiers():
    from puzzles import engine
    from puzzles.models import site_today

    from .factories import make_puzzle

    pool = make_puzzle("hard", seed=1)
    published = make_puzzle("hard", seed=2)
    make_daily(site_today(), "hard", published)
    # As rated by an older engine: another scale and, for both, another tier.
    Puzzle.objects.filter(pk=pool.pk).update(score=32, tier="expert", hardest="x-wing", techniques={})
    Puzzle.objects.filter(pk=published.pk).update(score=32, tier="expert", hardest="x-wing", used=True)

    dry = run("rerate_puzzles", "--dry-run")
    assert "2 puzzles checked: 2 would change score or techniques, 1 pool puzzles would move" in dry
    assert "nothing was written" in dry and Puzzle.objects.filter(score=32).count() == 2

    out = run("rerate_puzzles", "--batch-size", "1")
    assert "2 puzzles checked: 2 changed score or techniques, 1 pool puzzles moved to another tier" in out
    for puzzle in (pool, published):
        rating = engine.rate(puzzle.givens)
        puzzle.refresh_from_db()
        assert (puzzle.score, puzzle.hardest, puzzle.techniques) == (rating.score, rating.hardest, rating.techniques)
    assert pool.tier == "hard"
    assert published.tier == "expert"  # a published daily keeps its slot, and its puzzle its tier

    again = run("rerate_puzzles")  # idempotent
    assert "2 puzzles checked: 0 changed score or techniques, 0 pool puzzles moved" in again
