"""The conversation target: whole conversations through converse() on a fresh store.

The answer is a transcript: per turn what was said, how it was classified and handled, the
reply, and the person's personal memory and the turn's project knowledge afterwards.
"""

from __future__ import annotations

import time
from typing import Any

from evals.dataset.conversation import (
    ConversationCase,
    EraseTurn,
    MessageTurn,
    WorkingMemorySeed,
    checked_settings,
)
from evals.dataset.load import SuiteError
from evals.runner.acts import acts_record
from evals.runner.outcome import NOW, Outcome
from evals.runner.providers import Bound
from evals.runner.sandbox import Sandbox
from pipeline.converse import TurnOutcome, converse
from pipeline.domain import Person, PromptRef, Usage
from pipeline.errors import ConverseError
from pipeline.memory import manage, working
from pipeline.providers.claude import cost, total_cost
from pipeline.settings import settings
from pipeline.store import Store, list_assertions, put_working_document
from pipeline.store.status import current_notes

Facts = list[dict[str, Any]]


def facts(store: Store, engagement_id: int) -> Facts:
    """Every assertion of an engagement by display number: number, state, content."""
    with store.read() as session:
        stored = list_assertions(session, engagement_id)
    return [
        {"number": a.display_number, "state": a.force.value, "content": a.content}
        for a in sorted(stored, key=lambda a: a.display_number)
    ]


def status_notes(store: Store, person_id: int) -> list[dict[str, str]]:
    """The person's current status notes, oldest first: topic and text."""
    with store.read() as session:
        notes = current_notes(session, person_id)
    return [{"topic": n.topic, "text": n.text} for n in reversed(notes)]


def erase_one(store: Store, person: Person, needle: str) -> dict[str, Any]:
    """Erase the one personal fact containing `needle`, as `converse memory erase` does."""
    with store.write() as session:
        stored = manage.personal_assertions(session, person, include_retracted=True)
        hits = sorted(
            (a for a in stored if needle.casefold() in a.content.casefold()),
            key=lambda a: a.display_number,
        )
        if len(hits) != 1:
            found = "; ".join(f"#{a.display_number} {a.content!r}" for a in hits)
            raise SuiteError(
                f"erase {needle!r} matches {len(hits)} personal facts"
                + (f" ({found})" if found else ""),
                "an erase turn names text found in exactly one personal fact",
            )
        (erased,) = manage.erase(session, person, [hits[0].display_number])
    return {"number": erased.display_number, "state": erased.force.value, "content": erased.content}


def _message_record(turn: MessageTurn, outcome: TurnOutcome) -> dict[str, Any]:
    return {
        "message": turn.message,
        "project": turn.project,
        # The intent the turn was served as (the handler that ran), which is what the person
        # experiences; the classifier's own answer is kept beside it.
        "intent": outcome.route.intent,
        "classified": outcome.classified.intent,
        "params": dict(outcome.classified.params),
        # every act the classifier read, for the reading's accuracy against a gold reading
        "acts": acts_record(outcome.classified),
        # the classifier's confidence in its reading (None when it gives none): calibration
        "confidence": outcome.classified.confidence,
        "action": outcome.route.operation_data.get("action"),
        "reply": outcome.reply.text,  # whole: reply checks read it
        # the eval store's ids of the two turns, and what the classifier was shown besides the
        # message (conversation memories and open threads): `converse explain`'s content
        "turn_ids": [outcome.operator_turn.id, outcome.companion_turn.id],
        "classifier_shown": [note.text for note in outcome.shown],
        # on-demand recall: None when it did not fire, else how it went and how long it took
        "recall": (
            {"status": outcome.recalled.status, "ms": outcome.recalled.latency_ms}
            if outcome.recalled
            else None
        ),
    }


def _turn_error(outcome: TurnOutcome) -> str | None:
    responder = outcome.companion_turn.meta.get("responder", {})
    return outcome.classified.error or responder.get("error")


def _failure(exc: Exception) -> str:
    text = exc.one_line() if isinstance(exc, ConverseError) else str(exc)
    return f"{type(exc).__name__}: {text}"


class _Conversation:
    """One case's run: its person, the projects' engagements, and what each turn left."""

    def __init__(self, case: ConversationCase, bound: Bound, sandbox: Sandbox) -> None:
        self.bound = bound
        self.store = sandbox.store
        self.person, self.projects = sandbox.seeded(
            case.memories, case.notes, case.projects, NOW, name=f"case-{case.id}"
        )
        assert self.person.personal_engagement_id is not None
        self.personal_id = self.person.personal_engagement_id
        self.refs: dict[tuple[str, str, str], PromptRef] = {}
        self.usage = Usage()
        self.costs: list[float | None] = []
        self.truncated = 0
        self.model = ""
        self.latency_ms = 0.0
        self.now = NOW
        # the case's settings over the environment's; None = the environment's, as chat runs
        self.settings = (
            settings().model_copy(update=checked_settings(case.settings)) if case.settings else None
        )

    def start(self) -> dict[str, Any]:
        """The seeded memory and knowledge, so the first turn's changes can be shown."""
        return {
            "memory": facts(self.store, self.personal_id),
            "notes": {name: facts(self.store, eid) for name, eid in self.projects.items()},
        }

    def seed_working_memory(self, seed: WorkingMemorySeed) -> None:
        """Store the case's working memory as compaction would have, before turn 1."""
        written = NOW - seed.age
        document = seed.document or working.document(
            seed.summary or "", written, seed.ttl_days, seed.budget_tokens
        )
        with self.store.write() as session:
            put_working_document(session, self.person.id, document, written)

    def message(self, index: int, turn: MessageTurn) -> tuple[dict[str, Any], str | None]:
        """Run one message turn; returns its record and the provider's error, if any."""
        assert self.bound.classifier is not None and self.bound.responder is not None
        self.now += turn.gap
        started = time.perf_counter()
        assert self.bound.providers is not None
        outcome = converse(
            self.store,
            person=self.person.name,
            message=turn.message,
            providers=self.bound.providers,  # the bundle chat and the turn queue run
            project=turn.project,
            library=self.bound.library,
            channel="eval",
            turn_settings=self.settings,
            # a minute apart unless `after` says otherwise, so "newest" and relative times
            # are the same on every run
            now=self.now,
        )
        self.latency_ms += (time.perf_counter() - started) * 1000
        for ref in outcome.classified.prompt_refs + outcome.prompt.refs:
            self.refs.setdefault((ref.family, ref.version, ref.sha256), ref)
        self.usage = self.usage + outcome.classified.usage + outcome.reply.usage
        self.costs += [
            cost(outcome.classified.model, outcome.classified.usage),
            cost(outcome.reply.model, outcome.reply.usage),
        ]
        self.truncated += outcome.reply.truncated
        self.model = self.model or outcome.classified.model or ""
        record = _message_record(turn, outcome)
        if turn.expect is not None and turn.expect.prompt is not None:
            record["prompt"] = outcome.prompt.text  # only when checked: prompts are long
        if turn.project is not None:
            record["notes"] = facts(self.store, self.projects[turn.project])
        status = status_notes(self.store, self.person.id)
        if status or (turn.expect is not None and turn.expect.status is not None):
            record["status"] = status
        return record, _turn_error(outcome)


def run_conversation(case: ConversationCase, bound: Bound, sandbox: Sandbox) -> Outcome:
    """Every turn in order; the first turn that raises or fails to answer ends the case."""
    run = _Conversation(case, bound, sandbox)
    if case.working_memory is not None:
        run.seed_working_memory(case.working_memory)
    start = run.start()
    transcript: list[dict[str, Any]] = []
    error: str | None = None
    for index, turn in enumerate(case.turns, start=1):
        said: dict[str, Any] = (
            {"erase": turn.erase} if isinstance(turn, EraseTurn) else {"message": turn.message}
        )
        try:
            if isinstance(turn, EraseTurn):
                record, failed = (
                    {**said, "erased": erase_one(run.store, run.person, turn.erase)},
                    None,
                )
            else:
                record, failed = run.message(index, turn)
        except Exception as exc:  # the case errors; the turns before it stay as evidence
            error = f"turn {index}: {_failure(exc)}"
            transcript.append({"turn": index, **said, "error": error})
            break
        transcript.append({"turn": index, **record, "memory": facts(run.store, run.personal_id)})
        if failed is not None:
            error = f"turn {index}: {failed}"
            transcript[-1]["error"] = error
            break
    return Outcome(
        got={"start": start, "turns": transcript},
        error=error,
        model=run.model or bound.model,
        prompt_refs=tuple(run.refs.values()),
        usage=run.usage,
        latency_ms=run.latency_ms,
        cassette=bound.cassette,
        truncated=run.truncated,
        cost_usd=total_cost(run.costs),
    )
