"""Structured answers from Claude (the responder's model), in the request shape the model
accepts: a forced tool named after the schema, or the schema as structured output.

`structured_call` is the one place that request is built; the structured generator here, the
compaction summarizer and the eval's compaction judge all ask through it.
"""

from __future__ import annotations

import json

import anthropic

from pipeline.providers.claude.calls import CallFailed, create_message
from pipeline.providers.claude.models import classifier_shape, thinking_plan
from pipeline.providers.claude.settings import ClaudeSettings
from pipeline.providers.roles import STRUCTURED_FALLBACK, AsProviderError, ClientRole
from pipeline.providers.structured import StructuredAnswer, StructuredRequest

NAME = "claude"


def structured_call(
    client: anthropic.Anthropic,
    settings: ClaudeSettings,
    request: StructuredRequest,
    description: str,
) -> StructuredAnswer:
    """One Messages call answered with one JSON object in `request.schema`: a tool named
    `request.schema_name` (described by `description`) that the model must call, where the
    model takes a forced tool, else the schema as structured output. CallFailed when the call
    fails; each caller says what that means for its own work."""
    model = settings.responder_model
    forced = classifier_shape(model) == "forced_tool"
    plan = thinking_plan(model, request.max_tokens)
    response = create_message(
        client,
        max_retries=settings.max_retries,
        model=model,
        max_tokens=plan.max_tokens,
        system=[{"type": "text", "text": request.system}],
        messages=[{"role": "user", "content": request.user}],
        refs=request.prompt_refs,
        tools=[
            {
                "name": request.schema_name,
                "description": description,
                "input_schema": request.schema,
            }
        ]
        if forced
        else None,
        tool_choice={"type": "tool", "name": request.schema_name} if forced else None,
        thinking=plan.thinking,
        output_config=plan.output_config(None if forced else request.schema),
    )
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
        model=response.model,
    )


class ClaudeStructured(ClientRole[anthropic.Anthropic, ClaudeSettings]):
    """One Messages call per request."""

    name = NAME
    model_field = "responder_model"

    def generate(self, request: StructuredRequest) -> StructuredAnswer:
        """The model's JSON text; ProviderError when the call fails."""
        description = f"Answer with the {request.schema_name} object."
        with AsProviderError(CallFailed, STRUCTURED_FALLBACK):
            return structured_call(self._client, self._settings, request, description)
