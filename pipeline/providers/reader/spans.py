"""Tagger probabilities to character spans: runs of tokens inside a span, each of the kind
its tokens sum most to, run to the end of a stated value's clause (docs/reader.md, "Spans are
decoded by run")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from pipeline.providers.reader.encode import Encoded

SPAN_FLOOR = 0.5
# A token is inside a span when the tagger gives it this much (docs/reader.md); spans of one
# kind split by at most GAP_WORDS unpunctuated words are one.
INSIDE_FLOOR = 0.3
# Spans that state a value, and where a clause ends (_to_clause_end).
CLAUSE_KINDS = frozenset({"FACT", "KNOWLEDGE", "CORRECTION", "FORGET"})
# A stop, comma or colon between digits ("6.5", "7:40", "$85,000") ends no clause.
CLAUSE_END = re.compile(r"[!?;()\n]|[.,:](?!\d)|\s[—–-]\s")
GAP_WORDS = 2

Array = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Span:
    """Characters [start, end) of the message, of one kind, with the tagger's confidence."""

    kind: str
    start: int
    end: int
    text: str
    p: float


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


def near(a: Span, b: Span, message: str) -> bool:
    """Only a short, unpunctuated gap lies between the two spans."""
    gap = message[a.end : b.start]
    return len(gap.split()) <= GAP_WORDS and not any(c in gap for c in ".!?;")


def joined(a: Span, b: Span, message: str) -> bool:
    """Two spans of one kind a short, unpunctuated gap apart are one span the tagger dropped a
    word of ("I wear a size 9 in running shoes")."""
    return a.kind == b.kind and near(a, b, message)


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
        if spans and joined(spans[-1], span, message):
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
