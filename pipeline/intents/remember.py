"""remember_about_me: held -> committed on confirmation, refined, or retracted on rejection;
several facts at once are held as one offer (the reply to it: pipeline/intents/multi.py)."""

from __future__ import annotations

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
from pipeline.intents.context import HandlerContext
from pipeline.intents.facts import clean_fact, same_fact
from pipeline.intents.outcome import ConversationOutcome, Item, Outcome, Refused
from pipeline.intents.spec import IntentSpec
from pipeline.memory.profile_fields import field_of, fields_of_many
from pipeline.reading import Reading, Relation
from pipeline.store import assertions as repo

INTENT = "remember_about_me"
MAX_WRITES_PER_TURN = 3  # specification 004, section 13


class RememberOutcome(Outcome):
    """A fact offered (held), refined, committed or already known; several offered at once
    (held_many) and the answer to them (pipeline/intents/multi.py)."""

    INTENT: ClassVar[str] = INTENT
    ACTIONS: ClassVar[frozenset[Action]] = frozenset(
        {
            Action.HELD,
            Action.REFINED,
            Action.COMMITTED,
            Action.ALREADY_KNOWN,
            Action.HELD_MANY,
            Action.COMMITTED_ALL,
            Action.COMMITTED_SOME,
            Action.DECLINED_ALL,
        }
    )

    personal_fact: str | None = None
    previous_fact: str | None = None
    assertion_display_number: int | None = None
    also_committed: list[Item] = Field(default_factory=list)
    cross_promoted: bool = False
    correction_unread: bool = False
    facts: list[Item] = Field(default_factory=list)
    already_known: list[str] = Field(default_factory=list)
    left_out: list[str] = Field(default_factory=list)
    committed: list[Item] = Field(default_factory=list)
    declined: list[Item] = Field(default_factory=list)


def listed(facts: list[Assertion]) -> list[Item]:
    """Facts as the items an outcome lists (number and text)."""
    return [Item(display_number=a.display_number, content=a.content) for a in facts]


def offered_held(ctx: HandlerContext) -> Assertion | None:
    """The held assertion the previous companion turn offered to remember, if still held."""
    prior = RememberOutcome.of(ctx.prior_companion)
    personal_id = ctx.person.personal_engagement_id
    if prior is None or personal_id is None or prior.action not in (Action.HELD, Action.REFINED):
        return None
    number = prior.assertion_display_number
    held: Assertion | None = None
    if isinstance(number, int):
        try:
            held = repo.get_by_number(ctx.session, personal_id, number)
        except NotFound:  # erased meanwhile; fall back to the latest offer
            held = None
    if held is None or held.actor is not ActorKind.COMPANION:
        held = repo.latest_held_by_companion(ctx.session, personal_id)
    if held is None or held.force is not NormativeForce.HELD:
        return None
    return held


def _existing(ctx: HandlerContext, personal_id: int, fact: str) -> Assertion | None:
    """A live personal fact that already says this (restating it stores nothing new)."""
    live = repo.list_assertions(
        ctx.session, personal_id, [NormativeForce.HELD, NormativeForce.COMMITTED], limit=500
    )
    return next((a for a in live if same_fact(fact, a.content)), None)


def _committed(
    held: Assertion, ctx: HandlerContext, *, promoted: bool = False, also: tuple[int, ...] = ()
) -> RouteResult:
    """Commit the offered fact, and the other facts the reading names that the companion
    offered and are still held ("yes, both are right" after two offers)."""
    committed = ctx.decided.set_force(held.id, NormativeForce.COMMITTED, by=HistoryActor.OPERATOR)
    changes = [MemoryChange.of(committed, held.force)]
    for other in _still_offered(ctx, also, skip=held.id):
        done = ctx.decided.set_force(other.id, NormativeForce.COMMITTED, by=HistoryActor.OPERATOR)
        changes.append(MemoryChange.of(done, NormativeForce.HELD))
    extra: dict[str, object] = {}
    if len(changes) > 1:
        extra["also_committed"] = [
            Item(display_number=c.display_number, content=c.content) for c in changes[1:]
        ]
    if promoted:
        extra["cross_promoted"] = True
    return RememberOutcome(
        action=Action.COMMITTED,
        personal_fact=committed.content,
        assertion_display_number=committed.display_number,
        **extra,
    ).routed(changes)


def _named_offer(ctx: HandlerContext) -> Assertion | None:
    """The still-held offer a correcting reading names by number, when the previous turn
    offered nothing (the correction came after a question in between)."""
    reading = ctx.classified.reading
    if reading is None or reading.relation is not Relation.CORRECT or len(reading.chosen) != 1:
        return None
    found = _still_offered(ctx, reading.chosen, skip=0)
    return found[0] if found else None


def _still_offered(ctx: HandlerContext, numbers: tuple[int, ...], skip: int) -> list[Assertion]:
    """The personal facts among `numbers` that the companion offered and are still held."""
    personal_id = ctx.person.personal_engagement_id
    found: list[Assertion] = []
    for number in dict.fromkeys(numbers):
        try:
            fact = repo.get_by_number(ctx.session, personal_id or 0, number)
        except NotFound:
            continue
        if (
            fact.id != skip
            and fact.force is NormativeForce.HELD
            and fact.actor is ActorKind.COMPANION
        ):
            found.append(fact)
    return found


def _new_fact(ctx: HandlerContext, personal_id: int, fact: str) -> RouteResult:
    promoted = offers_cross_promotion(ctx)
    existing = _existing(ctx, personal_id, fact)
    if existing is not None:
        if promoted and existing.force is NormativeForce.HELD:
            return _committed(existing, ctx, promoted=True)
        action = Action.ALREADY_KNOWN if existing.force is NormativeForce.COMMITTED else Action.HELD
        return _unchanged(existing, action)
    # After a cross-promotion offer the person has just said yes to this very fact, so it
    # is committed at once instead of being offered a second time.
    force = NormativeForce.COMMITTED if promoted else NormativeForce.HELD
    field = field_of(ctx.classified.profile_field, fact, ctx.lexicon)
    created = ctx.decided.add(personal_id, fact, ActorKind.COMPANION, force, profile_field=field)
    return RememberOutcome(
        action=Action.COMMITTED if promoted else Action.HELD,
        personal_fact=created.content,
        assertion_display_number=created.display_number,
        **({"cross_promoted": True} if promoted else {}),
    ).routed([MemoryChange.of(created, None)])


def reading_of_offer(ctx: HandlerContext, held: Assertion, fact: str) -> Reading:
    """How the message answers the offered fact. An answer without a reading (an older
    classifier prompt version) is read without looking at its words: no fact or the same fact
    again confirms; any other fact is a fact of its own, and the offer stays held."""
    if ctx.classified.reading is not None:
        return ctx.classified.reading
    if not fact or same_fact(fact, held.content):
        return Reading(relation=Relation.CONFIRM)
    return Reading(relation=Relation.UNRELATED)


def handle_remember(ctx: HandlerContext) -> RouteResult:
    """Hold a new personal fact, or commit / refine the one offered on the previous turn."""
    personal_id = ctx.person.personal_engagement_id
    if personal_id is None:
        return Refused(error="no_personal_engagement").routed(INTENT)
    fact = clean_fact(ctx.param("personal_fact"))
    held = offered_held(ctx) or _named_offer(ctx)
    if held is not None:
        reading = reading_of_offer(ctx, held, fact)
        if reading.project_only and ctx.project is not None:
            return keep_in_project(ctx, held)
        if reading.relation is Relation.REJECT:
            return reject_offer(ctx, held)
        if reading.relation in (Relation.CONFIRM, Relation.CHOOSE):
            return _committed(held, ctx, also=reading.chosen)
        if reading.relation is Relation.CORRECT:
            corrected = clean_fact(reading.corrected) or fact
            if corrected and not same_fact(corrected, held.content):
                return _refined(ctx, held, corrected)
            # A correction that changes nothing was not understood: the person said the offer
            # is wrong, so it is neither committed nor dropped, but offered again as it stands.
            return _unchanged(held, Action.HELD, correction_unread=True)
        # UNRELATED: a different fact is held on its own; the offer stays held
    if len(ctx.candidates) >= 2:
        many = hold_many(ctx, personal_id)
        if many is not None:
            return many
    if not fact:
        return Refused(error="no_personal_fact").routed(INTENT)
    return _new_fact(ctx, personal_id, fact)


def _refined(ctx: HandlerContext, held: Assertion, fact: str) -> RouteResult:
    # A correction never drops consent: "no, Boulder" after "You live in Denver" is still
    # a change of city even when its reading names no field.
    said = field_of(ctx.classified.profile_field, fact, ctx.lexicon)
    refined = ctx.decided.amend(
        held.id, fact, by=HistoryActor.OPERATOR, profile_field=said or held.profile_field
    )
    return RememberOutcome(
        action=Action.REFINED,
        personal_fact=refined.content,
        previous_fact=held.content,
        assertion_display_number=refined.display_number,
    ).routed([MemoryChange.of(refined, NormativeForce.HELD)])


def _unchanged(fact: Assertion, action: Action, **extra: object) -> RouteResult:
    """A turn that writes nothing and names a stored fact: known already, or offered again."""
    return RememberOutcome(
        action=action,
        personal_fact=fact.content,
        assertion_display_number=fact.display_number,
        **extra,
    ).routed()


def reject_offer(ctx: HandlerContext, held: Assertion) -> RouteResult:
    """Retract the offered fact the person turned down, and any status note that carries its
    words (noted from the same message): turned down, it is kept nowhere."""
    retracted = ctx.decided.decline(
        held.id, "Operator declined the offer to remember it", person_id=ctx.person.id
    )
    return ConversationOutcome(
        action=Action.REJECTED,
        retracted_fact=retracted.content,
        assertion_display_number=retracted.display_number,
    ).routed([MemoryChange.of(retracted, NormativeForce.HELD)])


def offers_cross_promotion(ctx: HandlerContext) -> bool:
    """Whether the message says yes to the previous companion turn's offer to remember part of
    a project note everywhere: a confirming reading after a turn that was not itself an offer
    to remember (so the only offer it can have made is the cross-promotion one)."""
    prior = ctx.prior_companion
    reading = ctx.classified.reading
    return (
        prior is not None
        and prior.intent != INTENT
        and reading is not None
        and reading.relation is Relation.CONFIRM
    )


def retract_rejected_offer(ctx: HandlerContext) -> RouteResult | None:
    """An outright rejection of an offer to remember ("never mind") retracts the held fact;
    anything else unrelated (a question, a project fact) leaves the offer held."""
    held = offered_held(ctx)
    reading = ctx.classified.reading
    if held is None or reading is None or reading.relation is not Relation.REJECT:
        return None
    return reject_offer(ctx, held)


def keep_in_project(ctx: HandlerContext, held: Assertion) -> RouteResult:
    """ "No, just this project" after an offer: the fact becomes the project's knowledge (held,
    stated by the operator) and leaves personal memory."""
    assert ctx.project is not None
    retracted = ctx.decided.set_force(
        held.id,
        NormativeForce.RETRACTED,
        "Operator kept it to one project",
        by=HistoryActor.OPERATOR,
    )
    note = ctx.decided.add(ctx.project.id, held.content, ActorKind.OPERATOR)
    return ConversationOutcome(
        action=Action.KEPT_IN_PROJECT,
        knowledge=note.content,
        assertion_display_number=note.display_number,
        retracted_personal_number=retracted.display_number,
    ).routed([MemoryChange.of(retracted, NormativeForce.HELD), MemoryChange.of(note, None)])


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
    kept = new[:room]
    fields = fields_of_many(ctx.classified.profile_field, kept, ctx.lexicon)
    created = [
        ctx.decided.add(
            personal_id,
            fact,
            ActorKind.COMPANION,
            NormativeForce.HELD,
            created_at=ctx.now,
            profile_field=field,
        )
        for fact, field in zip(kept, fields, strict=True)
    ]
    return RememberOutcome(
        action=Action.HELD_MANY, facts=listed(created), already_known=known, left_out=new[room:]
    ).routed(MemoryChange.of(a, None) for a in created)


SPECS = (
    IntentSpec(
        INTENT,
        True,
        ("personal_fact",),
        "a fact about the person (preferences, identity, schedule, diet, health, "
        "location, working style, family) to remember across all projects",
        offer=(
            "remember things about you — your diet, schedule, family, preferences — "
            "across all your projects, after checking I got them right"
        ),
        pending=(Action.HELD, Action.REFINED, Action.HELD_MANY),
        handler=handle_remember,
        outcome=RememberOutcome,
        subject="personal_fact",
        writes=True,
    ),
)
