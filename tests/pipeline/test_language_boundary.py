"""The core never reads English: it imports neither the English rules nor the local provider
that uses them (docs/intents.md, "Readings"). Only the local provider, the English package
itself, the command line and MCP edges and the labelled deterministic fallbacks may."""

from __future__ import annotations

import ast
from pathlib import Path

PIPELINE = Path(__file__).resolve().parents[2] / "pipeline"
FORBIDDEN = ("pipeline.english", "pipeline.providers.local")
# Outside the core: provider packages, the English package, the edges that build providers,
# and the labelled deterministic fallbacks: the one that splits sentences when no model
# extracts facts, and the one that compresses a conversation when no model does.
OUTSIDE_CORE = ("english", "providers", "cli", "mcp")
LABELLED_FALLBACKS = {
    "extraction/extract.py",
    "extraction/__init__.py",
    "conversations/fallback.py",
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def _core_modules() -> list[Path]:
    core = []
    for path in sorted(PIPELINE.rglob("*.py")):
        relative = path.relative_to(PIPELINE).as_posix()
        if relative.split("/")[0] in OUTSIDE_CORE or relative in LABELLED_FALLBACKS:
            continue
        core.append(path)
    return core


def test_no_core_module_imports_the_english_rules_or_the_local_provider() -> None:
    offending = {
        path.relative_to(PIPELINE).as_posix(): sorted(
            name for name in _imports(path) if name.startswith(FORBIDDEN)
        )
        for path in _core_modules()
    }
    assert {k: v for k, v in offending.items() if v} == {}


def test_the_check_sees_the_router_and_the_turn_path() -> None:
    names = {path.relative_to(PIPELINE).as_posix() for path in _core_modules()}
    assert {"intents/router.py", "intents/remember.py", "converse.py"} <= names
    assert not any(name.startswith(("english/", "providers/")) for name in names)


def test_an_import_of_the_english_rules_is_seen(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from pipeline.english.cues import is_rejection\n")
    assert "pipeline.english.cues" in _imports(module)
