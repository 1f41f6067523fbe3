"""The model providers' roles share one skeleton (pipeline/providers/roles.py): the client and
settings they hold, the model they name, and what a failed call becomes."""

from __future__ import annotations

import pytest

from pipeline.errors import ProviderError
from pipeline.intents.taxonomy import FALLBACK_INTENT
from pipeline.providers.base import code_fingerprint
from pipeline.providers.claude.classifier import ClaudeClassifier
from pipeline.providers.claude.responder import ClaudeResponder
from pipeline.providers.claude.settings import ClaudeSettings
from pipeline.providers.claude.structured import ClaudeStructured
from pipeline.providers.claude.summarizer import ClaudeSummarizer
from pipeline.providers.local_llm.responder import LocalLLMResponder
from pipeline.providers.local_llm.roles import EngineRole
from pipeline.providers.local_llm.structured import LocalLLMStructured
from pipeline.providers.local_llm.summarizer import LocalLLMSummarizer
from pipeline.providers.openai_compat.classifier import OpenAIClassifier
from pipeline.providers.openai_compat.responder import OpenAIResponder
from pipeline.providers.openai_compat.settings import OpenAISettings
from pipeline.providers.roles import AsProviderError, ClassifierRole, ClientRole, read_answer
from pipeline.reading import ClassifiedIntent


class Failed(Exception):
    pass


def test_a_named_failure_becomes_a_provider_error_with_the_hint():
    with pytest.raises(ProviderError) as caught, AsProviderError(Failed, "what happens instead"):
        raise Failed("the server said no")
    assert caught.value.one_line() == "the server said no — what happens instead"
    assert isinstance(caught.value.__cause__, Failed)


def test_other_errors_and_values_pass_through():
    with pytest.raises(KeyError), AsProviderError(Failed, "hint"):
        raise KeyError("x")

    def answer() -> int:
        with AsProviderError(Failed, "hint"):
            return 7

    assert answer() == 7


@pytest.mark.parametrize(
    ("role", "settings", "model"),
    [
        (ClaudeClassifier, ClaudeSettings(classifier_model="c", responder_model="r"), "c"),
        (ClaudeResponder, ClaudeSettings(classifier_model="c", responder_model="r"), "r"),
        (ClaudeSummarizer, ClaudeSettings(classifier_model="c", responder_model="r"), "r"),
        (ClaudeStructured, ClaudeSettings(classifier_model="c", responder_model="r"), "r"),
        (OpenAIClassifier, OpenAISettings(base_url="http://x", model="m"), "m"),
        (OpenAIResponder, OpenAISettings(base_url="http://x", model="m"), "m"),
    ],
)
def test_each_sdk_role_names_its_model_from_its_settings(role, settings, model):
    assert issubclass(role, ClientRole)
    made = role(object(), settings, None) if issubclass(role, ClassifierRole) else None
    made = made or role(object(), settings)
    assert made.model == model


@pytest.mark.parametrize("role", [LocalLLMResponder, LocalLLMStructured, LocalLLMSummarizer])
def test_the_local_llm_roles_share_the_engine_role(role):
    assert issubclass(role, EngineRole)


def test_a_failed_classifier_call_degrades_to_conversation_with_why():
    settings = OpenAISettings(base_url="http://x", model="m")
    classifier = OpenAIClassifier(object(), settings, None)
    got = classifier.failed(Failed("timed out"), ())
    assert (got.intent, got.error, got.provider, got.model) == (
        FALLBACK_INTENT,
        "timed out",
        "openai-compatible",
        "m",
    )


def test_an_answer_is_read_or_degraded_saying_what_was_wrong():
    meta = {"provider": "p", "model": "m"}
    assert read_answer("cut off", None, "the answer", **meta).error == "cut off"
    wrong = read_answer("", {}, "the tool input", **meta)
    assert wrong.intent == FALLBACK_INTENT
    assert wrong.error == "the tool input does not match its schema: intent: Field required"
    right = read_answer("", {"intent": "general_conversation"}, "the answer", **meta)
    assert isinstance(right, ClassifiedIntent)
    assert (right.intent, right.error) == ("general_conversation", None)


def test_the_fingerprint_covers_the_shared_role():
    """Editing roles.py must not replay answers cached before the edit."""

    class Plain:
        pass

    class Role(ClientRole[object, object]):
        name = "test"

    assert code_fingerprint(Plain()) != code_fingerprint(Role(object(), object()))
