"""The compression pipeline: entities, narrative, state deltas and a routing suggestion for
one conversation. Each stage asks the provider's model (pipeline/conversations/stages.py)
and falls back to its deterministic version, labelled as such, when there is no model or
the model's answers were unusable. The embedding of the narrative is made at confirmation
(pipeline/conversations/review.py), when the narrative is final."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pipeline.conversation_models import (
    MAX_SENTENCES,
    YOUR_STORY,
    DeltasAnswer,
    Entities,
    Extraction,
    NarrativeAnswer,
    OpenItem,
    Resolution,
    RoutingAnswer,
    StageRecord,
)
from pipeline.conversations import fallback
from pipeline.conversations.stages import FALLBACK, Stage, ask
from pipeline.lexicon import Lexicon
from pipeline.memory.writing import Admitted, admit
from pipeline.prompting import PromptLibrary, fence
from pipeline.providers.structured import StructuredGenerator

ENTITIES = Stage("entities", "conversation_entities", Entities, 500)
NARRATIVE = Stage("narrative", "conversation_narrative", NarrativeAnswer, 200)
DELTAS = Stage("deltas", "conversation_deltas", DeltasAnswer, 250)
ROUTING = Stage("routing", "conversation_routing", RoutingAnswer, 150)
STAGES = (ENTITIES, NARRATIVE, DELTAS, ROUTING)

NARRATIVE_CHARS = 700  # NarrativeAnswer's bound
# The newest part of a long transcript: what fits a small model's context beside the prompt.
TRANSCRIPT_CHARS = 6_000


@dataclass(frozen=True)
class CompressionInput:
    """What the pipeline reads: the turns (role, content; oldest first), the open items of
    earlier memories, the destinations, and how many turns were in each project and outside
    any (the share of a project is of all the turns, so a project that held 30 of 114 turns
    does not read as 100%)."""

    operator_name: str
    turns: tuple[tuple[str, str], ...]
    open_items: tuple[OpenItem, ...] = ()
    destinations: tuple[str, ...] = (YOUR_STORY,)
    turns_by_project: tuple[tuple[str, int], ...] = ()
    turns_without_project: int = 0


def transcript_text(turns: Sequence[tuple[str, str]], operator_name: str) -> str:
    """The turns as lines, cut from the oldest end to TRANSCRIPT_CHARS."""
    lines = [
        f"{operator_name if role == 'operator' else 'Companion'}: {' '.join(content.split())}"
        for role, content in turns
    ]
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        if size + len(line) > TRANSCRIPT_CHARS:
            kept.append("(earlier turns left out)")
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join(reversed(kept))


def compress(
    data: CompressionInput,
    library: PromptLibrary,
    generator: StructuredGenerator | None,
    *,
    lexicon: Lexicon,
) -> Extraction:
    """Run the four stages; never raises for a model's bad answer (it is recorded). The
    narrative is checked with the `lexicon` the provider bundle lends."""
    name = data.operator_name
    transcript = fence(transcript_text(data.turns, name), "transcript")
    records: list[StageRecord] = []

    entities: Entities | None = None
    if generator is not None:
        entities, record = ask(
            generator,
            library,
            ENTITIES,
            operator_name=name,
            user=f"Transcript, oldest first:\n{transcript}\n\nAnswer with the entities object.",
        )
        records.append(record)
    if entities is None:
        entities = fallback.entities(data.turns)
        if generator is None:
            records.append(StageRecord(stage=ENTITIES.name, method=FALLBACK))
    found = fence(json.dumps(entities.model_dump(), ensure_ascii=False), "entities")

    narrative: str | None = None
    problems: tuple[str, ...] = ()
    if generator is not None:
        answer, record = ask(
            generator,
            library,
            NARRATIVE,
            operator_name=name,
            user=(
                f"Transcript, oldest first:\n{transcript}\n\nWhat it held:\n{found}\n\n"
                "Answer with the narrative object."
            ),
        )
        narrative = answer.narrative if answer else None
        if narrative is not None:
            checked = checked_narrative(narrative, lexicon)
            problems = checked.first.problems
            if checked.text is None:  # rejected: the deterministic narrative is used
                record = record.model_copy(
                    update={
                        "method": FALLBACK,
                        "error": f"{record.method} wrote a narrative that breaks the writing "
                        f"constraints ({'; '.join(problems)}); {FALLBACK} used instead",
                    }
                )
            narrative = checked.text
        records.append(record)
    if narrative is None:
        narrative = fallback.narrative(entities, data.turns, name)
        if generator is None:
            records.append(StageRecord(stage=NARRATIVE.name, method=FALLBACK))
        if not problems:  # counted, and kept: it is the last resort, and reviewed as a draft
            problems = checked_narrative(narrative, lexicon).first.problems

    resolved = _deltas(data, library, generator, entities, found, records)
    routing = _routing(data, library, generator, narrative, found, records)
    return Extraction(
        entities=entities,
        narrative=narrative,
        resolved=tuple(resolved),
        routing=routing,
        stages=tuple(records),
        narrative_problems=problems,
    )


def checked_narrative(text: str, lexicon: Lexicon) -> Admitted:
    """A narrative through the writing constraints, read with `lexicon`: third person,
    self-contained, no word of the model about itself, within the narrative's own bounds
    (2–4 sentences, 700 characters, which the narrative stage's answer model already holds a
    model to)."""
    return admit(
        text, "third", lexicon=lexicon, max_chars=NARRATIVE_CHARS, max_sentences=MAX_SENTENCES
    )


def _deltas(
    data: CompressionInput,
    library: PromptLibrary,
    generator: StructuredGenerator | None,
    entities: Entities,
    found: str,
    records: list[StageRecord],
) -> list[Resolution]:
    if not data.open_items:
        records.append(StageRecord(stage=DELTAS.name, method="nothing open (no call)"))
        return []
    ids = {item.id for item in data.open_items}

    def known_ids(answer: DeltasAnswer) -> None:
        unknown = sorted({r.entity_id for r in answer.resolved} - ids)
        if unknown:
            raise ValueError(f"resolved ids not in the open list: {unknown}")

    if generator is not None:
        open_list = "\n".join(f"#{i.id} [{i.kind}] {i.text}" for i in data.open_items)
        answer, record = ask(
            generator,
            library,
            DELTAS,
            operator_name=data.operator_name,
            user=(
                f"Open items from earlier conversations:\n{fence(open_list, 'open_items')}\n\n"
                f"What this conversation held:\n{found}\n\nAnswer with the resolved object."
            ),
            check=known_ids,
            schema=_only_ids(sorted(ids)),
        )
        records.append(record)
        if answer is not None:
            return list(answer.resolved)
    else:
        records.append(StageRecord(stage=DELTAS.name, method=FALLBACK))
    return fallback.resolutions(data.open_items, entities)


def _routing(
    data: CompressionInput,
    library: PromptLibrary,
    generator: StructuredGenerator | None,
    narrative: str,
    found: str,
    records: list[StageRecord],
) -> RoutingAnswer:
    by_project = dict(data.turns_by_project)
    if len(data.destinations) == 1:
        records.append(StageRecord(stage=ROUTING.name, method="one destination (no call)"))
        return RoutingAnswer(
            destination=data.destinations[0],
            confidence=1.0,
            reasoning=f"{data.destinations[0]} is the only destination",
        )
    exact = {d.casefold(): d for d in data.destinations}

    def listed(answer: RoutingAnswer) -> None:
        if answer.destination.strip().casefold() not in exact:
            raise ValueError(f"destination {answer.destination!r} is not in the list")

    if generator is not None:
        where = "\n".join(f"- {d}" for d in data.destinations)
        counted = [*data.turns_by_project, ("no project", data.turns_without_project)]
        shares = ", ".join(f"{n}: {c}" for n, c in counted if c) or "none"
        answer, record = ask(
            generator,
            library,
            ROUTING,
            operator_name=data.operator_name,
            user=(
                f"Destinations:\n{fence(where, 'destinations')}\n\n"
                f"Turns per project: {shares}\n\n"
                f"The memory:\n{fence(narrative, 'narrative')}\n\nWhat it holds:\n{found}\n\n"
                "Answer with the routing object."
            ),
            check=listed,
            schema=_only_destinations(data.destinations),
        )
        records.append(record)
        if answer is not None:
            return answer.model_copy(
                update={"destination": exact[answer.destination.strip().casefold()]}
            )
    else:
        records.append(StageRecord(stage=ROUTING.name, method=FALLBACK))
    return fallback.routing(
        data.destinations, by_project, narrative, without_project=data.turns_without_project
    )


def _only_ids(ids: list[int]) -> dict[str, Any]:
    """The deltas schema whose entity ids are the open items' (a grammar-held model cannot
    name another)."""
    schema = DeltasAnswer.model_json_schema()
    schema["$defs"]["Resolution"]["properties"]["entity_id"]["enum"] = ids
    return schema


def _only_destinations(names: Sequence[str]) -> dict[str, Any]:
    """The routing schema whose destination is one of the listed names."""
    schema = RoutingAnswer.model_json_schema()
    schema["properties"]["destination"] = {"type": "string", "enum": list(names)}
    return schema
