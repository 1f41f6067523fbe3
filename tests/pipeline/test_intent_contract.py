"""Adding an intent touches a known list of places (docs/intents.md, "Adding an intent"); this
test fails with every step any live intent misses, numbered as that page numbers them, in one
message (built here, so pytest never cuts it short)."""

from __future__ import annotations

import ast
import re

import pytest

from pipeline.intents import INTENTS, LIVE_INTENTS
from tests.pipeline.intent_steps import DOCS, ROOT, STEPS, contract_failures, repository_sources


def test_every_live_intent_has_every_step() -> None:
    failures = contract_failures([INTENTS[n] for n in LIVE_INTENTS], repository_sources())
    if failures:
        pytest.fail(failures, pytrace=False)


def test_docs_number_the_steps_as_this_test_does() -> None:
    section = DOCS.read_text(encoding="utf-8").split("## Adding an intent", 1)[1]
    section = section.split("\n## ", 1)[0]
    documented = re.findall(r"^(\d+)\. \*\*(.+?)\*\*", section, flags=re.MULTILINE)
    assert [(int(n), title) for n, title in documented] == [(n, t) for n, t, _ in STEPS]


def test_the_intents_that_leave_something_pending_say_which_actions() -> None:
    pending = {name: spec.pending for name, spec in INTENTS.items() if spec.pending}
    assert pending == {
        "retract_knowledge": ("confirm_retraction", "ambiguous"),
        "remember_about_me": ("held", "refined", "held_many"),
        "forget_about_me": ("confirm_retraction", "ambiguous"),
    }


def test_modules_that_declare_intents_never_import_the_modules_that_collect_them() -> None:
    """taxonomy.py imports the declaring modules by name at run time, which the import-circle
    test cannot see: a declaring module that imported it back would be a hidden circle."""
    collectors = {"pipeline.intents.taxonomy", "pipeline.intents.router", "pipeline.intents.acts"}
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / "pipeline" / "intents").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if not any(isinstance(n, ast.Assign) and _names_specs(n) for n in tree.body):
            continue
        imported = {
            f"{n.module}.{a.name}" if n.module == "pipeline.intents" else str(n.module)
            for n in ast.walk(tree)
            if isinstance(n, ast.ImportFrom)
            for a in n.names
        }
        if imported & collectors:
            found[path.name] = imported & collectors
    assert found == {}


def test_every_module_that_declares_specs_is_collected() -> None:
    """A module whose SPECS the collector's marker missed would leave its intents unknown."""
    for path in sorted((ROOT / "pipeline" / "intents").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(isinstance(n, ast.Assign) and _names_specs(n) for n in tree.body):
            module = __import__(f"pipeline.intents.{path.stem}", fromlist=["SPECS"])
            assert all(INTENTS.get(spec.name) is spec for spec in module.SPECS), path.name


def _names_specs(node: ast.Assign) -> bool:
    return any(isinstance(t, ast.Name) and t.id == "SPECS" for t in node.targets)
