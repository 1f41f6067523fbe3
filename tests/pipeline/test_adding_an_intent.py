"""A new intent, declared in a module of its own, shown against the steps of docs/intents.md
("Adding an intent"): which files it touches besides its module, that each is needed, that its
spec reaches the providers, and what a bare spec is told it misses."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from pipeline.actions import Action
from pipeline.intents import HANDLERS, INTENTS
from pipeline.intents.spec import IntentSpec
from pipeline.intents.taxonomy import declared_in
from pipeline.providers.intent_schema import answer_schema
from pipeline.providers.local.examples import load_examples
from pipeline.providers.replies import compose_reply
from tests.pipeline.intent_steps import (
    Sources,
    classifier_prompt,
    contract_failures,
    repository_sources,
)

# A small intent, declared the way docs/intents.md asks: one module with its spec, handler,
# outcome model, offline reply, its new parameter's help and its examples, reusing an action
# that exists.
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

    harbour: str


def handle_tide_times(ctx: HandlerContext) -> RouteResult:
    return TideOutcome(action=Action.NOT_AVAILABLE, harbour=ctx.param("harbour")).routed()


def reply_tide_times(route: RouteResult) -> str:
    return f"I can't look up the tides at {route.operation_data['harbour']} yet."


SPECS = (
    IntentSpec(
        "tide_times",
        True,
        ("harbour",),
        "asks when the tide is high or low somewhere",
        handler=handle_tide_times,
        outcome=TideOutcome,
        reply=reply_tide_times,
        param_help={"harbour": "the harbour or beach the tide is asked about"},
        examples=("low tide at Brighton?", "is the tide out at Staithes?"),
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
    _declare(spec, monkeypatch)
    return spec


def _declare(spec: IntentSpec, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(INTENTS, spec.name, spec)
    assert spec.handler is not None
    monkeypatch.setitem(HANDLERS, spec.name, spec.handler)


# Every file the new intent touches besides its module, each with the edit it makes to the
# sources. No classifier template and no line of prompts/active.yaml is among them: the active
# classifier template (v6) lists a spec's examples for an intent it has none of.
_EDITS: dict[str, Callable[[Sources], Sources]] = {
    "prompts/instructions/tide_times/v1.j2": lambda src: replace(
        src, templates=src.templates | {"instructions/tide_times": ["v1"]}
    ),
    "evals/suites/intent_boundaries.yaml": lambda src: replace(
        src,
        boundaries=[
            *src.boundaries,
            {"message": "when's high tide at Whitby?", "expect": {"intent": "tide_times"}},
        ],
    ),
    "docs/intents.md": lambda src: replace(
        src, docs=src.docs + "\n| `tide_times` | `harbour` | tides | not available |"
    ),
}


def _with_tide_times(src: Sources, leave_out: str = "") -> Sources:
    """The sources after the new intent's edits outside its module (but `leave_out`)."""
    for path, edit in _EDITS.items():
        if path != leave_out:
            src = edit(src)
    return src


def test_a_new_intent_touches_four_files_its_module_and_these_three(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = _declare_tide_times(tmp_path, monkeypatch)
    touched = ["tide_intents/tide.py", *_EDITS]
    assert touched == [
        "tide_intents/tide.py",
        "prompts/instructions/tide_times/v1.j2",
        "evals/suites/intent_boundaries.yaml",
        "docs/intents.md",
    ]
    assert len(touched) <= 4
    assert not [p for p in touched if p.startswith(("prompts/classifier/", "prompts/active.yaml"))]
    done = _with_tide_times(repository_sources())
    assert done.active == repository_sources().active
    assert contract_failures([spec], done) == ""
    # and each of them is needed: leaving one out names its step
    steps = {
        "prompts/instructions/tide_times/v1.j2": "4. An instruction template",
        "evals/suites/intent_boundaries.yaml": "7. Eval cases",
        "docs/intents.md": "8. A row in this page's table",
    }
    for path, step in steps.items():
        failures = contract_failures([spec], _with_tide_times(repository_sources(), path))
        assert failures.splitlines()[1:] == ["intent 'tide_times' misses:", f"  {step}"]


def test_with_classifier_v3_active_the_same_edits_miss_the_classifier_examples(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """v3, active before v6, hard-codes its examples: a new intent's examples then reached
    the classifier prompt only through a line of prompts/active.yaml, a fifth file."""
    spec = _declare_tide_times(tmp_path, monkeypatch)
    done = _with_tide_times(repository_sources())
    with_v3 = replace(
        done, active={**done.active, "classifier": "v3"}, classifier=classifier_prompt("v3")
    )
    assert contract_failures([spec], with_v3).splitlines()[1:] == [
        "intent 'tide_times' misses:",
        "  6. Examples in the active classifier prompt",
    ]


def test_the_new_intents_spec_reaches_the_providers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = _declare_tide_times(tmp_path, monkeypatch)
    assert spec.outcome is not None
    route = spec.outcome.model_validate(
        {"action": Action.NOT_AVAILABLE, "harbour": "Whitby"}
    ).routed()
    assert compose_reply(route) == "I can't look up the tides at Whitby yet."
    harbour = answer_schema()["properties"]["harbour"]["description"]
    assert (
        harbour == "For tide_times: the harbour or beach the tide is asked about. Omit when absent."
    )
    examples = load_examples()
    added = [
        t for t, label in zip(examples.texts, examples.labels, strict=True) if label == spec.name
    ]
    assert added == ["low tide at Brighton?", "is the tide out at Staithes?"]
    entry = (
        "- tide_times: asks when the tide is high or low somewhere.\n"
        "  Parameters: harbour.\n"
        '  Examples: "low tide at Brighton?"; "is the tide out at Staithes?".'
    )
    assert entry in classifier_prompt() and entry in classifier_prompt("v5")


def test_a_new_intent_that_misses_steps_is_told_each_of_them_numbered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = _declare_tide_times(tmp_path, monkeypatch)
    bare = replace(spec, reply=None, param_help={}, examples=())
    _declare(bare, monkeypatch)
    assert contract_failures([bare], repository_sources()) == (
        "Steps of docs/intents.md, 'Adding an intent', left undone:\n"
        "intent 'tide_times' misses:\n"
        "  3. Parameter help\n"
        "  4. An instruction template\n"
        "  5. Examples for the local provider\n"
        "  6. Examples in the active classifier prompt\n"
        "  7. Eval cases\n"
        "  8. A row in this page's table\n"
        "  9. An offline reply"
    )
    # an intent that leaves something pending needs its continuation cases and the local
    # provider's reading of them (steps 7 and 10)
    pending = replace(spec, pending=(Action.NOT_AVAILABLE,))
    _declare(pending, monkeypatch)
    done = _with_tide_times(repository_sources())
    assert [line.strip() for line in contract_failures([pending], done).splitlines()[2:]] == [
        "7. Eval cases",
        "10. The local provider's reading of its pending turns",
    ]


def test_the_released_intents_keep_their_replies_help_and_examples_where_they_were() -> None:
    """Their replies (which tests and cassettes replay), parameter help and examples stay in
    replies.py, PARAM_HELP and the examples file, so each reads as before, byte for byte; the
    spec's fields are for an intent declared since."""
    declared = {n for n, s in INTENTS.items() if s.reply or s.param_help or s.examples}
    assert declared == set()
