"""One builder asks Claude for a JSON object: the structured generator, the compaction
summarizer and the eval's compaction judge send the same request shape through it (a forced
tool where the model takes one, else the schema as structured output) and read the answer
the same way."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest

from evals.runner.judge import SCHEMA_NAME, ClaudeJudge, Item
from pipeline.config import prompts_dir
from pipeline.prompting import PromptLibrary
from pipeline.providers.claude.settings import ClaudeSettings
from pipeline.providers.claude.structured import ClaudeStructured
from pipeline.providers.claude.summarizer import ClaudeSummarizer
from pipeline.providers.structured import StructuredRequest
from pipeline.providers.summarize import SUMMARY_SCHEMA_NAME, SummarizeRequest

FORCED = "claude-haiku-4-5"  # takes a forced tool
SCHEMA_ONLY = "claude-opus-5-5"  # thinking always on: the schema goes as structured output


class _Raw:
    def __init__(self, body: dict[str, Any]) -> None:
        self._body = body

    def json(self) -> dict[str, Any]:
        return self._body


class FakeClient:
    """Records each Messages call and answers with `answer` as the tool input or the text."""

    def __init__(self, answer: dict[str, Any]) -> None:
        self.answer = answer
        self.calls: list[dict[str, Any]] = []
        self.messages = SimpleNamespace(with_raw_response=self)

    def create(self, **kwargs: Any) -> _Raw:
        self.calls.append(kwargs)
        tools = kwargs.get("tools")
        if isinstance(tools, list):
            name = tools[0]["name"]
            block = {"type": "tool_use", "id": "t1", "name": name, "input": self.answer}
        else:
            block = {"type": "text", "text": json.dumps(self.answer)}
        usage = {"input_tokens": 11, "output_tokens": 7}
        body = {"model": kwargs["model"], "content": [block], "stop_reason": "end_turn"}
        return _Raw({**body, "usage": usage})


def _structured(client: Any, settings: ClaudeSettings) -> tuple[str, str]:
    schema = {"type": "object", "properties": {"ok": {"type": "boolean"}}}
    request = StructuredRequest("sys", "user", "verdict", schema, 100)
    return ClaudeStructured(client, settings).generate(request).text, "verdict"


def _summary(client: Any, settings: ClaudeSettings) -> tuple[str, str]:
    request = SummarizeRequest((), "", "Summarize.", 300, "Ana")
    summary = ClaudeSummarizer(client, settings).summarize(request)
    return summary.text, SUMMARY_SCHEMA_NAME


def _judge(client: Any, settings: ClaudeSettings) -> tuple[str, str]:
    lender = SimpleNamespace(client=client, settings=settings)
    rubric = ClaudeJudge(lender, PromptLibrary(prompts_dir())).grade(
        "ana: hi", "Ana said hi", [Item("fact", "hi")]
    )
    return json.dumps(rubric.present), SCHEMA_NAME


ANSWERS = {
    _structured: {"ok": True},
    _summary: {"summary": "Ana said hi", "facts": []},
    _judge: {
        "items": [{"number": 1, "present": True, "evidence": "hi"}],
        "faithful": True,
        "unsupported": [],
    },
}


@pytest.mark.parametrize("ask", list(ANSWERS), ids=lambda f: f.__name__.strip("_"))
@pytest.mark.parametrize("model", [FORCED, SCHEMA_ONLY])
def test_every_structured_caller_sends_the_same_request_shape(ask, model):
    client = FakeClient(ANSWERS[ask])
    text, schema_name = ask(client, ClaudeSettings(responder_model=model))
    (call,) = client.calls
    if model == FORCED:
        (tool,) = call["tools"]
        assert list(tool) == ["name", "description", "input_schema"]
        assert tool["name"] == schema_name
        assert call["tool_choice"] == {"type": "tool", "name": schema_name}
        assert "format" not in (call["output_config"] or {})
    else:
        assert call["output_config"]["format"]["type"] == "json_schema"
        assert call["tools"] is not None and not isinstance(call["tools"], list)  # omitted
    assert call["messages"][0]["role"] == "user"
    assert text  # the answer was read back, from the tool input or the text


@pytest.mark.parametrize("ask", list(ANSWERS), ids=lambda f: f.__name__.strip("_"))
def test_every_structured_caller_asks_through_the_one_builder(ask, monkeypatch):
    from pipeline.providers.claude import structured, summarizer

    seen: list[str] = []
    real = structured.structured_call

    def spy(client: Any, settings: ClaudeSettings, request: StructuredRequest, description: str):
        seen.append(request.schema_name)
        return real(client, settings, request, description)

    monkeypatch.setattr(structured, "structured_call", spy)
    monkeypatch.setattr(summarizer, "structured_call", spy)
    _, schema_name = ask(FakeClient(ANSWERS[ask]), ClaudeSettings(responder_model=FORCED))
    assert seen == [schema_name]
