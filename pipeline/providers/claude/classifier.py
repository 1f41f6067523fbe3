"""The Claude classifier: one Messages call, in the shape the model accepts.

`forced_tool`: the `classify_intent` tool with `tool_choice` forcing it (models that accept a
forced tool). `structured_output`: the same schema as `output_config.format`, the answer a JSON
text block (models that reject a forced tool, e.g. Claude Sonnet 5.5). The shape comes from the
model's row in `models.py`; thinking is set as far off as the model allows (`thinking_plan`).
"""

from __future__ import annotations

import json
from typing import Any

import anthropic
from anthropic.types import ToolParam

from pipeline.prompting import PromptLibrary
from pipeline.providers.base import ClassifyRequest
from pipeline.providers.classifier_system import classifier_system_prompt
from pipeline.providers.claude.calls import CallFailed, WireMessage, create_message
from pipeline.providers.claude.models import Shape, classifier_shape, thinking_plan
from pipeline.providers.claude.settings import ClaudeSettings
from pipeline.providers.claude.wire import classifier_system, history_messages
from pipeline.providers.intent_schema import (
    SCHEMA_DESCRIPTION,
    SCHEMA_NAME,
    IntentAnswer,
    answer_schema,
    schema_for,
)
from pipeline.providers.roles import ClassifierRole
from pipeline.reading import ClassifiedIntent

NAME = "claude"
TOOL_NAME = SCHEMA_NAME


def tool_definition(schema: dict[str, Any] | None = None) -> ToolParam:
    """The forced tool: the intent enum and every parameter, built from the taxonomy (or, for
    a classifier version that reads acts, the list of acts: `schema_for`)."""
    return {
        "name": TOOL_NAME,
        "description": SCHEMA_DESCRIPTION,
        "input_schema": schema if schema is not None else answer_schema(),
    }


# Kept under its earlier name: the tool input is the shared classification answer.
ToolInput = IntentAnswer


class ClaudeClassifier(ClassifierRole[anthropic.Anthropic, ClaudeSettings]):
    """Classifies with one Messages call; bad output degrades to conversation, with the error."""

    name = NAME
    model_field = "classifier_model"

    def __init__(
        self, client: anthropic.Anthropic, settings: ClaudeSettings, library: PromptLibrary
    ) -> None:
        super().__init__(client, settings, library)
        self._tool = tool_definition()

    @property
    def shape(self) -> Shape:
        """The request shape: the setting, or the model's row of the capability table."""
        chosen = self._settings.classifier_shape
        if chosen == "forced_tool":
            return "forced_tool"
        if chosen == "structured_output":
            return "structured_output"
        return classifier_shape(self.model)

    def classify(self, request: ClassifyRequest) -> ClassifiedIntent:
        """Classify the request's message; never raises for anything the API or model does."""
        system_text, refs = classifier_system_prompt(self._library, request)
        schema = schema_for(refs)
        tool = self._tool if schema == self._tool["input_schema"] else tool_definition(schema)
        shape = self.shape
        plan = thinking_plan(self.model, self._settings.classifier_max_tokens)
        forced = shape == "forced_tool"
        try:
            response = create_message(
                self._client,
                max_retries=self._settings.max_retries,
                model=self.model,
                max_tokens=plan.max_tokens,
                system=classifier_system(system_text),
                messages=history_messages(request.history, request.message, notes=True),
                refs=refs,
                tools=[tool] if forced else None,
                tool_choice=(
                    {"type": "tool", "name": TOOL_NAME, "disable_parallel_tool_use": True}
                    if forced
                    else None
                ),
                thinking=plan.thinking,
                output_config=plan.output_config(None if forced else schema),
            )
        except CallFailed as exc:
            return self.failed(exc, refs)
        if forced:
            problem, raw = _tool_call(response, plan.max_tokens)
            what = f"the {TOOL_NAME} input"
        else:
            problem, raw = _structured_answer(response, plan.max_tokens)
            what = "the structured answer"
        usage = response.usage_record()
        return self.answered(problem, raw, what, model=response.model, refs=refs, usage=usage)


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


def _structured_answer(response: WireMessage, max_tokens: int) -> tuple[str, Any]:
    """The JSON answer of a structured-output call, or why there is no usable one."""
    stop = response.stop_reason
    if stop == "refusal":
        return "the model refused to classify (stop_reason refusal)", None
    if stop == "max_tokens":
        return f"the structured answer was cut off at max_tokens ({max_tokens})", None
    text = response.text
    if not text:
        return f"the model gave no structured answer (stop_reason {stop})", None
    try:
        return "", json.loads(text)
    except json.JSONDecodeError as exc:
        return f"the structured answer is not valid JSON ({exc})", None
