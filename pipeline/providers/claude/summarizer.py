"""Compaction summaries written by Claude (the responder's model), in the request shape the
model accepts: a forced `write_summary` tool, or the schema as structured output."""

from __future__ import annotations

from collections.abc import Sequence

import anthropic
from anthropic.types import AssistantMessageParam, MessageParam, UserMessageParam

from pipeline.domain import HistoryTurn, Role
from pipeline.errors import ProviderError
from pipeline.providers.claude.calls import CallFailed, describe_api_error
from pipeline.providers.claude.settings import ClaudeSettings
from pipeline.providers.claude.structured import structured_call
from pipeline.providers.roles import SUMMARY_FALLBACK, AsProviderError, ClientRole
from pipeline.providers.structured import StructuredRequest
from pipeline.providers.summarize import (
    SUMMARY_SCHEMA,
    SUMMARY_SCHEMA_NAME,
    SummarizeRequest,
    Summary,
    read_summary,
    summary_prompt,
)

NAME = "claude"
# What the forced `write_summary` tool says it is, for models that answer through one.
DESCRIPTION = "The summary that replaces the earlier turns, and durable personal facts."


def _message(user: bool, content: str) -> MessageParam:
    if user:
        return UserMessageParam(role="user", content=content)
    return AssistantMessageParam(role="assistant", content=content)


class ClaudeSummarizer(ClientRole[anthropic.Anthropic, ClaudeSettings]):
    """Folds older turns into a summary with one Messages call."""

    name = NAME
    model_field = "responder_model"

    @property
    def client(self) -> anthropic.Anthropic:
        """The SDK client it calls through (an eval's judge shares it, cassette and all)."""
        return self._client

    @property
    def settings(self) -> ClaudeSettings:
        """Its Claude settings (models, retries)."""
        return self._settings

    def count_tokens(self, turns: Sequence[HistoryTurn]) -> int:
        """The turns as the responder's model counts them (`messages.count_tokens`, one call,
        no tokens spent); ProviderError when the API gives no count."""
        messages = [_message(t.role is Role.OPERATOR, t.content or " ") for t in turns]
        if messages and messages[0]["role"] != "user":
            # the API wants a user turn first; the count barely changes with a blank one
            messages.insert(0, _message(True, " "))
        if messages and messages[-1]["role"] != "user":
            # a final assistant turn would be a prefill, which newer models refuse
            messages.append(_message(True, " "))
        try:
            counted = self._client.messages.count_tokens(
                model=self._settings.responder_model, messages=messages
            )
        except anthropic.APIError as exc:
            raise ProviderError(
                describe_api_error(exc, self._settings.max_retries),
                "compaction measures with the 4-characters-a-token estimate instead",
            ) from exc
        return int(counted.input_tokens)

    def summarize(self, request: SummarizeRequest) -> Summary:
        """The model's summary; ProviderError when the call or its answer is unusable."""
        asked = StructuredRequest(
            system=request.instructions,
            user=summary_prompt(request),
            schema_name=SUMMARY_SCHEMA_NAME,
            schema=SUMMARY_SCHEMA,
            max_tokens=request.budget_tokens + 200,
            prompt_refs=request.prompt_refs,
        )
        with AsProviderError(CallFailed, SUMMARY_FALLBACK):
            answer = structured_call(self._client, self._settings, asked, DESCRIPTION)
        return read_summary(
            answer.text, method=answer.method, usage=answer.usage, truncated=answer.truncated
        )
