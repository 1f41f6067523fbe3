"""One compression stage asked of a model: render the stage's template, ask for JSON in the
stage's schema, validate it with pydantic, retry once with the error, and otherwise record
the error (the caller then uses the stage's deterministic fallback, labelled as such)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from pipeline.conversation_models import StageRecord
from pipeline.domain import PromptRef
from pipeline.errors import ProviderError
from pipeline.prompting import PromptLibrary
from pipeline.providers.structured import StructuredGenerator, StructuredRequest

M = TypeVar("M", bound=BaseModel)

FALLBACK = "deterministic (no model)"
RETRY_NOTE = (
    "A previous answer to this request was unusable. Answer again with the JSON object only, "
    "exactly in the schema."
)


@dataclass(frozen=True)
class Stage(Generic[M]):
    """A stage: its name, template family, answer model and token limit."""

    name: str
    family: str
    answer: type[M]
    max_tokens: int


def _problem(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "the answer"
    return f"{where}: {first['msg']}"


def ask(
    generator: StructuredGenerator,
    library: PromptLibrary,
    stage: Stage[M],
    *,
    operator_name: str,
    user: str,
    check: Callable[[M], None] | None = None,
    schema: dict[str, Any] | None = None,
) -> tuple[M | None, StageRecord]:
    """The stage's validated answer and what happened; (None, record with the error) when
    both attempts were unusable or the call failed. `schema` narrows the answer's schema for
    this request (the ids or names it may use); `check` enforces the same on the answer."""
    rendered = library.render(stage.family, operator_name=operator_name)
    request = StructuredRequest(
        system=rendered.text,
        user=user,
        schema_name=stage.family,
        schema=schema or stage.answer.model_json_schema(),
        max_tokens=stage.max_tokens,
        prompt_refs=(rendered.ref,),
    )
    method = generator.name
    problems: list[str] = []
    for attempt in (1, 2):
        try:
            answer = generator.generate(request)
        except ProviderError as exc:
            # The SDK has retried the call already: a failed call is recorded, not repeated.
            problems.append(f"the call failed: {exc.message}")
            return None, _failed(stage, method, attempt, problems, rendered.ref)
        method = answer.method
        try:
            if answer.truncated:
                raise ValueError("the answer was cut off at its token limit")
            value = stage.answer.model_validate_json(answer.text)
            if check is not None:
                check(value)
            return value, StageRecord(
                stage=stage.name, method=method, attempts=attempt, prompt=rendered.ref
            )
        except ValidationError as exc:
            problems.append(_problem(exc))
        except ValueError as exc:
            problems.append(str(exc))
        request = replace(
            request, user=f"{user}\n\nThe previous answer: {problems[-1]}\n\n{RETRY_NOTE}"
        )
    return None, _failed(stage, method, 2, problems, rendered.ref)


def _failed(
    stage: Stage[M], method: str, attempts: int, problems: list[str], ref: PromptRef
) -> StageRecord:
    detail = "; ".join(p.replace("\n", " ")[:200] for p in problems)
    return StageRecord(
        stage=stage.name,
        method=FALLBACK,
        attempts=attempts,
        error=f"{method} gave no usable {stage.name} answer ({detail}); {FALLBACK} used instead",
        prompt=ref,
    )
