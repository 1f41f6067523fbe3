"""Fixtures for the eval harness: small suites in tmp_path, scripted answers, a private reports dir."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml

from pipeline.providers.base import ClassifyRequest, RespondRequest
from pipeline.providers.registry import REGISTRY, ProviderOptions, Providers, ProviderSpec
from pipeline.providers.scripted import ScriptedProvider, ScriptEntry
from pipeline.reading import ClassifiedIntent

SCRIPT = {
    "turns": [
        {"message": "I'm allergic to shellfish", "intent": "remember_about_me",
         "params": {"personal_fact": "You're allergic to all shellfish"}},
        {"message": "no, just shrimp", "after": "remember_about_me", "intent": "remember_about_me",
         "params": {"personal_fact": "You're allergic to shrimp"}},
        {"message": "The soil pH should be 6.5", "intent": "add_knowledge",
         "params": {"knowledge": "The soil pH should be 6.5"}},
        {"message": "my wife is vegetarian", "intent": "general_conversation"},
    ]
}  # fmt: skip

CLASSIFY_SUITE = {
    "name": "tiny_classify",
    "target": "classify",
    "description": "four cases: two right, one wrong, one unscripted (an error)",
    "gate": {"accuracy": 0.9},
    "cases": [
        {
            "id": "shellfish",
            "tags": ["personal-fact", "cooking"],
            "project": "Weeknight cooking",
            "message": "I'm allergic to shellfish",
            "expect": {
                "intent": "remember_about_me",
                "params": {"personal_fact": {"contains": ["SHELLFISH"]}},
            },
        },
        {
            "id": "refined",
            "tags": ["continuation"],
            "history": [
                {"operator": "I'm allergic to shellfish"},
                {"companion": "I'll remember that you're allergic to all shellfish. Right?",
                 "intent": "remember_about_me"},
            ],
            "message": "no, just shrimp",
            "expect": {
                "intent": "remember_about_me",
                "params": {"personal_fact": {"contains": ["shrimp"], "excludes": ["shellfish"]}},
            },
        },
        {
            "id": "wife-vegetarian",
            "tags": ["other-person", "cooking"],
            "message": "my wife is vegetarian",
            "expect": {"intent": "remember_about_me"},
        },
        {
            "id": "unscripted",
            "tags": ["cooking"],
            "message": "something nobody scripted",
            "expect": {"intent": "general_conversation"},
        },
    ],
}  # fmt: skip


def write_yaml(path: Path, data: Any) -> Path:
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def reports_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test writes runs, cache and releases under its own folder."""
    root = tmp_path / "reports"
    monkeypatch.setenv("CONVERSE_REPORTS_DIR", str(root))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("CONVERSE_PROVIDER", raising=False)
    monkeypatch.setenv("COLUMNS", "200")
    return root


@pytest.fixture
def script_file(tmp_path: Path) -> Path:
    return write_yaml(tmp_path / "script.yaml", SCRIPT)


@pytest.fixture
def classify_suite(tmp_path: Path) -> Path:
    return write_yaml(tmp_path / "tiny_classify.yaml", CLASSIFY_SUITE)


@pytest.fixture
def make_suite(tmp_path: Path) -> Callable[..., Path]:
    def make(data: dict[str, Any], name: str | None = None) -> Path:
        return write_yaml(tmp_path / f"{name or data.get('name', 'suite')}.yaml", data)

    return make


class Counting:
    """A scripted provider that counts classify calls and can fail on chosen messages."""

    name = "counting"
    model = "counting-fixture"

    def __init__(
        self,
        inner: ScriptedProvider,
        raise_on: set[str] | None = None,
        interrupt_after: int | None = None,
    ) -> None:
        self.inner = inner
        self.calls = 0
        self.raise_on = raise_on or set()
        self.interrupt_after = interrupt_after

    def classify(self, request: ClassifyRequest) -> ClassifiedIntent:
        self.calls += 1
        if self.interrupt_after is not None and self.calls > self.interrupt_after:
            raise KeyboardInterrupt
        if request.message in self.raise_on:
            raise TimeoutError("provider timed out")
        return self.inner.classify(request)

    def respond(self, request: RespondRequest) -> Any:
        return self.inner.respond(request)


def scripted() -> ScriptedProvider:
    return ScriptedProvider(
        [
            ScriptEntry(
                message=t["message"],
                intent=t["intent"],
                params=dict(t.get("params") or {}),
                after=t.get("after"),
            )
            for t in SCRIPT["turns"]
        ]
    )


def stand_in(
    provider: Any,
    label: str = "counting (fixture answers, not a model)",
    embedder: Any = None,
) -> dict[str, ProviderSpec]:
    """The registry with every factory building `provider` (declaring its model and
    `embedder`); what each provider declares before it is built is kept."""

    def factory(options: ProviderOptions) -> Providers:
        model = str(getattr(provider, "model", ""))
        return Providers(provider, provider, label, model=model, embedder=embedder)

    return {name: replace(spec, factory=factory) for name, spec in REGISTRY.items()}
