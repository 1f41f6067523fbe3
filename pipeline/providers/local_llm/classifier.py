"""The local-LLM classifier: the `classifier` template as the system prompt, the conversation
as chat messages (companion turns with their notes), and the answer constrained by the intent
schema, parsed and validated like the other model providers' answers."""

from __future__ import annotations

import json
from typing import Any

from pipeline.domain import HistoryTurn
from pipeline.intents.taxonomy import INTENTS, REQUIRED_PARAMS
from pipeline.prompting import PromptLibrary
from pipeline.providers.answers import degraded
from pipeline.providers.base import ClassifyRequest
from pipeline.providers.classifier_system import classifier_system_prompt
from pipeline.providers.claude.wire import history_messages
from pipeline.providers.intent_schema import (
    READING_SCHEMA,
    SCHEMA_DESCRIPTION,
    SCHEMA_NAME,
    answer_schema,
    reads_acts,
)
from pipeline.providers.local_llm.roles import EngineRole
from pipeline.providers.local_llm.runtime import Completion, Engine, GenerationFailed, Message
from pipeline.providers.local_llm.settings import PROVIDER
from pipeline.providers.roles import read_answer
from pipeline.reading import ClassifiedIntent

# The reading's fields that answer something the companion's previous turn left pending; a
# message with no companion turn before it has nothing pending, so its answer never has them.
PENDING_FIELDS = ("relation", "corrected", "chosen", "project_only")
# A small model's list of acts is kept short: one more than most messages need.
MAX_ACTS = 3


def response_format(*, pending: bool = True, acts: bool = False) -> dict[str, Any]:
    """The constrained answer: the taxonomy's schema, turned into a grammar by llama.cpp;
    without `pending`, the shortest one: no field that answers a pending offer. With `acts`
    (a classifier version that reads acts), a list of such answers, one an act."""
    schema = intent_branches_schema(pending=pending)
    if acts:
        schema = {
            "type": "object",
            "properties": {
                "acts": {"type": "array", "minItems": 1, "maxItems": MAX_ACTS, "items": schema}
            },
            "required": ["acts"],
            "additionalProperties": False,
        }
    return {
        "type": "json_schema",
        "json_schema": {
            "name": SCHEMA_NAME,
            "description": SCHEMA_DESCRIPTION,
            "schema": schema,
        },
    }


def may_be_pending(request: ClassifyRequest) -> bool:
    """Whether anything can be pending: only a companion turn right before the message can
    leave an offer or a question open."""
    return request.prior_companion is not None


def chat_messages(
    system: str, history: tuple[HistoryTurn, ...], message: str, *, notes: bool = False
) -> list[Message]:
    """The system prompt, then the turns as the other model providers send them."""
    messages: list[Message] = [{"role": "system", "content": system}]
    for turn in history_messages(history, message, notes=notes):
        messages.append({"role": str(turn["role"]), "content": str(turn["content"])})
    return messages


class LocalLLMClassifier(EngineRole):
    """Classifies with one constrained generation; bad output degrades to conversation."""

    def __init__(self, engine: Engine, library: PromptLibrary, max_tokens: int) -> None:
        super().__init__(engine)
        self._library = library
        self._max_tokens = max_tokens
        self._formats = {
            (pending, acts): response_format(pending=pending, acts=acts)
            for pending in (True, False)
            for acts in (True, False)
        }

    def classify(self, request: ClassifyRequest) -> ClassifiedIntent:
        """Classify the request's message; never raises for anything the model does."""
        system_text, refs = classifier_system_prompt(self._library, request)
        messages = chat_messages(system_text, request.history, request.message, notes=True)
        try:
            answer = self._engine.chat(
                messages,
                max_tokens=self._max_tokens,
                response_format=self._formats[(may_be_pending(request), reads_acts(refs))],
                prefix=refs[0].sha256 if refs else None,
            )
        except GenerationFailed as exc:
            return degraded(str(exc), provider=PROVIDER, model=self.model, prompt_refs=refs)
        return parse_answer(answer, model=self.model, refs=refs, max_tokens=self._max_tokens)


def parse_answer(
    answer: Completion, *, model: str, refs: tuple[Any, ...], max_tokens: int
) -> ClassifiedIntent:
    """The classification in a generated answer, or the degraded one saying what was wrong."""
    meta: dict[str, Any] = {
        "provider": PROVIDER,
        "model": model,
        "prompt_refs": refs,
        "usage": answer.usage,
    }
    problem, raw = _answer(answer, max_tokens)
    return read_answer(problem, raw, "the answer", **meta)


def _answer(answer: Completion, max_tokens: int) -> tuple[str, Any]:
    """The JSON answer, or why there is no usable one."""
    if answer.finish_reason == "length":
        return f"the answer was cut off at max_tokens ({max_tokens})", None
    if not answer.text:
        return f"the model's answer was empty (finish_reason {answer.finish_reason})", None
    try:
        return "", json.loads(answer.text)
    except json.JSONDecodeError as exc:
        return f"the answer is not valid JSON ({exc})", None


def intent_branches_schema(*, pending: bool = True) -> dict[str, Any]:
    """The answer schema of `intent_schema`, split by intent: one branch per intent allowing
    only that intent's parameters and requiring the ones the taxonomy requires. A small model
    writing `personal_fact` beside `add_knowledge` is then impossible, not merely invalid.
    Without `pending`, the fields that answer a pending offer are left out too."""
    base = answer_schema()["properties"]
    reading = [name for name in READING_SCHEMA if pending or name not in PENDING_FIELDS]
    branches = []
    for name, spec in INTENTS.items():
        properties: dict[str, Any] = {"intent": {"type": "string", "const": name}}
        properties.update({p: base[p] for p in spec.params})
        properties.update({field: base[field] for field in reading})
        branches.append(
            {
                "type": "object",
                "properties": properties,
                "required": ["intent", *REQUIRED_PARAMS.get(name, ())],
                "additionalProperties": False,
            }
        )
    return {"anyOf": branches}
