"""`converse prompts show FAMILY --tokens`: the cached prefix's length beside each model's minimum.

With ANTHROPIC_API_KEY the prefix is counted by the API (`messages.count_tokens`, which counts
the whole request: the prefix plus a one-word message); without, it is estimated at four
characters a token, and labelled as an estimate.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from rich.table import Table

from pipeline.cli.common import console
from pipeline.providers.claude.caching import (
    MIN_CACHEABLE_TOKENS,
    TABLE_DATE,
    TABLE_SOURCE,
    engages,
    estimate_tokens,
    known,
    min_cacheable,
)
from pipeline.providers.claude.models import classifier_shape
from pipeline.providers.claude.settings import ClaudeSettings


@dataclass(frozen=True)
class Prefix:
    """What a family contributes to a cached prefix: system text, and the tools if any."""

    label: str
    system: str
    tools: tuple[dict[str, Any], ...] = ()
    role: str = "responder"

    def estimate(self) -> int:
        """Four characters a token, tools as the JSON the request carries."""
        tools = json.dumps(list(self.tools), sort_keys=True) if self.tools else ""
        return estimate_tokens(tools + self.system)

    def sent_to(self, model: str) -> Prefix:
        """The prefix a request to `model` carries: the classifier's tool goes only to models
        that take a forced tool; the others get the schema as structured output, not cached."""
        if self.role != "classifier" or classifier_shape(model) == "forced_tool":
            return self
        return Prefix(self.label, self.system, (), self.role)


def count_with_api(prefix: Prefix, settings: ClaudeSettings, model: str) -> int:
    """The API's count for the prefix and a one-word message (needs a key; one call)."""
    from pipeline.providers.claude.client import make_client  # the SDK loads only here

    client = make_client(settings)
    result = client.messages.count_tokens(
        model=model,
        system=[{"type": "text", "text": prefix.system}],
        messages=[{"role": "user", "content": "hi"}],
        **({"tools": list(prefix.tools)} if prefix.tools else {}),  # type: ignore[arg-type]
    )
    return int(result.input_tokens)


def show_tokens(prefix: Prefix) -> None:
    """Print the prefix's length and, for each model, whether caching engages."""
    settings = ClaudeSettings.from_env()
    configured = {
        settings.classifier_model: "classifier",
        settings.responder_model: "responder",
    }
    mine = settings.classifier_model if prefix.role == "classifier" else settings.responder_model
    counted = prefix.sent_to(mine)
    if settings.api_key:
        tokens = count_with_api(counted, settings, mine)
        how = f"counted by the API for {mine} (messages.count_tokens, with a one-word message)"
    else:
        tokens = counted.estimate()
        how = "estimate: four characters a token; export ANTHROPIC_API_KEY to count with the API"
    console.print(
        f"cached prefix ({counted.label}{' and its tool' if counted.tools else ''}, as sent "
        f"to {mine}): {tokens:,} tokens ({how})",
        markup=False,
        highlight=False,
        soft_wrap=True,
    )
    # Each model's row: its own request shape's prefix (with or without the tool); the API's
    # count where there is one, the estimate for the others.
    table = Table(
        "model", "prefix", "minimum cacheable", "cached?", "configured as", title_justify="left"
    )
    models = list(dict.fromkeys([*configured, *MIN_CACHEABLE_TOKENS]))
    for model in models:
        here = tokens if model == mine else prefix.sent_to(model).estimate()
        minimum = min_cacheable(model)
        verdict = "yes" if engages(here, model) else f"no: {minimum - here:,} tokens short"
        shown = f"{minimum:,}" if known(model) else f"{minimum:,} (not listed)"
        table.add_row(model, f"{here:,}", shown, verdict, configured.get(model, ""))
    console.print(table)
    console.print(
        f"Minimums from {TABLE_SOURCE} (read {TABLE_DATE}); a model not listed is given the "
        "largest. Below its minimum a prefix is not cached: both cache counters stay 0.",
        markup=False,
        highlight=False,
        soft_wrap=True,
    )
