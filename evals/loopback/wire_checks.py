"""What the loopback server refuses in a Messages request, as the API would: a malformed
body, a model it does not know, thinking or structured output the model does not take; and
which kind of call a request is (a forced classification or a reply)."""

from __future__ import annotations

from typing import Any

from pipeline.providers.claude import ModelCaps, caps_of


def wire_problem(body: Any) -> str:
    """What is malformed in the body, as the API says it ("" when nothing)."""
    if not isinstance(body, dict):
        return "the request body must be a JSON object"
    if not isinstance(body.get("model"), str) or not body["model"]:
        return "model: field required"
    if not isinstance(body.get("max_tokens"), int):
        return "max_tokens: field required"
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return "messages: at least one message is required"
    if not all(isinstance(m, dict) and m.get("role") in ("user", "assistant") for m in messages):
        return "messages: each message needs a role of user or assistant"
    if messages[0]["role"] != "user":
        return "messages: the first message must use the user role"
    choice = body.get("tool_choice")
    if isinstance(choice, dict) and choice.get("type") == "tool":
        names = {t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)}
        if choice.get("name") not in names:
            return f"tool_choice: tool {choice.get('name')!r} is not among the tools"
    return ""


def request_kind(body: dict[str, Any]) -> str:
    """classify (a forced tool, or a structured-output format) or respond (the responder, which
    may be offered tools it chooses to call)."""
    choice = body.get("tool_choice")
    forced = isinstance(choice, dict) and choice.get("type") in ("tool", "any")
    return "classify" if forced or output_format(body) is not None else "respond"


def output_format(body: dict[str, Any]) -> Any:
    """The structured-output format the request asks for, if any."""
    config = body.get("output_config")
    return config.get("format") if isinstance(config, dict) else None


def _thinking_type(body: dict[str, Any]) -> str | None:
    thinking = body.get("thinking")
    return str(thinking.get("type")) if isinstance(thinking, dict) else None


def thinking_on(body: dict[str, Any]) -> bool:
    """Whether the request gets thinking: asked for, or on by default for the model."""
    kind = _thinking_type(body)
    if kind is not None:
        return kind in ("enabled", "adaptive")
    caps = caps_of(str(body.get("model")))
    return caps is not None and caps.thinks_by_default()


def _thinking_problem(body: dict[str, Any], caps: ModelCaps, model: str) -> str:
    kind = _thinking_type(body)
    if kind is None or caps.accepts_thinking(kind):
        thinking = body.get("thinking") or {}
        budget = thinking.get("budget_tokens") if kind == "enabled" else None
        if isinstance(budget, int) and budget >= body["max_tokens"]:
            return "max_tokens must be greater than thinking.budget_tokens"
        return ""
    if kind == "disabled" and caps.thinking == "between_tools":
        return (
            f'thinking.type "disabled" is not supported on {model}; send '
            '{"type": "between_tools"} to turn off up-front thinking'
        )
    if kind == "disabled":
        return f"thinking cannot be disabled on {model}"
    if kind == "enabled":
        return (
            f'thinking.type "enabled" (budget_tokens) is not supported on {model}; use '
            '{"type": "adaptive"}'
        )
    if kind == "adaptive":
        return "adaptive thinking is not supported on this model"
    return f"thinking.type {kind!r} is not supported on {model}"


def model_problem(body: dict[str, Any]) -> str:
    """The request-shape rules of the model's row, as the API enforces them (400s)."""
    model = str(body["model"])
    caps = caps_of(model)
    if caps is None:
        return ""
    problem = _thinking_problem(body, caps, model)
    if problem:
        return problem
    if body["messages"][-1].get("role") == "assistant" and not caps.prefill:
        return (
            "This model does not support assistant message prefill. The conversation must end "
            "with a user message."
        )
    choice = body.get("tool_choice")
    if isinstance(choice, dict) and choice.get("type") in ("tool", "any"):
        if not caps.forced_tool:
            return (
                f"tool_choice: forced tool use is not supported on {model}; use tool_choice "
                '{"type": "auto"} or output_config.format'
            )
        if thinking_on(body):
            return "Thinking may not be enabled when tool_choice forces tool use."
    answer_format = output_format(body)
    if answer_format is not None:
        if not caps.structured_output:
            return f"output_config.format: structured outputs are not supported on {model}"
        if not isinstance(answer_format, dict) or answer_format.get("type") != "json_schema":
            return 'output_config.format.type: must be "json_schema"'
        schema = answer_format.get("schema")
        if not isinstance(schema, dict) or schema.get("additionalProperties") is not False:
            return (
                "output_config.format.schema: an object schema must set "
                "additionalProperties to false"
            )
    return ""
