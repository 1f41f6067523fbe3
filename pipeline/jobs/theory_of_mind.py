"""The theory-of-mind job for one person (specification 004, "Theory of Mind"): at most one
pass per person in any 24 hours, in the background, never on a turn.

Input: the person's newest messages since the last pass (at most MAX_TURNS, cut to
SNIPPET_CHARS) and their newest personal facts since then (at most MAX_ITEMS). The provider's
model answers through the structured-generation protocol (strict answer, one retry, the error
recorded); every insight then goes through the writing-constraints validator (third person,
self-contained, at most 280 characters), and one that fails is rejected and counted, never
stored. Passing insights are stored committed in the `relationship_dynamic` category (found
only by a search, at most a few at a time: low retrieval weight), importance INSIGHT_IMPORTANCE,
not pinned. A provider without a model (`local`) writes none: there is no deterministic
stand-in for an insight, so the pass is not claimed and a model provider may run it later.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from pydantic import BaseModel, ConfigDict, Field

from pipeline.conversations.stages import Stage, ask
from pipeline.domain import ActorKind, HistoryActor, NormativeForce, Person
from pipeline.intents.facts import same_fact
from pipeline.jobs.claims import claimed
from pipeline.lexicon import Lexicon
from pipeline.memory.writing import check
from pipeline.prompting import PromptLibrary, fence
from pipeline.providers.structured import StructuredGenerator
from pipeline.store import Store
from pipeline.store.assertions import add_assertion, list_assertions
from pipeline.store.events import Event, Node, record_events
from pipeline.store.job_runs import DONE, finish, last_claimed
from pipeline.store.turns import operator_turns_since

JOB = "theory_of_mind"
CATEGORY = "relationship_dynamic"
EVERY = timedelta(hours=24)
MAX_TURNS = 5
MAX_ITEMS = 3
SNIPPET_CHARS = 1_000
INSIGHT_IMPORTANCE = 0.25  # low: the specification's default 2 of 1..5
MAX_TOKENS = 220


class Insight(BaseModel):
    """One insight as the model gives it; its text is checked by the writing rules after."""

    model_config = ConfigDict(extra="forbid")

    summary: str = Field(min_length=1, max_length=1_000)
    tags: list[str] = Field(default_factory=list, max_length=5)
    importance: int = Field(2, ge=1, le=5)


class InsightsAnswer(BaseModel):
    """Up to three insights; none when the activity shows nothing new."""

    model_config = ConfigDict(extra="forbid")

    insights: list[Insight] = Field(max_length=3)


INSIGHTS = Stage("insights", "theory_of_mind", InsightsAnswer, MAX_TOKENS)


@dataclass
class Reflected:
    """What one person's pass did; `skipped` says why nothing ran."""

    person: str
    skipped: str = ""
    written: int = 0
    rejected: int = 0
    problems: list[str] = field(default_factory=list)
    method: str = ""
    error: str | None = None


def _snippet(turns: list[tuple[datetime, str]]) -> str:
    lines: list[str] = []
    size = 0
    for _, text in reversed(turns):  # newest kept first when the budget runs out
        line = "- " + " ".join(text.split())
        if size + len(line) > SNIPPET_CHARS:
            line = line[: max(0, SNIPPET_CHARS - size)]
        if line:
            lines.append(line)
            size += len(line) + 1
        if size >= SNIPPET_CHARS:
            break
    return "\n".join(reversed(lines))


def reflect(
    store: Store,
    person: Person,
    *,
    now: datetime,
    library: PromptLibrary,
    generator: StructuredGenerator | None,
    lexicon: Lexicon,
) -> Reflected:
    """Run the person's pass if one is due and there is something new to read; insights are
    checked with the `lexicon` the provider bundle lends."""
    done = Reflected(person=person.name)
    if generator is None:
        done.skipped = "no model (the provider has no structured generation)"
        return done
    personal = person.personal_engagement_id
    with store.read() as session:
        last = last_claimed(session, JOB, person.id)
        if last is not None and now - last < EVERY:
            done.skipped = "a pass ran within 24 h"
            return done
        turns = operator_turns_since(session, person.id, last, MAX_TURNS)
        facts = (
            []
            if personal is None
            else list_assertions(session, personal, forces=[NormativeForce.COMMITTED])
        )
    existing = [f.content for f in facts if f.category == CATEGORY]
    new = [
        f.content for f in facts if f.category != CATEGORY and (last is None or f.created_at > last)
    ]
    new = new[:MAX_ITEMS]
    if (not turns and not new) or personal is None:
        done.skipped = "no new activity"
        return done
    with claimed(store, JOB, person.id, now) as run_id:
        if run_id is None:
            done.skipped = "claimed by another worker"
            return done
        _run(
            store,
            person,
            personal,
            run_id,
            done,
            now,
            library,
            generator,
            lexicon,
            turns,
            new,
            existing,
        )
    return done


def _run(
    store: Store,
    person: Person,
    personal: int,
    run_id: int,
    done: Reflected,
    now: datetime,
    library: PromptLibrary,
    generator: StructuredGenerator,
    lexicon: Lexicon,
    turns: list[tuple[datetime, str]],
    new: list[str],
    existing: list[str],
) -> None:
    user = (
        f"Latest messages, oldest first:\n{fence(_snippet(turns), 'messages')}\n\n"
        f"Newest remembered facts:\n{fence(json.dumps(new, ensure_ascii=False), 'facts')}\n\n"
        "Answer with the insights object."
    )
    answer, record = ask(generator, library, INSIGHTS, operator_name=person.name, user=user)
    done.method, done.error = record.method, record.error
    events: list[Event] = []
    with store.write() as session:
        for insight in answer.insights if answer else []:
            verdict = check(insight.summary, "third", lexicon=lexicon)
            if not verdict.passed or any(same_fact(verdict.text, e) for e in existing):
                done.rejected += 1
                done.problems.extend(verdict.problems or ("already stored",))
                events.append(Event(Node.WORKER, "insight", "rejected", person_id=person.id))
                continue
            stored = add_assertion(
                session,
                personal,
                verdict.text,
                ActorKind.COMPANION,
                NormativeForce.COMMITTED,
                now,
                by=HistoryActor.SYSTEM,
                importance=INSIGHT_IMPORTANCE,
                category=CATEGORY,
            )
            existing.append(verdict.text)
            done.written += 1
            events.append(
                Event(
                    Node.WORKER,
                    "insight",
                    "ok",
                    person_id=person.id,
                    memory_id=stored.id,
                    category=CATEGORY,
                )
            )
        if done.error:
            events.append(Event(Node.WORKER, "insight", "error", person_id=person.id))
        record_events(session, events, now)
        counts = {
            "written": done.written,
            "rejected": done.rejected,
            "errors": int(bool(done.error)),
        }
        finish(session, run_id, DONE, counts, now)
