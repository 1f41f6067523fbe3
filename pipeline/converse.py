"""The one orchestration function: context -> memory -> classify -> decide -> assemble ->
respond -> apply the decision and persist both turns in one transaction."""

from __future__ import annotations

import shlex
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from pipeline.assemble import AssembledPrompt, assemble_prompt
from pipeline.checkpoint import ConversationState, advanced, save_state
from pipeline.clock import utcnow
from pipeline.compaction import Compacted, compact_if_due
from pipeline.config import MAX_MESSAGE_CHARS
from pipeline.conversations.lifecycle import attach_turns
from pipeline.conversations.recall import classification_notes, record_references
from pipeline.domain import (
    ClassifiedIntent,
    HistoryTurn,
    MemoryNote,
    Reply,
    Role,
    RouteResult,
    Turn,
)
from pipeline.errors import AlreadyAnswered, ConverseError, InvalidMessage, ProviderError
from pipeline.extraction.trigger import turn_extraction
from pipeline.intents import HandlerContext, route
from pipeline.lexicon import Lexicon
from pipeline.links import carried_assertions, stated_before
from pipeline.memory.working import CHARS_PER_TOKEN
from pipeline.on_demand_recall import Recalled, recall_on_demand
from pipeline.prompting import PromptLibrary, default_library
from pipeline.providers.base import ClassifyRequest, Providers, Responder, RespondRequest
from pipeline.providers.replies import compose_reply
from pipeline.providers.summarize import ExtractiveSummarizer, Summarizer
from pipeline.settings import Settings, settings
from pipeline.store import Store, inbox
from pipeline.store.assertions import touch
from pipeline.store.erasure import link_turns
from pipeline.store.events import record_events
from pipeline.store.lifecycle import ACCESS_RESOLUTION
from pipeline.store.status import StatusNote
from pipeline.store.turns import NewTurn, add_turns, last_turn_ids
from pipeline.text import check_text
from pipeline.tools import Toolbox
from pipeline.turn_apply import apply_or_redecide
from pipeline.turn_events import turn_events
from pipeline.turn_load import Loaded, load_turn, resolve

COMPANION_NAME = "Sage"


@dataclass(frozen=True)
class TurnOutcome:
    """Everything one turn produced."""

    operator_turn: Turn
    companion_turn: Turn
    classified: ClassifiedIntent
    route: RouteResult
    prompt: AssembledPrompt
    reply: Reply
    personal_memory: str
    compacted: Compacted | None = None
    status_notes: tuple[StatusNote, ...] = ()  # the notes this turn wrote
    checkpoint: ConversationState | None = None  # the conversation's state after this turn
    recalled: Recalled | None = None  # what an on-demand recall added to the prompt, if it ran
    # the conversation memories and open threads the classifier was shown (`converse explain`)
    shown: tuple[MemoryNote, ...] = ()


def check_message(message: str) -> str:
    """The message, or an InvalidMessage naming what is wrong with it."""
    if not message or not message.strip():
        raise InvalidMessage("the message is empty", "type something to say")
    if len(message) > MAX_MESSAGE_CHARS:
        raise InvalidMessage(
            f"the message is {len(message):,} characters; the limit is {MAX_MESSAGE_CHARS:,}",
            "split it into shorter messages",
        )
    return check_text(message).strip()


def _respond(responder: Responder, request: RespondRequest) -> tuple[Reply, str | None]:
    try:
        return responder.respond(request), None
    except ProviderError as exc:
        fallback = Reply(text=compose_reply(request.route), provider="fallback")
        return fallback, exc.one_line()


def converse(
    store: Store,
    *,
    person: str,
    message: str,
    providers: Providers,
    project: str | None = None,
    library: PromptLibrary | None = None,
    channel: str = "cli",
    companion_name: str = COMPANION_NAME,
    now: datetime | None = None,
    answers: Sequence[int] = (),
    turn_settings: Settings | None = None,
) -> TurnOutcome:
    """Run one turn end to end and persist it; bad input raises before anything is stored.

    `providers` is the declared bundle (pipeline/providers/base.py, Providers), so chat, the
    turn queue, MCP and evals run the same pipeline: its classifier and responder, the
    embedder it lends for semantic forget and recall (None: keywords), the summarizer that
    writes compaction summaries (None: extractive, no model) and the structured generator
    multi-fact extraction asks (None: the sentence splitter). `answers` are the inbox
    messages this turn answers (pipeline/turn_queue.py): they are deleted in the transaction
    that stores the turn, and if another process answered them first, nothing of this turn is
    stored (AlreadyAnswered). `turn_settings` replaces the CONVERSE_* settings (an eval
    suite's own settings).
    """
    classifier, responder = providers.classifier, providers.responder
    embedder, summarizer = providers.embedder, providers.summarizer
    structured = providers.structured
    text = check_message(message)
    # a bad CONVERSE_* setting is refused before anything is stored
    turn_settings = turn_settings or settings()
    library = library or default_library()
    started = time.perf_counter()
    found_person, found_project = resolve(store, person, project)
    person_id = found_person.id
    with store.person_lock(person_id):
        moment = now or utcnow()
        loaded = load_turn(store, found_person, found_project, moment, turn_settings)
        project_name = loaded.project.name if loaded.project else None
        # What earlier, closed conversations left that bears on this message (spec 003).
        stop_words = providers.lexicon.stop_words
        shown = classification_notes(store, person_id, text, embedder, stop_words)
        classified = classifier.classify(
            ClassifyRequest(
                message=text, history=loaded.history, project_name=project_name, memories=shown
            )
        )
        prior = loaded.history[-1] if loaded.history else None
        prior_companion = prior if prior is not None and prior.role is Role.COMPANION else None
        engagement_id = loaded.project.id if loaded.project else None
        extraction = turn_extraction(
            store,
            person_id=person_id,
            operator_name=loaded.person.name,
            classified=classified,
            message=text,
            settings=turn_settings,
            library=library,
            generator=structured,
            lexicon=providers.lexicon,
            now=moment,
        )

        def decided(session: Session) -> tuple[HandlerContext, RouteResult]:
            ctx = HandlerContext(
                session=session,
                person=loaded.person,
                project=loaded.project,
                classified=classified,
                prior_companion=prior_companion,
                now=moment,
                embedder=embedder,
                message=text,
                candidates=extraction.candidates,
                max_new_facts=extraction.room,
                lexicon=providers.lexicon,
                history=loaded.history,
            )
            return ctx, route(ctx)

        # Decide once, reading: the reply is built from the decision, and its writes are
        # applied once, with both turns, in one transaction after the reply. A process killed
        # during the model call so leaves nothing half-stored, and no transaction is held open
        # across the call (docs/reliability.md, "Erasure and crashes"). The revisions were read
        # in _load, before this, so a write landing in between is caught when applying.
        with store.read(snapshot=False) as session:
            decision, result = decided(session)
        # An unsure classification looks the message up once; only what the prompt lacks is added.
        recalled = recall_on_demand(
            store,
            loaded.person,
            engagement_id,
            text,
            classified,
            embedder,
            turn_settings,
            shown_ids={*loaded.in_block, *(loaded.context.shown if loaded.context else ())},
            shown_texts=(
                loaded.personal_memory,
                loaded.summary,
                *loaded.notes,
                loaded.context.knowledge if loaded.context else "",
                loaded.session.context.profile,
                loaded.session.context.working_memory,
                str(result.operation_data),
            ),
            now=moment,
        )
        prompt = assemble_prompt(
            library,
            companion_name=companion_name,
            operator_name=loaded.person.name,
            engagement_context=loaded.context,
            route=result,
            personal_memory=loaded.personal_memory,
            has_project=loaded.project is not None,
            session_context=loaded.session.context,
            conversation_summary=loaded.summary,
            status_notes=loaded.notes,
            recalled=recalled.bullets if recalled else (),
        )
        tools = Toolbox(
            store,
            loaded.person,
            engagement_id,
            moment,
            history_turns=len(loaded.history),
            embedder=embedder,
            lexicon=providers.lexicon,
        )
        for status in classified.status:  # the reading's status reports, noted by the core
            tools.note(status.topic, status.noted)
        reply, reply_error = _respond(
            responder,
            RespondRequest(
                system=prompt,
                history=loaded.history,
                message=text,
                route=result,
                project_name=project_name,
                tools=tools,
            ),
        )
        with store.write() as session:
            if answers and inbox.answered(session, answers) != len(answers):
                raise AlreadyAnswered(
                    "another process answered this message first",
                    "nothing was stored twice; read the conversation with "
                    f"`converse conversation show --person {shlex.quote(person)}`",
                )
            stored, decision, redecided, seen_revision = apply_or_redecide(
                session, decided, decision, result, loaded.revisions, engagement_id
            )
            loaded.session.record(session, person_id, moment)
            stated = _stating_turns(session, stored, prior_companion, person_id, engagement_id)
            # Both turns, then the notes the reply wrote, which name the person's turn.
            operator_turn, companion_turn = add_turns(
                session,
                [
                    NewTurn(
                        person_id,
                        engagement_id,
                        Role.OPERATOR,
                        text,
                        classified.intent,
                        operation_data={"params": classified.params},
                        channel=channel,
                        meta=_classifier_meta(classified),
                    ),
                    NewTurn(
                        person_id,
                        engagement_id,
                        Role.COMPANION,
                        reply.text,
                        stored.intent,
                        operation_data=stored_data(stored),
                        prompt_refs=classified.prompt_refs + prompt.refs,
                        channel=channel,
                        meta={
                            "classifier": _classifier_meta(classified),
                            "responder": {
                                "provider": reply.provider,
                                "model": reply.model,
                                "usage": reply.usage.model_dump(),
                                "error": reply_error,
                                **({"truncated": True} if reply.truncated else {}),
                                **({"tools": tools.meta()} if tools.calls else {}),
                            },
                            **({"recall": recalled.meta()} if recalled else {}),
                            # Another process changed this person's memory during the model
                            # call, so the turn was decided again on what is stored now.
                            **({"redecided": True} if redecided else {}),
                            **({"extraction": found} if (found := extraction.meta()) else {}),
                            "elapsed_ms": round((time.perf_counter() - started) * 1000, 3),
                        },
                    ),
                ],
            )
            written = tools.persist(session, operator_turn.id, reply.provider)
            # Both turns belong to the person's open conversation (docs/conversations.md).
            attach_turns(session, person_id, [operator_turn.id, companion_turn.id], moment)
            record_references(session, operator_turn.id, shown, moment)
            carried = carried_assertions(
                session, stored, loaded.person.personal_engagement_id, engagement_id
            )
            link_turns(session, [*stated, operator_turn.id, companion_turn.id], carried)
            # What the prompt showed and what the turn recalled or matched was used: one
            # statement for all of them (the lifecycle sweep spares what is used), none when
            # all were marked within the resolution already (usually: what the last turn showed).
            touch(session, {*loaded.unmarked, *carried}, moment, ACCESS_RESOLUTION)
            done = turn_events(
                session,
                person_id=person_id,
                engagement_id=engagement_id,
                classified=classified,
                result=stored,
                reads=decision.reads,
            )
            record_events(session, done, moment)
            checkpoint = advanced(
                loaded.checkpoint,
                operator_turn_id=operator_turn.id,
                companion_turn_id=companion_turn.id,
                result=stored,
                events=done,
                history_after_turn_id=loaded.history_after,
                memory_revision=seen_revision,
                at=moment,
            )
            save_state(session, person_id, engagement_id, checkpoint)
        compacted = _compacted(
            store,
            loaded,
            (text, reply.text),
            companion_turn.id,
            summarizer,
            library,
            turn_settings,
            moment,
            providers.lexicon,
        )
    return TurnOutcome(
        operator_turn=operator_turn,
        companion_turn=companion_turn,
        classified=classified,
        route=stored,
        prompt=prompt,
        reply=reply,
        personal_memory=loaded.personal_memory,
        compacted=compacted,
        status_notes=tuple(written),
        checkpoint=checkpoint,
        recalled=recalled,
        shown=tuple(shown),
    )


def stored_data(result: RouteResult) -> dict[str, Any]:
    """What the companion turn keeps of the decision: the first act's operation data, and the
    later acts' under `also` (the next turns read what they left pending)."""
    if not result.also:
        return result.operation_data
    later = [{"intent": r.intent, **r.operation_data} for r in result.also]
    return {**result.operation_data, "also": later}


def _compacted(
    store: Store,
    loaded: Loaded,
    new: tuple[str, str],
    last_turn_id: int,
    summarizer: Summarizer | None,
    library: PromptLibrary,
    turn_settings: Settings,
    now: datetime,
    lexicon: Lexicon,
) -> Compacted | None:
    """Compact when the history, with this turn's two, passes the threshold. The size comes
    from the history already loaded, so a turn below it costs no query."""
    size = sum([len(t.content) for t in loaded.history]) + sum(map(len, new))
    if size / CHARS_PER_TOKEN <= turn_settings.compaction_threshold_tokens:
        return None
    try:
        return compact_if_due(
            store,
            person_id=loaded.person.id,
            engagement_id=loaded.project.id if loaded.project else None,
            last_turn_id=last_turn_id,
            summarizer=summarizer or ExtractiveSummarizer(),
            library=library,
            settings=turn_settings,
            now=now,
            lexicon=lexicon,
        )
    except ConverseError:
        # The turn is stored; the history stays whole and the next turn tries again (a
        # summarizer that failed, or an instructions file gone since the settings were read).
        return None


def _stating_turns(
    session: Session,
    stored: RouteResult,
    prior_companion: HistoryTurn | None,
    person_id: int,
    engagement_id: int | None,
) -> list[int]:
    """The earlier turns that first stated a fact this turn holds (a cross-promotion offer)."""
    if not stated_before(stored, prior_companion):
        return []
    return last_turn_ids(session, person_id, engagement_id, 2)


def _classifier_meta(classified: ClassifiedIntent) -> dict[str, Any]:
    return {
        "provider": classified.provider,
        "model": classified.model,
        "confidence": classified.confidence,
        "error": classified.error,
        "usage": classified.usage.model_dump(),
    }
