"""What a target produced for one case, before scoring."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from pipeline.domain import PromptRef, Usage

# Memory ages are counted back from a fixed moment so blocks are the same on every run.
NOW = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Outcome:
    """What a target produced for one case (before scoring)."""

    got: dict[str, Any]
    error: str | None = None
    model: str = ""
    prompt_refs: tuple[PromptRef, ...] = ()
    usage: Usage = field(default_factory=Usage)
    latency_ms: float = 0.0
    cassette: str | None = None
    # Replies cut off at max_tokens (accepted, but counted), and what the calls cost in dollars
    # (None when a model has no price, e.g. synthetic answers).
    truncated: int = 0
    cost_usd: float | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form (for the cache)."""
        return {
            "got": self.got,
            "error": self.error,
            "model": self.model,
            "prompt_refs": [r.model_dump() for r in self.prompt_refs],
            "usage": self.usage.model_dump(),
            "latency_ms": self.latency_ms,
            "cassette": self.cassette,
            "truncated": self.truncated,
            "cost_usd": self.cost_usd,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Outcome:
        """Inverse of as_dict."""
        return cls(
            got=data["got"],
            error=data.get("error"),
            model=data.get("model", ""),
            prompt_refs=tuple(PromptRef(**r) for r in data.get("prompt_refs", [])),
            usage=Usage(**data.get("usage", {})),
            latency_ms=float(data.get("latency_ms", 0.0)),
            cassette=data.get("cassette"),
            truncated=int(data.get("truncated", 0)),
            cost_usd=data.get("cost_usd"),
        )
