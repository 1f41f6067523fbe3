"""The shape of the code, guarded: no import circles, modules of at most 400 lines, functions
of at most 80 (the turn's orchestrator at most 60), so a reader finds their room and a change
stays local (STYLE.md, practices 8 and 20)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("pipeline", "evals")
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 80
MAX_CONVERSE_LINES = 60
# Schema history is append-only (a released migration is never rewritten), and a command's
# option list is one parameter a line: neither is logic to split.
EXEMPT_FUNCTIONS = ("pipeline/store/migrations/", "pipeline/cli/", "evals/commands/")


def _modules() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


def _name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(path: Path, known: set[str]) -> set[str]:
    """The project modules `path` imports, at the top or inside a function (a lazy import
    still ties the two modules together), leaving out `if TYPE_CHECKING:` blocks. `from
    package import module` names the module, not the package."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and _is_type_checking(node)
        for inner in ast.walk(node)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules = {f"{node.module}.{a.name}" for a in node.names} & known
            found.update(modules if len(modules) == len(node.names) else {node.module, *modules})
    return found & known


def import_circles() -> list[list[str]]:
    """Every group of project modules that import one another in a circle (Tarjan)."""
    paths = {_name(p): p for p in _modules()}
    graph = {name: _imports(path, set(paths)) - {name} for name, path in paths.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                circles.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return circles


def _long_functions(path: Path, limit: int) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{n.name} ({n.end_lineno - n.lineno + 1} lines)"
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        and n.end_lineno is not None
        and n.end_lineno - n.lineno + 1 > limit
    ]


def test_no_import_circles() -> None:
    assert import_circles() == []


def test_no_module_over_400_lines() -> None:
    long = {
        p.relative_to(ROOT).as_posix(): n
        for p in _modules()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def test_no_function_over_80_lines_and_the_orchestrator_is_short() -> None:
    long = {
        rel: found
        for p in _modules()
        if not (rel := p.relative_to(ROOT).as_posix()).startswith(EXEMPT_FUNCTIONS)
        and (found := _long_functions(p, MAX_FUNCTION_LINES))
    }
    assert long == {}
    converse = [
        n
        for n in ast.walk(ast.parse((ROOT / "pipeline" / "converse.py").read_text("utf-8")))
        if isinstance(n, ast.FunctionDef) and n.name == "converse"
    ]
    assert converse and converse[0].end_lineno is not None
    assert converse[0].end_lineno - converse[0].lineno + 1 <= MAX_CONVERSE_LINES


def test_the_checks_see_a_circle_and_a_long_function(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n" + "    x = 1\n" * 90)
    assert _long_functions(module, MAX_FUNCTION_LINES) == ["f (91 lines)"]
    module.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import a.b\n"
        "def f():\n    from a import c\n"
    )
    assert _imports(module, {"a", "a.b", "a.c"}) == {"a.c"}
