"""Heartbeats: the companion reaches out on its own, within rules that keep it from pestering.

`converse heartbeat run-once` (cron-friendly) looks at each person's conversation outside any
project. It stays quiet at night (the person's local hours), while an exchange is under way,
when it wrote recently, when its earlier messages went unanswered, and when there is nothing
to follow up (no readable working memory) — each rule a setting (pipeline/settings.py). Past
the rules, the provider's responder writes one message from the `heartbeat` template and the
working memory; it is stored as a companion turn on channel `heartbeat`, so it is part of the
one conversation the person answers into.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from pipeline.actions import Action
from pipeline.assemble import AssembledPrompt
from pipeline.converse import COMPANION_NAME
from pipeline.domain import HistoryTurn, Person, Role, Turn
from pipeline.errors import ProviderError
from pipeline.intents.outcome import ConversationOutcome
from pipeline.memory.working import readable
from pipeline.prompting import PromptLibrary, default_library
from pipeline.providers.base import Responder, RespondRequest
from pipeline.providers.summarize import without_speaker
from pipeline.settings import Settings, settings
from pipeline.store import Store
from pipeline.store.sessions import working_document
from pipeline.store.turns import add_turn, recent_turns

CHANNEL = "heartbeat"
LOOK_BACK = 50  # turns read to apply the rules
# A heartbeat has no new message from the person; the responder is told so in its place.
NO_MESSAGE = "(no new message: you are reaching out on your own)"


@dataclass(frozen=True)
class Decision:
    """Whether to reach out now, and why not when not."""

    reach_out: bool
    reason: str
    follow_up: str = ""


def decide(
    turns: list[Turn], working_memory: str | None, now: datetime, rules: Settings
) -> Decision:
    """The rules, in order; the first that holds keeps the companion quiet."""
    local_hour = (now + timedelta(hours=rules.heartbeat_utc_offset_hours)).hour
    start, end = rules.heartbeat_quiet_start_hour, rules.heartbeat_quiet_end_hour
    quiet = start <= local_hour or local_hour < end if start > end else start <= local_hour < end
    if quiet and start != end:
        return Decision(False, f"night hours ({local_hour:02d}:00 local)")
    said = [t for t in turns if t.role is Role.OPERATOR]
    if said and now - said[-1].created_at < timedelta(minutes=rules.heartbeat_active_minutes):
        return Decision(False, "an exchange is under way")
    spoken = [t for t in turns if t.role is Role.COMPANION]
    if spoken and now - spoken[-1].created_at < timedelta(hours=rules.heartbeat_min_gap_hours):
        return Decision(False, "the companion wrote recently")
    unanswered = 0
    for turn in reversed(turns):
        if turn.role is Role.OPERATOR:
            break
        unanswered += turn.channel == CHANNEL
    if unanswered >= rules.heartbeat_max_unanswered:
        return Decision(False, f"{unanswered} earlier messages went unanswered")
    memory = readable(working_memory, now)
    if memory is None:
        return Decision(False, "nothing to follow up (no working memory in use)")
    return Decision(True, "reaching out", memory.summary)


def newest_thread(summary: str) -> str:
    """The summary's last line, where summaries put the newest thing, without an extractive
    summary's bullet and speaker ("- Ana said: ")."""
    lines = [line.strip() for line in summary.splitlines() if line.strip()]
    last = lines[-1] if lines else ""
    return without_speaker(last)


def heartbeat(
    store: Store,
    person: Person,
    responder: Responder | None,
    now: datetime,
    *,
    library: PromptLibrary | None = None,
) -> tuple[Decision, Turn | None]:
    """Decide for one person and reach out if the rules allow; with no responder (a dry run),
    only decide. Returns the decision and the stored message (None when none was sent)."""
    rules = settings()
    with store.read() as session:
        turns = recent_turns(session, person.id, None, LOOK_BACK)
        document = working_document(session, person.id)
    decision = decide(turns, document, now, rules)
    if not decision.reach_out or responder is None:
        return decision, None
    library = library or default_library()
    rendered = library.render(
        "heartbeat",
        companion_name=COMPANION_NAME,
        operator_name=person.name,
        working_memory=decision.follow_up,
    )
    route = ConversationOutcome(
        action=Action.HEARTBEAT, follow_up=newest_thread(decision.follow_up)
    ).routed()
    history = tuple(
        HistoryTurn(
            role=t.role, content=t.content, intent=t.intent, operation_data=t.operation_data
        )
        for t in turns
    )
    try:
        reply = responder.respond(
            RespondRequest(
                system=AssembledPrompt(parts=(("heartbeat", rendered.text),), refs=(rendered.ref,)),
                history=history,
                message=NO_MESSAGE,
                route=route,
            )
        )
    except ProviderError as exc:
        return Decision(False, f"the responder failed: {exc.one_line()}"), None
    with store.write() as session:
        turn = add_turn(
            session,
            person_id=person.id,
            engagement_id=None,
            role=Role.COMPANION,
            content=reply.text,
            intent="general_conversation",
            operation_data=route.operation_data,
            prompt_refs=(rendered.ref,),
            channel=CHANNEL,
            meta={"responder": {"provider": reply.provider, "model": reply.model}},
            created_at=now,
        )
    return decision, turn
