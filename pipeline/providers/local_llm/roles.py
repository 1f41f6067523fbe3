"""What the local-LLM roles share: the engine they generate with, the model it runs, and one
completion constrained to a JSON schema (structured answers and summaries)."""

from __future__ import annotations

from typing import Any

from pipeline.providers.local_llm.runtime import Completion, Engine, GenerationFailed, Message
from pipeline.providers.local_llm.settings import PROVIDER
from pipeline.providers.roles import AsProviderError


class EngineRole:
    """A role that generates with the embedded model's `engine`."""

    name = PROVIDER

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    @property
    def model(self) -> str:
        """The model's name, as rows carry it."""
        return self._engine.weights.label

    @property
    def engine(self) -> Engine:
        """The loaded (or loadable) model this role shares with the provider's others."""
        return self._engine

    def constrained(
        self,
        system: str,
        user: str,
        *,
        max_tokens: int,
        schema_name: str,
        schema: dict[str, Any],
        hint: str,
    ) -> Completion:
        """One completion of `user` under `system`, constrained to `schema` (a llama.cpp
        grammar); ProviderError with `hint` when llama.cpp refuses the request."""
        messages: list[Message] = [
            {"role": "system", "content": system},
            {"role": "user", "content": user},
        ]
        with AsProviderError(GenerationFailed, hint):
            return self._engine.chat(
                messages,
                max_tokens=max_tokens,
                response_format={
                    "type": "json_schema",
                    "json_schema": {"name": schema_name, "schema": schema},
                },
            )
