"""The OpenAI-compatible responder: the assembled system prompt as a system message, then the
conversation; the reply carries the model name the server reports."""

from __future__ import annotations

import openai

from pipeline.domain import Reply
from pipeline.errors import ProviderError
from pipeline.providers.base import RespondRequest
from pipeline.providers.openai_compat.calls import CallFailed, chat_messages, create_completion
from pipeline.providers.openai_compat.settings import PROVIDER, OpenAISettings
from pipeline.providers.roles import REPLY_FALLBACK, AsProviderError, ClientRole


class OpenAIResponder(ClientRole[openai.OpenAI, OpenAISettings]):
    """Writes the companion's reply with one Chat Completions call."""

    name = PROVIDER

    def respond(self, request: RespondRequest) -> Reply:
        """The model's reply; raises ProviderError when there is no usable one."""
        with AsProviderError(CallFailed, REPLY_FALLBACK):
            response = create_completion(
                self._client,
                max_retries=self._settings.max_retries,
                model=self._settings.model,
                max_tokens=self._settings.responder_max_tokens,
                messages=chat_messages(request.system.text, request.history, request.message),
                refs=request.system.refs,
            )
        choice = response.first
        if choice is not None and choice.message.refusal:
            raise ProviderError("the model refused to reply", REPLY_FALLBACK)
        if not response.text:
            stop = choice.finish_reason if choice else None
            raise ProviderError(
                f"the model's reply was empty (finish_reason {stop})", REPLY_FALLBACK
            )
        return Reply(
            text=response.text,
            provider=PROVIDER,
            model=response.model,
            usage=response.usage_record(),
            truncated=choice is not None and choice.finish_reason == "length",
        )
