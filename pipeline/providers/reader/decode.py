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
import numpy.typing as npt

from pipeline.providers.reader.encode import Encoded, ReaderContext

RELATION_NAMES = ("none", "confirm", "reject", "correct", "choose", "unrelated")
# Below these probabilities the reading falls back to the safe side (docs/reader.md).
RELATION_FLOOR = 0.6
ITEM_FLOOR = 0.5
SPAN_FLOOR = 0.5
# A token is inside a span when the tagger gives it this much (docs/reader.md); spans of one
# kind split by at most GAP_WORDS unpunctuated words are one.
INSIDE_FLOOR = 0.3
# Spans that state a value, and where a clause ends (_to_clause_end).
CLAUSE_KINDS = frozenset({"FACT", "KNOWLEDGE", "CORRECTION", "FORGET"})
CLAUSE_END = re.compile(r"[.!?;,:()\n]|\s[—–-]\s")
GAP_WORDS = 2
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

Array = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Span:
    """Characters [start, end) of the message, of one kind, with the tagger's confidence."""

    kind: str
    start: int
    end: int
    text: str
    p: float


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


def _inside(tag_probs: Array, tags: Sequence[str]) -> npt.NDArray[np.float64]:
    """The probability each token lies inside some span (any kind, B- or I-)."""
    out: npt.NDArray[np.float64] = 1.0 - tag_probs[:, tags.index("O")]
    return out


def _kind(tag_probs: Array, tags: Sequence[str], first: int, last: int) -> str:
    """The kind a run of tokens is: the one its tokens' B- and I- probabilities sum most to.
    Decided over the run, not token by token, so one half-known word does not split a fact
    into a fact and a question."""
    kinds = sorted({t.partition("-")[2] for t in tags if t != "O"})
    rows = tag_probs[first : last + 1]
    mass = {k: float(rows[:, [tags.index(f"B-{k}"), tags.index(f"I-{k}")]].sum()) for k in kinds}
    return max(mass, key=lambda k: mass[k])


def _joined(a: Span, b: Span, message: str) -> bool:
    """Two spans of one kind with only a short, unpunctuated gap between them are one span
    the tagger dropped a word of ("I wear a size 9 in running shoes")."""
    gap = message[a.end : b.start]
    return a.kind == b.kind and len(gap.split()) <= GAP_WORDS and not any(c in gap for c in ".!?;")


def _runs(inside: npt.NDArray[np.float64], encoded: Encoded, message: str) -> list[tuple[int, int]]:
    """Runs of tokens inside a span: a token at least INSIDE_FLOOR inside, or a later piece
    of a word whose first piece is ("g", "##lu", "##ten" of "gluten" go together)."""
    runs: list[tuple[int, int]] = []
    previous: tuple[int, int] | None = None
    for i, offset in enumerate(encoded.offsets):
        if offset is None:
            previous = None
            continue
        piece = previous is not None and offset[0] == previous[1]
        in_word = piece and message[offset[0] - 1 : offset[0] + 1].isalnum()
        previous = offset
        extends = bool(runs) and runs[-1][1] == i - 1
        if extends and (in_word or inside[i] >= INSIDE_FLOOR):
            runs[-1] = (runs[-1][0], i)
        elif inside[i] >= INSIDE_FLOOR and not in_word:
            runs.append((i, i))
    return runs


def spans_of(tag_probs: Array, tags: Sequence[str], encoded: Encoded, message: str) -> list[Span]:
    """Runs of tokens inside a span, each of the kind its tokens sum most to, as character
    spans; two of one kind a short gap apart are one."""
    inside = _inside(tag_probs, tags)
    spans: list[Span] = []
    for first, last in _runs(inside, encoded, message):
        start, end = encoded.offsets[first], encoded.offsets[last]
        assert start is not None and end is not None
        kind = _kind(tag_probs, tags, first, last)
        p = float(inside[first : last + 1].mean())
        span = Span(kind, start[0], end[1], message[start[0] : end[1]], p)
        if spans and _joined(spans[-1], span, message):
            a = spans[-1]
            span = Span(kind, a.start, span.end, message[a.start : span.end], min(a.p, span.p))
            spans[-1] = span
        else:
            spans.append(span)
    kept = [s for s in spans if s.p >= SPAN_FLOOR and s.text.strip()]
    return [_to_clause_end(s, kept, message) for s in kept]


def _to_clause_end(span: Span, spans: list[Span], message: str) -> Span:
    """A stated value runs to the end of its clause: the tagger finds where a fact begins far
    better than where it ends (it stops before a word it has not seen), and a clause ends at
    punctuation or where the next span begins."""
    if span.kind not in CLAUSE_KINDS:
        return span
    stop = min([s.start for s in spans if s.start >= span.end] + [len(message)])
    found = CLAUSE_END.search(message, span.end, stop)
    end = found.start() if found else stop
    text = message[span.start : end].rstrip()
    return Span(span.kind, span.start, span.start + len(text), text, span.p)


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
INTENT_FLOOR = 0.6
CHAT_FLOOR = 0.9


def agreed(spans: list[Span], intent: Mapping[str, float]) -> list[Span]:
    """The spans made to agree with the intent head, which reads the whole message and is the
    surer of the two about what a message asks ("would you mind forgetting that I'm learning
    Japanese?" tags a fact, the head says forget): when the head is sure of an intent whose
    value kind no span has, the first value span takes that kind; when it is sure the message
    is conversation and no question is asked, no fact or note is stated (irony, small talk)."""
    top = max(intent, key=lambda k: intent[k])
    values = [s for s in spans if s.kind in VALUE_KIND.values()]
    if top == "general_conversation" and intent[top] >= CHAT_FLOOR:
        if not any(s.kind == "QUESTION" for s in spans):
            return [s for s in spans if s.kind not in ("FACT", "KNOWLEDGE")]
        return spans
    kind = VALUE_KIND.get(top)
    if kind is None or intent[top] < INTENT_FLOOR or not values:
        return spans
    if any(s.kind == kind for s in spans):
        return spans
    first = values[0]
    return [Span(kind, s.start, s.end, s.text, s.p) if s is first else s for s in spans]


def _acts(
    spans: list[Span],
    intent: Mapping[str, float],
    flags: Mapping[str, float],
    profile: str,
    context: ReaderContext,
) -> list[ReadAct]:
    acts: list[ReadAct] = []
    spans = agreed(spans, intent)
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
    top = max(intent, key=lambda k: intent[k])
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
    relation = _relation(probs["relation"], context, corrected)
    profile = max(probs["profile"], key=lambda k: probs["profile"][k])
    flags = probs["flags"]
    acts = _acts(spans, probs["intent"], flags, profile, context)
    return ReaderOutput(
        relation=relation,
        chosen=_chosen(relation, probs["choice"], items, context),
        corrected=corrected if relation == "correct" else None,
        intent=max(probs["intent"], key=lambda k: probs["intent"][k]),
        question=any(a.question for a in acts) or flags["question"] >= FLAG_FLOOR,
        restore=flags["restore"] >= FLAG_FLOOR,
        status=any(a.status for a in acts),
        profile_field=profile,
        acts=tuple(acts),
        spans=tuple(spans),
        probs=probs,
    )
