"""The Claude classifier: one Messages call with a forced `classify_intent` tool call."""

from __future__ import annotations

import json
from typing import Any

import anthropic
from anthropic.types import ToolParam
from pydantic import ValidationError

from pipeline.assemble import classifier_prompt
from pipeline.domain import ClassifiedIntent
from pipeline.prompting import PromptLibrary
from pipeline.providers.base import ClassifyRequest, degraded, validated
from pipeline.providers.claude.calls import CallFailed, WireMessage, create_message
from pipeline.providers.claude.settings import ClaudeSettings
from pipeline.providers.claude.wire import cached_block, history_messages
from pipeline.providers.intent_schema import (
    SCHEMA_DESCRIPTION,
    SCHEMA_NAME,
    IntentAnswer,
    answer_schema,
    first_error,
)

NAME = "claude"
TOOL_NAME = SCHEMA_NAME


def tool_definition() -> ToolParam:
    """The forced tool: the intent enum and every parameter, built from the taxonomy."""
    return {
        "name": TOOL_NAME,
        "description": SCHEMA_DESCRIPTION,
        "input_schema": answer_schema(),
    }


# Kept under its earlier name: the tool input is the shared classification answer.
ToolInput = IntentAnswer


class ClaudeClassifier:
    """Classifies with one Messages call; bad output degrades to conversation, with the error."""

    name = NAME

    def __init__(
        self, client: anthropic.Anthropic, settings: ClaudeSettings, library: PromptLibrary
    ) -> None:
        self._client = client
        self._settings = settings
        self._library = library
        self._tool = tool_definition()

    @property
    def model(self) -> str:
        """The configured classifier model."""
        return self._settings.classifier_model

    def classify(self, request: ClassifyRequest) -> ClassifiedIntent:
        """Classify the request's message; never raises for anything the API or model does."""
        system = classifier_prompt(self._library, project_name=request.project_name)
        refs = (system.ref,)
        try:
            response = create_message(
                self._client,
                max_retries=self._settings.max_retries,
                model=self._settings.classifier_model,
                max_tokens=self._settings.classifier_max_tokens,
                system=[cached_block(system.text)],
                messages=history_messages(request.history, request.message, notes=True),
                refs=refs,
                tools=[self._tool],
                tool_choice={"type": "tool", "name": TOOL_NAME, "disable_parallel_tool_use": True},
            )
        except CallFailed as exc:
            return degraded(str(exc), provider=NAME, model=self.model, prompt_refs=refs)
        meta: dict[str, Any] = {
            "provider": NAME,
            "model": response.model,
            "prompt_refs": refs,
            "usage": response.usage_record(),
        }
        problem, raw = _tool_call(response, self._settings.classifier_max_tokens)
        if problem:
            return degraded(problem, **meta)
        try:
            parsed = ToolInput.model_validate(raw)
        except ValidationError as exc:
            return degraded(
                f"the {TOOL_NAME} input does not match its schema: {first_error(exc)}", **meta
            )
        values = parsed.model_dump()
        intent = values.pop("intent")
        return validated(intent, {k: v for k, v in values.items() if v is not None}, **meta)


def _tool_call(response: WireMessage, max_tokens: int) -> tuple[str, Any]:
    """The forced tool call's input, or why there is no usable one."""
    stop = response.stop_reason
    if stop == "refusal":
        return "the model refused to classify (stop_reason refusal)", None
    called, raw = response.tool_input(TOOL_NAME)
    if not called:
        return f"the model answered without calling {TOOL_NAME} (stop_reason {stop})", None
    if stop == "max_tokens":
        return f"the {TOOL_NAME} call was cut off at max_tokens ({max_tokens})", None
    if isinstance(raw, str):  # some compatible servers send the input as a JSON string
        try:
            raw = json.loads(raw)
        except json.JSONDecodeError as exc:
            return f"the {TOOL_NAME} input is not valid JSON ({exc})", None
    return "", raw
