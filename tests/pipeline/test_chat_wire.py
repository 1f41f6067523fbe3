"""The Chat Completions body is modelled once (pipeline/providers/chat_wire.py): llama.cpp in
process and an OpenAI-compatible server are read by the same models, so they read a body
alike."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pipeline.domain import Usage
from pipeline.providers.chat_wire import ChatCompletion
from pipeline.providers.local_llm import runtime
from pipeline.providers.local_llm.runtime import Engine
from pipeline.providers.local_llm.settings import LocalLLMSettings
from pipeline.providers.local_llm.weights import SMOLLM2
from pipeline.providers.openai_compat.calls import WireCompletion


def test_both_providers_read_completions_with_the_shared_models() -> None:
    assert issubclass(WireCompletion, ChatCompletion)
    assert issubclass(runtime._Completion, ChatCompletion)


def test_a_body_is_read_for_its_text_refusal_and_usage_and_nothing_else() -> None:
    body = ChatCompletion.model_validate(
        {
            "id": "x",
            "choices": [
                {"message": {"content": "  hi \n", "refusal": None}, "finish_reason": "stop"},
                {"message": {"content": "second"}},
            ],
            "usage": {"prompt_tokens": 12, "completion_tokens": 3, "total_tokens": 15},
        }
    )
    assert body.text == "hi" and body.first is not None and body.first.finish_reason == "stop"
    assert body.usage_record() == Usage(input_tokens=12, output_tokens=3)
    silent = ChatCompletion.model_validate({"choices": [], "usage": None})
    assert (silent.first, silent.text, silent.usage_record()) == (None, "", Usage())


class _Server:
    def __init__(self, body: dict[str, Any]) -> None:
        self.body = body

    def handle_chat_completions(self, request: dict[str, Any]) -> dict[str, Any]:
        return self.body


def test_llama_cpp_reporting_no_usage_counts_zero_like_a_served_completion(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    body = {
        "choices": [{"message": {"content": " ok "}, "finish_reason": "stop"}],
        "usage": None,
        "timings": {"cache_n": 7, "predicted_n": 2},
    }
    monkeypatch.setattr(runtime, "locate", lambda weights, cache_dir: Path("stub.gguf"))
    monkeypatch.setattr(runtime, "_start", lambda path, settings: _Server(body))
    answer = Engine(SMOLLM2, LocalLLMSettings(), Path(".")).chat([], max_tokens=8)
    assert (answer.text, answer.finish_reason, answer.predicted_n) == ("ok", "stop", 2)
    assert answer.usage == Usage(cache_read_input_tokens=7)
    served = WireCompletion.model_validate({"model": "m", **body})
    assert served.usage_record() == Usage()
