"""The steps of docs/intents.md, "Adding an intent", as checks over the files a new intent may
touch: `contract_failures` names every step any intent misses, numbered as that page numbers
them, in one message (tests/pipeline/test_intent_contract.py and test_adding_an_intent.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from pipeline.intents import HANDLERS, INTENTS
from pipeline.intents.spec import IntentSpec
from pipeline.prompting import default_library
from pipeline.providers.intent_schema import answer_schema, param_help
from pipeline.providers.local.examples import load_examples

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "intents.md"


@dataclass(frozen=True)
class Sources:
    """What the steps are checked against: the files a new intent may have to touch."""

    active: dict[str, str]  # prompts/active.yaml, as listed
    templates: dict[str, list[str]]  # prompt family -> its template versions
    classifier: str  # the active classifier prompt, rendered with the taxonomy
    local_examples: set[str]  # the local provider's labels: its examples file and the specs'
    boundaries: list[dict[str, Any]]  # evals/suites/intent_boundaries.yaml cases
    continuations: list[dict[str, Any]]  # evals/suites/continuations.yaml cases
    conversations: list[dict[str, Any]]  # evals/suites/conversations.yaml cases
    docs: str  # docs/intents.md
    replies: str  # pipeline/providers/replies.py
    continuation: str  # pipeline/providers/local/continuation.py


def _cases(name: str) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = yaml.safe_load(
        (ROOT / "evals" / "suites" / f"{name}.yaml").read_text(encoding="utf-8")
    )["cases"]
    return cases


def classifier_prompt(version: str | None = None) -> str:
    """The classifier prompt of `version` (else the active one) with today's taxonomy."""
    rendered = default_library().render(
        "classifier", version, intents=list(INTENTS.values()), project_name=None
    )
    return rendered.text


def repository_sources() -> Sources:
    """The sources as the repository has them, with the taxonomy as it is when called."""
    library = default_library()
    listed = yaml.safe_load((library.root / "active.yaml").read_text(encoding="utf-8"))
    return Sources(
        active={str(k): str(v) for k, v in listed.items()},
        templates=library.families(),
        classifier=classifier_prompt(),
        local_examples=set(load_examples().labels),
        boundaries=_cases("intent_boundaries"),
        continuations=_cases("continuations"),
        conversations=_cases("conversations"),
        docs=DOCS.read_text(encoding="utf-8"),
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


def _has_instruction(spec: IntentSpec, src: Sources) -> bool:
    """Its instruction family has a template that is active: the version active.yaml lists,
    else its only one (pipeline/prompting.py)."""
    versions = src.templates.get(spec.instruction, [])
    listed = src.active.get(spec.instruction)
    return listed in versions if listed is not None else len(versions) == 1


def _lists_examples(spec: IntentSpec, prompt: str) -> bool:
    """Whether the rendered classifier prompt lists the intent with examples."""
    entry = rf"^- {re.escape(spec.name)}\b.*\n  Parameters: .*\n  Examples: \"."
    return re.search(entry, prompt, flags=re.MULTILINE) is not None


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
            all(param_help(p) != p for p in spec.params)
            and spec.name in answer_schema()["properties"]["intent"]["enum"]
        ),
    ),
    (
        4,
        "An instruction template",
        _has_instruction,
    ),
    (
        5,
        "Examples for the local provider",
        lambda spec, src: spec.name in src.local_examples,
    ),
    (
        6,
        "Examples in the active classifier prompt",
        lambda spec, src: _lists_examples(spec, src.classifier),
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
        lambda spec, src: (
            spec.reply is not None
            or f'"{spec.name}"' in src.replies
            or _own_action(spec, src.replies)
        ),
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
