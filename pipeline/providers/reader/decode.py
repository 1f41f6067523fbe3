"""Logits to a reading: calibrated probabilities per head, spans, and the acts built on them.

Where the reader is unsure the safe reading wins: a relation below its floor is `unrelated`
(nothing committed, corrected or dropped), a correction with no corrected value is
`unrelated`, and a choice that names no item surely gives no numbers (the core then asks).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from pipeline.providers.reader.encode import Encoded, ReaderContext
from pipeline.providers.reader.spans import Array, Span, likeliest, near, spans_of

RELATION_NAMES = ("none", "confirm", "reject", "correct", "choose", "unrelated")
# Below these probabilities the reading falls back to the safe side (docs/reader.md).
RELATION_FLOOR = 0.6
ITEM_FLOOR = 0.5
FLAG_FLOOR = 0.5
# What a span of each kind makes of its act.
SPAN_INTENTS = {
    "FACT": "remember_about_me",
    "KNOWLEDGE": "add_knowledge",
    "FORGET": "forget_about_me",
    "QUERY": "ask_about_past_input",
    "QUESTION": "general_conversation",
    "STATUS": "general_conversation",
}
SPANLESS = {
    "list_knowledge",
    "commit_knowledge",
    "describe_capabilities",
    "set_reminder",
    "web_search",
    "share_project",
    "export_project",
    "forget_about_me",
    "retract_knowledge",
}

# A sure head with no span over the floor reads the likeliest value (docs/reader.md).
SURE_CORRECT = 0.9


@dataclass(frozen=True)
class ReadAct:
    """One thing the message does."""

    intent: str
    question: bool = False
    restore: bool = False
    status: bool = False
    profile_field: str = "none"
    span: Span | None = None


@dataclass(frozen=True)
class ReaderOutput:
    """The reading of one message: the safe-side answers, every head's probabilities, spans."""

    relation: str
    chosen: tuple[int, ...] | str | None
    corrected: Span | None
    intent: str
    question: bool
    restore: bool
    status: bool
    profile_field: str
    acts: tuple[ReadAct, ...]
    spans: tuple[Span, ...]
    probs: Mapping[str, Mapping[str, float]]


def softmax(logits: Array, temperature: float = 1.0) -> Array:
    """Softmax over the last axis at a temperature."""
    z = np.asarray(logits, dtype=np.float64) / temperature
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    out: Array = e / e.sum(axis=-1, keepdims=True)
    return out


def sigmoid(logits: Array, temperature: float = 1.0) -> Array:
    """The logistic function at a temperature."""
    out: Array = 1.0 / (1.0 + np.exp(-np.asarray(logits, dtype=np.float64) / temperature))
    return out


def _top(p: Mapping[str, float]) -> str:
    """The likeliest name of one head."""
    return max(p, key=lambda k: p[k])


def _wanted_value(intent: Mapping[str, float], spans: list[Span]) -> str | None:
    """The value kind a sure intent head needs when no span states any value."""
    top = _top(intent)
    kind = VALUE_KIND.get(top)
    if kind is None or intent[top] < CHAT_FLOOR or any(s.kind in VALUE_KINDS for s in spans):
        return None
    return kind


def _relation(p: Mapping[str, float], context: ReaderContext, corrected: Span | None) -> str:
    if context.pending == "none":
        return "none"
    top = max((r for r in p if r != "none"), key=lambda r: p[r])
    if p[top] < RELATION_FLOOR or (top == "correct" and corrected is None):
        return "unrelated"
    return top


def _chosen(
    relation: str, choice: Mapping[str, float], items: Array, context: ReaderContext
) -> tuple[int, ...] | str | None:
    if relation not in ("confirm", "choose") or context.pending not in ("offers", "candidates"):
        return None
    if choice["all"] >= max(choice["some"], choice["none"]):
        return "all" if relation == "confirm" or choice["all"] >= ITEM_FLOOR else None
    if relation == "confirm":
        return None
    named = tuple(
        n for n in range(1, (context.items or len(items)) + 1) if items[n - 1] >= ITEM_FLOOR
    )
    return named or None


# The span kind that states each intent's value, for agreeing spans with the intent head.
VALUE_KIND = {
    "remember_about_me": "FACT",
    "add_knowledge": "KNOWLEDGE",
    "forget_about_me": "FORGET",
    "retract_knowledge": "FORGET",
    "ask_about_past_input": "QUERY",
}
VALUE_KINDS = frozenset(VALUE_KIND.values())
# Intents whose act carries no span of the message.
NO_VALUE = SPANLESS - VALUE_KIND.keys()
SENTENCE_END = re.compile(r"[.!?]+(?:\s|$)")
INTENT_FLOOR = 0.6
CHAT_FLOOR = 0.9


def agreed(spans: list[Span], intent: Mapping[str, float], message: str) -> list[Span]:
    """The spans made to agree with the intent head, which reads the whole message and is the
    surer of the two about what a message asks ("would you mind forgetting that I'm learning
    Japanese?" tags a fact, the head says forget). The head names the message's first act:
    when it is sure the message is conversation, no value is stated before or inside its first
    question (irony, hypotheticals, "I'm not vegan, just curious — …?"); when it is sure of an
    intent that takes no span (a reminder, a search, a share), no span makes an act; when it
    is sure of an intent whose value kind no span has, the first value span takes that kind,
    and a value span right after one of that kind continues it."""
    top = _top(intent)
    if top == "general_conversation" and intent[top] >= CHAT_FLOOR:
        return _asked_first(spans, message)
    if top in NO_VALUE and intent[top] >= CHAT_FLOOR:
        return [s for s in spans if s.kind == "STATUS"]
    kind = VALUE_KIND.get(top)
    values = [s for s in spans if s.kind in VALUE_KINDS]
    if kind is None or intent[top] < INTENT_FLOOR or not values:
        return spans
    if not any(s.kind == kind for s in spans):
        first = values[0]
        spans = [Span(kind, s.start, s.end, s.text, s.p) if s is first else s for s in spans]
    return _continued(spans, kind, message)


def _asked_first(spans: list[Span], message: str) -> list[Span]:
    """Sure conversation: value spans count only in a sentence after its first question's."""
    questions = [s for s in spans if s.kind == "QUESTION"]
    if not questions:
        return [s for s in spans if s.kind not in VALUE_KINDS]
    found = SENTENCE_END.search(message, questions[0].end)
    after = found.end() if found else len(message)
    return [s for s in spans if s.kind not in VALUE_KINDS or s.start >= after]


def _continued(spans: list[Span], kind: str, message: str) -> list[Span]:
    """A value span of another kind right after a span of `kind` (a short, unpunctuated gap)
    is the rest of it: "forget my old address on" + "Elm Street"."""
    out: list[Span] = []
    for span in spans:
        last = out[-1] if out else None
        if (
            last is not None
            and last.kind == kind
            and span.kind in VALUE_KINDS
            and near(last, span, message)
        ):
            text = message[last.start : span.end]
            out[-1] = Span(kind, last.start, span.end, text, min(last.p, span.p))
        else:
            out.append(span)
    return out


def _acts(
    message: str,
    spans: list[Span],
    intent: Mapping[str, float],
    flags: Mapping[str, float],
    profile: str,
    context: ReaderContext,
) -> list[ReadAct]:
    acts: list[ReadAct] = []
    spans = agreed(spans, intent, message)
    restore = flags["restore"] >= FLAG_FLOOR
    reports = flags["status"] >= FLAG_FLOOR
    for span in spans:
        if span.kind not in SPAN_INTENTS or (span.kind == "STATUS" and not reports):
            continue  # a status span counts only where the message, read whole, reports one
        name = SPAN_INTENTS[span.kind]
        if (
            span.kind == "FORGET"
            and context.project
            and intent["retract_knowledge"] > intent["forget_about_me"]
        ):
            name = "retract_knowledge"
        first_fact = span.kind == "FACT" and not any(a.intent == name for a in acts)
        acts.append(
            ReadAct(
                name,
                question=span.kind in ("QUERY", "QUESTION"),
                restore=restore and span.kind == "FORGET",
                status=span.kind == "STATUS",
                profile_field=profile if first_fact else "none",
                span=span,
            )
        )
    top = _top(intent)
    forgets = top in ("forget_about_me", "retract_knowledge")
    if not acts and top in SPANLESS and intent[top] >= RELATION_FLOOR and (restore or not forgets):
        acts.append(ReadAct(top, question=flags["question"] >= FLAG_FLOOR, restore=restore))
    return acts


def reading(
    logits: Mapping[str, Any],
    encoded: Encoded,
    message: str,
    context: ReaderContext,
    labels: Mapping[str, Sequence[str]],
    temperatures: Mapping[str, float],
) -> ReaderOutput:
    """The calibrated, conservative reading from one message's logits (batch of one)."""
    probs: dict[str, dict[str, float]] = {}
    for head in ("relation", "intent", "profile", "choice"):
        p = softmax(np.asarray(logits[head])[0], temperatures.get(head, 1.0))
        probs[head] = {name: float(v) for name, v in zip(labels[head], p, strict=True)}
    flag_p = sigmoid(np.asarray(logits["flags"])[0], temperatures.get("flags", 1.0))
    probs["flags"] = {name: float(v) for name, v in zip(labels["flags"], flag_p, strict=True)}
    items = sigmoid(np.asarray(logits["items"])[0], temperatures.get("items", 1.0))
    probs["items"] = {f"#{n + 1}": float(v) for n, v in enumerate(items)}
    tag_probs = softmax(np.asarray(logits["tags"])[0], temperatures.get("tags", 1.0))
    spans = spans_of(tag_probs, labels["tags"], encoded, message)
    corrected = next((s for s in spans if s.kind == "CORRECTION"), None)
    sure_correct = probs["relation"]["correct"] >= SURE_CORRECT and context.pending != "none"
    if corrected is None and sure_correct:
        corrected = likeliest("CORRECTION", tag_probs, labels["tags"], encoded, message)
    wanted = _wanted_value(probs["intent"], spans)
    if wanted is not None and context.pending == "none":
        found = likeliest(wanted, tag_probs, labels["tags"], encoded, message)
        spans = spans if found is None else sorted([*spans, found], key=lambda s: s.start)
    relation = _relation(probs["relation"], context, corrected)
    profile = _top(probs["profile"])
    flags = probs["flags"]
    acts = _acts(message, spans, probs["intent"], flags, profile, context)
    return ReaderOutput(
        relation=relation,
        chosen=_chosen(relation, probs["choice"], items, context),
        corrected=corrected if relation == "correct" else None,
        intent=_top(probs["intent"]),
        question=any(a.question for a in acts) or flags["question"] >= FLAG_FLOOR,
        restore=flags["restore"] >= FLAG_FLOOR,
        status=any(a.status for a in acts),
        profile_field=profile,
        acts=tuple(acts),
        spans=tuple(spans),
        probs=probs,
    )
