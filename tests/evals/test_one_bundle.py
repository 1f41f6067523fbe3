"""Chat, the turn queue and evals run converse() with the provider bundle a factory declared,
never with roles picked from it one by one (so no caller can leave out the summarizer or the
structured generator another passes)."""

from __future__ import annotations

import inspect
from dataclasses import replace
from typing import Any

import pytest

import evals.runner.conversation as eval_conversation
import pipeline.turn_queue as turn_queue
from evals.dataset import load_suite
from evals.runner import EvalOptions, RunConfig, run_eval
from pipeline.converse import converse
from pipeline.providers.base import Providers
from pipeline.providers.registry import REGISTRY
from pipeline.providers.scripted import ScriptedProvider, ScriptEntry
from pipeline.providers.summarize import ExtractiveSummarizer

PROVIDER = ScriptedProvider([ScriptEntry("I keep bees", "remember_about_me",
                                         {"personal_fact": "You keep bees"})])  # fmt: skip
# A bundle whose every role is set, so one left out would show.
BUNDLE = Providers(PROVIDER, PROVIDER, "scripted", summarizer=ExtractiveSummarizer())


def _recording(module: Any, monkeypatch: pytest.MonkeyPatch) -> list[Providers]:
    seen: list[Providers] = []

    def recorded(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs["providers"])
        return converse(*args, **kwargs)

    monkeypatch.setattr(module, "converse", recorded)
    return seen


def test_converse_takes_the_bundle_and_no_loose_role() -> None:
    params = inspect.signature(converse).parameters
    assert "providers" in params
    assert not {"classifier", "responder", "embedder", "summarizer", "structured"} & set(params)


def test_the_turn_queue_runs_the_bundle_it_was_given(store, make_person, monkeypatch) -> None:
    make_person(store)
    seen = _recording(turn_queue, monkeypatch)
    queue = turn_queue.TurnQueue(store, providers=BUNDLE, window_s=0)
    queue.submit("ana", "I keep bees").result(timeout=60)
    queue.close()
    assert seen == [BUNDLE]


def test_an_eval_conversation_runs_the_bundle_its_factory_declared(make_suite, monkeypatch) -> None:
    seen = _recording(eval_conversation, monkeypatch)
    registry = {name: replace(spec, factory=lambda _o: BUNDLE) for name, spec in REGISTRY.items()}
    suite = {"name": "bees", "target": "conversation",
             "cases": [{"id": "bees", "turns": [{"message": "I keep bees"}]}]}  # fmt: skip
    config = RunConfig([load_suite(make_suite(suite))], ["scripted"], concurrency=1)
    run_eval(EvalOptions(config, progress=False, registry=registry))
    assert seen == [BUNDLE]
