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
# A stop, comma or colon between digits ("6.5", "7:40", "$85,000") ends no clause.
CLAUSE_END = re.compile(r"[!?;()\n]|[.,:](?!\d)|\s[—–-]\s")
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


# A sure correction with no span over the floor takes the run of tokens at least this share
# of its likeliest correction token (docs/reader.md).
PEAK_SHARE = 0.5
PEAK_FLOOR = 0.1
SURE_CORRECT = 0.9


def likeliest(
    kind: str, tag_probs: Array, tags: Sequence[str], encoded: Encoded, message: str
) -> Span | None:
    """Where a head is sure of what the message does but no span of its kind reached the
    inside floor, the span of that kind from the first to the last token whose probability
    of it is at least PEAK_SHARE of the likeliest token's ("nope Dublin" corrects an offer:
    the tagger gives "Dublin" 0.15 as a correction, and nothing else near it); none when no
    token reaches PEAK_FLOOR."""
    if f"B-{kind}" not in tags:
        return None
    columns = [tags.index(f"B-{kind}"), tags.index(f"I-{kind}")]
    mass = tag_probs[:, columns].sum(axis=1)
    inside = [i for i, o in enumerate(encoded.offsets) if o is not None]
    if not inside:
        return None
    peak = max(float(mass[i]) for i in inside)
    if peak < PEAK_FLOOR:
        return None
    chosen = [i for i in inside if mass[i] >= PEAK_SHARE * peak]
    first, last = encoded.offsets[chosen[0]], encoded.offsets[chosen[-1]]
    assert first is not None and last is not None
    start, end = first[0], last[1]
    while end < len(message) and message[end].isalnum():
        end += 1  # the rest of a word whose first pieces were chosen
    span = Span(kind, start, end, message[start:end], peak)
    return _to_clause_end(span, [], message)


def relation_none(context: ReaderContext) -> bool:
    """Nothing is pending: the message's own acts are all it does."""
    return context.pending == "none"


def _wanted_value(intent: Mapping[str, float], spans: list[Span]) -> str | None:
    """The value kind a sure intent head needs when no span states any value."""
    top = max(intent, key=lambda k: intent[k])
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
    top = max(intent, key=lambda k: intent[k])
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
            and _joined(last, Span(kind, span.start, span.end, span.text, span.p), message)
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
    sure_correct = probs["relation"]["correct"] >= SURE_CORRECT and context.pending != "none"
    if corrected is None and sure_correct:
        corrected = likeliest("CORRECTION", tag_probs, labels["tags"], encoded, message)
    wanted = _wanted_value(probs["intent"], spans)
    if wanted is not None and relation_none(context):
        found = likeliest(wanted, tag_probs, labels["tags"], encoded, message)
        spans = spans if found is None else sorted([*spans, found], key=lambda s: s.start)
    relation = _relation(probs["relation"], context, corrected)
    profile = max(probs["profile"], key=lambda k: probs["profile"][k])
    flags = probs["flags"]
    acts = _acts(message, spans, probs["intent"], flags, profile, context)
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
