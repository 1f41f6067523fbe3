"""A provider's raw answer checked against the taxonomy: one intent with its parameters and
reading (`validated`), a list of acts (`validated_acts`), or the degraded classification an
unusable answer becomes (`degraded`). Model output is bad input too: nothing here raises for
what a model sends."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from pipeline.domain import ProfileField, PromptRef, Usage
from pipeline.intents.taxonomy import FALLBACK_INTENT, INTENTS, REQUIRED_PARAMS
from pipeline.reading import Act, ClassifiedIntent, Reading, Relation, StatusReport


def degraded(
    error: str,
    *,
    provider: str,
    model: str = "",
    prompt_refs: tuple[PromptRef, ...] = (),
    usage: Usage | None = None,
) -> ClassifiedIntent:
    """The classification used when an answer is unusable: conversation, with the error."""
    return ClassifiedIntent(
        intent=FALLBACK_INTENT,
        error=error,
        provider=provider,
        model=model,
        prompt_refs=prompt_refs,
        usage=usage or Usage(),
    )


def validated(
    intent: Any,
    params: Any,
    *,
    provider: str,
    model: str = "",
    confidence: float | None = None,
    prompt_refs: tuple[PromptRef, ...] = (),
    usage: Usage | None = None,
    reading: Any = None,
    restore: Any = False,
    question: Any = False,
    profile_field: Any = None,
) -> ClassifiedIntent:
    """Check a provider's raw answer against the taxonomy; degrade it if unusable. A reading
    that is malformed is dropped (the core then reads nothing pending as answered), never
    guessed at."""
    meta: dict[str, Any] = {
        "provider": provider,
        "model": model,
        "prompt_refs": prompt_refs,
        "usage": usage,
    }
    if not isinstance(intent, str) or intent not in INTENTS:
        return degraded(f"unknown intent {intent!r}", **meta)
    if params is None:
        params = {}
    if not isinstance(params, Mapping):
        return degraded(f"parameters of {intent} are not an object: {params!r}", **meta)
    allowed = INTENTS[intent].params
    clean = {
        str(k): " ".join(str(v).split())
        for k, v in params.items()
        if k in allowed and v is not None and str(v).strip()
    }
    checked = checked_reading(reading)
    # An answer to what was pending ("yes" to a retraction question) describes nothing new.
    answers = checked is not None and checked.relation is not Relation.UNRELATED
    missing = [p for p in REQUIRED_PARAMS.get(intent, ()) if p not in clean]
    if missing and not answers:
        return degraded(f"{intent} without its parameter {', '.join(missing)}", **meta)
    return ClassifiedIntent(
        intent=intent,
        params=clean,
        confidence=confidence,
        provider=provider,
        model=model,
        prompt_refs=prompt_refs,
        usage=usage or Usage(),
        reading=checked,
        restore=restore is True,
        question=question is True,
        profile_field=checked_profile_field(profile_field),
    )


def checked_profile_field(raw: Any) -> ProfileField | None:
    """A provider's profile field as typed, or None (the answer does not say, and the fact's
    wording is read instead) when it is absent or not one of the fields."""
    if isinstance(raw, ProfileField) or raw is None:
        return raw
    try:
        return ProfileField(str(raw))
    except ValueError:
        return None


def checked_reading(raw: Any) -> Reading | None:
    """A provider's reading as a typed Reading, or None when it is absent or malformed."""
    if isinstance(raw, Reading) or raw is None:
        return raw
    if not isinstance(raw, Mapping):
        return None
    try:
        relation = Relation(str(raw.get("relation")))
    except ValueError:
        return None
    chosen = raw.get("chosen") or ()
    if not isinstance(chosen, list | tuple) or not all(
        isinstance(n, int) and not isinstance(n, bool) and 0 < n < 2**31 for n in chosen
    ):
        return None
    corrected = raw.get("corrected") or ""
    if not isinstance(corrected, str):
        return None
    reading = Reading(
        relation=relation,
        corrected=" ".join(corrected.split()),
        chosen=tuple(chosen),
        project_only=raw.get("project_only") is True,
    )
    try:  # an item that is no display number is dropped: the act answers the latest item
        named = Reading(relation=relation, answers=raw.get("answers")).answers
    except ValidationError:
        return reading
    return reading.model_copy(update={"answers": named})


# A message does a few things at most; an answer listing more is cut here.
MAX_ACTS = 6
READING_KEYS = ("relation", "corrected", "chosen", "project_only", "answers")


def validated_acts(
    raw: Any,
    *,
    provider: str,
    model: str = "",
    confidence: float | None = None,
    prompt_refs: tuple[PromptRef, ...] = (),
    usage: Usage | None = None,
) -> ClassifiedIntent:
    """A provider's list of acts checked one by one as `validated` checks one: an unusable act
    is dropped (its error kept), and an answer with no usable act degrades."""
    meta: dict[str, Any] = {"provider": provider, "model": model, "prompt_refs": prompt_refs}
    if not isinstance(raw, list | tuple) or not raw:
        return degraded(f"the answer lists no acts: {raw!r}"[:300], usage=usage, **meta)
    acts: list[Act] = []
    errors: list[str] = []
    for index, item in enumerate(raw[:MAX_ACTS], start=1):
        if not isinstance(item, Mapping):
            errors.append(f"act {index} is not an object")
            continue
        reading = {k: item[k] for k in READING_KEYS if k in item}
        # parameters nested (a suite's gold reading) or beside the intent (a model's answer)
        params = item["params"] if "params" in item else dict(item)
        one = validated(
            item.get("intent"),
            params,
            reading=reading if "relation" in reading else None,
            restore=item.get("restore"),
            question=item.get("question"),
            profile_field=item.get("profile_field"),
            **meta,
        )
        status = checked_status(item.get("status"))
        if one.error is not None:
            errors.append(f"act {index}: {one.error}")
            continue
        acts.append(
            Act(
                intent=one.intent,
                params=one.params,
                reading=one.reading,
                restore=one.restore,
                question=one.question,
                profile_field=one.profile_field,
                status=status,
            )
        )
    if not acts:
        return degraded("; ".join(errors), usage=usage, **meta)
    return ClassifiedIntent(
        acts=tuple(acts),
        confidence=confidence,
        error="; ".join(errors) or None,
        usage=usage or Usage(),
        **meta,
    )


def checked_status(raw: Any) -> StatusReport | None:
    """A provider's status report, or None when absent or malformed (nothing is noted)."""
    if isinstance(raw, StatusReport) or raw is None:
        return raw
    if not isinstance(raw, Mapping):
        return None
    try:
        return StatusReport.model_validate(
            {k: " ".join(str(raw[k]).split()) for k in ("topic", "text", "until") if raw.get(k)}
        )
    except ValidationError:
        return None
