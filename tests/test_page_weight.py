"""The puzzle page stays small: its HTML, CSS and JS at most 40 KB compressed (issue 14), measured
as bench/page_weight.py measures and prints it."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench" / "page_weight.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("page_weight", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.django_db
def test_the_puzzle_page_with_its_css_and_js_weighs_at_most_40_kb_compressed(client, daily):
    weight = load_bench()
    rows = weight.page_weight(client, f"/daily/{daily.date.isoformat()}/{daily.difficulty}/")
    names = [name for name, _, _ in rows]
    # Everything the page loads is counted: its own modules and the ones they import.
    parts = ("grid.css", "board.css", "site.css", "board.js", "sudoku.js", "sync.js", "sync-rules.js", "tools.js")
    for part in (*parts, "theme.js"):
        assert any(name.endswith(part) for name in names), part
    total = sum(packed for _, _, packed in rows)
    table = "\n".join(f"{name}: {packed} B" for name, _, packed in rows)
    assert total <= weight.TARGET_BYTES, f"{total} B gzipped, over {weight.TARGET_BYTES} B:\n{table}"
