"""The Chat Completions response body as pydantic models: the one shape that llama.cpp in
process (local-llm) and an OpenAI-compatible server (openai-compatible) answer with, checked
before anything reads it. Only the fields the providers read; the rest is ignored."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from pipeline.domain import Usage


class _Wire(BaseModel):
    """Ignores what the providers do not read (servers add fields of their own)."""

    model_config = ConfigDict(extra="ignore")


class WireChoiceMessage(_Wire):
    """The message of a choice."""

    content: str | None = None
    refusal: str | None = None


class WireChoice(_Wire):
    """One choice of a completion."""

    message: WireChoiceMessage
    finish_reason: str | None = None


class WireUsage(_Wire):
    """Token counts as the server reports them (some servers report none)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0


class ChatCompletion(_Wire):
    """A Chat Completions response: the fields every server sends (a provider adds its own)."""

    choices: list[WireChoice]
    usage: WireUsage | None = None

    @property
    def first(self) -> WireChoice | None:
        """The first choice, if the server sent any."""
        return self.choices[0] if self.choices else None

    @property
    def text(self) -> str:
        """The first choice's content, stripped."""
        choice = self.first
        return (choice.message.content or "").strip() if choice else ""

    def usage_record(self) -> Usage:
        """Token counts (zero when the server reports none)."""
        usage = self.usage or WireUsage()
        return Usage(input_tokens=usage.prompt_tokens, output_tokens=usage.completion_tokens)
