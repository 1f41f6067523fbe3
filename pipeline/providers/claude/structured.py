"""Structured answers from Claude (the responder's model), in the request shape the model
accepts: a forced tool named after the schema, or the schema as structured output."""

from __future__ import annotations

import json

import anthropic

from pipeline.errors import ProviderError
from pipeline.providers.claude.calls import CallFailed, create_message
from pipeline.providers.claude.models import classifier_shape, thinking_plan
from pipeline.providers.claude.settings import ClaudeSettings
from pipeline.providers.structured import StructuredAnswer, StructuredRequest

NAME = "claude"


class ClaudeStructured:
    """One Messages call per request."""

    name = NAME

    def __init__(self, client: anthropic.Anthropic, settings: ClaudeSettings) -> None:
        self._client = client
        self._settings = settings

    def generate(self, request: StructuredRequest) -> StructuredAnswer:
        """The model's JSON text; ProviderError when the call fails."""
        model = self._settings.responder_model
        forced = classifier_shape(model) == "forced_tool"
        plan = thinking_plan(model, request.max_tokens)
        try:
            response = create_message(
                self._client,
                max_retries=self._settings.max_retries,
                model=model,
                max_tokens=plan.max_tokens,
                system=[{"type": "text", "text": request.system}],
                messages=[{"role": "user", "content": request.user}],
                refs=request.prompt_refs,
                tools=[
                    {
                        "name": request.schema_name,
                        "description": f"Answer with the {request.schema_name} object.",
                        "input_schema": request.schema,
                    }
                ]
                if forced
                else None,
                tool_choice={"type": "tool", "name": request.schema_name} if forced else None,
                thinking=plan.thinking,
                output_config=plan.output_config(None if forced else request.schema),
            )
        except CallFailed as exc:
            raise ProviderError(str(exc), "the conversation stays open; close it again") from exc
        if forced:
            called, raw = response.tool_input(request.schema_name)
            text = json.dumps(raw) if called and not isinstance(raw, str) else str(raw or "")
        else:
            text = response.text
        return StructuredAnswer(
            text=text,
            method=f"{NAME} {response.model}",
            usage=response.usage_record(),
            truncated=response.stop_reason == "max_tokens",
        )
