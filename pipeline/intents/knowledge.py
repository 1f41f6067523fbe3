"""Project knowledge: add, list, commit, retract, and questions about past input."""

from __future__ import annotations

import re
from typing import ClassVar

from pydantic import Field

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
from pipeline.intents.outcome import Item, Outcome, Refused, RetractionOutcome
from pipeline.intents.spec import IntentSpec
from pipeline.memory.matching import match_forget, match_loosely
from pipeline.store import assertions as repo

_WORD = re.compile(r"[\w']+")
_NUMBERS = re.compile(r"#?\b(\d{1,6})\b")
_LIVE = (NormativeForce.HELD, NormativeForce.COMMITTED)


class AddKnowledgeOutcome(Outcome):
    """add_knowledge: the note held in the project."""

    INTENT: ClassVar[str] = "add_knowledge"
    ACTIONS: ClassVar[frozenset[Action]] = frozenset({Action.HELD})

    knowledge: str
    assertion_display_number: int


class ListKnowledgeOutcome(Outcome):
    """list_knowledge: the project's live notes."""

    INTENT: ClassVar[str] = "list_knowledge"
    ACTIONS: ClassVar[frozenset[Action]] = frozenset({Action.LISTED})

    items: list[Item]


class CommitKnowledgeOutcome(Outcome):
    """commit_knowledge: the notes settled, or nothing held that the reference names."""

    INTENT: ClassVar[str] = "commit_knowledge"
    ACTIONS: ClassVar[frozenset[Action]] = frozenset({Action.COMMITTED, Action.NO_MATCH})

    items: list[Item] = Field(default_factory=list)
    reference: str | None = None
    held_count: int | None = None


class NoteRetractionOutcome(RetractionOutcome):
    """retract_knowledge: a question whether to remove the note matched, and its answer."""

    INTENT: ClassVar[str] = "retract_knowledge"

    knowledge_description: str | None = None


def _item(a: Assertion) -> Item:
    return Item(display_number=a.display_number, content=a.content, force=a.force.value)


def handle_add_knowledge(ctx: HandlerContext) -> RouteResult:
    """A project fact becomes a held assertion in the project, stated by the operator."""
    assert ctx.project is not None
    fact = clean_fact(ctx.param("knowledge"))
    if not fact:
        return Refused(error="no_knowledge").routed(AddKnowledgeOutcome.INTENT)
    created = ctx.decided.add(ctx.project.id, fact, ActorKind.OPERATOR)
    return AddKnowledgeOutcome(
        action=Action.HELD,
        knowledge=created.content,
        assertion_display_number=created.display_number,
    ).routed([MemoryChange.of(created, None)])


def handle_list_knowledge(ctx: HandlerContext) -> RouteResult:
    """The project's held and committed assertions, newest first."""
    assert ctx.project is not None
    items = repo.list_assertions(ctx.session, ctx.project.id, _LIVE, limit=50)
    return ListKnowledgeOutcome(action=Action.LISTED, items=[_item(a) for a in items]).routed()


def _just_noted(ctx: HandlerContext) -> int | None:
    """The note the previous companion turn added, if it added one."""
    prior = AddKnowledgeOutcome.of(ctx.prior_companion)
    return prior.assertion_display_number if prior is not None else None


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
        return CommitKnowledgeOutcome(
            action=Action.NO_MATCH, reference=reference, held_count=len(held)
        ).routed()
    done = [
        ctx.decided.set_force(a.id, NormativeForce.COMMITTED, by=HistoryActor.OPERATOR)
        for a in chosen
    ]
    return CommitKnowledgeOutcome(action=Action.COMMITTED, items=[_item(a) for a in done]).routed(
        MemoryChange.of(a, NormativeForce.HELD) for a in done
    )


def _confirm_note(a: Assertion) -> RouteResult:
    return NoteRetractionOutcome(
        action=Action.CONFIRM_RETRACTION,
        matched_fact=a.content,
        matched_assertion_id=a.id,
        assertion_display_number=a.display_number,
        item=_item(a),
    ).routed()


def _kept_note(description: str) -> RouteResult:
    return NoteRetractionOutcome(action=Action.KEPT, knowledge_description=description).routed()


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
    return NoteRetractionOutcome(action=Action.RETRACTED, item=_item(done)).routed(
        [MemoryChange.of(done, target.force)]
    )


def handle_retract_knowledge(ctx: HandlerContext) -> RouteResult:
    """Match the description against the project's notes and ask before retracting; the
    confirmation on the next turn retracts what was matched (never re-guessed)."""
    assert ctx.project is not None
    description = ctx.param("knowledge_description")
    prior = NoteRetractionOutcome.of(ctx.prior_companion)
    if prior is not None and prior.action is Action.CONFIRM_RETRACTION:
        matched = prior.matched_fact or ""
        answered = answer_to_confirmation(
            ctx,
            prior,
            description,
            retract=lambda i: _retract_note(ctx, i, matched),
            confirm=_confirm_note,
            kept=_kept_note,
        )
        if answered is not None:
            return answered
        description = corrected_description(ctx, description)
    live = repo.list_assertions(ctx.session, ctx.project.id, _LIVE)
    if prior is not None and prior.action is Action.AMBIGUOUS:
        candidates = prior.candidates
        number = pick_candidate(ctx.classified.reading, description, candidates, ctx.stop_words)
        chosen = [a for a in live if a.display_number == number]
        if chosen:
            return _confirm_note(chosen[0])
    described = description
    match = match_forget(described, live, ctx.stop_words)
    if match.action == "no_match":
        match = match_loosely(described, live, ctx.stop_words)
    if match.action == "no_match":
        return NoteRetractionOutcome(action=Action.NO_MATCH).routed()
    if match.action == "ambiguous":
        return NoteRetractionOutcome(
            action=Action.AMBIGUOUS, candidates=[_item(a) for a in match.assertions]
        ).routed()
    return _confirm_note(match.assertions[0])


SPECS = (
    IntentSpec(
        "add_knowledge",
        True,
        ("knowledge",),
        "a fact about the project's domain to record in the project",
        needs_project=True,
        offer="keep notes for a project when you tell me something about it",
        handler=handle_add_knowledge,
        outcome=AddKnowledgeOutcome,
        required=("knowledge",),
        subject="knowledge",
        writes=True,
    ),
    IntentSpec(
        "list_knowledge",
        True,
        (),
        "show everything recorded for the project",
        needs_project=True,
        offer="show you a project's notes",
        handler=handle_list_knowledge,
        outcome=ListKnowledgeOutcome,
    ),
    IntentSpec(
        "commit_knowledge",
        True,
        ("knowledge_reference",),
        "settle held project knowledge ('lock in #3', 'mark all of those as final')",
        needs_project=True,
        offer="lock in a project note once you're sure of it",
        handler=handle_commit_knowledge,
        outcome=CommitKnowledgeOutcome,
    ),
    IntentSpec(
        "retract_knowledge",
        True,
        ("knowledge_description",),
        "remove a fact from the project's knowledge",
        needs_project=True,
        offer="remove a project note when you ask (it can be put back)",
        pending=(Action.CONFIRM_RETRACTION, Action.AMBIGUOUS),
        handler=handle_retract_knowledge,
        outcome=NoteRetractionOutcome,
        required=("knowledge_description",),
        subject="knowledge_description",
        writes=True,
    ),
)
