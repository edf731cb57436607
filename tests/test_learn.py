"""The technique guide: words and a worked example for every technique of the engine's catalogue,
each example really that technique, and the pages that show them."""

from __future__ import annotations

import json
import re

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils.html import escape

from puzzles.engine import TECHNIQUES, cell_name, solve
from puzzles.engine.finders import FINDER_OF, LOGICAL, find_step
from puzzles.engine.grid import candidates
from puzzles.engine.rater import easiest_step
from puzzles.learn import board, examples, finding, guide, words

NAMES = [t.name for t in TECHNIQUES]
EXAMPLES = examples.examples()
# A technique that is the easiest step nowhere in the walks gets an example where its own finder
# finds one while the engine would take another first (finding.search_beside), and its page says
# so. The cell forcing chain was one until the forcing chains were rated as Sukaku Explainer rates
# them: a cell forcing chain on the pencil marks as they stand (8.0) now comes before a Nishio
# chain through singles (8.5), and the walks of top1465 meet it.
BESIDE: dict[str, str] = {}


def test_every_technique_has_its_words_in_three_parts():
    found = words.all_words()
    assert sorted(found) == sorted(NAMES)
    for name, text in found.items():
        for part in (text.look, text.why, text.gives):
            assert len(part) > 40, (name, part)


def test_a_words_file_is_read_as_headings_and_paragraphs():
    text = "<!-- a note -->\n## one\n\nFirst\nline.\n\nSecond.\n\n## two\n\nOnly.\n"
    assert words.parse(text) == {"one": ["First line.", "Second."], "two": ["Only."]}


def test_every_technique_of_the_catalogue_has_a_worked_example():
    assert list(EXAMPLES) == NAMES
    assert {name: ex.first for name, ex in EXAMPLES.items() if ex.first} == BESIDE


@pytest.mark.parametrize("name", NAMES)
def test_each_example_is_a_true_position_of_its_puzzle(name):
    example = EXAMPLES[name]
    solution = solve(example.givens)
    assert solution is not None
    digits, cands = list(example.digits), list(example.cands)
    assert all(g in ".0" or int(g) == d for g, d in zip(example.givens, digits))
    assert all(d in (0, s) for d, s in zip(digits, solution))
    assert all(bool(m) == (d == 0) for m, d in zip(cands, digits))
    # Every candidate left could still be there (no digit placed sees it), and the solution's never went.
    assert all(not m & ~full for m, full in zip(cands, candidates(digits)))
    assert all(not m or m >> (s - 1) & 1 for m, s in zip(cands, solution))


@pytest.mark.parametrize("name", NAMES)
def test_each_example_is_where_its_technique_is_the_easiest_step(name):
    example = EXAMPLES[name]
    digits, cands = list(example.digits), list(example.cands)
    if name == "trial-and-error":
        assert find_step(digits, cands) is None
        return
    found = FINDER_OF[name](digits, cands)
    assert found is not None and found.technique == name
    if name in BESIDE:  # its own finder's step; the engine takes the other technique first
        assert found == example.step
        assert easiest_step(digits, cands, LOGICAL).technique == BESIDE[name]
        return
    assert easiest_step(digits, cands, LOGICAL) == example.step


def test_the_search_keeps_the_clearer_of_two_positions():
    best = finding.search([(EXAMPLES["pointing"].givens, "one")])
    assert "pointing" in best
    chosen = best["pointing"]
    every = [m for m in finding.walk(chosen.givens) if m.step.technique == "pointing"]
    assert all(chosen.clutter <= finding.Found(m, chosen.givens, "").clutter for m in every)


def test_the_command_writes_an_example_per_technique_it_met(tmp_path):
    puzzles = tmp_path / "puzzles.txt"
    puzzles.write_text(EXAMPLES["x-wing"].givens + "\n")
    out = tmp_path / "examples.json"
    call_command("find_examples", str(puzzles), "--generate", "0", "--out", str(out), stdout=None)
    data = json.loads(out.read_text())
    assert "x-wing" in data and "hidden-single" in data
    assert list(data) == [n for n in NAMES if n in data]
    again = examples.from_json(data["x-wing"])
    assert again.step.technique == "x-wing" and again.givens == EXAMPLES["x-wing"].givens


def test_the_board_marks_the_pattern_strikes_what_goes_and_marks_what_is_placed():
    drawing = board.drawing_of(EXAMPLES["naked-pair"])
    step = EXAMPLES["naked-pair"].step
    squares = {s.name: s for _, row in drawing.rows for s in row}
    for cell, digit in step.eliminations:
        assert squares[cell_name(cell)].candidates[digit - 1].mark == "removed"
    for cell in step.cells:
        assert squares[cell_name(cell)].in_pattern
        assert {c.digit for c in squares[cell_name(cell)].candidates if c.mark == "pattern"} == set(step.digits)
    placed = board.drawing_of(EXAMPLES["hidden-single"])
    ((cell, digit),) = EXAMPLES["hidden-single"].step.placements
    assert {s.name: s for _, row in placed.rows for s in row}[cell_name(cell)].candidates[digit - 1].mark == "placed"
    assert placed.places == [f"{digit} in {cell_name(cell)}"]


def test_neighbours_run_through_the_catalogue_in_order():
    _, before, after = guide.entry_of(NAMES[0])
    assert before is None and after.name == NAMES[1]
    _, before, after = guide.entry_of(NAMES[-1])
    assert before.name == NAMES[-2] and after is None
    assert guide.entry_of("no-such-technique") is None


# --- the pages ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_guide_lists_every_technique_by_tier_after_the_words(client):
    response = client.get(reverse("puzzles:learn"))
    assert response.status_code == 200
    html = response.content.decode()
    for term in ("House", "r2c7", "Candidates", "Notes", "Row, column, box"):
        assert term in html
    links = re.findall(r'href="/learn/([a-z0-9-]+)/"', html)
    assert links == NAMES
    assert [html.index(f'id="tier-{t}"') for t in ("easy", "medium", "hard", "expert", "extreme")] == sorted(
        html.index(f'id="tier-{t}"') for t in ("easy", "medium", "hard", "expert", "extreme")
    )


@pytest.mark.django_db
@pytest.mark.parametrize("name", NAMES)
def test_each_technique_has_a_page_with_its_words_example_and_neighbours(client, name):
    response = client.get(reverse("puzzles:learn-technique", args=[name]))
    assert response.status_code == 200
    html = response.content.decode()
    entry, before, after = guide.entry_of(name)
    assert f'<h1 id="technique-title">{escape(entry.title)}</h1>' in html
    assert entry.words is not None
    assert all(escape(part) in html for part in (entry.words.look, entry.words.why, entry.words.gives))
    if before:
        assert f'href="/learn/{before.name}/" rel="prev"' in html
    if after:
        assert f'href="/learn/{after.name}/" rel="next"' in html
    if name in BESIDE:
        assert "would take a forcing chain here first" in html
    step = EXAMPLES[name].step
    assert html.count('<td class="learn-cell') == 81
    assert html.count('class="learn-cand is-removed"') == len(step.eliminations)
    assert html.count('class="learn-cand is-placed"') == len(step.placements)
    assert escape(step.explanation) in html


@pytest.mark.django_db
def test_an_unknown_technique_is_not_found_and_the_pages_are_read_only(client):
    assert client.get("/learn/no-such-technique/").status_code == 404
    assert client.post(reverse("puzzles:learn")).status_code == 405
    assert client.post(reverse("puzzles:learn-technique", args=["x-wing"])).status_code == 405


def test_a_colouring_is_drawn_in_its_two_colours_as_the_engine_tells_them():
    example = EXAMPLES["simple-colouring"]
    first, second = board.colours(example.step, example.cands)
    assert first and second and sorted(first + second) == sorted(example.step.cells)
    either, _, rest = example.step.explanation.partition(" or ")
    assert all(cell_name(c) in either for c in first) and all(cell_name(c) in rest for c in second)
    drawing = board.drawing_of(example)
    marks = {s.name: {c.mark for c in s.candidates} - {""} for _, row in drawing.rows for s in row}
    assert all(marks[cell_name(c)] == {"pattern"} for c in first)
    assert all(marks[cell_name(c)] == {"other"} for c in second)


def test_a_wings_cells_are_named_by_the_part_they_play():
    example = EXAMPLES["xy-wing"]
    pivot, *wings = example.step.cells
    pattern = board.drawing_of(example).pattern
    assert pattern[0].startswith(f"pivot {cell_name(pivot)} (")
    assert [p.split(" (")[0] for p in pattern[1:]] == [f"wing {cell_name(c)}" for c in wings]


def test_the_houses_to_look_in_are_shaded_and_named():
    fish = EXAMPLES["jellyfish"].step
    drawing = board.drawing_of(EXAMPLES["jellyfish"])
    rows = sorted(h + 1 for h in fish.houses[:4])
    assert drawing.look_in == f"rows {rows[0]}, {rows[1]}, {rows[2]} and {rows[3]}"
    shaded = {s.name for _, row in drawing.rows for s in row if s.in_house}
    assert shaded == {f"r{r}c{c}" for r in rows for c in range(1, 10)}
    single = board.drawing_of(EXAMPLES["naked-single"])
    assert single.look_in.startswith("box ") and " row " in single.look_in and " and column " in single.look_in


@pytest.mark.django_db
def test_a_technique_page_and_its_practice_link_to_each_other(client):
    from tests.practice_factory import make_practice_position

    html = client.get(reverse("puzzles:learn-technique", args=["x-wing"])).content.decode()
    assert "being found now" in html and "/practice/" not in html  # nothing to practise on yet: a site just started
    make_practice_position("x-wing")
    html = client.get(reverse("puzzles:learn-technique", args=["x-wing"])).content.decode()
    assert f'href="{reverse("puzzles:learn-practice", args=["x-wing"])}"' in html
    practice = client.get(reverse("puzzles:learn-practice", args=["x-wing"])).content.decode()
    assert 'href="/learn/x-wing/"' in practice
    # Trial and error has nothing to practise: its page offers none.
    html = client.get(reverse("puzzles:learn-technique", args=["trial-and-error"])).content.decode()
    assert "/practice/" not in html
