"""bench/sukaku.py's pure parts: reading serate's lines and the cache, reading a puzzle file, the
refill's aiming, the tier figures and the issue's checks. No Java: building and running Sukaku
Explainer is the bench's own business (it takes minutes), so only what surrounds it is tested."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bench import sukaku
from bench.sukaku import Rated
from puzzles.engine import parse

GRID = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
OTHER = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"


def rated(tier: str, se: float, score: int = 0, hardest: str = "Hidden Single", in_band: bool = True) -> Rated:
    return Rated(GRID, tier, score, None, in_band, se, hardest)


def test_a_serate_line_gives_the_grid_the_rating_and_the_technique_named_with_spaces():
    line = f"{GRID}\t7.2\tAligned Pair Exclusion\n"
    assert sukaku.parse_serate_line(line) == (GRID, 7.2, "Aligned Pair Exclusion")


@pytest.mark.parametrize(
    "line",
    ["", "v1.2.1 2019", f"{GRID} 7.2 XY-Wing", f"{GRID[:-1]}\t7.2\tXY-Wing", f"{GRID}\tn/a\tXY-Wing", f"{GRID}\t7.2"],
)
def test_any_other_line_serate_prints_is_not_a_rating(line):
    assert sukaku.parse_serate_line(line) is None


def test_the_cache_keeps_the_last_rating_of_each_grid_and_skips_other_lines():
    lines = [
        f"{GRID}\t1.2\tHidden Single",
        "something else",
        f"{OTHER}\t1.5\tHidden Single",
        f"{GRID}\t1.3\tNaked Single",
    ]
    assert sukaku.read_ratings(lines) == {GRID: (1.3, "Naked Single"), OTHER: (1.5, "Hidden Single")}


def test_the_serate_command_asks_for_the_grid_rating_and_hardest_technique_tab_separated(tmp_path):
    command = sukaku.serate_command(tmp_path / "classes", tmp_path / "in.txt", 2)
    assert command[:2] == ["java", "-Xrs"]
    assert sukaku.SERATE in command
    assert "--format=%g\t%r\t%R" in command
    assert f"--input={tmp_path / 'in.txt'}" in command
    assert "--threads=2" in command


def test_puzzles_already_in_the_cache_are_rated_without_running_java(tmp_path, monkeypatch):
    classes = tmp_path / "classes"
    (tmp_path / "ratings.txt").write_text(f"{GRID}\t1.2\tHidden Single\n{OTHER}\t1.5\tHidden Single\n")
    monkeypatch.setattr(sukaku.subprocess, "Popen", None)  # would fail if called
    assert sukaku.se_rate([OTHER, GRID], classes, 1) == {OTHER: (1.5, "Hidden Single"), GRID: (1.2, "Hidden Single")}


def test_a_missing_jdk_is_told_in_a_sentence(tmp_path, monkeypatch):
    monkeypatch.setattr(sukaku, "SCRATCH", tmp_path)
    monkeypatch.setattr(sukaku.shutil, "which", lambda tool: None if tool == "javac" else f"/usr/bin/{tool}")
    with pytest.raises(sukaku.Unavailable, match="javac is not on the PATH"):
        sukaku.sukaku_build(str(tmp_path / "nowhere"), sukaku.PINNED)


def test_a_missing_source_is_told_in_a_sentence_and_leaves_no_build(tmp_path, monkeypatch):
    monkeypatch.setattr(sukaku, "SCRATCH", tmp_path)
    monkeypatch.setattr(sukaku.shutil, "which", lambda tool: f"/usr/bin/{tool}")
    with pytest.raises(sukaku.Unavailable, match="cannot clone"):
        sukaku.sukaku_build(str(tmp_path / "nowhere"), sukaku.PINNED)
    assert not (sukaku.build_folder(sukaku.PINNED) / "classes").exists()


def test_the_puzzle_file_reader_skips_comments_and_reports_bad_lines():
    lines = [
        "# made 2026-11-26",
        "",
        f"{GRID} hard",
        f"{GRID} tricky",
        f"{GRID}",
        f"{GRID[:-1]}x easy",
        f"{OTHER} extreme",
    ]
    puzzles, problems = sukaku.read_puzzles(lines, "fresh.txt")
    assert puzzles == [(GRID, "hard"), (OTHER, "extreme")]
    assert [p.split(":")[1] for p in problems] == ["4", "5", "6"]


def test_a_puzzle_file_may_write_blanks_as_dots_and_is_read_in_digits():
    puzzles, problems = sukaku.read_puzzles([f"{GRID.replace('0', '.')} easy"])
    assert (puzzles, problems) == ([(GRID, "easy")], [])


def test_puzzles_are_taken_from_the_engine_stream_in_turn_and_marked_in_band(monkeypatch):
    made = [(400, "x-wing"), (500, "skyscraper"), (420, "xy-wing"), (400, "x-wing"), (410, "xy-wing")]

    def fake_stream(tier, rng):
        for score, hardest in made:
            yield SimpleNamespace(givens=parse(GRID), rating=SimpleNamespace(score=score, hardest=hardest))

    monkeypatch.setattr(sukaku, "generate_stream", fake_stream)
    out = sukaku.make_fresh("hard", 4, 2026, (380, 470))
    assert [r.in_band for r in out] == [True, False, True, True]
    assert [r.hardest for r in out] == ["x-wing", "skyscraper", "xy-wing", "x-wing"]


def test_the_same_seed_makes_the_same_puzzles():
    first = sukaku.make_fresh("easy", 2, 7, (120, 230))
    assert first == sukaku.make_fresh("easy", 2, 7, (120, 230))
    assert all(r.tier == "easy" for r in first)


def test_the_tier_figures_give_the_range_the_overlaps_and_the_commonest_techniques():
    pool = [rated("easy", se) for se in (1.2, 1.5, 1.5, 2.0)]
    pool += [rated("medium", se, score=i, hardest="Pointing") for i, se in enumerate((1.5, 2.5, 2.6, 2.8, 3.0))]
    pool += [rated("medium", 2.6, hardest="Claiming")]
    figures = sukaku.tier_figures(pool, ["easy", "medium"])
    easy, medium = figures["easy"], figures["medium"]
    assert (easy["count"], easy["median"], easy["min"], easy["max"]) == (4, 1.5, 1.2, 2.0)
    assert (easy["p10"], easy["p90"]) == (1.2, 2.0)
    assert easy["at_or_below_previous_median"] is None
    assert easy["above_next_median"] == 0  # nothing in easy above medium's 2.6
    assert medium["median"] == 2.6
    assert medium["at_or_below_previous_median"] == pytest.approx(1 / 6)  # the 1.5
    assert medium["above_next_median"] is None
    assert medium["techniques"] == [("Pointing", 5), ("Claiming", 1)]
    assert easy["spearman"] is None  # our scores are all the same there


def test_techniques_are_counted_without_se_s_variant_codes():
    pool = [
        rated("hard", 4.0, hardest=name) for name in ("Skyscraper 011", "Skyscraper 111", "Unique Rectangle type 1")
    ]
    assert sukaku.tier_figures(pool, ["hard"])["hard"]["techniques"] == [
        ("Skyscraper", 2),
        ("Unique Rectangle type 1", 1),
    ]
    assert sukaku.technique("Grouped 2 Strong links 101") == "Grouped 2 Strong links"
    assert sukaku.technique("UVWXYZ-Wing 2619") == "UVWXYZ-Wing"


def test_spearman_inside_a_tier_compares_our_score_with_se():
    pool = [rated("hard", se, score=score) for score, se in ((400, 4.0), (420, 4.2), (440, 4.4), (460, 4.3))]
    assert sukaku.tier_figures(pool, ["hard"])["hard"]["spearman"] == pytest.approx(0.8)


def test_an_empty_tier_has_no_figures_and_no_unrated_puzzle_is_counted():
    figures = sukaku.tier_figures([Rated(GRID, "easy", 150, None, True)], ["easy"])
    assert figures["easy"]["count"] == 0
    assert figures["easy"]["median"] is None


def ladder(extreme: list[float], per_tier: int = 40) -> list[Rated]:
    """`per_tier` puzzles of each tier below extreme at a rating a step apart, and the given extremes."""
    steps = {"easy": 1.5, "medium": 2.6, "hard": 4.2, "expert": 6.2}
    return [rated(t, se) for t, se in steps.items() for _ in range(per_tier)] + [rated("extreme", se) for se in extreme]


def test_the_checks_hold_when_the_tiers_climb_and_extreme_stays_clear_of_expert():
    results = sukaku.checks(sukaku.tier_figures(ladder([7.0] * 36 + [6.2] * 4)))
    assert [(check, holds) for check, holds, _ in results] == [
        ("count", True),
        ("rising", True),
        ("overlap", True),
        ("floor", True),
    ]
    assert "expert 6.2 < extreme 7.0" in results[1][2]
    assert results[2][2].endswith(": 10.0%")


def test_the_checks_fail_on_too_few_puzzles_overlap_and_an_extreme_below_six():
    results = sukaku.checks(sukaku.tier_figures(ladder([7.0] * 30 + [6.2] * 5 + [5.9])))
    assert [holds for _, holds, _ in results] == [False, True, False, False]
    assert "extreme 36" in results[0][2]
    assert results[2][2].endswith(": 16.7%")
    assert "1 of 36, lowest 5.9" in results[3][2]


def test_a_tier_whose_median_does_not_climb_fails_that_check():
    pool = ladder([7.0] * 40) + [rated("medium", 1.4) for _ in range(50)]
    check, holds, text = sukaku.checks(sukaku.tier_figures(pool))[1]
    assert (check, holds) == ("rising", False)
    assert "easy 1.5 < medium 1.4" in text
