"""Semantic memory search: keyword match, cosine similarity and recency, scored over all rows
at once with numpy (no Python loop over rows at query time).

For an assertion with cosine similarity `cos` to the query and keyword fraction `kw` (the
share of the query's keywords that match a word of the assertion, by the forget-matching
rule of docs/memory.md: equal words, or both >= 5 letters with the same first 5):

    similarity = cos + KEYWORD_WEIGHT * kw * (1 - cos)   (a keyword match closes part of the gap)
    recency    = 1 / (1 + 0.1 * age_days)
    final      = (1 - w) * similarity + w * recency,  w = 0.3    (the specification's formula)

Only assertions with similarity >= MIN_SIMILARITY are returned, best `final` first, at most k.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np
import numpy.typing as npt
from sqlalchemy.orm import Session

from pipeline.clock import utcnow
from pipeline.domain import Assertion, NormativeForce
from pipeline.memory.ann_search import candidates, indexed_engagements
from pipeline.memory.blas import one_thread
from pipeline.memory.embeddings import Embedder, Vectors
from pipeline.memory.matching import Match, content_words
from pipeline.memory.search_defaults import DEFAULT_K as DEFAULT_K
from pipeline.memory.search_defaults import MIN_SIMILARITY as MIN_SIMILARITY
from pipeline.memory.vectors import complete
from pipeline.memory.vectors import content_sha256 as content_sha256
from pipeline.memory.vectors import is_current as is_current
from pipeline.memory.vectors import stored_vectors as stored_vectors
from pipeline.store import embeddings as repo
from pipeline.store.ann import ann_settings

KEYWORD_WEIGHT = 0.5
RECENCY_WEIGHT = 0.3
RECENCY_RATE = 0.1
# Semantic forget matching: the best assertion must reach FORGET_MIN_SIMILARITY, and others
# within FORGET_MARGIN of it make the match ambiguous rather than a guess. Both come from
# MiniLM's spread on the local examples file (forget requests x personal facts, mostly
# unrelated pairs): 0.42 lies between the 95th (0.31) and 99th (0.49) percentile of those
# similarities, and 0.15 lies between the median (0.09) and 75th percentile (0.18) of the gap
# between a request's best and second-best fact, so meaning breaks a keyword tie only when one
# fact clearly stands out.
FORGET_MIN_SIMILARITY = 0.42
FORGET_MARGIN = 0.15
FORGET_MAX_CANDIDATES = 3

_WORD = re.compile(r"[\w']+")
_STEM = 5
_DAY = 86_400.0


def ensure_vectors(
    session: Session, items: Sequence[tuple[int, str]], embedder: Embedder
) -> Vectors:
    """Vectors of (assertion id, content) pairs, in order; missing or stale ones (another
    content, or another embedder) are computed in one batch and stored, so each content is
    embedded once per embedder."""
    if not items:
        return np.zeros((0, embedder.dim), dtype=np.float32)
    stored = repo.load_vectors(session, [aid for aid, _ in items], embedder.model_name)
    return complete(session, items, stored, embedder)


def _raised(
    similarity: npt.NDArray[np.float32], keyword: npt.NDArray[np.float32]
) -> npt.NDArray[np.float32]:
    """Cosines raised by their rows' keyword fractions: a match closes part of the gap."""
    matched = np.flatnonzero(keyword)
    if matched.size:
        cosine = similarity[matched]
        similarity[matched] = cosine + KEYWORD_WEIGHT * keyword[matched] * (1.0 - cosine)
    return similarity


def _term(word: str) -> str:
    """Words that match under the forget rule share a term: a 5-letter prefix, or the whole word."""
    return f"p:{word[:_STEM]}" if len(word) >= _STEM else f"e:{word}"


def content_terms(content: str) -> set[str]:
    """The terms of a stored content (every word, stop words included, as keyword_score does)."""
    return {_term(w.strip("'")) for w in _WORD.findall(content.lower()) if w.strip("'")}


class MemoryIndex:
    """Vectors, ages and keyword postings of many assertions, scored together with numpy."""

    def __init__(
        self,
        vectors: Vectors,
        created: Sequence[datetime],
        contents: Sequence[str],
        stop_words: Collection[str] = (),
    ) -> None:
        if len(vectors) != len(created) or len(created) != len(contents):
            raise ValueError("vectors, created and contents must have the same length")
        self.vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        self.created_s = np.array([c.timestamp() for c in created], dtype=np.float64)
        # The query words the conversation's language says name nothing (pipeline/lexicon.py);
        # none lent, every word of the query counts.
        self.stop_words = frozenset(stop_words)
        self._vocabulary: dict[str, int] = {}
        columns: list[int] = []
        rows: list[int] = []
        for row, content in enumerate(contents):
            for term in content_terms(content):
                columns.append(self._vocabulary.setdefault(term, len(self._vocabulary)))
                rows.append(row)
        order = np.argsort(np.array(columns, dtype=np.int64), kind="stable")
        self._rows = np.array(rows, dtype=np.int64)[order]
        counts = np.bincount(np.array(columns, dtype=np.int64), minlength=len(self._vocabulary))
        self._starts = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)

    def __len__(self) -> int:
        return int(self.vectors.shape[0])

    def keyword_fraction(self, query: str) -> npt.NDArray[np.float32]:
        """Per row, the share of the query's keywords that match one of its words."""
        keys = content_words(query, self.stop_words)
        n = len(self)
        if not keys:
            return np.zeros(n, dtype=np.float32)
        hits = [
            self._rows[self._starts[col] : self._starts[col + 1]]
            for col in (self._vocabulary.get(_term(k)) for k in keys)
            if col is not None
        ]
        if not hits:
            return np.zeros(n, dtype=np.float32)
        counts = np.bincount(np.concatenate(hits), minlength=n)
        return (counts / len(keys)).astype(np.float32)

    def similarity(self, query: str, query_vector: Vectors) -> npt.NDArray[np.float32]:
        """Per row: cosine, raised by the keyword fraction (see the module docstring)."""
        similarity = self.vectors @ np.asarray(query_vector, dtype=np.float32)
        return _raised(similarity, self.keyword_fraction(query))

    def similarity_of(
        self, rows: npt.NDArray[np.int64], query: str, query_vector: Vectors
    ) -> npt.NDArray[np.float32]:
        """`similarity` of some rows, as an index of those rows alone scores them. Every row's
        cosine is computed and the wanted ones picked: one product over the whole matrix costs
        less than copying a few thousand of its rows out."""
        with one_thread():
            cosine = self.vectors @ np.asarray(query_vector, dtype=np.float32)
        return _raised(cosine[rows], self.keyword_fraction(query)[rows])

    def final(
        self, similarity: npt.NDArray[np.float32], now: datetime, rows: npt.NDArray[np.int64]
    ) -> npt.NDArray[np.float32]:
        """The final scores of some rows: (1 - w) * similarity + w * recency."""
        return self.final_of(similarity[rows], now, rows)

    def final_of(
        self, similarity: npt.NDArray[np.float32], now: datetime, rows: npt.NDArray[np.int64]
    ) -> npt.NDArray[np.float32]:
        """`final`, given the similarities of those rows alone."""
        age_days = np.maximum(now.timestamp() - self.created_s[rows], 0.0) / _DAY
        recency = 1.0 / (1.0 + RECENCY_RATE * age_days)
        final = (1.0 - RECENCY_WEIGHT) * similarity + RECENCY_WEIGHT * recency
        return final.astype(np.float32)

    def scores(
        self, query: str, query_vector: Vectors, now: datetime
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """(similarity, final) for every row."""
        similarity = self.similarity(query, query_vector)
        return similarity, self.final(similarity, now, np.arange(len(self)))

    def top(
        self,
        query: str,
        query_vector: Vectors,
        now: datetime,
        k: int = DEFAULT_K,
        min_similarity: float = MIN_SIMILARITY,
    ) -> list[tuple[int, float, float]]:
        """Up to k (row, similarity, final) above the similarity threshold, best final first;
        equal finals in row order, whichever k are kept (the caller's rows are in id order, so
        ties go to the older fact, through the index or without it).

        Only rows over the threshold get a final score and enter the top-k selection.
        """
        if len(self) == 0 or k <= 0:
            return []
        similarity = self.similarity(query, query_vector)
        eligible = np.flatnonzero(similarity >= min_similarity)
        if eligible.size == 0:
            return []
        final = self.final(similarity, now, eligible)
        # by final, best first, then by row: an argpartition would keep an arbitrary few of
        # the rows tied at the k-th score
        picked = np.lexsort((eligible, -final))[:k]
        return [(int(eligible[i]), float(similarity[eligible[i]]), float(final[i])) for i in picked]


@dataclass(frozen=True)
class SearchHit:
    """One search result and how it scored."""

    assertion_id: int
    engagement_id: int
    display_number: int
    content: str
    force: NormativeForce
    created_at: datetime
    similarity: float
    score: float


def search_memory(
    session: Session,
    engagement_ids: Sequence[int],
    query: str,
    embedder: Embedder,
    *,
    now: datetime | None = None,
    k: int = DEFAULT_K,
    min_similarity: float = MIN_SIMILARITY,
    stop_words: Collection[str] = (),
) -> list[SearchHit]:
    """The best live assertions of these engagements for a query (missing vectors are stored).

    Engagements below the index threshold are scored row by row; larger ones through their
    nearest-neighbour index, whose candidates are scored the same way (ann_search.py).
    `stop_words` are the query words the keyword share skips (a lent lexicon's,
    pipeline/lexicon.py); none given, every word of the query counts.
    """
    if not query.strip():
        return []
    indexed = indexed_engagements(session, engagement_ids, embedder)
    exact = [e for e in engagement_ids if e not in indexed]
    rows = repo.embedded_assertions(session, exact, embedder.model_name) if exact else []
    query_vector = None
    if indexed:
        query_vector = embedder.embed([query])[0]
        count = max(ann_settings().candidates, k)
        found = candidates(list(indexed.values()), query_vector, count)
        rows += repo.embedded_by_id(session, found, list(indexed), embedder.model_name)
    if not rows:
        return []
    rows.sort(key=lambda r: r.assertion_id)  # ties in score go to the older fact
    stored = {r.assertion_id: r.stored for r in rows if r.stored is not None}
    vectors = complete(session, [(r.assertion_id, r.content) for r in rows], stored, embedder)
    index = MemoryIndex(
        vectors, [r.created_at for r in rows], [r.content for r in rows], stop_words
    )
    if query_vector is None:
        query_vector = embedder.embed([query])[0]
    hits = index.top(query, query_vector, now or utcnow(), k, min_similarity)
    return [
        SearchHit(
            assertion_id=rows[i].assertion_id,
            engagement_id=rows[i].engagement_id,
            display_number=rows[i].display_number,
            content=rows[i].content,
            force=rows[i].force,
            created_at=rows[i].created_at,
            similarity=round(sim, 4),
            score=round(score, 4),
        )
        for i, sim, score in hits
    ]


def semantic_forget(
    session: Session,
    description: str,
    candidates: Sequence[Assertion],
    embedder: Embedder,
    *,
    tie: bool,
) -> Match:
    """Forget matching by meaning: the fallback when keywords find nothing (`tie=False`), or
    the tie-breaker among keyword-tied candidates (`tie=True`, which never drops to no_match).

    The best candidate wins when no other is within FORGET_MARGIN of it; otherwise the close
    ones are ambiguous. As a fallback, the best must also reach FORGET_MIN_SIMILARITY.
    """
    if not candidates or not description.strip():
        return (
            Match("ambiguous", tuple(candidates)) if tie and candidates else Match("no_match", ())
        )
    vectors = ensure_vectors(session, [(a.id, a.content) for a in candidates], embedder)
    similarity = vectors @ embedder.embed([description])[0]
    order = np.argsort(-similarity, kind="stable")
    best = float(similarity[order[0]])
    if not tie and best < FORGET_MIN_SIMILARITY:
        return Match("no_match", ())
    floor = best - FORGET_MARGIN if tie else max(FORGET_MIN_SIMILARITY, best - FORGET_MARGIN)
    close = [candidates[int(i)] for i in order if similarity[int(i)] >= floor]
    if len(close) == 1:
        return Match("confirm_retraction", (close[0],))
    return Match("ambiguous", tuple(close[:FORGET_MAX_CANDIDATES] if not tie else close))
