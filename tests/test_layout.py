"""The shape of the code: imports inside the app run one way, and modules, scripts and stylesheets
stay small enough to read."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "puzzles"
# Modules allowed past the size limit, each with its reason (none today).
LONG_BY_NATURE: set[str] = set()
MAX_LINES = 400
# The board's scripts and the site's stylesheets (static/): each under this many lines (issue 45).
STATIC = ROOT / "static"
STATIC_LINES = 500
# Files still at or past it, each with its reason; the list only shrinks (none today).
STATIC_LONG_FOR_NOW: set[str] = set()


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """The app's modules that one module imports, at the top or inside a function."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add(target)
            # `from . import pipeline` names a module, not a function of the package.
            found.update(f"{target}.{alias.name}" for alias in node.names)
    return found


def app_graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in APP.rglob("*.py") if "migrations" not in p.parts}
    return {name: {m for m in imports_of(path) if m in modules and m != name} for name, path in modules.items()}


def cycle_in(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle, as the modules around it, or [] when there is none."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return []


def test_no_module_of_the_app_imports_one_that_imports_it_back():
    # A package's __init__ importing its own modules is how a package exports; it is not a cycle.
    graph = {
        name: {m for m in targets if not (name.endswith(".__init__") or m.startswith(name + "."))}
        for name, targets in app_graph().items()
    }
    assert cycle_in(graph) == []


def test_the_import_checker_finds_a_cycle():
    assert cycle_in({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle_in({"a": {"b"}, "b": set()}) == []


# The app's layers, top first: a module may import its own layer and those below it, never one
# above. The edge is what Django and Celery name by path (views, URLs, template tags, commands,
# the app config, the auth backend, context processors, URL converters); `durations` is the site's
# one way of writing a time and `links` its addresses kept once reversed, leaves that import
# nothing of the app.
LAYERS = [
    ("views", "urls", "templatetags", "management", "apps", "auth", "context_processors", "converters"),
    ("staff",),
    ("leagues",),
    ("pipeline",),
    ("practice", "brought"),
    ("accounts",),
    ("results",),
    ("coaching",),
    ("play",),
    ("fairplay",),
    ("ratings",),
    ("record_of_play",),
    ("models",),
    ("learn",),
    ("durations", "links"),
    ("engine",),
]


def layer_of(module: str) -> int:
    """The index in LAYERS of an app module (puzzles.<top>...)."""
    top = module.split(".")[1] if module.count(".") else ""
    for index, names in enumerate(LAYERS):
        if top in names:
            return index
    raise AssertionError(f"{module} is in no layer of tests/test_layout.py: place its package there")


def upward_imports(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Every (importer, imported) pair whose import points to a layer above the importer's."""
    return sorted(
        (name, target)
        for name, targets in graph.items()
        if name != "puzzles"
        for target in targets
        if target != "puzzles" and layer_of(target) < layer_of(name)
    )


def test_every_package_of_the_app_has_a_layer():
    tops = {
        p.name.removesuffix(".py") for p in APP.iterdir() if p.name not in {"__init__.py", "migrations", "__pycache__"}
    }
    tops = {t for t in tops if (APP / t).is_dir() or (APP / f"{t}.py").exists()}
    assert tops == {name for names in LAYERS for name in names}


def test_imports_run_one_way_views_then_domain_then_models_then_engine():
    assert upward_imports(app_graph()) == []


def test_the_layer_checker_finds_an_upward_import():
    graph = {"puzzles.play.attempts": {"puzzles.results.history", "puzzles.models"}, "puzzles.models": set()}
    assert upward_imports(graph) == [("puzzles.play.attempts", "puzzles.results.history")]


def test_the_engine_imports_nothing_of_the_site():
    graph = app_graph()
    for name, targets in graph.items():
        if name.startswith("puzzles.engine"):
            assert not {t for t in targets if not t.startswith("puzzles.engine")}, name


def test_no_module_of_the_app_is_past_the_size_that_makes_it_two():
    long = {
        str(p.relative_to(ROOT)): n
        for p in APP.rglob("*.py")
        if "migrations" not in p.parts and (n := len(p.read_text().splitlines())) > MAX_LINES
    }
    assert set(long) <= LONG_BY_NATURE, long


def test_every_script_and_stylesheet_under_static_stays_under_500_lines():
    long = {
        str(p.relative_to(ROOT)): n
        for p in sorted(STATIC.rglob("*"))
        if p.suffix in {".js", ".css"} and (n := len(p.read_text().splitlines())) >= STATIC_LINES
    }
    assert set(long) <= STATIC_LONG_FOR_NOW, long
