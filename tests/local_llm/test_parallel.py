"""Several requests decoded together: the admission rule, the engine's answers with a stub
runtime (the same with one request at a time as with several), the shortest answer schema, and
the settings that choose them. No model is loaded here."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from pipeline.domain import HistoryTurn, Role
from pipeline.errors import ConverseError
from pipeline.intents.taxonomy import INTENTS
from pipeline.prompting import default_library
from pipeline.providers.base import ClassifyRequest
from pipeline.providers.intent_schema import READING_SCHEMA
from pipeline.providers.local_llm import runtime
from pipeline.providers.local_llm.admission import Admission
from pipeline.providers.local_llm.classifier import (
    PENDING_FIELDS,
    LocalLLMClassifier,
    intent_branches_schema,
)
from pipeline.providers.local_llm.runtime import Engine
from pipeline.providers.local_llm.settings import LocalLLMSettings
from pipeline.providers.local_llm.weights import SMOLLM2
from pipeline.providers.registry import ProviderOptions, make_providers

OFFER = HistoryTurn(
    role=Role.COMPANION,
    content="I'll remember that you're allergic to all shellfish — is that right?",
    intent="remember_about_me",
    operation_data={"action": "held", "personal_fact": "You're allergic to all shellfish"},
)


class _Watch:
    """Counts requests in flight inside an admitted block."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.now = 0
        self.peak = 0
        self.alone: list[bool] = []

    def enter(self) -> None:
        with self.lock:
            self.now += 1
            self.peak = max(self.peak, self.now)

    def leave(self) -> None:
        with self.lock:
            self.now -= 1


def _hold(admission: Admission, watch: _Watch, prefix: str | None, pause: float = 0.02) -> None:
    with admission.admit(prefix):
        watch.enter()
        with watch.lock:
            watch.alone.append(watch.now == 1)
        time.sleep(pause)
        watch.leave()


def test_width_one_runs_every_request_alone() -> None:
    admission, watch = Admission(1), _Watch()
    with ThreadPoolExecutor(6) as pool:
        list(pool.map(lambda _: _hold(admission, watch, None), range(12)))
    assert watch.peak == 1


def test_width_bounds_the_requests_in_flight_and_is_reached() -> None:
    admission, watch = Admission(3), _Watch()
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda _: _hold(admission, watch, None, 0.05), range(16)))
    assert watch.peak == 3
    assert admission.peak == 3


def test_the_first_request_of_an_unseen_prefix_runs_alone_then_others_share() -> None:
    admission, watch = Admission(4), _Watch()
    started = threading.Event()

    def first() -> None:
        with admission.admit("taxonomy-sha"):
            started.set()
            watch.enter()
            time.sleep(0.1)
            with watch.lock:
                watch.alone.append(watch.now == 1)
            watch.leave()

    thread = threading.Thread(target=first)
    thread.start()
    started.wait()
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda _: _hold(admission, watch, "taxonomy-sha", 0.05), range(8)))
    thread.join()
    assert watch.alone[0] is True  # nothing ran beside the prefix's first request
    assert admission.warm("taxonomy-sha")
    assert watch.peak > 1  # once warm, requests of the prefix run together


def test_width_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        Admission(0)


class _StubServer:
    """Answers like a deterministic model: the intent from the last user message, after a
    pause so that requests overlap; records every request and the most in flight."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.now = 0
        self.peak = 0

    def handle_chat_completions(self, request: dict[str, Any]) -> dict[str, Any]:
        with self.lock:
            self.requests.append(request)
            self.now += 1
            self.peak = max(self.peak, self.now)
        time.sleep(0.03)
        with self.lock:
            self.now -= 1
        message = request["messages"][-1]["content"]
        intent = "remember_about_me" if "allergic" in message else "general_conversation"
        text = (
            f'{{"intent": "{intent}", "personal_fact": "{message}"}}'
            if intent == "remember_about_me"
            else f'{{"intent": "{intent}"}}'
        )
        return {
            "choices": [{"message": {"content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 10},
            "timings": {"cache_n": 90},
        }


def _engine(monkeypatch: pytest.MonkeyPatch, parallel: int) -> tuple[Engine, _StubServer]:
    server = _StubServer()
    monkeypatch.setattr(runtime, "locate", lambda weights, cache_dir: Path("stub.gguf"))
    monkeypatch.setattr(runtime, "_start", lambda path, settings: server)
    return Engine(SMOLLM2, LocalLLMSettings(parallel=parallel), Path(".")), server


MESSAGES = [
    "I'm allergic to peanuts",
    "how long should I rest a steak?",
    "I'm allergic to cats too",
    "what's a good name for a dog?",
    "I'm allergic to pollen in spring",
    "tell me a joke",
    "I'm allergic to penicillin",
    "any plans for the weekend?",
]


def _classify_all(classifier: LocalLLMClassifier, width: int) -> list[tuple[str, dict[str, Any]]]:
    requests = [ClassifyRequest(message) for message in MESSAGES]
    with ThreadPoolExecutor(width) as pool:
        found = list(pool.map(classifier.classify, requests))
    return [(got.intent, dict(got.params)) for got in found]


def test_parallel_requests_return_the_serial_answers_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    serial_engine, serial_server = _engine(monkeypatch, 1)
    serial = _classify_all(LocalLLMClassifier(serial_engine, default_library(), 160), 4)
    parallel_engine, parallel_server = _engine(monkeypatch, 4)
    parallel = _classify_all(LocalLLMClassifier(parallel_engine, default_library(), 160), 4)
    assert parallel == serial
    assert serial[0] == ("remember_about_me", {"personal_fact": MESSAGES[0]})
    assert serial_server.peak == 1
    assert parallel_server.peak > 1
    # every request named the same stable prefix (the classifier template's sha256)
    assert len(parallel_engine.admission.warmed) == 1


def test_a_message_with_nothing_pending_gets_the_shortest_schema(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    engine, server = _engine(monkeypatch, 1)
    classifier = LocalLLMClassifier(engine, default_library(), 160)
    classifier.classify(ClassifyRequest("I'm allergic to peanuts"))
    classifier.classify(ClassifyRequest("no, just shrimp", history=(OFFER,)))
    alone, after_offer = (r["response_format"]["json_schema"]["schema"] for r in server.requests)
    for branch in alone["anyOf"]:
        assert not set(PENDING_FIELDS) & set(branch["properties"])
        assert {"question", "restore"} <= set(branch["properties"])
    for branch in after_offer["anyOf"]:
        assert set(READING_SCHEMA) <= set(branch["properties"])


def test_the_short_schema_drops_only_the_pending_fields() -> None:
    short = intent_branches_schema(pending=False)["anyOf"]
    full = intent_branches_schema()["anyOf"]
    for s, f in zip(short, full, strict=True):
        name = s["properties"]["intent"]["const"]
        assert set(f["properties"]) - set(s["properties"]) == set(PENDING_FIELDS)
        assert set(s["properties"]) >= {"intent", *INTENTS[name].params}
        assert s["required"] == f["required"]


def test_parallel_is_at_most_slots_and_keys_the_answer_cache() -> None:
    with pytest.raises(ConverseError, match="parallel \\(5\\) is more than slots \\(4\\)"):
        make_providers("local-llm", ProviderOptions(settings={"model": "smollm2", "parallel": 5}))
    one = make_providers("local-llm", ProviderOptions(settings={"model": "smollm2"}))
    four = make_providers(
        "local-llm", ProviderOptions(settings={"model": "smollm2", "parallel": 4})
    )
    assert one.fingerprint != four.fingerprint


def test_parallel_comes_from_the_environment() -> None:
    settings = LocalLLMSettings.from_env({"CONVERSE_LLM_PARALLEL": "3"})
    assert settings.parallel == 3
    assert LocalLLMSettings.from_env({}).parallel == 1
