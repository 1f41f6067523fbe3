"""ask_about_past_input: answer from personal memory (and the project's notes in a project).

"What do you know about me?" lists what is stored; a specific question ("what did I tell you
about my birthday?") is searched with the same hybrid search as `converse search` when the
provider lends an embedder, and by keywords otherwise (keyword hits are always kept).
"""

from __future__ import annotations

import re
from typing import Any

from pipeline.domain import Assertion, NormativeForce, RouteResult
from pipeline.intents.context import HandlerContext
from pipeline.intents.cues import asks_everything
from pipeline.memory.matching import keyword_score, keywords
from pipeline.memory.search import FORGET_MIN_SIMILARITY, MIN_SIMILARITY, search_memory
from pipeline.store import assertions as repo

INTENT = "ask_about_past_input"
MAX_FOUND = 5
MAX_LISTED = 20
_LIVE = (NormativeForce.HELD, NormativeForce.COMMITTED)
_QUESTION_WORDS = frozenset(
    ["what", "when", "where", "which", "who", "how", "why", "did", "does", "tell", "said", "say"]
)
_WH_QUESTION = re.compile(
    r"^(?:and |so |ok(?:ay)? |oh |wait )*(?:what|when|where|which|who|how)\b.*\?$", re.IGNORECASE
)
_SELF_QUESTION = re.compile(
    r"^(?:and |so |ok(?:ay)? |oh |wait )*(?:what|when|where|which|who|how|do|did|does|is|are|was|"
    r"were|have|has|can|could)\b.*\b(?:i|my|me|we|our|us|i'm|i've)\b",
    re.IGNORECASE,
)


def _item(a: Assertion, where: str) -> dict[str, Any]:
    return {
        "display_number": a.display_number,
        "content": a.content,
        "force": a.force.value,
        "where": where,
    }


def _candidates(ctx: HandlerContext) -> list[tuple[Assertion, str]]:
    """Committed personal facts, then the project's live notes (newest first in each)."""
    found: list[tuple[Assertion, str]] = []
    personal_id = ctx.person.personal_engagement_id
    if personal_id is not None:
        facts = repo.list_assertions(ctx.session, personal_id, [NormativeForce.COMMITTED], 500)
        found.extend((a, "personal") for a in facts)
    if ctx.project is not None:
        notes = repo.list_assertions(ctx.session, ctx.project.id, _LIVE, 500)
        found.extend((a, "project") for a in notes)
    return found


def _search(
    ctx: HandlerContext,
    query: str,
    candidates: list[tuple[Assertion, str]],
    min_similarity: float = MIN_SIMILARITY,
    min_keywords: int = 1,
) -> list[tuple[Assertion, str]]:
    keys = keywords(query) - _QUESTION_WORDS
    scored = [(keyword_score(keys, a.content), a, where) for a, where in candidates]
    ranked = sorted(scored, key=lambda t: -t[0])
    hits = [(a, where) for score, a, where in ranked if score >= min_keywords]
    if ctx.embedder is not None and query.strip():
        by_id = {a.id: (a, where) for a, where in candidates}
        engagements = sorted({a.engagement_id for a, _ in candidates})
        found = search_memory(
            ctx.session,
            engagements,
            query,
            ctx.embedder,
            now=ctx.now,
            min_similarity=min_similarity,
        )
        for hit in found:
            pair = by_id.get(hit.assertion_id)  # held personal facts are not recalled
            if pair is not None and all(pair[0].id != a.id for a, _ in hits):
                hits.append(pair)
    return hits[:MAX_FOUND]


def handle_ask_about_past_input(ctx: HandlerContext) -> RouteResult:
    """What the person told the companion, found in personal memory and the project."""
    query = ctx.param("query")
    candidates = _candidates(ctx)
    everything = asks_everything(ctx.message or query) or not keywords(query)
    found = candidates[:MAX_LISTED] if everything else _search(ctx, query, candidates)
    return RouteResult(
        intent=INTENT,
        operation_data={
            "action": "found" if found else "no_match",
            "query": query,
            "scope": "project" if ctx.project else "personal",
            "everything": everything,
            "items": [_item(a, where) for a, where in found],
        },
    )


def answer_from_memory(ctx: HandlerContext) -> RouteResult | None:
    """A question about the person or their project that what is stored answers ("which hand
    do I write with?" with "You're left-handed" stored) is answered from memory, even when it
    was read as plain conversation. Meaning must clearly match (the semantic forget floor)."""
    message = ctx.message.replace("’", "'").strip()
    prior = ctx.prior_companion
    follows_recall = prior is not None and prior.intent == INTENT and message.endswith("?")
    # In a project, the notes are the person's own too: "what's the budget again?".
    about_project = ctx.project is not None and bool(_WH_QUESTION.match(message))
    if not _SELF_QUESTION.match(message) and not follows_recall and not about_project:
        return None
    # Stricter than an explicit recall: two shared words, or a clear match in meaning.
    found = _search(ctx, message, _candidates(ctx), FORGET_MIN_SIMILARITY, min_keywords=2)
    if not found:
        return None
    return RouteResult(
        intent=INTENT,
        operation_data={
            "action": "found",
            "query": message,
            "scope": "project" if ctx.project else "personal",
            "everything": False,
            "items": [_item(a, where) for a, where in found],
        },
    )
