"""What each Claude model accepts, and the request shape the providers choose from it.

One row per model (id prefix; dated ids match their alias, the longest prefix wins):

- `forced_tool`: `tool_choice` of type `tool` / `any` is accepted (with thinking off). Claude
  Sonnet 5.5 answers it with a 400 ("Forced tool use returns an error", What's new in Claude
  Sonnet 5.5), and so does any model whose thinking cannot be turned off (forced tool use with
  thinking on is a 400 on every model).
- `prefill`: a conversation may end with an assistant turn. A 400 on the Claude 4.6 models and
  later (Migration guide, "Prefill removal").
- `structured_output`: `output_config.format` with a JSON schema (GA, no beta header; SDK ≥ 2.x
  takes `output_config=` on `messages.create`).
- `thinking`: how thinking must be set so that a short, schema-shaped answer is not crowded out:
    * `off`       — off unless asked for; nothing is sent.
    * `disable`   — on by default; `thinking: {"type": "disabled"}` turns it off.
    * `between_tools` — on by default and `disabled` is a 400; `{"type": "between_tools"}` is
                    the lowest setting (Claude Sonnet 5.5).
    * `always_on` — cannot be turned off (`disabled` is a 400); its tokens count against
                    `max_tokens`, so `THINKING_HEADROOM` is added and effort is set to `low`.
- `budget_thinking`: `thinking: {"type": "enabled", "budget_tokens": N}` is accepted (Claude 4.5
  and earlier; deprecated on 4.6; a 400 on Claude 4.7 and later — Troubleshooting thinking).
- `adaptive_thinking`: `thinking: {"type": "adaptive"}` is accepted (Claude 4.6 and later; a 400,
  "adaptive thinking is not supported on this model", on Claude 4.5 and earlier).
- `legacy`: Anthropic lists a newer model in its place.

Sources (read 2026-11-26; see docs/prompts.md for the page each row comes from). A model not in
the table is treated as an Anthropic-compatible server would be: the forced-tool shape with
nothing else sent, since that is the form such servers speak. No SDK import here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:  # the SDK's types only
    from anthropic.types import OutputConfigParam, ThinkingConfigParam

TABLE_DATE = "2026-11-26"

Thinking = Literal["off", "disable", "between_tools", "always_on"]
Shape = Literal["forced_tool", "structured_output"]

# Added to max_tokens when thinking cannot be turned off: thinking tokens count against it.
THINKING_HEADROOM = 2048


@dataclass(frozen=True)
class ModelCaps:
    """What one model accepts on the Messages API."""

    forced_tool: bool
    prefill: bool
    structured_output: bool
    thinking: Thinking
    budget_thinking: bool
    adaptive_thinking: bool
    legacy: bool
    label: str

    @property
    def thinking_off_param(self) -> ThinkingConfigParam | None:
        """The `thinking` value that turns thinking as far off as the model allows (None: send
        nothing)."""
        if self.thinking == "disable":
            return {"type": "disabled"}
        if self.thinking == "between_tools":
            return {"type": "between_tools"}
        return None

    def accepts_thinking(self, kind: str) -> bool:
        """Whether a request's `thinking.type` is accepted (anything else is a 400)."""
        if kind == "enabled":
            return self.budget_thinking
        if kind == "disabled":
            return self.thinking in ("off", "disable")
        if kind == "between_tools":
            return self.thinking == "between_tools"
        return kind == "adaptive" and self.adaptive_thinking

    def thinks_by_default(self) -> bool:
        """Whether a request that sends no `thinking` gets thinking."""
        return self.thinking != "off"


def _caps(
    label: str,
    *,
    forced_tool: bool = True,
    prefill: bool = True,
    structured_output: bool = True,
    thinking: Thinking = "off",
    budget_thinking: bool = True,
    adaptive_thinking: bool = True,
    legacy: bool = True,
) -> ModelCaps:
    return ModelCaps(
        forced_tool,
        prefill,
        structured_output,
        thinking,
        budget_thinking,
        adaptive_thinking,
        legacy,
        label,
    )


MODELS: dict[str, ModelCaps] = {
    # Current (models overview): Fable 5.1, Opus 5.5, Sonnet 5.5, Haiku 5.5.
    "claude-fable-5-1": _caps(
        "Claude Fable 5.1", forced_tool=False, prefill=False, thinking="always_on",
        budget_thinking=False, legacy=False,
    ),
    "claude-opus-5-5": _caps(
        "Claude Opus 5.5", forced_tool=False, prefill=False, thinking="always_on",
        budget_thinking=False, legacy=False,
    ),
    "claude-sonnet-5-5": _caps(
        "Claude Sonnet 5.5", forced_tool=False, prefill=False, thinking="between_tools",
        budget_thinking=False, legacy=False,
    ),
    # Forced tool use is not among Haiku 5.5's documented breaking changes, but it is not
    # documented as accepted either; the table does not claim it (see docs/prompts.md).
    "claude-haiku-5-5": _caps(
        "Claude Haiku 5.5", forced_tool=False, prefill=False, thinking="disable",
        budget_thinking=False, legacy=False,
    ),
    # Legacy: a newer model of the same line is listed.
    "claude-sonnet-4-6": _caps("Claude Sonnet 4.6", prefill=False),
    "claude-opus-4-6": _caps("Claude Opus 4.6", prefill=False),
    "claude-sonnet-4-5": _caps("Claude Sonnet 4.5", adaptive_thinking=False),
    "claude-opus-4-5": _caps("Claude Opus 4.5", adaptive_thinking=False),
    "claude-haiku-4-5": _caps("Claude Haiku 4.5", adaptive_thinking=False),
}  # fmt: skip

DEFAULT_CLASSIFIER_MODEL = "claude-haiku-5-5"
DEFAULT_RESPONDER_MODEL = "claude-sonnet-5-5"


def caps_of(model: str) -> ModelCaps | None:
    """The model's row, or None when the table does not list it."""
    matches = [prefix for prefix in MODELS if model.startswith(prefix)]
    return MODELS[max(matches, key=len)] if matches else None


def classifier_shape(model: str) -> Shape:
    """How the classifier asks `model` for its answer: a forced tool call where the model takes
    one, else structured output. A model the table does not list gets the forced tool."""
    caps = caps_of(model)
    if caps is None or (caps.forced_tool and caps.thinking != "always_on"):
        return "forced_tool"
    if caps.structured_output:
        return "structured_output"
    return "forced_tool"


@dataclass(frozen=True)
class ThinkingPlan:
    """What a request sends so thinking stays out of the way: the `thinking` value (or none),
    `output_config.effort` (or none), and max_tokens with room for thinking that stays on."""

    thinking: ThinkingConfigParam | None
    effort: Literal["low"] | None
    max_tokens: int

    def output_config(self, schema: dict[str, object] | None = None) -> OutputConfigParam | None:
        """`output_config`: the effort, and the answer's JSON schema for structured output."""
        config: OutputConfigParam = {}
        if schema is not None:
            config["format"] = {"type": "json_schema", "schema": schema}
        if self.effort is not None:
            config["effort"] = self.effort
        return config or None


def thinking_plan(model: str, max_tokens: int) -> ThinkingPlan:
    """Thinking as far off as the model allows; where it cannot be off, low effort and room."""
    caps = caps_of(model)
    if caps is None:
        return ThinkingPlan(None, None, max_tokens)
    if caps.thinking == "always_on":
        return ThinkingPlan(None, "low", max_tokens + THINKING_HEADROOM)
    return ThinkingPlan(caps.thinking_off_param, None, max_tokens)
