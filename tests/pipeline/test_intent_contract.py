"""Adding an intent touches a known list of places (docs/intents.md, "Adding an intent"); this
test fails, naming the step, when any live intent misses one."""

from __future__ import annotations

from pathlib import Path

import yaml

from pipeline.config import fixtures_dir
from pipeline.intents import HANDLERS, INTENTS, LIVE_INTENTS
from pipeline.prompting import default_library
from pipeline.providers.intent_schema import PARAM_HELP, answer_schema

ROOT = Path(__file__).resolve().parents[2]


def _missing_steps(name: str) -> list[str]:
    spec = INTENTS[name]
    library = default_library()
    examples = yaml.safe_load((fixtures_dir() / "local_model" / "examples.yaml").read_text())
    classifier = library.source("classifier")[0]
    boundaries = yaml.safe_load((ROOT / "evals/suites/intent_boundaries.yaml").read_text())
    docs = (ROOT / "docs/intents.md").read_text(encoding="utf-8")
    steps = {
        "1. a handler in HANDLERS (read from its spec)": name in HANDLERS,
        "2. parameter help in PARAM_HELP (pipeline/providers/intent_schema.py)": all(
            p in PARAM_HELP for p in spec.params
        ),
        "3. in the answer schema's intent enum": name
        in answer_schema()["properties"]["intent"]["enum"],
        "4. an instruction template, active in prompts/active.yaml": spec.instruction
        in library.active(),
        "5. examples for the local provider (fixtures/local_model/examples.yaml)": bool(
            examples["intents"].get(name)
        ),
        "6. examples in the active classifier template": f'"{name}": [' in classifier,
        "7. cases in evals/suites/intent_boundaries.yaml": any(
            case.get("expect", {}).get("intent") == name for case in boundaries["cases"]
        ),
        "8. a row in docs/intents.md": f"| `{name}` |" in docs,
    }
    return [step for step, done in steps.items() if not done]


def test_every_live_intent_has_every_step() -> None:
    assert {name: _missing_steps(name) for name in LIVE_INTENTS} == {
        name: [] for name in LIVE_INTENTS
    }


def test_a_new_intent_without_its_steps_is_named_for_each(monkeypatch) -> None:
    from pipeline.intents.stubs import NotAvailable, handle_stub
    from pipeline.intents.taxonomy import IntentSpec

    spec = IntentSpec(
        "book_table", True, ("venue",), "x", handler=handle_stub, outcome=NotAvailable
    )
    monkeypatch.setitem(INTENTS, "book_table", spec)
    missing = _missing_steps("book_table")
    # the answer schema is built from the taxonomy, so step 3 follows from the spec itself
    assert [step.split(".")[0] for step in missing] == ["1", "2", "4", "5", "6", "7", "8"]


def test_the_intents_that_leave_something_pending_say_which_actions() -> None:
    pending = {name: spec.pending for name, spec in INTENTS.items() if spec.pending}
    assert pending == {
        "retract_knowledge": ("confirm_retraction", "ambiguous"),
        "remember_about_me": ("held", "refined", "held_many"),
        "forget_about_me": ("confirm_retraction", "ambiguous"),
    }
