"""Project knowledge: add, list, commit, retract, and questions about past input."""

from __future__ import annotations

import re
from typing import Any

from pipeline.actions import Action
from pipeline.domain import (
    ActorKind,
    Assertion,
    HistoryActor,
    MemoryChange,
    NormativeForce,
    RouteResult,
)
from pipeline.errors import NotFound
from pipeline.intents.confirmation import (
    answer_to_confirmation,
    corrected_description,
    pick_candidate,
)
from pipeline.intents.context import HandlerContext
from pipeline.intents.facts import clean_fact
from pipeline.memory.matching import match_forget, match_loosely
from pipeline.store import assertions as repo

_WORD = re.compile(r"[\w']+")
_NUMBERS = re.compile(r"#?\b(\d{1,6})\b")
_LIVE = (NormativeForce.HELD, NormativeForce.COMMITTED)


def _item(a: Assertion) -> dict[str, Any]:
    return {"display_number": a.display_number, "content": a.content, "force": a.force.value}


def handle_add_knowledge(ctx: HandlerContext) -> RouteResult:
    """A project fact becomes a held assertion in the project, stated by the operator."""
    assert ctx.project is not None
    fact = clean_fact(ctx.param("knowledge"))
    if not fact:
        return RouteResult(intent="add_knowledge", operation_data={"error": "no_knowledge"})
    created = ctx.decided.add(ctx.project.id, fact, ActorKind.OPERATOR)
    return RouteResult(
        intent="add_knowledge",
        operation_data={
            "action": Action.HELD,
            "knowledge": created.content,
            "assertion_display_number": created.display_number,
        },
        changes=(MemoryChange.of(created, None),),
    )


def handle_list_knowledge(ctx: HandlerContext) -> RouteResult:
    """The project's held and committed assertions, newest first."""
    assert ctx.project is not None
    items = repo.list_assertions(ctx.session, ctx.project.id, _LIVE, limit=50)
    return RouteResult(
        intent="list_knowledge",
        operation_data={"action": Action.LISTED, "items": [_item(a) for a in items]},
    )


def _just_noted(ctx: HandlerContext) -> int | None:
    """The note the previous companion turn added, if it added one."""
    prior = ctx.prior_companion
    if prior is None or prior.intent != "add_knowledge":
        return None
    number = prior.operation_data.get("assertion_display_number")
    return number if isinstance(number, int) else None


def _names_every_item(ctx: HandlerContext, reference: str) -> bool:
    """Whether the reference means every held note ("mark all of those as final"), by the
    lent lexicon's words for it."""
    words = {w.strip("'") for w in _WORD.findall(reference.lower())}
    return bool(words & ctx.lexicon.every_item)


def handle_commit_knowledge(ctx: HandlerContext) -> RouteResult:
    """Commit held project assertions named by number, by 'all', or by description."""
    assert ctx.project is not None
    reference = ctx.param("knowledge_reference")
    held = repo.list_assertions(ctx.session, ctx.project.id, [NormativeForce.HELD])
    numbers = {int(n) for n in _NUMBERS.findall(reference)}
    just_noted = _just_noted(ctx)
    if not numbers and just_noted is not None and not ctx.keywords(reference):
        numbers = {just_noted}  # "lock that in" right after a note: that note
    if numbers:
        chosen = [a for a in held if a.display_number in numbers]
    elif not reference or _names_every_item(ctx, reference):
        chosen = held
    else:
        match = match_forget(reference, held, ctx.stop_words)
        chosen = list(match.assertions) if match.action == "confirm_retraction" else []
    if not chosen:
        return RouteResult(
            intent="commit_knowledge",
            operation_data={
                "action": Action.NO_MATCH,
                "reference": reference,
                "held_count": len(held),
            },
        )
    done = [
        ctx.decided.set_force(a.id, NormativeForce.COMMITTED, by=HistoryActor.OPERATOR)
        for a in chosen
    ]
    return RouteResult(
        intent="commit_knowledge",
        operation_data={"action": Action.COMMITTED, "items": [_item(a) for a in done]},
        changes=tuple(MemoryChange.of(a, NormativeForce.HELD) for a in done),
    )


def _confirm_note(a: Assertion) -> RouteResult:
    return RouteResult(
        intent="retract_knowledge",
        operation_data={
            "action": Action.CONFIRM_RETRACTION,
            "matched_fact": a.content,
            "matched_assertion_id": a.id,
            "assertion_display_number": a.display_number,
            "item": _item(a),
        },
    )


def _kept_note(description: str) -> RouteResult:
    return RouteResult(
        intent="retract_knowledge",
        operation_data={"action": Action.KEPT, "knowledge_description": description},
    )


def _retract_note(ctx: HandlerContext, assertion_id: int, reason: str) -> RouteResult | None:
    try:
        target = repo.get_assertion(ctx.session, assertion_id)
    except NotFound:  # erased or set aside by the lifecycle sweep since it was matched
        return None
    if target.force is NormativeForce.RETRACTED:
        return None
    done = ctx.decided.set_force(
        target.id,
        NormativeForce.RETRACTED,
        f"Operator asked to remove: {reason}",
        by=HistoryActor.OPERATOR,
    )
    return RouteResult(
        intent="retract_knowledge",
        operation_data={"action": Action.RETRACTED, "item": _item(done)},
        changes=(MemoryChange.of(done, target.force),),
    )


def handle_retract_knowledge(ctx: HandlerContext) -> RouteResult:
    """Match the description against the project's notes and ask before retracting; the
    confirmation on the next turn retracts what was matched (never re-guessed)."""
    assert ctx.project is not None
    description = ctx.param("knowledge_description")
    prior = ctx.prior_companion
    data = prior.operation_data if prior is not None and prior.intent == "retract_knowledge" else {}
    if data.get("action") == Action.CONFIRM_RETRACTION:
        answered = answer_to_confirmation(
            ctx,
            data,
            description,
            retract=lambda i: _retract_note(ctx, i, str(data.get("matched_fact", ""))),
            confirm=_confirm_note,
            kept=_kept_note,
        )
        if answered is not None:
            return answered
        description = corrected_description(ctx, description)
    live = repo.list_assertions(ctx.session, ctx.project.id, _LIVE)
    if data.get("action") == Action.AMBIGUOUS:
        candidates = list(data.get("candidates", []))
        number = pick_candidate(ctx.classified.reading, description, candidates, ctx.stop_words)
        chosen = [a for a in live if a.display_number == number]
        if chosen:
            return _confirm_note(chosen[0])
    described = description
    match = match_forget(described, live, ctx.stop_words)
    if match.action == "no_match":
        match = match_loosely(described, live, ctx.stop_words)
    if match.action == "no_match":
        return RouteResult(intent="retract_knowledge", operation_data={"action": Action.NO_MATCH})
    if match.action == "ambiguous":
        return RouteResult(
            intent="retract_knowledge",
            operation_data={
                "action": Action.AMBIGUOUS,
                "candidates": [_item(a) for a in match.assertions],
            },
        )
    return _confirm_note(match.assertions[0])
