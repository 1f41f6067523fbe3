"""A message's acts, decided in the order said, and the pending items a reading may answer.

A reading is a list of acts (pipeline/domain.py, Act): "yes — and I've got a bad knee" confirms
the offer and states a new fact; "remember I've stopped eating meat, and what should I cook?"
states a fact and asks. Each act is decided by its intent's handler on the same decision
(`ctx.writes`), so both writes are applied once, with the turn. Status reports are acts too:
the core notes them (the responder no longer decides it).

A pending item stays answerable after other turns: the offers and retraction questions of the
last PENDING_WINDOW companion turns, while what they offered is still held (or, for a
retraction question, still committed). A late answer names its item by display number
(`Reading.answers`); one that names none answers the previous turn's item, else the one item
pending (a rejection excepted: dropping an earlier offer needs its number or its description),
and when several are pending the core asks which instead of guessing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from pipeline.actions import Action
from pipeline.domain import ActorKind, Assertion, HistoryTurn, NormativeForce, Role, RouteResult
from pipeline.errors import NotFound
from pipeline.intents.context import HandlerContext
from pipeline.intents.outcome import ConversationOutcome, Item
from pipeline.intents.taxonomy import leaves_pending, pending_outcome
from pipeline.memory.matching import match_forget
from pipeline.reading import Act, Reading, Relation, StatusReport
from pipeline.store import assertions as repo

# How many of the latest companion turns can still leave something pending (docs/intents.md,
# "Pending items").
PENDING_WINDOW = 10
REMEMBER = "remember_about_me"
FORGET = "forget_about_me"
STATUS_NOTED = Action.STATUS_NOTED
WHICH_ITEM = Action.WHICH_ITEM

Route = Callable[[HandlerContext], RouteResult]


@dataclass(frozen=True)
class Pending:
    """One pending item: the personal fact it is about and the companion turn that left it."""

    number: int
    content: str
    turn: HistoryTurn


def route_acts(ctx: HandlerContext, route_one: Route) -> RouteResult:
    """Decide every act of the message in order; the first act's result leads, the rest (and
    the status reports) follow in `also`, and every change is listed once in `changes`."""
    acts = ctx.classified.all_acts()
    statuses = [act.status for act in acts if act.status is not None]
    deciding = [act for act in acts if act.status is None or not _only_status(act)]
    if not deciding:
        deciding = [Act(intent="general_conversation")]
    results: list[RouteResult] = []
    groups = _grouped(deciding)
    for group in groups:
        aimed = _aimed(_narrowed(ctx, group, alone=len(groups) == 1))
        results.append(aimed if isinstance(aimed, RouteResult) else route_one(aimed))
    results.extend(_noted(status) for status in statuses)
    first, rest = results[0], tuple(results[1:])
    if not rest:
        return first
    changes = tuple(change for result in results for change in result.changes)
    return first.model_copy(update={"also": rest, "changes": changes})


def _only_status(act: Act) -> bool:
    """A status act that asks nothing else of the core (no parameters, no reading)."""
    return act.intent == "general_conversation" and not act.params and act.reading is None


def _plain_fact(act: Act) -> bool:
    return (
        act.intent == REMEMBER
        and not act.question
        and not act.restore
        and (act.reading is None or act.reading.relation is Relation.UNRELATED)
        and bool(act.params.get("personal_fact", "").strip())
    )


def _grouped(acts: list[Act]) -> list[list[Act]]:
    """Acts in order, with consecutive new personal facts kept together: several facts in one
    message are offered as one (pipeline/intents/multi.py)."""
    groups: list[list[Act]] = []
    for act in acts:
        if groups and _plain_fact(act) and all(_plain_fact(a) for a in groups[-1]):
            groups[-1].append(act)
        else:
            groups.append([act])
    return groups


def _narrowed(ctx: HandlerContext, group: list[Act], *, alone: bool) -> HandlerContext:
    """The context re-read as one act (a group of new facts: the first, with the rest as the
    turn's candidate facts). Beside other deciding acts, the sentence splitter's candidates are
    not this act's facts; alone (status reports aside), they are the message's."""
    classified = ctx.classified.for_act(group[0])
    if len(group) == 1:
        return replace(ctx, classified=classified, candidates=ctx.candidates if alone else ())
    facts = tuple(act.params["personal_fact"].strip() for act in group)
    return replace(ctx, classified=classified, candidates=facts, max_new_facts=len(facts))


def _noted(status: StatusReport) -> RouteResult:
    return ConversationOutcome(action=STATUS_NOTED, topic=status.topic, text=status.noted).routed()


def pending_items(ctx: HandlerContext) -> list[Pending]:
    """The personal facts still pending in the window, newest offer first, each once."""
    personal_id = ctx.person.personal_engagement_id
    if personal_id is None:
        return []
    companions = [t for t in ctx.history if t.role is Role.COMPANION][-PENDING_WINDOW:]
    found: dict[int, Pending] = {}
    for turn in (offer for t in reversed(companions) for offer in _offers(t)):
        # what a pending outcome is about: the one fact offered or asked about (an offer of
        # several, or a list of candidates, names none)
        number = getattr(pending_outcome(turn), "assertion_display_number", None)
        if not isinstance(number, int) or number in found:
            continue
        fact = _fact(ctx, personal_id, number)
        if fact is not None and _still_pending(turn, fact):
            found[number] = Pending(number, fact.content, turn)
    return list(found.values())


def _offers(turn: HistoryTurn) -> list[HistoryTurn]:
    """A companion turn as the offers it made: its first act's, then its later acts' (stored
    under `also`, pipeline/converse.py), each read as if it had been the turn's own."""
    later = turn.operation_data.get("also")
    extra = [
        HistoryTurn(role=turn.role, content=turn.content, intent=str(d["intent"]), operation_data=d)
        for d in (later if isinstance(later, list) else [])
        if isinstance(d, dict) and isinstance(d.get("intent"), str)
    ]
    return [turn, *extra]


def _fact(ctx: HandlerContext, personal_id: int, number: int) -> Assertion | None:
    try:
        return repo.get_by_number(ctx.session, personal_id, number)
    except NotFound:
        return None


def _still_pending(turn: HistoryTurn, fact: Assertion) -> bool:
    if turn.intent == REMEMBER:
        return fact.force is NormativeForce.HELD and fact.actor is ActorKind.COMPANION
    return fact.force is NormativeForce.COMMITTED  # a retraction question, still unanswered


def _aimed(ctx: HandlerContext) -> HandlerContext | RouteResult:
    """The context with the turn that left the answered item as the previous companion turn,
    so its intent's handler reads the late answer as it reads an immediate one; or the
    question which item is meant, when several are pending and the reading names none."""
    reading = ctx.classified.reading
    if reading is None or reading.relation is Relation.UNRELATED:
        return _forget_of_offer(ctx) or ctx
    named = reading.answered_number()
    if reading.answers is not None and named is None:
        return ctx  # a project note: its handler reads the number itself
    items = pending_items(ctx)
    if named is not None:
        item = next((i for i in items if i.number == named), None)
        if item is None:
            return ctx  # not pending (committed, dropped or out of the window): as said
        return replace(ctx, prior_companion=item.turn)
    if leaves_pending(ctx.prior_companion):
        return ctx
    if reading.relation is Relation.REJECT:
        # Turning down an offer made turns ago drops it: the reading must name which one (or
        # describe it, as a forget request does); a bare "no" late answers nothing.
        return ctx
    if len(items) == 1:
        return replace(ctx, prior_companion=items[0].turn)
    if len(items) > 1:
        return _which(items)
    return ctx


def _forget_of_offer(ctx: HandlerContext) -> HandlerContext | None:
    """A forget request that names a held offer and no committed fact turns the offer down."""
    if ctx.classified.intent != FORGET or ctx.classified.restore:
        return None
    described = ctx.param("forget_description")
    personal_id = ctx.person.personal_engagement_id
    if not described or personal_id is None:
        return None
    committed = repo.list_assertions(ctx.session, personal_id, [NormativeForce.COMMITTED])
    if match_forget(described, committed, ctx.stop_words).action != "no_match":
        return None
    items = [i for i in pending_items(ctx) if i.turn.intent == REMEMBER]
    offers = [_fact(ctx, personal_id, i.number) for i in items]
    match = match_forget(described, [o for o in offers if o is not None], ctx.stop_words)
    if match.action != "confirm_retraction":
        return None
    number = match.assertions[0].display_number
    item = next(i for i in items if i.number == number)
    declined = ctx.classified.model_copy(
        update={
            "intent": REMEMBER,
            "params": {},
            "reading": Reading(relation=Relation.REJECT, answers=f"#{number}"),
        }
    )
    return replace(ctx, classified=declined, prior_companion=item.turn)


def _which(items: list[Pending]) -> RouteResult:
    return ConversationOutcome(
        action=WHICH_ITEM,
        ask="which of these pending items the person means; nothing was changed",
        items=[Item(display_number=i.number, content=i.content) for i in items],
    ).routed()
