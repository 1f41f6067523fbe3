"""ask_about_past_input: answer from personal memory (and the project's notes in a project).

"What do you know about me?" lists what is stored; a specific question ("what did I tell you
about my birthday?") is searched with the same hybrid search as `converse search` when the
provider lends an embedder, and by keywords otherwise (keyword hits are always kept).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import ClassVar, Literal

from pipeline.actions import Action
from pipeline.categories import ContextMode, load_categories
from pipeline.domain import Assertion, NormativeForce, RouteResult
from pipeline.intents.context import HandlerContext
from pipeline.intents.outcome import Item, Outcome
from pipeline.intents.spec import IntentSpec
from pipeline.memory.matching import keyword_score, word_form
from pipeline.memory.search import FORGET_MIN_SIMILARITY, MIN_SIMILARITY, search_memory
from pipeline.store import assertions as repo

INTENT = "ask_about_past_input"
MAX_FOUND = 5
MAX_LISTED = 20
MAX_CANDIDATES = 500  # newest first: how far back keyword recall looks
# Where a turn's recall leaves the best similarity its search saw (pipeline/turn_events.py).
BEST_SIMILARITY = "recall_best_similarity"
_LIVE = (NormativeForce.HELD, NormativeForce.COMMITTED)


class RecallOutcome(Outcome):
    """ask_about_past_input: what was found, where recall looked, and whether it was asked
    for everything ("what do you know about me?") or for something specific."""

    INTENT: ClassVar[str] = INTENT
    ACTIONS: ClassVar[frozenset[Action]] = frozenset({Action.FOUND, Action.NO_MATCH})

    query: str
    scope: Literal["personal", "project"]
    everything: bool
    items: list[Item]


def _item(a: Assertion, where: str) -> Item:
    return Item(
        display_number=a.display_number, content=a.content, force=a.force.value, where=where
    )


def _shelves(ctx: HandlerContext) -> list[tuple[int, tuple[NormativeForce, ...], str]]:
    """Where recall looks: committed personal facts, then the project's live notes."""
    shelves: list[tuple[int, tuple[NormativeForce, ...], str]] = []
    if ctx.person.personal_engagement_id is not None:
        shelves.append((ctx.person.personal_engagement_id, (NormativeForce.COMMITTED,), "personal"))
    if ctx.project is not None:
        shelves.append((ctx.project.id, _LIVE, "project"))
    return shelves


def _candidates(
    ctx: HandlerContext, limit: int = MAX_CANDIDATES, containing: Collection[str] = ()
) -> list[tuple[Assertion, str]]:
    """Recall's candidates, newest first on each shelf; with `containing`, only those whose
    text contains one of those strings (the database narrows, keyword_score decides)."""
    found: list[tuple[Assertion, str]] = []
    for engagement_id, forces, where in _shelves(ctx):
        left = limit - len(found)
        rows = (
            repo.newest_containing(ctx.session, engagement_id, forces, left, containing)
            if containing
            else repo.list_assertions(ctx.session, engagement_id, forces, left)
        )
        found.extend((a, where) for a in rows if _in_conversation(a))
    return found


def _in_conversation(a: Assertion) -> bool:
    """Whether a memory may reach the conversation: categories with context `none`
    (procedural steps) only memory.query naming them fetches (pipeline/categories.yaml)."""
    return load_categories().mode(a.category) is not ContextMode.NONE


def _narrowing(keys: set[str]) -> tuple[str, ...]:
    """What a matching fact must contain: each keyword's form (pipeline/memory/matching.py).
    Nothing, so no narrowing, when a form is not ASCII: the database lowercases ASCII only."""
    forms = tuple(sorted({word_form(k) for k in keys}))
    return forms if all(f.isascii() for f in forms) else ()


def _search(
    ctx: HandlerContext,
    query: str,
    min_similarity: float = MIN_SIMILARITY,
    min_keywords: int = 1,
) -> list[tuple[Assertion, str]]:
    key = ("recall", query, min_similarity, min_keywords)
    if key not in ctx.reads:
        ctx.reads[key] = _searched(ctx, query, min_similarity, min_keywords)
    found: list[tuple[Assertion, str]] = ctx.reads[key]
    return found


def _searched(
    ctx: HandlerContext, query: str, min_similarity: float, min_keywords: int
) -> list[tuple[Assertion, str]]:
    keys = ctx.keywords(query) - ctx.lexicon.question_words
    candidates = _candidates(ctx, containing=_narrowing(keys)) if keys else []
    scored = [(keyword_score(keys, a.content), a, where) for a, where in candidates]
    ranked = sorted(scored, key=lambda t: -t[0])
    hits = [(a, where) for score, a, where in ranked if score >= min_keywords]
    if ctx.embedder is not None and query.strip():
        shelves = {engagement_id: (forces, where) for engagement_id, forces, where in _shelves(ctx)}
        engagements = sorted(shelves)
        found = search_memory(
            ctx.session,
            engagements,
            query,
            ctx.embedder,
            now=ctx.now,
            min_similarity=min_similarity,
            stop_words=ctx.stop_words,
        )
        if found:
            ctx.reads[BEST_SIMILARITY] = max(h.similarity for h in found)
        for hit in found:
            if any(hit.assertion_id == a.id for a, _ in hits):
                continue
            fact = repo.get_assertion(ctx.session, hit.assertion_id)
            forces, where = shelves[fact.engagement_id]
            # held personal facts and procedural steps are not recalled
            if fact.force in forces and _in_conversation(fact):
                hits.append((fact, where))
    return hits[:MAX_FOUND]


def handle_ask_about_past_input(ctx: HandlerContext) -> RouteResult:
    """What the person told the companion, found in personal memory and the project."""
    query = ctx.param("query")
    everything = not ctx.keywords(query)
    found = _candidates(ctx, MAX_LISTED) if everything else _search(ctx, query)
    return RecallOutcome(
        action=Action.FOUND if found else Action.NO_MATCH,
        query=query,
        scope="project" if ctx.project else "personal",
        everything=everything,
        items=[_item(a, where) for a, where in found],
    ).routed()


def answer_from_memory(ctx: HandlerContext) -> RouteResult | None:
    """A question that what is stored answers ("which hand do I write with?" with "You're
    left-handed" stored) is answered from memory, even when it was read as plain
    conversation. Meaning must clearly match (the semantic forget floor)."""
    if not ctx.classified.question:
        return None
    message = ctx.message.strip()
    # Stricter than an explicit recall: two shared words, or a clear match in meaning.
    found = _search(ctx, message, FORGET_MIN_SIMILARITY, min_keywords=2)
    if not found:
        return None
    return RecallOutcome(
        action=Action.FOUND,
        query=message,
        scope="project" if ctx.project else "personal",
        everything=False,
        items=[_item(a, where) for a, where in found],
    ).routed()


SPECS = (
    IntentSpec(
        INTENT,
        True,
        ("query",),
        "a question about what the person told the companion before",
        offer="tell you what you've told me before, about you or about a project",
        handler=handle_ask_about_past_input,
        outcome=RecallOutcome,
        subject="query",
    ),
)
