"""Several personal facts offered at once (multi-fact extraction, docs/memory.md): hold up to
three as one offer, then read the reply as confirming all, some or none of them.

The reply names what to keep or leave out by position ("the first and third", "all but #2"),
by a word only one of the facts has ("not the cat one"), or answers for all ("yes", "none of
them"). What is confirmed is committed; what the person leaves out is retracted (reversible,
with a rationale), so nothing is silently kept or silently lost. A reply that is none of
these (a new fact, a question) leaves the offer held, as an unanswered single offer is.
"""

from __future__ import annotations

import re
from typing import Any

from pipeline.domain import (
    ActorKind,
    Assertion,
    HistoryActor,
    MemoryChange,
    NormativeForce,
    RouteResult,
)
from pipeline.errors import NotFound
from pipeline.intents.context import HandlerContext
from pipeline.intents.cues import is_affirmation, is_first_person_clause, is_rejection
from pipeline.intents.facts import same_fact
from pipeline.memory.matching import keyword_score, keywords
from pipeline.store import assertions as repo

INTENT = "remember_about_me"
HELD_MANY = "held_many"
MAX_WRITES_PER_TURN = 3  # specification 004, section 13
_F = re.IGNORECASE
_EXCLUDE = re.compile(
    r"\b(?:except(?: for)?|but not|apart from|other than|not|skip|leave out|leave off|without|"
    r"minus|drop|don'?t|do not|no to|forget|remove|scratch|lose)\b",
    _F,
)
_ALL = re.compile(r"\b(?:all|both|everything|every one|each|the lot)\b", _F)
_NONE = re.compile(r"\b(?:none|neither|nothing|no to all|not any)\b", _F)
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5}
_POSITION = re.compile(r"#?\b([1-5])\b|\b(first|second|third|fourth|fifth|last)\b", _F)
# Words of a selecting reply that say nothing about which fact is meant.
_SELECTING = frozenset(
    re.findall(
        r"\S+",
        """
        yes yeah yep yup sure ok okay please only just keep save remember store note one ones
        them all both everything except but not apart other than skip leave out without drop
        minus first second third fourth fifth last fine good correct right rest thing bit part
        none neither nothing forget remove scratch lose those these that this fact facts about
        go ahead perfect great thanks thank
        """,
    )
)


def offered_many(ctx: HandlerContext) -> list[Assertion]:
    """The facts the previous companion turn offered together that are still held."""
    prior = ctx.prior_companion
    personal_id = ctx.person.personal_engagement_id
    if prior is None or personal_id is None or prior.operation_data.get("action") != HELD_MANY:
        return []
    held: list[Assertion] = []
    for item in prior.operation_data.get("facts", []):
        number = item.get("display_number") if isinstance(item, dict) else None
        if not isinstance(number, int):
            continue
        try:
            found = repo.get_by_number(ctx.session, personal_id, number)
        except NotFound:  # erased meanwhile
            continue
        if found.force is NormativeForce.HELD:
            held.append(found)
    return held


def _picked(part: str, offered: list[Assertion]) -> set[int]:
    """Indexes (0-based) of the offered facts a part of the reply names."""
    chosen: set[int] = set()
    for digit, word in _POSITION.findall(part):
        position = int(digit) if digit else _ORDINALS.get(word.lower(), len(offered))
        if 1 <= position <= len(offered):
            chosen.add(position - 1)
    keys = keywords(part) - _SELECTING
    for key in keys:
        hits = [i for i, fact in enumerate(offered) if keyword_score({key}, fact.content)]
        if len(hits) == 1:  # a word two facts share names neither
            chosen.add(hits[0])
    return chosen


def chosen_indexes(message: str, offered: list[Assertion]) -> set[int] | None:
    """Which offered facts the reply keeps, or None when it does not answer the offer."""
    text = " ".join(message.replace("’", "'").split())
    words = text.split()
    if not words or len(words) > 25 or text.endswith("?"):
        return None  # a question asks something else; the offer stays held
    if len(words) >= 5 and is_first_person_clause(text) and not is_affirmation(text):
        return None  # a new statement about the person, not an answer
    cue = _EXCLUDE.search(text)
    include_part, exclude_part = (text[: cue.start()], text[cue.end() :]) if cue else (text, "")
    included = _picked(include_part, offered)
    excluded = _picked(exclude_part, offered)
    everything = set(range(len(offered)))
    if excluded:
        base = included if included and not _ALL.search(include_part) else everything
        return base - excluded
    if included:
        return included
    if is_rejection(text) or _NONE.search(text):
        return set()
    if is_affirmation(text) or _ALL.search(text):
        return everything
    return None


def _listed(facts: list[Assertion]) -> list[dict[str, Any]]:
    return [{"display_number": a.display_number, "content": a.content} for a in facts]


def answer_offer(ctx: HandlerContext) -> RouteResult | None:
    """Commit the facts the reply confirms and retract the rest; None when the reply does not
    answer an offer of several facts."""
    offered = offered_many(ctx)
    if not offered:
        return None
    kept = chosen_indexes(ctx.message, offered)
    if kept is None:
        return None
    committed: list[Assertion] = []
    declined: list[Assertion] = []
    changes: list[MemoryChange] = []
    for index, fact in enumerate(offered):
        if index in kept:
            after = repo.set_force(
                ctx.session, fact.id, NormativeForce.COMMITTED, by=HistoryActor.OPERATOR
            )
            committed.append(after)
        else:
            after = repo.set_force(
                ctx.session,
                fact.id,
                NormativeForce.RETRACTED,
                "Operator did not confirm it when it was offered with others",
                by=HistoryActor.OPERATOR,
            )
            declined.append(after)
        changes.append(MemoryChange.of(after, NormativeForce.HELD))
    action = (
        "committed_all" if not declined else "declined_all" if not committed else "committed_some"
    )
    return RouteResult(
        intent=INTENT,
        operation_data={
            "action": action,
            "committed": _listed(committed),
            "declined": _listed(declined),
        },
        changes=tuple(changes),
    )


def hold_many(ctx: HandlerContext, personal_id: int) -> RouteResult | None:
    """Hold up to `ctx.max_new_facts` (at most three) of the turn's candidate facts as one
    offer; None when fewer than two are new, so the single-fact flow answers as before."""
    live = repo.list_assertions(
        ctx.session, personal_id, [NormativeForce.HELD, NormativeForce.COMMITTED], limit=500
    )
    known = [c for c in ctx.candidates if any(same_fact(c, a.content) for a in live)]
    new = [c for c in ctx.candidates if c not in known]
    room = min(MAX_WRITES_PER_TURN, ctx.max_new_facts)
    if len(new) < 2 or room < 2:
        return None
    created = [
        repo.add_assertion(
            ctx.session,
            personal_id,
            fact,
            ActorKind.COMPANION,
            NormativeForce.HELD,
            created_at=ctx.now,
        )
        for fact in new[:room]
    ]
    return RouteResult(
        intent=INTENT,
        operation_data={
            "action": HELD_MANY,
            "facts": _listed(created),
            "already_known": known,
            "left_out": new[room:],
        },
        changes=tuple(MemoryChange.of(a, None) for a in created),
    )
