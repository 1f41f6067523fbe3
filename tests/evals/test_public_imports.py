"""evals uses the pipeline packages' public names (their `__all__`), not their modules.

Dependencies point one way, evals -> pipeline; a package's `__init__` is what evals may rely
on, so a module moved or split inside a package breaks no eval. `STILL_REACHED` lists the
modules evals still imports from because their packages do not export those names (yet):
pipeline.cli's `__init__` is the command table, and pipeline.intents' loads every handler where
a suite file needs only the taxonomy. Export a name and import it from the package, and the
module leaves the list; a new module reached past its package fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path

from pipeline.config import PROJECT_ROOT

STILL_REACHED = {
    "pipeline.cli.common",
    "pipeline.cli.exits",
    "pipeline.cli.loopback",
    "pipeline.cli.params",
    "pipeline.conversations.recall",
    "pipeline.intents.taxonomy",
    "pipeline.memory.backfill",
    "pipeline.memory.embeddings",
    "pipeline.memory.query",
    "pipeline.memory.relations",
    "pipeline.memory.search",
    "pipeline.memory.status",  # topic_key: a status expectation keys topics as the store does
    "pipeline.memory.vectors",
    "pipeline.memory.writing",
    "pipeline.store.ann",
    "pipeline.store.status",  # current_notes: what a status expectation checks
}


def _is_package(module: str) -> bool:
    return (PROJECT_ROOT / module.replace(".", "/") / "__init__.py").is_file()


def modules_reached(root: Path) -> dict[str, list[str]]:
    """Each pipeline module below a subpackage that a file under `root` imports from, with
    where (a package's own `__init__` is its public names, so it is not listed)."""
    found: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or not node.module:
                continue
            module = node.module
            deep = module.startswith("pipeline.") and module.count(".") >= 2
            if deep and not _is_package(module):
                found.setdefault(module, []).append(f"{path.name}:{node.lineno}")
    return found


def test_evals_imports_the_pipeline_packages_public_names():
    reached = modules_reached(PROJECT_ROOT / "evals")
    assert {m: where for m, where in reached.items() if m not in STILL_REACHED} == {}
    assert set(reached) == STILL_REACHED  # a module no longer reached leaves the list


def test_a_module_past_a_packages_names_is_found(tmp_path):
    (tmp_path / "late.py").write_text(
        "from pipeline.providers import spec_of\n"
        "from pipeline.providers.claude import cost\n"
        "def f():\n"
        "    from pipeline.providers.claude.prices import shown_cost\n",
        encoding="utf-8",
    )
    assert modules_reached(tmp_path) == {"pipeline.providers.claude.prices": ["late.py:4"]}
