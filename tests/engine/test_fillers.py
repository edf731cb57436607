"""The four fillers: every grid valid, every seed reproducible, every digit reaching every cell."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzles.engine import fillers
from puzzles.engine.fillers import DEFAULT_FILLER, FILLERS, FillStats, fill

NAMES = list(FILLERS)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def is_full_and_valid(grid: list[int]) -> bool:
    """Checked without the engine's tables: 81 ints, 1-9 once in each row, column and box."""
    if len(grid) != 81 or any(type(d) is not int for d in grid):
        return False
    want = set(range(1, 10))
    for k in range(9):
        row = [grid[k * 9 + j] for j in range(9)]
        col = [grid[j * 9 + k] for j in range(9)]
        top, left = k // 3 * 3, k % 3 * 3
        box = [grid[(top + a) * 9 + left + b] for a in range(3) for b in range(3)]
        if any(set(unit) != want for unit in (row, col, box)):
            return False
    return True


def test_the_registry_holds_the_four_documented_fillers_in_order():
    assert NAMES == ["potential-array", "row-by-row", "band-backtrack", "diagonal-boxes"]
    assert DEFAULT_FILLER in FILLERS


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=100, deadline=None)
@given(seed=SEEDS)
def test_every_filler_makes_a_valid_full_grid_for_any_seed(name, seed):
    grid, stats = fill(random.Random(seed), name)
    assert is_full_and_valid(grid)
    assert stats.filler == name


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=40, deadline=None)
@given(seed=SEEDS)
def test_the_same_seed_gives_the_same_grid_and_the_same_stats(name, seed):
    first = fill(random.Random(seed), name)
    second = fill(random.Random(seed), name)
    assert first == second


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=40, deadline=None)
@given(seed=SEEDS)
def test_stats_are_non_negative_counts_with_at_least_81_steps(name, seed):
    _, stats = fill(random.Random(seed), name)
    counts = stats.to_dict()
    assert counts.pop("filler") == name
    assert set(counts) == {"restarts", "rollbacks", "steps", "fallbacks"}
    assert all(type(n) is int and n >= 0 for n in counts.values())
    assert stats.steps >= 81


@pytest.mark.parametrize("name", NAMES)
def test_a_fill_uses_only_the_random_source_it_is_given(name):
    random.seed(1)
    first = fill(random.Random(7), name)
    random.seed(2)
    second = fill(random.Random(7), name)
    assert first == second


@pytest.mark.parametrize("name", NAMES)
def test_across_many_grids_every_digit_reaches_every_cell(name):
    seen = set()
    for seed in range(400):
        grid, _ = fill(random.Random(seed), name)
        seen.update(enumerate(grid))
    assert len(seen) == 81 * 9


def test_fill_uses_the_default_filler_when_none_is_named():
    grid, stats = fill(random.Random(3))
    assert stats.filler == DEFAULT_FILLER
    assert (grid, stats) == FILLERS[DEFAULT_FILLER](random.Random(3))


def test_fill_rejects_an_unknown_filler_and_names_the_known_ones():
    with pytest.raises(ValueError, match="unknown filler 'zigzag'") as caught:
        fill(random.Random(0), "zigzag")
    assert all(name in str(caught.value) for name in NAMES)


def test_band_backtrack_always_finishes_and_counts_its_fallbacks():
    for seed in range(300):
        grid, stats = fill(random.Random(seed), "band-backtrack")
        assert is_full_and_valid(grid)
        assert type(stats.fallbacks) is int and stats.fallbacks >= 0


def test_band_backtrack_falls_back_to_the_band_above_after_too_many_dead_ends():
    # Seed 67 meets more than _BAND_RETRIES dead ends in one band (found by search; about one
    # fill in a hundred does). Re-pin it if the filler's use of the random source changes.
    grid, stats = fill(random.Random(67), "band-backtrack")
    assert is_full_and_valid(grid)
    assert stats.fallbacks == 1
    assert stats.rollbacks > fillers._BAND_RETRIES


def test_potential_array_starts_again_when_a_list_runs_empty():
    assert any(fill(random.Random(seed), "potential-array")[1].restarts for seed in range(20))


def test_diagonal_boxes_discards_boards_left_with_empty_cells():
    assert any(fill(random.Random(seed), "diagonal-boxes")[1].restarts for seed in range(50))


def test_row_by_row_rolls_back_to_the_row_above_at_an_impasse():
    assert any(fill(random.Random(seed), "row-by-row")[1].rollbacks for seed in range(50))


def test_row_by_row_never_reuses_a_failed_row_and_goes_further_back_when_it_keeps_coming(
    monkeypatch,
):
    # Rig row generation: row 2 meets one impasse, which sends row 1 back; row 1 then keeps
    # coming out exactly as it was. The filler must refuse that row every time and, after
    # _ROW_REPEATS refusals, take row 0 back as well.
    real = fillers._possible_row
    first_row_1: list[list[int]] = []
    row_1_calls = 0
    row_2_calls = 0

    def rigged(r, col_used, box_used, rng, stats: FillStats):
        nonlocal row_1_calls, row_2_calls
        if r == 1 and not stats.fallbacks:
            row_1_calls += 1
            if not first_row_1:
                first_row_1.append(real(r, col_used, box_used, rng, stats))
            return list(first_row_1[0])
        if r == 2:
            row_2_calls += 1
            if row_2_calls == 1:
                return None
        return real(r, col_used, box_used, rng, stats)

    monkeypatch.setattr(fillers, "_possible_row", rigged)
    grid, stats = fillers.row_by_row(random.Random(11))
    assert is_full_and_valid(grid)
    assert row_1_calls == 1 + fillers._ROW_REPEATS
    assert stats.fallbacks == 1
    assert stats.rollbacks >= 2
