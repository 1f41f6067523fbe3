"""Adding an intent touches a known list of places (docs/intents.md, "Adding an intent"); this
test fails with every step any live intent misses, numbered as that page numbers them, in one
message (built here, so pytest never cuts it short)."""

from __future__ import annotations

import ast
import re
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
import yaml

from pipeline.actions import Action
from pipeline.config import fixtures_dir
from pipeline.intents import HANDLERS, INTENTS, LIVE_INTENTS
from pipeline.intents.spec import IntentSpec
from pipeline.intents.taxonomy import declared_in
from pipeline.prompting import default_library
from pipeline.providers.intent_schema import PARAM_HELP, answer_schema

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "intents.md"


@dataclass(frozen=True)
class Sources:
    """What the steps are checked against: the files a new intent may have to touch."""

    active: dict[str, str]  # prompts/active.yaml
    templates: set[str]  # prompt families with a template file
    classifier: str  # the active classifier template's text
    local_examples: dict[str, Any]  # fixtures/local_model/examples.yaml, `intents`
    boundaries: list[dict[str, Any]]  # evals/suites/intent_boundaries.yaml cases
    continuations: list[dict[str, Any]]  # evals/suites/continuations.yaml cases
    conversations: list[dict[str, Any]]  # evals/suites/conversations.yaml cases
    docs: str  # docs/intents.md
    param_help: dict[str, str]  # pipeline/providers/intent_schema.py, PARAM_HELP
    replies: str  # pipeline/providers/replies.py
    continuation: str  # pipeline/providers/local/continuation.py


def _cases(name: str) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = yaml.safe_load(
        (ROOT / "evals" / "suites" / f"{name}.yaml").read_text(encoding="utf-8")
    )["cases"]
    return cases


def repository_sources() -> Sources:
    library = default_library()
    return Sources(
        active=library.active(),
        templates=set(library.families()),
        classifier=library.source("classifier")[0],
        local_examples=yaml.safe_load(
            (fixtures_dir() / "local_model" / "examples.yaml").read_text(encoding="utf-8")
        )["intents"],
        boundaries=_cases("intent_boundaries"),
        continuations=_cases("continuations"),
        conversations=_cases("conversations"),
        docs=DOCS.read_text(encoding="utf-8"),
        param_help=dict(PARAM_HELP),
        replies=(ROOT / "pipeline/providers/replies.py").read_text(encoding="utf-8"),
        continuation=(ROOT / "pipeline/providers/local/continuation.py").read_text("utf-8"),
    )


def _own_action(spec: IntentSpec, replies: str) -> bool:
    """Whether replies.py compares an action that only this intent records."""
    assert spec.outcome is not None
    others = {
        a for o in INTENTS.values() if o.name != spec.name and o.outcome for a in o.outcome.ACTIONS
    }
    return any(f"Action.{a.name}" in replies for a in spec.outcome.ACTIONS - others)


def _continued(spec: IntentSpec, src: Sources) -> bool:
    """Whether a suite continues one of the intent's turns: a continuations case answering a
    companion turn of it, or a conversation turn after one of its (an action it names is one
    of the intent's pending actions)."""
    for case in src.continuations:
        companions = [t for t in case.get("history", []) if "companion" in t]
        if companions and companions[-1].get("intent") == spec.name:
            return True
    pending = {None, *(a.value for a in spec.pending)}
    return any(
        turn.get("expect", {}).get("intent") == spec.name
        and turn.get("expect", {}).get("action") in pending
        for case in src.conversations
        for turn in case.get("turns", [])[:-1]
    )


Check = Callable[[IntentSpec, Sources], bool]

# The steps of docs/intents.md, "Adding an intent": its number, its title there, and the check.
STEPS: tuple[tuple[int, str, Check], ...] = (
    (
        1,
        "The spec",
        lambda spec, src: spec.name in INTENTS and not spec.problems(),
    ),
    (
        2,
        "A handler and an outcome model",
        lambda spec, src: (
            HANDLERS.get(spec.name) is spec.handler
            and spec.outcome is not None
            and spec.name == spec.outcome.INTENT
            and bool(spec.outcome.ACTIONS)
        ),
    ),
    (
        3,
        "Parameter help",
        lambda spec, src: (
            all(p in src.param_help for p in spec.params)
            and spec.name in answer_schema()["properties"]["intent"]["enum"]
        ),
    ),
    (
        4,
        "An instruction template",
        lambda spec, src: spec.instruction in src.active and spec.instruction in src.templates,
    ),
    (
        5,
        "Examples for the local provider",
        lambda spec, src: bool(src.local_examples.get(spec.name)),
    ),
    (
        6,
        "Examples in the active classifier template",
        lambda spec, src: f'"{spec.name}": [' in src.classifier,
    ),
    (
        7,
        "Eval cases",
        lambda spec, src: (
            any(case.get("expect", {}).get("intent") == spec.name for case in src.boundaries)
            and (not spec.pending or _continued(spec, src))
        ),
    ),
    (
        8,
        "A row in this page's table",
        lambda spec, src: f"| `{spec.name}` |" in src.docs,
    ),
    (
        9,
        "An offline reply",
        lambda spec, src: f'"{spec.name}"' in src.replies or _own_action(spec, src.replies),
    ),
    (
        10,
        "The local provider's reading of its pending turns",
        lambda spec, src: not spec.pending or f'"{spec.name}"' in src.continuation,
    ),
)


def missing_steps(spec: IntentSpec, src: Sources) -> list[str]:
    """The steps the intent misses, each as docs/intents.md numbers and titles it."""
    return [f"{number}. {title}" for number, title, check in STEPS if not check(spec, src)]


def contract_failures(specs: list[IntentSpec], src: Sources) -> str:
    """One message naming every missing step of every intent ("" when none is missing)."""
    lines = []
    for spec in specs:
        missing = missing_steps(spec, src)
        if missing:
            lines.append(f"intent {spec.name!r} misses:")
            lines.extend(f"  {step}" for step in missing)
    if not lines:
        return ""
    return "\n".join(["Steps of docs/intents.md, 'Adding an intent', left undone:", *lines])


def test_every_live_intent_has_every_step() -> None:
    failures = contract_failures([INTENTS[n] for n in LIVE_INTENTS], repository_sources())
    if failures:
        pytest.fail(failures, pytrace=False)


def test_docs_number_the_steps_as_this_test_does() -> None:
    section = DOCS.read_text(encoding="utf-8").split("## Adding an intent", 1)[1]
    section = section.split("\n## ", 1)[0]
    documented = re.findall(r"^(\d+)\. \*\*(.+?)\*\*", section, flags=re.MULTILINE)
    assert [(int(n), title) for n, title in documented] == [(n, t) for n, t, _ in STEPS]


# A small intent, declared the way docs/intents.md asks: one module with its spec, handler and
# outcome model, reusing an action that exists.
_MODULE = """
from typing import ClassVar

from pipeline.actions import Action
from pipeline.domain import RouteResult
from pipeline.intents.context import HandlerContext
from pipeline.intents.outcome import Outcome
from pipeline.intents.spec import IntentSpec


class TideOutcome(Outcome):
    INTENT: ClassVar[str] = "tide_times"
    ACTIONS: ClassVar[frozenset[Action]] = frozenset({Action.NOT_AVAILABLE})

    place: str


def handle_tide_times(ctx: HandlerContext) -> RouteResult:
    return TideOutcome(action=Action.NOT_AVAILABLE, place=ctx.param("query")).routed()


SPECS = (
    IntentSpec(
        "tide_times",
        True,
        ("query",),
        "asks when the tide is high or low somewhere",
        handler=handle_tide_times,
        outcome=TideOutcome,
    ),
)
"""


def _declare_tide_times(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> IntentSpec:
    package = tmp_path / "tide_intents"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "tide.py").write_text(textwrap.dedent(_MODULE))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "tide_intents.tide", raising=False)
    (spec,) = declared_in(package, "tide_intents.")
    monkeypatch.setitem(INTENTS, spec.name, spec)
    assert spec.handler is not None
    monkeypatch.setitem(HANDLERS, spec.name, spec.handler)
    return spec


def _with_tide_times(src: Sources) -> Sources:
    """The sources after the edits the new intent needs outside its module."""
    family = "instructions/tide_times"
    case = {"message": "when's high tide at Whitby?", "expect": {"intent": "tide_times"}}
    return replace(
        src,
        active={**src.active, family: "v1"},  # prompts/active.yaml
        templates=src.templates | {family},  # prompts/instructions/tide_times/v1.j2
        local_examples={**src.local_examples, "tide_times": ["low tide at Brighton?"]},
        classifier=src.classifier + '\n  "tide_times": ["is the tide out at Staithes?"],',
        boundaries=[*src.boundaries, case],  # evals/suites/intent_boundaries.yaml
        docs=src.docs + "\n| `tide_times` | `query` | tides | not available |",
        replies=src.replies + '\n    if route.intent == "tide_times":',  # replies.py
    )


def test_a_new_intent_in_its_own_module_passes_once_its_other_files_are_edited(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = _declare_tide_times(tmp_path, monkeypatch)
    assert contract_failures([spec], _with_tide_times(repository_sources())) == ""


def test_a_new_intent_that_misses_steps_is_told_each_of_them_numbered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = _declare_tide_times(tmp_path, monkeypatch)
    src = repository_sources()
    assert contract_failures([spec], src) == (
        "Steps of docs/intents.md, 'Adding an intent', left undone:\n"
        "intent 'tide_times' misses:\n"
        "  4. An instruction template\n"
        "  5. Examples for the local provider\n"
        "  6. Examples in the active classifier template\n"
        "  7. Eval cases\n"
        "  8. A row in this page's table\n"
        "  9. An offline reply"
    )
    # leaving out one edit names that step alone
    done = _with_tide_times(src)
    assert contract_failures([spec], replace(done, docs=src.docs)).splitlines()[1:] == [
        "intent 'tide_times' misses:",
        "  8. A row in this page's table",
    ]
    # a new parameter needs its help (step 3); an intent that leaves something pending needs
    # its continuation cases and the local provider's reading of them (steps 7 and 10)
    pending = replace(spec, params=("harbour",), pending=(Action.NOT_AVAILABLE,))
    monkeypatch.setitem(INTENTS, spec.name, pending)
    assert [line.strip() for line in contract_failures([pending], done).splitlines()[2:]] == [
        "3. Parameter help",
        "7. Eval cases",
        "10. The local provider's reading of its pending turns",
    ]


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
