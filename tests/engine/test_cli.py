import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from puzzles.engine.__main__ import main

from . import independent

ROOT = Path(__file__).resolve().parents[2]
EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"


def run(capsys, *argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def test_generate_prints_one_json_object_a_line_with_the_promised_fields(capsys):
    status, lines, _ = run(capsys, "generate", "--difficulty", "easy", "--count", "2", "--seed", "1", "--json")
    assert status == 0 and len(lines) == 2
    for line in lines:
        record = json.loads(line)
        for key in ("givens", "solution", "difficulty", "score", "techniques", "filler", "symmetry"):
            assert key in record
        assert record["difficulty"] == "easy"
        givens = [int(ch) for ch in record["givens"]]
        assert independent.count(givens, 2) == 1


def test_the_same_seed_generates_the_same_puzzles(capsys):
    first = run(capsys, "generate", "--difficulty", "medium", "--count", "1", "--seed", "5")[1]
    second = run(capsys, "generate", "--difficulty", "medium", "--count", "1", "--seed", "5")[1]
    assert first == second


def test_solve_prints_the_solution_first_and_answers_in_input_order(capsys, monkeypatch):
    seventeen = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
    status, lines, _ = run(capsys, "solve", "-", stdin=f"{EASY}\n# a comment\n{seventeen}\n", monkeypatch=monkeypatch)
    assert status == 0 and len(lines) == 2
    first, second = (line.split()[0] for line in lines)
    assert independent.is_valid_solution([int(c) for c in first])
    assert all(g in "0" + s for g, s in zip(EASY, first))
    assert all(g in "0" + s for g, s in zip(seventeen, second))
    assert lines[0].endswith("unique")


def test_rate_json_gives_the_tier_and_techniques(capsys):
    status, lines, _ = run(capsys, "rate", EASY, "--json")
    record = json.loads(lines[0])
    assert status == 0
    assert record["givens"] == EASY and record["difficulty"] == "easy"
    assert independent.is_valid_solution([int(c) for c in record["solution"]])
    assert set(record["techniques"]) <= {"naked-single", "hidden-single"}


def test_a_bad_line_is_reported_in_place_and_the_others_still_answered(capsys, monkeypatch):
    status, lines, err = run(capsys, "solve", "-", stdin=f"{EASY}\n12345\n{EASY}\n", monkeypatch=monkeypatch)
    assert status == 1
    assert len(lines) == 3 and lines[1].startswith("invalid: a grid has 81 cells")
    assert "line 2:" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "11" + "0" * 79], "two 1s in row 1"),
        (["rate", "abc"], "unexpected character 'a'"),
    ],
)
def test_bad_input_exits_non_zero_with_the_parsers_message_and_no_traceback(argv, message):
    result = subprocess.run([sys.executable, "-m", "puzzles.engine", *argv], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode != 0
    assert message in result.stderr
    assert "Traceback" not in result.stderr
