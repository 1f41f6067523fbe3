"""The local-LLM responder: the assembled system prompt as the system message, then the
conversation; greedy decoding up to `responder_max_tokens`. With the turn's tools, a small
constrained call first (pipeline/providers/local_llm/tools.py) may note a status or search
memory; what a search found is shown to the reply's system prompt."""

from __future__ import annotations

from pipeline.domain import Reply, Usage
from pipeline.errors import ProviderError
from pipeline.prompting import PromptLibrary, default_library, fence
from pipeline.providers.base import RespondRequest
from pipeline.providers.local_llm.classifier import chat_messages
from pipeline.providers.local_llm.roles import EngineRole
from pipeline.providers.local_llm.runtime import Engine, GenerationFailed
from pipeline.providers.local_llm.settings import PROVIDER
from pipeline.providers.local_llm.tools import use_tools
from pipeline.providers.roles import REPLY_FALLBACK, AsProviderError


class LocalLLMResponder(EngineRole):
    """Writes the companion's reply with the embedded model."""

    def __init__(
        self, engine: Engine, max_tokens: int, library: PromptLibrary | None = None
    ) -> None:
        super().__init__(engine)
        self._max_tokens = max_tokens
        self._library = library or default_library()

    def respond(self, request: RespondRequest) -> Reply:
        """The model's reply; raises ProviderError when there is no usable one."""
        system = request.system.text
        usage = Usage()
        if request.tools is not None:
            operator = request.tools.person.name
            used = use_tools(self._engine, self._library, request.tools, operator, request.message)
            usage = used.usage
            if used.recalled:
                found = fence(used.recalled, "search_memory")
                system += f"\n\nWhat a search of your memory found:\n{found}"
        messages = chat_messages(system, request.history, request.message)
        with AsProviderError(GenerationFailed, REPLY_FALLBACK):
            answer = self._engine.chat(messages, max_tokens=self._max_tokens)
        if not answer.text:
            raise ProviderError(
                f"the model's reply was empty (finish_reason {answer.finish_reason})",
                REPLY_FALLBACK,
            )
        return Reply(
            text=answer.text,
            provider=PROVIDER,
            model=self.model,
            usage=usage + answer.usage,
            truncated=answer.finish_reason == "length",
        )
