"""Real generation with SmolLM2-135M through llama.cpp: the classifier renders the real
classifier template, its answer is grammar-constrained JSON that is parsed and validated (or
degraded, never raised), the stable prefix is reused across cases, and the responder replies
to the assembled system prompt."""

from __future__ import annotations

import json

import pytest

from pipeline.domain import HistoryTurn, Role, Usage
from pipeline.errors import ConverseError
from pipeline.intents.taxonomy import FALLBACK_INTENT, INTENTS, REQUIRED_PARAMS
from pipeline.prompting import default_library
from pipeline.providers.base import ClassifyRequest, Providers
from pipeline.providers.intent_schema import READING_SCHEMA
from pipeline.providers.local_llm.classifier import (
    LocalLLMClassifier,
    intent_branches_schema,
    parse_answer,
)
from pipeline.providers.local_llm.runtime import Completion, Engine
from pipeline.providers.local_llm.settings import LocalLLMSettings
from pipeline.providers.local_llm.weights import SMOLLM2, ModelWeights
from pipeline.providers.registry import ProviderOptions, make_providers
from tests.local_llm.conftest import SMALL, needs_runtime

pytestmark = needs_runtime

OFFER = HistoryTurn(
    role=Role.COMPANION,
    content="I'll remember that you're allergic to all shellfish — is that right?",
    intent="remember_about_me",
    operation_data={"action": "held", "personal_fact": "You're allergic to all shellfish"},
)


def _classifier(providers: Providers) -> LocalLLMClassifier:
    assert isinstance(providers.classifier, LocalLLMClassifier)
    return providers.classifier


def test_classify_renders_the_classifier_template_and_constrains_the_answer(small) -> None:
    classifier = _classifier(small)
    result = classifier.classify(
        ClassifyRequest("I'm allergic to shellfish", project_name="Weeknight cooking")
    )
    rendered = default_library().source("classifier")[1]
    assert result.prompt_refs == (rendered,)
    assert result.provider == "local-llm" and result.model == SMOLLM2.label
    assert result.usage.input_tokens > 1000 and result.usage.output_tokens > 0
    answer = classifier.engine.last
    assert answer is not None
    if answer.finish_reason != "length":  # the grammar holds for every token it wrote
        raw = json.loads(answer.text)
        assert raw["intent"] in INTENTS
        assert set(raw) <= {"intent", *INTENTS[raw["intent"]].params, *READING_SCHEMA}
    assert result.intent in INTENTS
    if result.error is None:
        assert set(result.params) <= set(INTENTS[result.intent].params)
        assert all(p in result.params for p in REQUIRED_PARAMS.get(result.intent, ()))
    else:
        assert result.intent == FALLBACK_INTENT


def test_the_stable_prefix_is_evaluated_once_and_reused(small) -> None:
    classifier = _classifier(small)
    classifier.classify(ClassifyRequest("The soil pH should be 6.5", project_name="Garden"))
    small.responder.respond(_respond_request())
    again = classifier.classify(ClassifyRequest("no, just shrimp", history=(OFFER,)))
    prefix = default_library().render(
        "classifier", intents=list(INTENTS.values()), project_name=None
    )
    assert again.usage.cache_read_input_tokens > 1000
    # Only the case's own tokens were evaluated: far fewer than the cached prefix.
    assert again.usage.input_tokens - again.usage.cache_read_input_tokens < 200
    assert len(prefix.text) > 4 * again.usage.cache_read_input_tokens / 2


def test_answers_repeat_exactly(small) -> None:
    classifier = _classifier(small)
    request = ClassifyRequest("please forget that I live in Miami")
    first = classifier.classify(request)
    text = classifier.engine.last.text if classifier.engine.last else ""
    second = classifier.classify(request)
    assert classifier.engine.last is not None and classifier.engine.last.text == text
    assert (first.intent, first.params, first.error) == (second.intent, second.params, second.error)


def test_an_answer_cut_off_by_the_token_limit_degrades() -> None:
    providers = make_providers(
        "local-llm", ProviderOptions(settings={**SMALL, "classifier_max_tokens": 4})
    )
    result = providers.classifier.classify(ClassifyRequest("I'm allergic to shellfish"))
    assert result.intent == FALLBACK_INTENT
    assert result.error == "the answer was cut off at max_tokens (4)"
    assert result.usage.output_tokens == 4


def test_a_prompt_version_changes_what_the_model_reads(small, tmp_path, monkeypatch) -> None:
    prompts = tmp_path / "prompts"
    source = default_library().root
    import shutil

    shutil.copytree(source, prompts)
    v1 = (prompts / "classifier" / "v1.j2").read_text(encoding="utf-8")
    (prompts / "classifier" / "v2.j2").write_text(v1 + "\nAnswer with JSON only.\n", "utf-8")
    monkeypatch.setenv("CONVERSE_PROMPTS_DIR", str(prompts))
    options = ProviderOptions(settings=SMALL, library=default_library({"classifier": "v2"}))
    v2 = make_providers("local-llm", options)
    result = v2.classifier.classify(ClassifyRequest("thanks, that helps"))
    assert [(r.family, r.version) for r in result.prompt_refs] == [("classifier", "v2")]
    assert v2.fingerprint == small.fingerprint  # the prompt is keyed apart, by its hash


def test_respond_writes_a_reply_to_the_assembled_prompt(small) -> None:
    reply = small.responder.respond(_respond_request())
    assert reply.text.strip()
    assert reply.provider == "local-llm" and reply.model == SMOLLM2.label
    assert reply.usage.input_tokens > 50 and reply.usage.output_tokens > 0
    assert reply.truncated == (reply.usage.output_tokens >= 200)


@pytest.mark.parametrize(
    ("text", "finish", "error"),
    [
        ("", "stop", "the model's answer was empty (finish_reason stop)"),
        ("{not json", "stop", "the answer is not valid JSON"),
        ('{"intent": 3}', "stop", "the answer does not match its schema: intent"),
        ('{"intent": "teleport"}', "stop", "unknown intent 'teleport'"),
        ('{"intent": "add_knowledge"}', "stop", "add_knowledge without its parameter knowledge"),
    ],
)
def test_bad_answers_degrade_with_the_reason(text: str, finish: str, error: str) -> None:
    answer = Completion(text, finish, Usage(), 0.0, 0, 0.0, 0.0)
    result = parse_answer(answer, model="m", refs=(), max_tokens=10)
    assert result.intent == FALLBACK_INTENT
    assert result.error is not None and result.error.startswith(error)


def test_the_grammar_allows_each_intent_only_its_own_parameters() -> None:
    branches = intent_branches_schema()["anyOf"]
    assert [b["properties"]["intent"]["const"] for b in branches] == list(INTENTS)
    for branch in branches:
        name = branch["properties"]["intent"]["const"]
        assert set(branch["properties"]) == {"intent", *INTENTS[name].params, *READING_SCHEMA}
        assert branch["required"] == ["intent", *REQUIRED_PARAMS.get(name, ())]
        assert branch["additionalProperties"] is False


def test_weights_that_fail_their_check_are_not_loaded(tmp_path) -> None:
    wrong = ModelWeights(
        name="smollm2-wrong",
        label=SMOLLM2.label,
        parts=SMOLLM2.parts,
        sha256="f" * 64,
        size=SMOLLM2.size,
        install=SMOLLM2.install,
        licence=SMOLLM2.licence,
    )
    engine = Engine(wrong, LocalLLMSettings(), tmp_path)
    with pytest.raises(ConverseError, match="do not match their pinned sha256"):
        engine.load()
    assert not engine.loaded


def _respond_request():
    from evals.bench.llm import _reply_request

    return _reply_request()
