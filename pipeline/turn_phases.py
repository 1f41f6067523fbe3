"""One turn as its phases over one typed state (pipeline/converse.py runs them in order).

load (the person's memory, history and checkpoint) -> read (the classifier's reading, and the
candidate facts multi-fact extraction finds) -> decide (each act by its handler; nothing is
stored) -> reply (on-demand recall, the assembled prompt, the responder) -> commit (apply the
decision, store both turns, notes, links, events and the checkpoint in one transaction) ->
compact. Each phase takes the state and returns it with its own part filled in.
"""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy.orm import Session

from pipeline.assemble import assemble_prompt
from pipeline.compaction import compact_if_due
from pipeline.conversations.recall import classification_notes
from pipeline.domain import (
    Reply,
    RouteResult,
)
from pipeline.errors import ConverseError, ProviderError
from pipeline.extraction.trigger import turn_extraction
from pipeline.intents import HandlerContext, route
from pipeline.memory.working import CHARS_PER_TOKEN
from pipeline.on_demand_recall import recall_on_demand
from pipeline.providers.base import ClassifyRequest, Responder, RespondRequest
from pipeline.providers.replies import compose_reply
from pipeline.providers.summarize import ExtractiveSummarizer
from pipeline.tools import Toolbox
from pipeline.turn_load import load_turn
from pipeline.turn_state import TurnState


def load(state: TurnState) -> TurnState:
    """The person's memory, history, notes and checkpoint, and the conversation memories of
    earlier, closed conversations that bear on this message (spec 003)."""
    given = state.given
    loaded = load_turn(given.store, given.person, given.project, given.moment, given.settings)
    stop_words = given.providers.lexicon.stop_words
    embedder = given.providers.embedder
    shown = classification_notes(given.store, given.person.id, given.text, embedder, stop_words)
    return replace(state, loaded=loaded, shown=tuple(shown))


def read(state: TurnState) -> TurnState:
    """The classifier's reading of the message, and the candidate facts it holds."""
    given, loaded = state.given, state.ready
    classified = given.providers.classifier.classify(
        ClassifyRequest(
            message=given.text,
            history=loaded.history,
            project_name=loaded.project.name if loaded.project else None,
            memories=state.shown,
        )
    )
    extraction = turn_extraction(
        given.store,
        person_id=given.person.id,
        operator_name=loaded.person.name,
        classified=classified,
        message=given.text,
        settings=given.settings,
        library=given.library,
        generator=given.providers.structured,
        lexicon=given.providers.lexicon,
        now=given.moment,
    )
    return replace(state, classified=classified, extraction=extraction)


def decided(state: TurnState, session: Session) -> tuple[HandlerContext, RouteResult]:
    """Each act decided by its handler on `session`: what the reply must say and the typed
    writes, nothing stored (called again by `commit` when memory moved meanwhile)."""
    given, loaded = state.given, state.ready
    assert state.extraction is not None, "read runs before decide"
    ctx = HandlerContext(
        session=session,
        person=loaded.person,
        project=loaded.project,
        classified=state.reading,
        prior_companion=state.prior_companion,
        now=given.moment,
        embedder=given.providers.embedder,
        message=given.text,
        candidates=state.extraction.candidates,
        max_new_facts=state.extraction.room,
        lexicon=given.providers.lexicon,
        history=loaded.history,
    )
    return ctx, route(ctx)


def decide(state: TurnState) -> TurnState:
    """Decide once, reading: the reply is built from the decision, and its writes are applied
    once, with both turns, in one transaction after the reply, so a process killed during the
    model call leaves nothing half-stored and no transaction is held open across it
    (docs/reliability.md, "Erasure and crashes"). The revisions were read by `load`, so a write
    landing in between is caught when applying."""
    with state.given.store.read(snapshot=False) as session:
        decision, result = decided(state, session)
    return replace(state, decision=decision, result=result)


def respond(state: TurnState) -> TurnState:
    """An unsure reading looks the message up once; then the prompt is assembled from the
    decision, the reading's status reports are noted, and the responder writes the reply."""
    given, loaded = state.given, state.ready
    assert state.result is not None, "decide runs before respond"
    recalled = recall_on_demand(
        given.store,
        loaded.person,
        state.engagement_id,
        given.text,
        state.reading,
        given.providers.embedder,
        given.settings,
        shown_ids={*loaded.in_block, *(loaded.context.shown if loaded.context else ())},
        shown_texts=(
            loaded.personal_memory,
            loaded.summary,
            *loaded.notes,
            loaded.context.knowledge if loaded.context else "",
            loaded.session.context.profile,
            loaded.session.context.working_memory,
            str(state.result.operation_data),
        ),
        now=given.moment,
    )
    prompt = assemble_prompt(
        given.library,
        companion_name=given.companion_name,
        operator_name=loaded.person.name,
        engagement_context=loaded.context,
        route=state.result,
        personal_memory=loaded.personal_memory,
        has_project=loaded.project is not None,
        session_context=loaded.session.context,
        conversation_summary=loaded.summary,
        status_notes=loaded.notes,
        recalled=recalled.bullets if recalled else (),
    )
    tools = Toolbox(
        given.store,
        loaded.person,
        state.engagement_id,
        given.moment,
        history_turns=len(loaded.history),
        embedder=given.providers.embedder,
        lexicon=given.providers.lexicon,
    )
    for status in state.reading.status:  # the reading's status reports, noted by the core
        tools.note(status.topic, status.noted)
    request = RespondRequest(
        system=prompt,
        history=loaded.history,
        message=given.text,
        route=state.result,
        project_name=loaded.project.name if loaded.project else None,
        tools=tools,
    )
    reply, error = _respond(given.providers.responder, request)
    return replace(
        state, recalled=recalled, prompt=prompt, tools=tools, reply=reply, reply_error=error
    )


def _respond(responder: Responder, request: RespondRequest) -> tuple[Reply, str | None]:
    try:
        return responder.respond(request), None
    except ProviderError as exc:
        fallback = Reply(text=compose_reply(request.route), provider="fallback")
        return fallback, exc.one_line()


def compact(state: TurnState) -> TurnState:
    """Compact when the history, with this turn's two, passes the threshold. The size comes
    from the history already loaded, so a turn below it costs no query. A summarizer that
    fails leaves the history whole, and the next turn tries again."""
    given, loaded, reply = state.given, state.ready, state.replied
    assert state.turns is not None, "commit runs before compact"
    size = sum([len(t.content) for t in loaded.history]) + len(given.text) + len(reply.text)
    if size / CHARS_PER_TOKEN <= given.settings.compaction_threshold_tokens:
        return state
    try:
        compacted = compact_if_due(
            given.store,
            person_id=loaded.person.id,
            engagement_id=state.engagement_id,
            last_turn_id=state.turns[1].id,
            summarizer=given.providers.summarizer or ExtractiveSummarizer(),
            library=given.library,
            settings=given.settings,
            now=given.moment,
            lexicon=given.providers.lexicon,
        )
    except ConverseError:
        # The turn is stored; an instructions file gone since the settings were read, too.
        return state
    return replace(state, compacted=compacted)
