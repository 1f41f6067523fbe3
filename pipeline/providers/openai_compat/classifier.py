"""The OpenAI-compatible classifier: one Chat Completions call whose answer is constrained by a
`json_schema` response format, the same intent enum and parameters Claude's tool carries."""

from __future__ import annotations

import json
from typing import Any

import openai

from pipeline.prompting import PromptLibrary
from pipeline.providers.base import ClassifyRequest
from pipeline.providers.classifier_system import classifier_system_prompt
from pipeline.providers.intent_schema import (
    SCHEMA_DESCRIPTION,
    SCHEMA_NAME,
    answer_schema,
    schema_for,
)
from pipeline.providers.openai_compat.calls import (
    CallFailed,
    WireCompletion,
    chat_messages,
    create_completion,
)
from pipeline.providers.openai_compat.settings import PROVIDER, OpenAISettings
from pipeline.providers.roles import ClassifierRole
from pipeline.reading import ClassifiedIntent


def response_format(schema: dict[str, Any] | None = None) -> dict[str, Any]:
    """The constrained answer: the taxonomy's schema (or the classifier version's, `schema_for`).
    Not `strict`: parameters are optional, which OpenAI's strict mode does not allow; the answer
    is validated here either way."""
    return {
        "type": "json_schema",
        "json_schema": {
            "name": SCHEMA_NAME,
            "description": SCHEMA_DESCRIPTION,
            "schema": schema if schema is not None else answer_schema(),
            "strict": False,
        },
    }


class OpenAIClassifier(ClassifierRole[openai.OpenAI, OpenAISettings]):
    """Classifies with one call; bad output degrades to conversation, with the error."""

    name = PROVIDER

    def __init__(
        self, client: openai.OpenAI, settings: OpenAISettings, library: PromptLibrary
    ) -> None:
        super().__init__(client, settings, library)
        self._format = response_format()

    def classify(self, request: ClassifyRequest) -> ClassifiedIntent:
        """Classify the request's message; never raises for anything the server or model does."""
        system_text, refs = classifier_system_prompt(self._library, request)
        schema = schema_for(refs)
        answer_format = (
            self._format
            if schema == self._format["json_schema"]["schema"]
            else response_format(schema)
        )
        try:
            response = create_completion(
                self._client,
                max_retries=self._settings.max_retries,
                model=self._settings.model,
                max_tokens=self._settings.classifier_max_tokens,
                messages=chat_messages(system_text, request.history, request.message, notes=True),
                refs=refs,
                response_format=answer_format,
            )
        except CallFailed as exc:
            return self.failed(exc, refs)
        problem, raw = _answer(response, self._settings.classifier_max_tokens)
        usage = response.usage_record()
        return self.answered(
            problem, raw, "the answer", model=response.model, refs=refs, usage=usage
        )


def _answer(response: WireCompletion, max_tokens: int) -> tuple[str, Any]:
    """The JSON answer, or why there is no usable one."""
    choice = response.first
    if choice is None:
        return "the server answered with no choices", None
    if choice.message.refusal:
        return f"the model refused to classify: {' '.join(choice.message.refusal.split())}", None
    stop = choice.finish_reason
    if stop == "length":
        return f"the answer was cut off at max_tokens ({max_tokens})", None
    if not response.text:
        return f"the model's answer was empty (finish_reason {stop})", None
    try:
        return "", json.loads(response.text)
    except json.JSONDecodeError as exc:
        return f"the answer is not valid JSON ({exc})", None
