"""memory.query: the one query API over a person's memory (docs/memory.md, "memory.query").

A request names whose memory (person), who reads it (agent: its allowlist in
pipeline/categories.yaml is enforced by the store query, pipeline/store/filtered.py), which
categories, and filters (pinned, importance range, updated after/before). The store applies
the filters in SQL; a text query then ranks what passed by the hybrid similarity of
pipeline/memory/search.py (`MemoryIndex`), dropping what scores below `threshold`. The
person's memories are indexed once and kept while the store says nothing changed
(pipeline/memory/query_index.py); the store is asked which of the best-ranked pass the
filters, a page at a time, so a request reads little more than the memories it returns. Without a
text query the newest updated come first. Results are bullets (`[category] text`) or full
records, as many as fit `budget_tokens` (4 characters a token) and `top_k`, and at most
`rag_length` of a `rag` category. Relations (pipeline/memory/relations.py) boost a candidate
related to a top result, and add up to two related facts after the results, under the same
filters.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from sqlalchemy.orm import Session

from pipeline.categories import CONVERSATION_READER, load_categories
from pipeline.clock import as_utc, utcnow
from pipeline.errors import InvalidMessage
from pipeline.memory.embeddings import Embedder
from pipeline.memory.query_index import person_index
from pipeline.memory.relations import boosts, related_to, relation_settings
from pipeline.memory.search import MIN_SIMILARITY, MemoryIndex, ensure_vectors
from pipeline.memory.working import CHARS_PER_TOKEN
from pipeline.store.assertions import touch
from pipeline.store.events import Event, Node, record_events
from pipeline.store.filtered import (
    Filters,
    Found,
    allowed_categories,
    filtered_memories,
    found_by_ids,
)
from pipeline.store.lifecycle import ACCESS_RESOLUTION
from pipeline.store.people import get_person

DEFAULT_TOP_K = 5
DEFAULT_BUDGET_TOKENS = 512
MAX_TOP_K = 100


class MemoryQuery(BaseModel):
    """One memory.query request; every field but `person` is optional."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    person: str = Field(min_length=1, max_length=200)
    agent: str = Field(CONVERSATION_READER, min_length=1, max_length=64)
    query: str = Field("", max_length=2_000)
    categories: tuple[str, ...] | None = None
    pinned: bool | None = None
    importance_min: float | None = Field(None, ge=0.0, le=1.0)
    importance_max: float | None = Field(None, ge=0.0, le=1.0)
    updated_after: datetime | None = None
    updated_before: datetime | None = None
    top_k: int = Field(DEFAULT_TOP_K, ge=1, le=MAX_TOP_K)
    threshold: float = Field(MIN_SIMILARITY, ge=-1.0, le=1.0)
    mode: Literal["bullets", "full"] = "bullets"
    budget_tokens: int = Field(DEFAULT_BUDGET_TOKENS, ge=1, le=100_000)

    @field_validator("updated_after", "updated_before")
    @classmethod
    def _aware(cls, value: datetime | None) -> datetime | None:
        # A date without a zone is read as UTC, as every stored time is.
        return as_utc(value) if value is not None else None

    @field_validator("categories")
    @classmethod
    def _not_empty(cls, value: tuple[str, ...] | None) -> tuple[str, ...] | None:
        if value is not None and not value:
            raise ValueError("name at least one category, or leave categories out")
        return value

    @model_validator(mode="after")
    def _ranges(self) -> MemoryQuery:
        low, high = self.importance_min, self.importance_max
        if low is not None and high is not None and low > high:
            raise ValueError(f"importance_min {low} is above importance_max {high}")
        after, before = self.updated_after, self.updated_before
        if after is not None and before is not None and after >= before:
            raise ValueError("updated_after must be earlier than updated_before")
        return self


class QueryItem(BaseModel):
    """One result: `text` is the bullet (`[category] content`); the rest is for `full`."""

    model_config = ConfigDict(frozen=True)

    id: int
    category: str
    text: str
    where: str
    display_number: int
    content: str
    force: str
    pinned: bool
    importance: float
    created_at: datetime
    updated_at: datetime
    similarity: float | None = None
    score: float | None = None
    related_to: int | None = None  # a related fact: the id of the result it relates to

    def shown(self, mode: Literal["bullets", "full"]) -> dict[str, object]:
        """The item as the response carries it in this mode."""
        if mode == "bullets":
            bullet: dict[str, object] = {"id": self.id, "category": self.category}
            if self.related_to is not None:
                bullet["related_to"] = self.related_to
            return {**bullet, "text": self.text}
        return self.model_dump(mode="json")


class QueryResult(BaseModel):
    """The response: the items that fit, and how many ranked ones the budget left out."""

    model_config = ConfigDict(frozen=True)

    mode: Literal["bullets", "full"]
    items: tuple[QueryItem, ...]
    omitted_for_budget: int
    used_tokens: int
    budget_tokens: int

    def shown(self) -> dict[str, object]:
        """The response as JSON-ready data."""
        return {
            "mode": self.mode,
            "items": [i.shown(self.mode) for i in self.items],
            "omitted_for_budget": self.omitted_for_budget,
            "used_tokens": self.used_tokens,
            "budget_tokens": self.budget_tokens,
        }


def _item(found: Found, similarity: float | None, score: float | None) -> QueryItem:
    a = found.assertion
    return QueryItem(
        id=a.id,
        category=a.category,
        text=f"[{a.category}] {a.content}",
        where=found.where,
        display_number=a.display_number,
        content=a.content,
        force=a.force.value,
        pinned=a.pinned,
        importance=a.importance,
        created_at=a.created_at,
        updated_at=a.updated_at,
        similarity=None if similarity is None else round(similarity, 4),
        score=None if score is None else round(score, 4),
    )


def ranked_afresh(
    session: Session,
    found: list[Found],
    request: MemoryQuery,
    embedder: Embedder,
    now: datetime,
) -> list[QueryItem]:
    """The reference ranking: these memories indexed afresh and ranked by the hybrid score,
    best first (the kept index must give the same; tests and the bench compare them)."""
    contents = [f.assertion.content for f in found]
    vectors = ensure_vectors(
        session, [(f.assertion.id, c) for f, c in zip(found, contents, strict=True)], embedder
    )
    index = MemoryIndex(vectors, [f.assertion.created_at for f in found], contents)
    query_vector = embedder.embed([request.query])[0]
    # Every row over the threshold is ranked; top_k, rag_length and the budget cut later.
    hits = index.top(request.query, query_vector, now, len(found), request.threshold)
    return [_item(found[row], sim, score) for row, sim, score in hits]


def _fitted(items: list[QueryItem], request: MemoryQuery) -> tuple[list[QueryItem], int, int]:
    """The best items within top_k, each rag category's rag_length and the token budget:
    (kept, how many the budget left out, tokens used). Ranking is kept: an item that does
    not fit ends the list rather than letting a worse, shorter one in."""
    config = load_categories()
    per_category: Counter[str] = Counter()
    kept: list[QueryItem] = []
    budget_chars = request.budget_tokens * CHARS_PER_TOKEN
    used = 0
    omitted = 0
    caps = {c.name: c.rag_length for c in config.categories}
    for item in items:
        if len(kept) + omitted == request.top_k:
            break
        cap = caps.get(item.category)
        if cap is not None and per_category[item.category] >= cap:
            continue
        cost = len(item.text) + 1  # the bullet and its line break
        if omitted or used + cost > budget_chars:
            omitted += 1
            continue
        kept.append(item)
        per_category[item.category] += 1
        used += cost
    tokens = -(-used // CHARS_PER_TOKEN)
    return kept, omitted, tokens


def _newest(
    session: Session, filters: Filters, request: MemoryQuery
) -> tuple[list[QueryItem], int, int]:
    """Without a text query the store's order is the ranking: read a page at a time only as
    far as `top_k` (after the rag_length caps) needs."""
    page = 2 * request.top_k
    items: list[QueryItem] = []
    while True:
        rows = filtered_memories(session, filters, limit=page, offset=len(items))
        items.extend(_item(f, None, None) for f in rows)
        kept, omitted, tokens = _fitted(items, request)
        if len(kept) + omitted >= request.top_k or len(rows) < page:
            return kept, omitted, tokens


# The first page of ranked memories asked of the store is this many times top_k; each next page
# is PAGE_GROWTH times larger (a filter few memories pass needs few round trips), at most
# MAX_PAGE ids a statement.
FIRST_PAGE = 8
PAGE_GROWTH = 4
MAX_PAGE = 5_000


def _by_meaning(
    session: Session,
    filters: Filters,
    request: MemoryQuery,
    embedder: Embedder | None,
    now: datetime,
) -> list[QueryItem]:
    """A text query: the person's kept index ranks every memory, and the store says, a page
    of the best at a time, which pass the filters, until top_k (after the rag_length caps)
    is reached; the candidates read so far, best first (the relations boost may reorder
    them). Only those pages' rows are read."""
    if embedder is None:
        raise InvalidMessage(
            "a text query needs an embedder to rank by meaning",
            "pass an embedder, or leave the query out to filter only",
        )
    allowed_categories(filters.reader, filters.categories)  # refused before anything is read
    indexed = person_index(session, filters.person_id, embedder)
    query_vector = embedder.embed([request.query])[0]
    ranking = indexed.ranked(request.query, query_vector, now, request.threshold)
    items: list[QueryItem] = []
    start, size = 0, FIRST_PAGE * request.top_k
    while start < len(ranking):
        end = ranking.page_end(start, size)
        ids = [int(i) for i in ranking.ids[start:end]]
        read = {f.assertion.id: f for f in found_by_ids(session, filters, ids)}
        page = [
            (read[aid], float(ranking.similarity[start + k]), float(ranking.final[start + k]))
            for k, aid in enumerate(ids)
            if aid in read
        ]
        # Equal scores in the store's order (most recently updated first), as afresh.
        page.sort(key=lambda p: (-p[2], -p[0].assertion.updated_at.timestamp(), -p[0].assertion.id))
        items.extend(_item(found, sim, score) for found, sim, score in page)
        kept, omitted, _ = _fitted(items, request)
        if len(kept) + omitted >= request.top_k:
            return items
        start, size = end, min(size * PAGE_GROWTH, MAX_PAGE)
    return items


def memory_query(
    session: Session,
    request: MemoryQuery,
    embedder: Embedder | None = None,
    *,
    now: datetime | None = None,
) -> QueryResult:
    """Answer one memory.query request in the caller's (write) transaction: missing vectors
    are stored, what is returned is marked used (the lifecycle sweep spares it), and the
    query is counted (an operational event, node `tool`)."""
    moment = now or utcnow()
    person = get_person(session, request.person)
    filters = Filters(
        person_id=person.id,
        reader=request.agent,
        categories=request.categories,
        pinned=request.pinned,
        importance_min=request.importance_min,
        importance_max=request.importance_max,
        updated_after=request.updated_after,
        updated_before=request.updated_before,
    )
    if request.query.strip():  # every candidate is ranked by meaning
        ranked = _by_meaning(session, filters, request, embedder, moment)
        kept, omitted, tokens = _fitted(_boosted(session, ranked, request), request)
    else:
        kept, omitted, tokens = _newest(session, filters, request)
    kept, tokens = _with_related(session, filters, request, kept, tokens)
    touch(session, [i.id for i in kept], moment, ACCESS_RESOLUTION)
    similarities = [i.similarity for i in kept if i.similarity is not None]
    event = Event(
        Node.TOOL,
        "query",
        "ok" if kept else "no_match",
        person_id=person.id,
        similarity=max(similarities) if similarities else None,
    )
    record_events(session, [event], moment)
    return QueryResult(
        mode=request.mode,
        items=tuple(kept),
        omitted_for_budget=omitted,
        used_tokens=tokens,
        budget_tokens=request.budget_tokens,
    )


def _boosted(session: Session, ranked: list[QueryItem], request: MemoryQuery) -> list[QueryItem]:
    """Ranked again after a candidate related to one of the top `top_k` gains `boost_weight`
    times the edge's strength (docs/memory.md, "Relations")."""
    weight = relation_settings().boost_weight
    seeds = [i.id for i in ranked[: request.top_k]]
    gained = boosts(session, seeds, [i.id for i in ranked]) if weight > 0 else {}
    if not gained:
        return ranked
    rescored = [
        i.model_copy(update={"score": round((i.score or 0.0) + weight * gained[i.id], 4)})
        if i.id in gained
        else i
        for i in ranked
    ]
    return sorted(rescored, key=lambda i: -(i.score or 0.0))


def _with_related(
    session: Session, filters: Filters, request: MemoryQuery, kept: list[QueryItem], tokens: int
) -> tuple[list[QueryItem], int]:
    """The results, then up to `related_bullets` facts related to them that pass the same
    filters (allowlist included) and fit the budget and the category caps; (items, tokens)."""
    limit = relation_settings().related_bullets
    shown = [i.id for i in kept]
    related = related_to(session, shown, shown) if limit and shown else []
    if not related:
        return kept, tokens
    found = found_by_ids(session, filters, [r for r, _, _ in related])
    allowed = {f.assertion.id: f for f in found}
    caps = {c.name: c.rag_length for c in load_categories().categories}
    per_category = Counter(i.category for i in kept)
    used = sum(len(i.text) + 1 for i in kept)
    out = list(kept)
    for other, via, _ in related:
        if other not in allowed or len(out) - len(kept) == limit:
            continue
        item = _item(allowed[other], None, None)
        item = item.model_copy(
            update={"text": f"[{item.category}, related] {item.content}", "related_to": via}
        )
        cap = caps.get(item.category)
        if cap is not None and per_category[item.category] >= cap:
            continue
        if used + len(item.text) + 1 > request.budget_tokens * CHARS_PER_TOKEN:
            continue
        out.append(item)
        per_category[item.category] += 1
        used += len(item.text) + 1
    return out, max(tokens, -(-used // CHARS_PER_TOKEN))
