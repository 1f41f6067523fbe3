"""The classification answer every model-backed provider asks for: the intent enum and every
parameter as a JSON schema, built from the taxonomy, and the pydantic model that parses it.

Claude receives the schema as a forced tool's input or as `output_config.format` (by model,
pipeline/providers/claude/models.py); OpenAI-compatible servers receive it as a `json_schema`
response format. Both parse the answer with `IntentAnswer`, then `classification`.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from pipeline.domain import ProfileField, PromptRef
from pipeline.intents.taxonomy import INTENTS
from pipeline.providers.answers import validated
from pipeline.reading import ClassifiedIntent, Relation

SCHEMA_NAME = "classify_intent"
SCHEMA_DESCRIPTION = "Record the intent of the person's last message and its parameters."

# The released parameters' help; a parameter added since is described by its intent's spec
# (`IntentSpec.param_help`), read by `param_help`.
PARAM_HELP: dict[str, str] = {
    "knowledge": "the project fact, in the person's words without framing",
    "query": "what they ask about or want looked up",
    "knowledge_reference": "'all', a display number such as '3', or a short description",
    "knowledge_description": "a few words naming the project note to remove",
    "personal_fact": "the fact about the person, one sentence addressed to them ('You're ...')",
    "forget_description": "a few words naming what to forget",
    "reminder": "what to be reminded of",
    "when": "when to be reminded",
    "recipient": "who to share the project with",
    "format": "the export format",
}


def param_names() -> tuple[str, ...]:
    """Every parameter of every intent, in taxonomy order, each once."""
    return tuple(dict.fromkeys(p for spec in INTENTS.values() for p in spec.params))


def param_help(param: str) -> str:
    """A parameter's help: the released one, else the first spec's that declares it."""
    if param in PARAM_HELP:
        return PARAM_HELP[param]
    declared = (spec.param_help[param] for spec in INTENTS.values() if param in spec.param_help)
    return next(declared, param)


def answer_schema() -> dict[str, Any]:
    """The answer as a JSON schema: `intent` from the enum (required), parameters as strings."""
    properties: dict[str, object] = {
        "intent": {
            "type": "string",
            "enum": list(INTENTS),
            "description": "The one intent the person's last message expresses.",
        }
    }
    for param in param_names():
        users = ", ".join(name for name, spec in INTENTS.items() if param in spec.params)
        properties[param] = {
            "type": "string",
            "description": f"For {users}: {param_help(param)}. Omit when absent.",
        }
    properties.update(READING_SCHEMA)
    return {
        "type": "object",
        "properties": properties,
        "required": ["intent"],
        "additionalProperties": False,
    }


# The typed reading (pipeline/domain.py, Reading) and the message's flags, beside the
# parameters: optional, so an answer to an older prompt version without them stays valid.
READING_SCHEMA: dict[str, Any] = {
    "relation": {
        "type": "string",
        "enum": [r.value for r in Relation],
        "description": "Only when the companion's previous turn left something pending: how "
        "the last message answers it. Omit when nothing was pending.",
    },
    "corrected": {
        "type": "string",
        "description": "For relation correct: the whole corrected fact as memory stores it, "
        "or, after a question whether to forget something, what to forget instead.",
    },
    "chosen": {
        "type": "array",
        "items": {"type": "integer"},
        "description": "For relation choose (or confirm of several offers): the display "
        "numbers of the items meant.",
    },
    "project_only": {
        "type": "boolean",
        "description": "The person keeps an offered fact to this project only.",
    },
    "restore": {
        "type": "boolean",
        "description": "The message asks to put back something removed or forgotten.",
    },
    "question": {
        "type": "boolean",
        "description": "The message asks something; a question is never a fact to store.",
    },
    "profile_field": {
        "type": "string",
        "enum": [f.value for f in ProfileField],
        "description": "For remember_about_me: the profile field the fact changes — the "
        "person's preferred name, pronouns, the city they live in or the language they speak "
        "— or none. A change of one of them waits for the person's consent.",
    },
}
READING_FIELDS = ("relation", "corrected", "chosen", "project_only")

# Classifier prompt versions from this one on ask for a list of acts (`acts_answer_schema`);
# earlier ones for one intent (`answer_schema`), which is mapped to one act.
ACTS_FROM_VERSION = 4
# Versions since then that still ask for one intent: v6 is v3's text, which lists a new
# intent's spec examples (v5 is the same change made to v4's acts).
ONE_INTENT_SINCE = frozenset({"v6"})
MAX_ACTS = 6

# What an act adds to the one-intent answer's fields.
ACT_EXTRA_SCHEMA: dict[str, Any] = {
    "answers": {
        "type": "string",
        "description": "Only with relation: which pending item the act answers, by the display "
        "number the companion gave it ('#3' for a personal fact, 'notes#2' for a project "
        "note). Omit for the item the companion's previous turn left pending.",
    },
    "status": {
        "type": "object",
        "description": "A status report: where an ongoing thing stands ('the car is at the "
        "shop until Friday'). The act's intent is then general_conversation.",
        "properties": {
            "topic": {"type": "string", "description": "the thing: 'car', 'visa', 'knee'"},
            "text": {
                "type": "string",
                "description": "where it stands, one sentence addressed to the person",
            },
            "until": {"type": "string", "description": "until when, if the person said"},
        },
        "required": ["topic", "text"],
        "additionalProperties": False,
    },
}


def acts_answer_schema() -> dict[str, Any]:
    """The answer as a list of acts, each with the one-intent answer's fields (flat: its
    intent, that intent's parameters, its reading and flags) plus `answers` and `status`."""
    act = answer_schema()
    act["properties"] = {**act["properties"], **ACT_EXTRA_SCHEMA}
    act["description"] = "One thing the message does, in the order said."
    return {
        "type": "object",
        "properties": {
            "acts": {
                "type": "array",
                "minItems": 1,
                "maxItems": MAX_ACTS,
                "items": act,
                "description": "Everything the person's last message does, in the order said.",
            }
        },
        "required": ["acts"],
        "additionalProperties": False,
    }


def reads_acts(refs: tuple[PromptRef, ...]) -> bool:
    """Whether the classifier template among `refs` asks for a list of acts."""
    ref = next((r for r in refs if r.family == "classifier"), None)
    if ref is None or ref.version in ONE_INTENT_SINCE:
        return False
    number = ref.version.removeprefix("v")
    return number.isdigit() and int(number) >= ACTS_FROM_VERSION


def schema_for(refs: tuple[PromptRef, ...]) -> dict[str, Any]:
    """The answer schema the classifier template among `refs` asks for."""
    return acts_answer_schema() if reads_acts(refs) else answer_schema()


# The answer as pydantic parses it: strict strings, so a number or a list where text belongs
# is an error rather than a silent conversion. The intent stays a plain string here: an unknown
# one is reported by `validated` with the name the model gave.
IntentAnswer: type[BaseModel] = create_model(
    "IntentAnswer",
    __config__=ConfigDict(extra="ignore", strict=True),
    intent=(str, ...),
    relation=(str | None, None),
    corrected=(str | None, None),
    chosen=(list[int] | None, None),
    project_only=(bool | None, None),
    restore=(bool | None, None),
    question=(bool | None, None),
    profile_field=(str | None, None),
    **{name: (str | None, None) for name in param_names()},  # type: ignore[call-overload]
)


def classification(parsed: BaseModel, **meta: Any) -> ClassifiedIntent:
    """A parsed answer as a checked classification: parameters, the reading and the flags
    apart (an unknown relation drops the reading, see `checked_reading`)."""
    values = parsed.model_dump()
    intent = values.pop("intent")
    reading = {name: values.pop(name) for name in READING_FIELDS}
    restore, question = values.pop("restore"), values.pop("question")
    profile_field = values.pop("profile_field")
    return validated(
        intent,
        {k: v for k, v in values.items() if v is not None},
        reading=reading if reading["relation"] is not None else None,
        restore=restore,
        question=question,
        profile_field=profile_field,
        **meta,
    )


def first_error(exc: ValidationError) -> str:
    """The first validation error as `where: what`."""
    error = exc.errors()[0]
    where = ".".join(str(part) for part in error["loc"]) or "input"
    return f"{where}: {error['msg']}"
