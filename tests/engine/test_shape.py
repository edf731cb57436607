"""The engine's shape: small modules, the standard library only, and imports that run one way
(the catalogue and the steps know no finder, so nothing is filled in at import time)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import puzzles.engine

ENGINE = Path(puzzles.engine.__file__).parent
MAX_LINES = 400


def _imports(path: Path) -> tuple[set[str], set[str]]:
    """The engine modules a module imports (by short name) and the other top-level packages."""
    ours: set[str] = set()
    others: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level:
            if node.module:
                ours.add(node.module.split(".")[0])
            else:
                ours.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            others.add((node.module or "").split(".")[0])
        elif isinstance(node, ast.Import):
            others.update(alias.name.split(".")[0] for alias in node.names)
    return ours, others


def test_every_engine_module_is_short_enough_to_read():
    for path in ENGINE.glob("*.py"):
        assert len(path.read_text().splitlines()) <= MAX_LINES, path.name


def test_the_engine_imports_only_the_standard_library():
    for path in ENGINE.glob("*.py"):
        _, others = _imports(path)
        assert others <= set(sys.stdlib_module_names) | {"__future__"}, path.name


def test_the_catalogue_and_the_steps_import_no_finder():
    assert _imports(ENGINE / "catalogue.py")[0] == set()
    assert _imports(ENGINE / "steps.py")[0] <= {"grid", "catalogue"}


def test_the_public_names_are_all_there():
    assert all(hasattr(puzzles.engine, name) for name in puzzles.engine.__all__)
