"""The Claude responder: the assembled system prompt (its stable prefix cached) and the history."""

from __future__ import annotations

import anthropic

from pipeline.domain import Reply
from pipeline.errors import ProviderError
from pipeline.providers.base import RespondRequest
from pipeline.providers.claude.calls import CallFailed, create_message
from pipeline.providers.claude.models import thinking_plan
from pipeline.providers.claude.settings import ClaudeSettings
from pipeline.providers.claude.wire import history_messages, responder_system

NAME = "claude"
_HINT = "the companion answered with an offline reply; memory was handled as classified"


class ClaudeResponder:
    """Writes the companion's reply with one Messages call."""

    name = NAME

    def __init__(self, client: anthropic.Anthropic, settings: ClaudeSettings) -> None:
        self._client = client
        self._settings = settings

    @property
    def model(self) -> str:
        """The configured responder model."""
        return self._settings.responder_model

    def respond(self, request: RespondRequest) -> Reply:
        """The model's reply; raises ProviderError when there is no usable one."""
        # Thinking as far off as the model allows: its tokens count against max_tokens.
        plan = thinking_plan(self.model, self._settings.responder_max_tokens)
        try:
            response = create_message(
                self._client,
                max_retries=self._settings.max_retries,
                model=self.model,
                max_tokens=plan.max_tokens,
                system=responder_system(request.system),
                messages=history_messages(request.history, request.message),
                refs=request.system.refs,
                thinking=plan.thinking,
                output_config=plan.output_config(),
            )
        except CallFailed as exc:
            raise ProviderError(str(exc), _HINT) from exc
        if response.stop_reason == "refusal":
            raise ProviderError("the model refused to reply (stop_reason refusal)", _HINT)
        if not response.text:
            stop = response.stop_reason
            raise ProviderError(f"the model's reply was empty (stop_reason {stop})", _HINT)
        return Reply(
            text=response.text,
            provider=NAME,
            model=response.model,
            usage=response.usage_record(),
            truncated=response.stop_reason == "max_tokens",
        )
