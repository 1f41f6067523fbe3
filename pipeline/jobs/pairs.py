"""The consolidation job's candidate pairs, found without a model (specification 004, "Daily
Consolidation Worker").

Candidate pool: a person's live committed memories written in the last POOL_HOURS, or of
high importance, or among the most recently retrieved tenth (the store keeps when a memory
was last used in a prompt or recall, not how often, so recency of use stands in for
frequency). Each pool memory is paired with every live committed memory of the same
engagement written within RECENCY_DAYS, and a pair goes on only when
- its cosine similarity (the embedder's unit vectors) is at least SIMILARITY_LOW: below it
  two facts are not near enough to be one (docs/memory.md gives the measured spread);
- and the two share a content word (the forget-matching rule: the same word, or both long
  and sharing a 5-letter stem) or differ only by a number ("42" -> "43", a numeric step).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

import numpy as np

from pipeline.domain import Assertion
from pipeline.memory.embeddings import Vectors
from pipeline.memory.matching import content_words, word_form

POOL_HOURS = 72
RECENCY_DAYS = 90
# Importance lies in 0..1 (default 0.5); the specification's "importance >= 3" of 1..5.
HIGH_IMPORTANCE = 0.7
RETRIEVED_SHARE = 0.1
# Well below every duplicate of the consolidation suite (all-MiniLM-L6-v2: 0.82 and up;
# paraphrases tried while choosing it: 0.79 and up), and above 0.49, the 99th percentile of
# forget requests against unrelated facts (FORGET_MIN_SIMILARITY in memory/search.py). The
# store has no merge band to reuse: remembering tells a restated fact by its words.
SIMILARITY_LOW = 0.55
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")


@dataclass(frozen=True)
class Pair:
    """Two memories of one engagement worth asking about, and their cosine similarity."""

    a: Assertion
    b: Assertion
    score: float


def _retrieved_at(memory: Assertion) -> datetime | None:
    """When the memory was last used after its last write; None when it was not."""
    used = memory.last_accessed_at
    # A write also sets last_accessed_at; only a later use counts as a retrieval.
    return used if used is not None and used > memory.updated_at else None


def pool(memories: Sequence[Assertion], now: datetime) -> list[Assertion]:
    """The memories the job starts from: recent, important, or recently retrieved."""
    recent = now - timedelta(hours=POOL_HOURS)
    used = sorted((t for m in memories if (t := _retrieved_at(m)) is not None), reverse=True)
    top = used[: max(1, int(len(memories) * RETRIEVED_SHARE))]
    floor = top[-1] if top else None
    found: list[Assertion] = []
    for m in memories:
        retrieved = _retrieved_at(m)
        if (
            m.updated_at >= recent
            or m.importance >= HIGH_IMPORTANCE
            or (floor is not None and retrieved is not None and retrieved >= floor)
        ):
            found.append(m)
    return found


def _forms(text: str) -> set[str]:
    # Every word but numbers: a background job lends no language, and the similarity
    # threshold (SIMILARITY_LOW) and the same-fact stage decide what is a pair.
    return {word_form(w) for w in content_words(text, ()) if not _NUMBER.fullmatch(w)}


def lexical_overlap(a: str, b: str) -> bool:
    """Whether the two share a word that is not a number."""
    return bool(_forms(a) & _forms(b))


def numeric_step(a: str, b: str) -> bool:
    """Whether the two say the same with other numbers ("You're 42" / "You're 43")."""
    numbers_a, numbers_b = _NUMBER.findall(a), _NUMBER.findall(b)
    if not numbers_a or not numbers_b or numbers_a == numbers_b:
        return False
    return _NUMBER.sub("#", a.lower()) == _NUMBER.sub("#", b.lower())


def candidate_pairs(memories: Sequence[Assertion], vectors: Vectors, now: datetime) -> list[Pair]:
    """Pairs of one engagement's memories (rows of `vectors` in the same order) passing every
    pre-filter, most similar first; each unordered pair once."""
    starts = {m.id for m in pool(memories, now)}
    oldest = now - timedelta(days=RECENCY_DAYS)
    recent = [i for i, m in enumerate(memories) if m.updated_at >= oldest or m.id in starts]
    if len(recent) < 2 or not starts:
        return []
    rows = np.array(recent, dtype=np.int64)
    similarity = vectors[rows] @ vectors[rows].T
    found: list[Pair] = []
    for x in range(len(rows)):
        for y in range(x + 1, len(rows)):
            a, b = memories[int(rows[x])], memories[int(rows[y])]
            if a.id not in starts and b.id not in starts:
                continue
            score = float(similarity[x, y])
            if score < SIMILARITY_LOW:
                continue
            if lexical_overlap(a.content, b.content) or numeric_step(a.content, b.content):
                found.append(Pair(a, b, score))
    found.sort(key=lambda p: (-p.score, min(p.a.id, p.b.id), max(p.a.id, p.b.id)))
    return found
